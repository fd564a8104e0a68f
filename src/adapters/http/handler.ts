import type { DnsService } from '../../dns/service.js';
import type { QuotaService } from '../../project-quotas/index.js';
import type { ApiError } from '../../kernel/api-error.js';
import type { RequestContext } from '../../kernel/context.js';
import { uuidV4Source } from '../../kernel/uuid.js';
import { dnsFace, dnsRoutes, dnsVersions } from './dns-routes.js';
import { authenticationFailed, handlerDefect, methodNotAllowed, notFound, pathNotUtf8 } from './http-errors.js';
import { quotaFace, quotaRoutes, quotaVersions } from './quota-routes.js';
import { errorResponse, jsonResponse, type Answering } from './responses.js';
import { compileRoutes, type Routed, type Router } from './router.js';
import type { Action, Exchange, ServiceFace } from './routes.js';
import { callerIn, routedTo, type Dialect, type HeaderRecord, type TrustedReader } from './trusted-headers.js';

/**
 * Options of {@link createHttpHandler}.
 *
 * @category HTTP
 */
export interface HttpHandlerOptions {
  /** The DNS service, served under `/v2`, with its versions document at `/`. */
  readonly dns?: DnsService;
  /** The quota service, served under `/v1` (`/v1/quotas`, `/v1/project-quotas`). */
  readonly quotas?: QuotaService;
  /**
   * Who is calling. Required: there is no default that trusts headers. {@link trustedHeaders}
   * reads them as the real services' no-auth middleware does, for test doubles. A throw or a
   * rejection is answered 401 `authentication_required`.
   */
  readonly authenticate: (request: Request) => RequestContext | Promise<RequestContext>;
  /**
   * The path prefix the handler is mounted under (`/dns` serves `/dns/v2/zones`), as the request
   * URL shows it (percent-encoded where a character is not allowed in a URL path). Links in
   * answers keep it. Requests outside it are answered 404.
   * @defaultValue ''
   */
  readonly basePath?: string;
  /**
   * Largest request body read, in bytes; a longer one is answered 413 without being read to its
   * end. The quota service reads at most 25,000 bytes whatever this says, as the real one does.
   * @defaultValue 32 MiB (twice an import's default limit, so the import itself reports its limit)
   */
  readonly maxBodyBytes?: number;
}

/**
 * A WHATWG `Request → Response` function; it never rejects.
 *
 * @category HTTP
 */
export type HttpHandler = (request: Request) => Promise<Response>;

/**
 * A handler's entry for a server that parsed the request itself (`toNodeListener`): the method
 * and target as the server read them, the `Host`-derived `prefix` (`http://host`), its parsed
 * headers. `request` is the same request as a `Request`, for what the entry does not take from
 * them. `done` gets the answer, at once when nothing waits; it is never skipped.
 * @internal
 */
export type ParsedEntry = (request: Request, method: string, prefix: string, target: string, headers: HeaderRecord, done: (response: Response) => void) => void;

/** Where a handler made by {@link createHttpHandler} keeps its {@link ParsedEntry}. @internal */
export const parsedEntry = Symbol('zoneward.parsedEntry');

const DEFAULT_MAX_BODY = 32 * 1024 * 1024;
const VIEW_CACHE_SIZE = 32;

/**
 * Creates the HTTP front of both services: a function from a WHATWG `Request` to a `Response`,
 * answering as the real services answer on the wire (statuses, `Location`, content types, error
 * bodies, `x-openstack-request-id`, 404/405, query strings, links at the origin the client used).
 * It opens no socket: a server or a request interceptor hands it requests.
 *
 * The handler only parses requests, calls the services' public commands and renders their
 * results; every rule lives in the commands.
 *
 * @param options - the services to serve, how to authenticate callers, a mount prefix
 * @returns the handler; it never rejects, whatever the request
 * @throws TypeError - when `authenticate` is not a function (a programming error)
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createDnsService } from 'zoneward';
 * import { createHttpHandler, trustedHeaders } from 'zoneward/http';
 *
 * const handle = createHttpHandler({ dns: createDnsService(), authenticate: trustedHeaders() });
 * const response = await handle(new Request('http://localhost/v2/zones', { headers: { 'X-Roles': 'member' } }));
 * ```
 * @category HTTP
 */
