import { err, ok, type Result } from 'neverthrow';
import type { StorageTransaction } from '../ports/storage.js';
import type { ApiError } from './api-error.js';
import {
  invalidFilters,
  invalidLimit,
  invalidMarker,
  invalidSortDir,
  invalidSortKey,
  listParameterNotClean,
  listParameterNotText,
  listParametersNotAnObject,
  markerNotFound,
} from './errors.js';
import { compileGlob } from './glob.js';
import { checked, type Collection } from './stored.js';
import { isUuidLike } from './uuid.js';
import { isCleanText } from './validation.js';

/**
 * Raw list parameters, as a server receives them in a query string (values are usually strings).
 *
 * @category Zones
 */
export type ListQuery = Readonly<Record<string, string | number | undefined>>;

/** A value a filter or sort key reads off an entity. @internal */
export type FieldValue = string | number | null;

/**
 * How one collection is listed: its filters, sort keys and the index that serves the default
 * order (created_at, id) without reading the whole scope.
 * @internal
 */
export interface ListSpec<E> {
  /** Path of the collection below the base URL, e.g. `/v2/zones`. */
  readonly path: string;
  /** Envelope key, e.g. `zones`. */
  readonly envelope: string;
  /** A filter reading several values (a recordset's records) matches when one of them does. */
  readonly filters: Readonly<Record<string, (e: E) => FieldValue | readonly FieldValue[]>>;
  readonly sortKeys: Readonly<Record<string, (e: E) => FieldValue>>;
  /** Whether the envelope carries `metadata.total_count`. */
  readonly metadata: boolean;
  readonly present: (e: E) => object;
}

/** Where the listed entities live: an index ordered by (created_at, id) within a key prefix. @internal */
export interface ListScope<E> {
  /** The stored collection, whose check every value read passes. */
  readonly collection: Collection<E>;
  readonly index: string;
  readonly prefix: string;
  /** The key `e` has (or would have) in `index` under this scope's prefix: used to seek to a marker. */
  readonly keyOf: (e: E) => string;
  /** Extra condition for entities the index holds but the caller may not see. */
  readonly visible?: (e: E) => boolean;
}

/** The parsed, validated list parameters. @internal */
export interface ParsedListQuery {
  readonly limit: number;
  readonly marker: string | undefined;
  readonly sortKey: string;
  readonly sortDir: 'asc' | 'desc';
  readonly filters: readonly { readonly name: string; readonly value: string }[];
  /** Parameters echoed into links, in request order, without the consumed flags. */
  readonly echoed: readonly (readonly [string, string])[];
}

const DEFAULT_LIMIT = 20;
/** The largest `limit` a list answers (the real service's `max_limit_v2`). @internal */
export const MAX_LIMIT = 1000;
const CONSUMED = new Set(['all_projects', 'all_tenants', 'edit_managed_records']);
const TRUE_STRINGS = new Set(['true', '1', 'yes', 'on', 'y', 't']);

/** `all_projects`/`all_tenants` in the query string, read as the real service reads them. @internal */
export function queryAllProjects(query: unknown): boolean {
  if (query === null || typeof query !== 'object') return false;
  const q = query as Record<string, unknown>;
  const value = q['all_projects'] ?? q['all_tenants'];
  return (typeof value === 'string' || typeof value === 'boolean') && TRUE_STRINGS.has(String(value).toLowerCase());
}

/**
 * Validates `limit`, `marker`, `sort_key`, `sort_dir` and the filters with the real service's
 * errors, in its order.
 * @internal
 */
export function parseListQuery<E>(spec: ListSpec<E>, query: unknown, allProjects: boolean): Result<ParsedListQuery, ApiError> {
  if (query !== undefined && query !== null && (typeof query !== 'object' || Array.isArray(query))) {
    return err(listParametersNotAnObject());
  }
  const echoed: (readonly [string, string])[] = [];
  const values = new Map<string, string>();
  for (const [name, raw] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (raw === undefined || CONSUMED.has(name)) continue;
    if (typeof raw !== 'string' && typeof raw !== 'number') {
      return err(listParameterNotText(name));
    }
    const value = String(raw);
    if (!isCleanText(name) || !isCleanText(value)) {
      return err(listParameterNotClean());
    }
    values.set(name, value);
    echoed.push([name, value]);
  }

  let limit = DEFAULT_LIMIT;
  const rawLimit = values.get('limit');
  if (rawLimit !== undefined) {
    if (rawLimit.toLowerCase() === 'max') limit = MAX_LIMIT;
    else {
      const n = /^\s*\+?\d+\s*$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
      if (!Number.isSafeInteger(n) || n < 1) {
        return err(invalidLimit(MAX_LIMIT));
      }
      limit = n;
    }
  }

  const sortDir = values.get('sort_dir') ?? 'asc';
  if (sortDir !== 'asc' && sortDir !== 'desc') {
    return err(invalidSortDir());
  }

  const keys = Object.keys(spec.sortKeys);
  let sortKey = values.get('sort_key') ?? 'created_at';
  if (!keys.includes(sortKey)) {
    return err(invalidSortKey(keys));
  }
  if (sortKey === 'tenant_id' && !allProjects) sortKey = 'created_at';

  const filters: { name: string; value: string }[] = [];
  const invalid: string[] = [];
  for (const [name, value] of values) {
    if (name === 'marker' || name === 'limit' || name === 'sort_key' || name === 'sort_dir') continue;
    if (Object.hasOwn(spec.filters, name)) filters.push({ name, value });
    else invalid.push(name);
  }
  if (invalid.length > 0) return err(invalidFilters(invalid));

  // The real service looks at the marker last, when it pages the query.
  const rawMarker = values.get('marker');
  if (rawMarker !== undefined && !isUuidLike(rawMarker)) {
    return err(invalidMarker());
  }

  return ok({ limit, marker: rawMarker, sortKey, sortDir, filters, echoed });
}

