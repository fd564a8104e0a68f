/**
 * The router: a route table (`'METHOD /path/{param}'` → what answers it) compiled to a tree of
 * path segments where a static segment wins over a parameter at every level, so the order of a
 * table's lines never matters.
 * @module
 */

/** A path the real router knows but has no handler for: answered 404 as an unknown path. @internal */
export const NOT_FOUND = Symbol('not found');
/** A method the real router takes for one it has no handler for: answered 405. @internal */
export const NOT_ALLOWED = Symbol('not allowed');
type Refusal = typeof NOT_FOUND | typeof NOT_ALLOWED;

/**
 * One service's routes. A key is a method (or `*`: every method the path has no line for) and a
 * path below the service's prefix, `{name}` for a parameter: `'GET /zones/{id}'`. A path with
 * lines for some methods answers the others 405; a path with none, 404.
 * @internal
 */
export type RouteTable<A> = Readonly<Record<string, A | Refusal>>;

interface Node<A> {
  readonly statics: Map<string, Node<A>>;
  param?: Node<A>;
  /** Set where a route ends. */
  methods?: Map<string, A | Refusal>;
  /** The methods a route has lines for, as `Allow` lists them; set once the table is compiled. */
  allow?: string;
}

/** Where a request ends up. @internal */
export type Routed<A> =
  | { readonly kind: 'action'; readonly action: A; readonly params: readonly string[] }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'not_allowed'; readonly allow: string };

/** A compiled table: finds what answers a method on a path's segments. @internal */
export type Router<A> = (method: string, parts: readonly string[]) => Routed<A>;

const newNode = <A>(): Node<A> => ({ statics: new Map() });

/** Compiles a table; a malformed key is a programming error. @internal */
export function compileRoutes<A>(table: RouteTable<A>): Router<A> {
  const root = newNode<A>();
  for (const [key, target] of Object.entries(table)) {
    const space = key.indexOf(' ');
    const method = key.slice(0, space);
    const path = key.slice(space + 1);
    if (space < 1 || !path.startsWith('/')) throw new TypeError(`route ${key}: expected 'METHOD /path'`);
    let node = root;
    for (const segment of path.split('/').filter((s) => s !== '')) {
      if (segment.startsWith('{') && segment.endsWith('}')) node = node.param ??= newNode();
      else {
        let next = node.statics.get(segment);
        if (next === undefined) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    (node.methods ??= new Map()).set(method, target);
  }
  settle(root);
  const notFound: Routed<A> = { kind: 'not_found' };
  return (method, parts) => {
    const params: string[] = [];
    const node = find(root, parts, 0, params);
    if (node?.methods === undefined) return notFound;
    const target = node.methods.get(method) ?? node.methods.get('*');
    if (target === NOT_FOUND) return notFound;
    if (target === NOT_ALLOWED || (target === undefined && node.allow !== '')) return { kind: 'not_allowed', allow: node.allow! };
    if (target === undefined) return notFound;
    return { kind: 'action', action: target, params };
  };
}

/** Computes each route's `Allow` list once, rather than on every request. */
function settle<A>(node: Node<A>): void {
  if (node.methods !== undefined) {
    node.allow = [...node.methods]
      .filter(([m, t]) => m !== '*' && typeof t !== 'symbol')
      .map(([m]) => m)
      .sort()
      .join(', ');
  }
  for (const next of node.statics.values()) settle(next);
  if (node.param !== undefined) settle(node.param);
}

/** The node a path ends at, static segments first; `params` holds the parameters on the way. */
function find<A>(node: Node<A>, parts: readonly string[], at: number, params: string[]): Node<A> | undefined {
  if (at === parts.length) return node.methods === undefined ? undefined : node;
  const part = parts[at]!;
  const exact = node.statics.get(part);
  if (exact !== undefined) {
    const found = find(exact, parts, at + 1, params);
    if (found !== undefined) return found;
  }
  if (node.param === undefined) return undefined;
  params.push(part);
  const found = find(node.param, parts, at + 1, params);
  if (found === undefined) params.pop();
  return found;
}