export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  if (typeof options?.authenticate !== 'function') {
    throw new TypeError('createHttpHandler: `authenticate` is required (trustedHeaders() reads the no-auth headers of the real services)');
  }
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/')) throw new TypeError('createHttpHandler: `basePath` must start with /');
  // As the request URL shows it: a raw target is ASCII, and links carrying it go to headers unchecked.
  if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/.test(basePath)) {
    throw new TypeError('createHttpHandler: `basePath` must be a URL path as requests show it (ASCII, anything else percent-encoded)');
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const { dns, quotas, authenticate } = options;
  const fallbackDialect: Dialect = dns === undefined && quotas !== undefined ? 'quota' : 'dns';

  const mounts: Mount[] = [];
  if (dns !== undefined) {
    const face = dnsFace(dns, viewCache(dns));
    mounts.push({ prefix: '/v2', dialect: 'dns', face, router: compileRoutes(dnsRoutes(face)) });
  }
  if (quotas !== undefined) {
    const face = quotaFace(viewCache(quotas));
    mounts.push({ prefix: '/v1', dialect: 'quota', face, router: compileRoutes(quotaRoutes(face)) });
  }

  // The default id source's generator: a pool of random bytes, each id a flat string (node's
  // `randomUUID` answers a tree of twenty pieces, flattened again when the header is written).
  const uuid = uuidV4Source((bytes) => globalThis.crypto.getRandomValues(bytes));
  const newRequestId = (): string => `req-${uuid()}`;
  const origins = new Map<string, string>();
  const bases = new Map<string, string>();
  // Synchronous up to the action: a request waits only where something it needs is a promise.
  const route = (request: Request, requestId: string, url: Target, method: string, headers: HeaderRecord | undefined): Response | Promise<Response> => {
    let path = url.pathname;
    let base = bases.get(url.origin);
    if (base === undefined) {
      base = `${url.origin}${basePath}`;
      setBounded(bases, url.origin, base);
    }
    const inside = basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
    if (!inside) return errorResponse({ requestId, dialect: fallbackDialect }, notFound(fallbackDialect));
    path = path.slice(basePath.length);

    let mount = mountOf(mounts, path);
    if (mount === undefined && path.replace(/\/+$/, '') === '') {
      const x: Answering = { requestId, dialect: fallbackDialect };
      if (method !== 'GET' && method !== 'HEAD') return errorResponse(x, methodNotAllowed(x.dialect), { allow: 'GET' });
      return fallbackDialect === 'dns' ? jsonResponse(x, 200, dnsVersions(base)) : jsonResponse(x, 300, quotaVersions(base));
    }
    let routed: Routed<Action> = NOT_ROUTED;
    let undecodable = false;
    if (mount !== undefined) {
      const below = path.slice(mount.prefix.length);
      const parts = segments(below);
      // Most paths hold no percent-encoding: one test for the whole path, none a segment.
      if (below.includes('%')) undecodable = decodeSegments(parts);
      routed = mount.router(method, parts);
    } else mount = mounts.find((m) => m.dialect === fallbackDialect);
    const x = new RequestExchange(request, requestId, mount?.dialect ?? fallbackDialect, base, url.search, maxBodyBytes, authenticate, headers);
    if (routed.kind === 'action' && mount!.face.screen === undefined && !undecodable) return routed.action(x, routed.params);
    return settle(x, mount, routed, undecodable, method);
  };

  // Only a bug of ours or a failing Request getter gets here: answer it, never reject.
  const defect = (request: Request, requestId: string, cause: unknown): Response => {
    const dialect = routedTo.get(request) ?? dialectOf(request);
    return errorResponse({ requestId, dialect }, handlerDefect(dialect, cause));
  };
  // The mount's dialect, for a defect of a request whose caller was read without `routedTo`.
  const dialectOf = (request: Request): Dialect => {
    try {
      const path = parseTarget(request.url, origins).pathname;
      return mountOf(mounts, path.startsWith(basePath) ? path.slice(basePath.length) : path)?.dialect ?? fallbackDialect;
    } catch {
      return fallbackDialect;
    }
  };
  const handle: HttpHandler = (request) => {
    const requestId = newRequestId();
    try {
      const answer = route(request, requestId, parseTarget(request.url, origins), request.method.toUpperCase(), undefined);
      return answer instanceof Promise ? answer.catch((cause: unknown) => defect(request, requestId, cause)) : Promise.resolve(answer);
    } catch (cause) {
      return Promise.resolve(defect(request, requestId, cause));
    }
  };
  // The same answers without reading back what the server parsed, and with no promise of its own.
  const entry: ParsedEntry = (request, method, prefix, target, headers, done) => {
    const requestId = newRequestId();
    let answer: Response | Promise<Response>;
    try {
      // node:http's parser takes only upper-case method names: no `toUpperCase` to make.
      answer = route(request, requestId, plainTarget(prefix, target, origins) ?? parseTarget(request.url, origins), method, headers);
    } catch (cause) {
      done(defect(request, requestId, cause));
      return;
    }
    if (answer instanceof Promise) answer.then(done, (cause: unknown) => done(defect(request, requestId, cause)));
    else done(answer);
  };
  return Object.assign(handle, { [parsedEntry]: entry });
}