type Predicate = (v: FieldValue) => boolean;

/** Whether a filter's value (or one of its values) passes its predicate. */
const passes = (test: Predicate, v: FieldValue | readonly FieldValue[]): boolean => (Array.isArray(v) ? v.some(test) : test(v as FieldValue));

const fold = (v: string | number): string => String(v).toLowerCase();

/**
 * Orders two field values as the production database does: nulls first, numbers by value, text
 * without regard to case (MySQL's default collation, which equality filters follow too), so
 * `sort_key=name` puts `b.` between `A.` and `C.`, and `name=<b` does not list `Z.`.
 * @internal
 */
export function compareValues(a: FieldValue, b: FieldValue): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = fold(a);
  const sb = fold(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The operand of a comparison filter, numeric where the field is. */
const operand = (sample: FieldValue, text: string): FieldValue =>
  typeof sample === 'number' && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

/**
 * A filter value as the real service's storage reads it: `*` wildcards (the API turns them into
 * `%` and the storage hands any value holding a `%` to SQL LIKE, so `%` is a wildcard too, and `_`
 * matches one character), a leading `!` for "not equal", `<`, `<=`, `>`, `>=`, `BETWEEN a,b`,
 * else equality. String comparisons ignore case, like the production database's default collation.
 */
function compileFilter(value: string): Predicate {
  if (value.includes('*') || value.includes('%')) {
    const glob = compileGlob(value);
    return (v) => v !== null && glob.test(String(v));
  }
  if (value.startsWith('!')) {
    const rest = value.slice(1).toLowerCase();
    // SQL: NULL is neither equal nor unequal to anything, so `!x` never lists a null field.
    return (v) => v !== null && fold(v) !== rest;
  }
  for (const op of ['<=', '>=', '<', '>'] as const) {
    if (value.startsWith(op)) {
      const text = value.slice(op.length);
      return (v) => {
        if (v === null) return false;
        const c = compareValues(v, operand(v, text));
        return op === '<=' ? c <= 0 : op === '>=' ? c >= 0 : op === '<' ? c < 0 : c > 0;
      };
    }
  }
  if (value.startsWith('BETWEEN ')) {
    const [lo = '', hi = ''] = value.slice(8).split(',');
    return (v) => v !== null && compareValues(v, operand(v, lo)) >= 0 && compareValues(v, operand(v, hi)) <= 0;
  }
  const wanted = value.toLowerCase();
  return (v) => v !== null && fold(v) === wanted;
}

/**
 * A configured link base (scheme, host and any mount prefix) as the links start with it: without
 * the trailing slashes, since every link path starts with one. Both services' one rule.
 * @internal
 */
export const linkBase = (baseUrl: string): string => baseUrl.replace(/\/+$/, '');

const UNRESERVED = /^[A-Za-z0-9_.~-]*$/;

/**
 * A query-string piece as the real service's links encode it (Python's `urlencode`, i.e.
 * `quote_plus`): only letters, digits and `_.-~` are kept, a space is `+`.
 */
const quotePlus = (s: string): string =>
  // Most pieces (ids, numbers, sort keys) need no escape: one test spares the three rewrites.
  UNRESERVED.test(s)
    ? s
    : encodeURIComponent(s)
        .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
        .replace(/%20/g, '+');

function buildLink(base: string, path: string, params: readonly (readonly [string, string])[]): string {
  if (params.length === 0) return `${base}${path}`;
  return `${base}${path}?${params.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join('&')}`;
}

const PAGE_READ = 256;

/**
 * Reads one page of a collection with the real service's semantics: order by (sort_key, id),
 * `marker` = last id of the previous page, `links.next` whenever the page is full.
 *
 * The default order walks the scope's index from the marker, so a page costs O(log n + limit)
 * without filters; filters and other sort keys read the caller's scope (never another project's).
 * @internal
 */
export async function listPage<E extends { readonly id: string }>(
  tx: StorageTransaction,
  spec: ListSpec<E>,
  scope: ListScope<E>,
  query: ParsedListQuery,
  baseUrl: string,
): Promise<Result<object, ApiError>> {
  let markerEntity: E | undefined;
  if (query.marker !== undefined) {
    const stored = await tx.get(scope.collection.name, query.marker);
    markerEntity = stored === undefined ? undefined : checked(scope.collection, query.marker, stored);
    if (markerEntity === undefined) {
      return err(markerNotFound());
    }
  }
  const predicates = query.filters.map((f) => ({ read: spec.filters[f.name]!, test: compileFilter(f.value) }));
  const accept = (e: E): boolean =>
    (scope.visible === undefined || scope.visible(e)) && predicates.every((p) => passes(p.test, p.read(e)));

  let items: E[];
  let total: number | undefined;
  if (query.sortKey === 'created_at') {
    items = [];
    let after = markerEntity === undefined ? undefined : { key: scope.keyOf(markerEntity), id: markerEntity.id };
    while (items.length < query.limit) {
      const batch = await tx.range(scope.collection.name, scope.index, {
        prefix: scope.prefix,
        ...(after === undefined ? {} : { after }),
        direction: query.sortDir,
        limit: predicates.length === 0 && scope.visible === undefined ? query.limit - items.length : PAGE_READ,
      });
      for (const entry of batch) {
        const e = checked(scope.collection, entry.id, entry.value);
        if (accept(e)) items.push(e);
        if (items.length === query.limit) break;
      }
      const last = batch[batch.length - 1];
      if (last === undefined || batch.length < PAGE_READ) break;
      after = { key: last.key, id: last.id };
    }
    if (spec.metadata) {
      total =
        predicates.length === 0 && scope.visible === undefined
          ? await tx.count(scope.collection.name, scope.index, scope.prefix)
          : (await readScope(tx, scope)).filter(accept).length;
    }
  } else {
    const page = sortAndSlice(spec, (await readScope(tx, scope)).filter(accept), query, markerEntity);
    items = page.items;
    total = page.total;
  }
  return ok(envelope(spec, items, total, query, baseUrl));
}

/**
 * The order of a list page: by the sort key's value as {@link compareValues} orders values, then
 * by id, both reversed for `desc`. A page is what follows its marker in this order.
 * @internal
 */
export function listOrder<E extends { readonly id: string }>(spec: ListSpec<E>, query: ParsedListQuery): (a: E, b: E) => number {
  const read = spec.sortKeys[query.sortKey] ?? spec.sortKeys['created_at']!;
  const desc = query.sortDir === 'desc';
  return (a, b) => {
    const c = compareValues(read(a), read(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    return desc ? -c : c;
  };
}

/** Orders entities by (sort_key, id) in the asked direction and cuts the page after the marker. */
function sortAndSlice<E extends { readonly id: string }>(
  spec: ListSpec<E>,
  all: E[],
  query: ParsedListQuery,
  markerEntity: E | undefined,
): { items: E[]; total: number } {
  const order = listOrder(spec, query);
  all.sort(order);
  let start = 0;
  if (markerEntity !== undefined) {
    const m = markerEntity;
    start = all.findIndex((e) => order(e, m) > 0);
    if (start < 0) start = all.length;
  }
  return { items: all.slice(start, start + query.limit), total: all.length };
}

/**
 * A page of a small collection held in memory (a zone's recordsets, SOA and NS included), with
 * the same semantics as {@link listPage}. `findMarker` looks the marker up in the whole resource.
 * @internal
 */
export function listArray<E extends { readonly id: string }>(
  spec: ListSpec<E>,
  all: readonly E[],
  query: ParsedListQuery,
  markerExists: boolean,
  markerEntity: E | undefined,
  baseUrl: string,
): Result<object, ApiError> {
  if (query.marker !== undefined && !markerExists) {
    return err(markerNotFound());
  }
  const predicates = query.filters.map((f) => ({ read: spec.filters[f.name]!, test: compileFilter(f.value) }));
  const page = sortAndSlice(
    spec,
    all.filter((e) => predicates.every((p) => passes(p.test, p.read(e)))),
    query,
    markerEntity,
  );
  return ok(envelope(spec, page.items, page.total, query, baseUrl));
}

function envelope<E extends { readonly id: string }>(
  spec: ListSpec<E>,
  items: readonly E[],
  total: number | undefined,
  query: ParsedListQuery,
  baseUrl: string,
): object {
  const body: Record<string, unknown> = { [spec.envelope]: items.map(spec.present) };
  const links: Record<string, string> = { self: buildLink(baseUrl, spec.path, query.echoed) };
  const last = items[items.length - 1];
  if (last !== undefined && items.length === query.limit) {
    const params = query.echoed.filter(([k]) => k !== 'marker');
    const at = query.echoed.findIndex(([k]) => k === 'marker');
    const next: (readonly [string, string])[] = [...params];
    if (at >= 0) next.splice(at, 0, ['marker', last.id]);
    else next.push(['marker', last.id]);
    links['next'] = buildLink(baseUrl, spec.path, next);
  }
  body['links'] = links;
  if (spec.metadata) body['metadata'] = { total_count: total ?? items.length };
  return body;
}

async function readScope<E>(tx: StorageTransaction, scope: ListScope<E>): Promise<E[]> {
  return (await tx.range(scope.collection.name, scope.index, { prefix: scope.prefix })).map((e) => checked(scope.collection, e.id, e.value));
}