const NOT_ROUTED: Routed<Action> = { kind: 'not_found' };

/** The mount a path below the base path is under. */
function mountOf(mounts: readonly Mount[], path: string): Mount | undefined {
  for (const m of mounts) if (path.startsWith(m.prefix) && (path.length === m.prefix.length || path.charCodeAt(m.prefix.length) === 0x2f)) return m;
  return undefined;
}

/** Everything but a plain routed command: the service's screen and gate, 404 and 405. */
async function settle(x: Exchange, mount: Mount | undefined, routed: Routed<Action>, undecodable: boolean, method: string): Promise<Response> {
  if (routed.kind !== 'not_found') {
    const screened = await mount?.face.screen?.(x);
    if (screened !== undefined) return errorResponse(x, screened);
    // A quota path parameter that is not UTF-8 names no project (the real service fails with a bare 500).
    if (undecodable && x.dialect === 'quota') return errorResponse(x, pathNotUtf8(x.dialect));
  }
  if (routed.kind === 'action') return routed.action(x, routed.params);
  const refused = await mount?.face.gate?.(x);
  if (refused !== undefined) return errorResponse(x, refused);
  if (routed.kind === 'not_found') return notFoundResponse(x, method);
  return errorResponse(x, methodNotAllowed(x.dialect), x.dialect === 'quota' ? { allow: routed.allow } : undefined);
}

/** One request, once routed: what its route's line reads of it. */
class RequestExchange implements Exchange {
  #query: URLSearchParams | undefined;
  // Once per request, however many steps ask: `authenticate` may be a costly token check.
  #caller: RequestContext | ApiError | Promise<RequestContext | ApiError> | undefined;
  constructor(
    readonly request: Request,
    readonly requestId: string,
    readonly dialect: Dialect,
    readonly base: string,
    readonly search: string,
    readonly maxBodyBytes: number,
    private readonly authenticate: HttpHandlerOptions['authenticate'] & TrustedReader,
    private readonly headers: HeaderRecord | undefined,
  ) {}
  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.search));
  }
  caller(): RequestContext | ApiError | Promise<RequestContext | ApiError> {
    return (this.#caller ??= authenticateOnce(this.authenticate, this.request, this.headers, this.dialect));
  }
}

/** One service under its version prefix. */
interface Mount {
  readonly prefix: string;
  readonly dialect: Dialect;
  // The face's service type does not matter here: only its gate is called.
  readonly face: ServiceFace<unknown>;
  readonly router: Router<Action>;
}

/** The caller, or the 401 when `authenticate` throws, rejects or answers no object; sync when it is. */
function authenticateOnce(
  authenticate: HttpHandlerOptions['authenticate'] & TrustedReader,
  request: Request,
  headers: HeaderRecord | undefined,
  dialect: Dialect,
): RequestContext | ApiError | Promise<RequestContext | ApiError> {
  let ctx: RequestContext | Promise<RequestContext>;
  try {
    const reader = authenticate[callerIn];
    if (reader !== undefined) ctx = reader(request, headers, dialect);
    else {
      routedTo.set(request, dialect);
      ctx = authenticate(request);
    }
  } catch {
    return authenticationFailed(dialect);
  }
  if (isThenable(ctx)) {
    return Promise.resolve(ctx).then(
      (c) => callerOr401(c, dialect),
      () => authenticationFailed(dialect),
    );
  }
  return callerOr401(ctx, dialect);
}

const callerOr401 = (ctx: RequestContext, dialect: Dialect): RequestContext | ApiError =>
  ctx === null || typeof ctx !== 'object' ? authenticationFailed(dialect) : ctx;
const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** The quota service's router describes a GET it cannot route with `""`, any other method with `null`. */
function notFoundResponse(x: Answering, method: string): Response {
  if (x.dialect === 'quota' && method !== 'GET') return jsonResponse(x, 404, { code: 404, title: 'Not Found', description: null });
  return errorResponse(x, notFound(x.dialect));
}

/** Splits a path below the service prefix into its segments as sent, trailing slashes dropped. */
function segments(path: string): string[] {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return end === 0 ? [] : path.slice(1, end).split('/');
}

/**
 * Decodes each segment's percent-encoding in place. One that is not UTF-8 stays as sent, and the
 * answer says so (`true`).
 */
function decodeSegments(parts: string[]): boolean {
  let undecodable = false;
  for (let i = 0; i < parts.length; i++) {
    const s = parts[i]!;
    if (!s.includes('%')) continue;
    try {
      parts[i] = decodeURIComponent(s);
    } catch {
      undecodable = true;
    }
  }
  return undecodable;
}

/** What the handler reads of a request URL: `URL`'s origin, pathname and search (without `?`). @internal */
export interface Target {
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
}

// A URL made only of these parses to itself (no percent-encoding added, not even the query's
// apostrophe; no backslash, fragment or userinfo), so WHATWG's parser is needed only for its
// origin, once per origin.
const PLAIN_ORIGIN = /^https?:\/\/[A-Za-z0-9.:[\]-]+$/;
const PLAIN_REST = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*$/;
const DOT_SEGMENT = /\/\.|%2e/i;

/** `new URL(url)`'s origin, pathname and search, without the parser for a plain URL. @internal */
export function parseTarget(url: string, origins: Map<string, string>): Target {
  const scheme = url.indexOf('://');
  const slash = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
  const plain = slash > 0 ? plainTarget(url.slice(0, slash), url.slice(slash), origins) : undefined;
  if (plain !== undefined) return plain;
  const parsed = new URL(url);
  return { origin: parsed.origin, pathname: parsed.pathname, search: parsed.search.slice(1) };
}

/** {@link parseTarget} of `prefix + rest` when that is a plain URL (`rest` its path and query), else `undefined`. */
function plainTarget(prefix: string, rest: string, origins: Map<string, string>): Target | undefined {
  const q = rest.indexOf('?');
  const pathname = q < 0 ? rest : rest.slice(0, q);
  // Only plain origins are cached: one found there needs no test.
  let origin = origins.get(prefix);
  if ((origin === undefined && !PLAIN_ORIGIN.test(prefix)) || !PLAIN_REST.test(rest) || DOT_SEGMENT.test(pathname)) return undefined;
  if (origin === undefined) {
    origin = new URL(prefix).origin;
    setBounded(origins, prefix, origin);
  }
  return { origin, pathname, search: q < 0 ? '' : rest.slice(q + 1) };
}

/**
 * Sets `key` in a cache keyed by what requests send (their `Host`, mostly), dropping the oldest
 * entry once it holds 32: a client sending a new one each time must not grow memory.
 * @internal
 */
export function setBounded<K, V>(cache: Map<K, V>, key: K, value: V): void {
  if (cache.size >= VIEW_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}

/**
 * Per-origin views of a service (links at the origin each client used). Bounded, because the
 * origin comes from the request: a client sending a new Host each time must not grow memory.
 */
function viewCache<S extends { withBaseUrl(base: string): S }>(service: S): (base: string) => S {
  const views = new Map<string, S>();
  return (base) => {
    let view = views.get(base);
    if (view === undefined) {
      view = service.withBaseUrl(base);
      setBounded(views, base, view);
    }
    return view;
  };
}
