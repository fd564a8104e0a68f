/**
 * The list machinery every collection shares (reference §5): parameter validation in the real
 * service's order and words, the filter language of its storage, ordering by (sort_key, id),
 * marker paging, and the envelope with its links. Run against a small made-up collection so each
 * rule is seen on its own.
 */
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/memory-storage.js';
import { tupleKey } from '../../src/kernel/keys.js';
import {
  listArray,
  listPage,
  parseListQuery,
  queryAllProjects,
  type ListScope,
  type ListSpec,
  type ParsedListQuery,
} from '../../src/kernel/list-query.js';

interface Item {
  readonly id: string;
  readonly createdAt: number;
  readonly name: string;
  readonly ttl: number;
  readonly description: string | null;
  readonly owner: string;
}

const id = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
const item = (n: number, changes: Partial<Item> = {}): Item => ({
  id: id(n), createdAt: n, name: `n${n}.com.`, ttl: n * 100, description: null, owner: 'alice', ...changes,
});

const spec = (metadata = true): ListSpec<Item> => ({
  path: '/v2/items',
  envelope: 'items',
  filters: { name: (e) => e.name, ttl: (e) => e.ttl, description: (e) => e.description },
  sortKeys: {
    created_at: (e) => e.createdAt, id: (e) => e.id, name: (e) => e.name, ttl: (e) => e.ttl, description: (e) => e.description, tenant_id: (e) => e.owner,
  },
  metadata,
  present: (e) => ({ id: e.id }),
});
const BASE = 'http://h';
const bad = (type: string, message?: string) => (message === undefined ? { code: 400, type } : { code: 400, type, message });
const parse = (query: unknown, allProjects = false): ParsedListQuery | object => {
  const r = parseListQuery(spec(), query, allProjects);
  return r.isOk() ? r.value : r.error.toJSON();
};
const parsed = (query: Record<string, string>, allProjects = false): ParsedListQuery => parseListQuery(spec(), query, allProjects)._unsafeUnwrap();

describe('queryAllProjects (reference §1.1: a boolean string, all_projects before all_tenants)', () => {
  it('reads true/1/yes/on/y/t in any case, and a boolean', () => {
    for (const v of ['true', 'TRUE', '1', 'yes', 'On', 'y', 't', true]) {
      expect(queryAllProjects({ all_projects: v })).toBe(true);
      expect(queryAllProjects({ all_tenants: v })).toBe(true);
    }
    for (const v of ['false', '0', 'no', '', 'tru', 'truex', false, 1, null, undefined]) expect(queryAllProjects({ all_projects: v })).toBe(false);
  });

  it('lets all_projects win over all_tenants, and ignores what is not a query object', () => {
    expect(queryAllProjects({ all_projects: 'false', all_tenants: 'true' })).toBe(false);
    expect(queryAllProjects({ all_projects: undefined, all_tenants: 'true' })).toBe(true);
    for (const q of [null, undefined, 'all_projects=true', 1]) expect(queryAllProjects(q)).toBe(false);
  });
});

describe('parseListQuery', () => {
  it('defaults to 20 rows of created_at ascending, no marker, no filters', () => {
    const expected = { limit: 20, marker: undefined, sortKey: 'created_at', sortDir: 'asc', filters: [], echoed: [] };
    expect(parse(undefined)).toEqual(expected);
    expect(parse(null)).toEqual(expected);
    expect(parse({})).toEqual(expected);
  });

  it('needs an object of query-string values', () => {
    const message = 'List parameters must be an object of query-string values.';
    for (const q of [[], 'limit=1', 5, true]) expect(parse(q)).toEqual(bad('bad_request', message));
    expect(parse({ limit: true })).toEqual(bad('bad_request', 'Query parameter limit must be a string.'));
    expect(parse({ name: {} })).toEqual(bad('bad_request', 'Query parameter name must be a string.'));
    expect(parse({ [`${'k'.repeat(150)}`]: null })).toEqual(bad('bad_request', `Query parameter ${'k'.repeat(100)} must be a string.`));
    for (const q of [{ ['a\u0000']: 'x' }, { name: 'x\ud800' }]) {
      expect(parse(q)).toEqual(bad('bad_request', 'Query parameters must be UTF-8 text without NUL characters or lone surrogates.'));
    }
  });

  it('skips undefined values and the consumed flags, and echoes the rest as strings in request order', () => {
    expect(parse({ sort_dir: 'desc', all_projects: 'true', limit: 5, all_tenants: '1', edit_managed_records: 'x', name: undefined, ttl: '3' }, true)).toMatchObject({
      limit: 5,
      sortDir: 'desc',
      filters: [{ name: 'ttl', value: '3' }],
      echoed: [['sort_dir', 'desc'], ['limit', '5'], ['ttl', '3']],
    });
  });

  it('needs a UUID-like marker, refused bare (no message)', () => {
    expect(parse({ marker: id(1) })).toMatchObject({ marker: id(1) });
    expect(parse({ marker: 'nope' })).toEqual(bad('invalid_marker'));
  });

  it('reads limit as a positive integer, max as 1000, and does not cap larger values', () => {
    expect(parse({ limit: 'max' })).toMatchObject({ limit: 1000 });
    expect(parse({ limit: 'MaX' })).toMatchObject({ limit: 1000 });
    expect(parse({ limit: '5000' })).toMatchObject({ limit: 5000 });
    expect(parse({ limit: '1' })).toMatchObject({ limit: 1 });
    expect(parse({ limit: '12' })).toMatchObject({ limit: 12 });
    expect(parse({ limit: ' 7 ' })).toMatchObject({ limit: 7 });
    expect(parse({ limit: '+7' })).toMatchObject({ limit: 7 });
    for (const limit of ['0', '-1', '', ' ', 'abc', '1.5', '1e3', 'x5', '5x', '++5', '99999999999999999999', 'maxx']) {
      expect(parse({ limit })).toEqual(bad('invalid_limit', 'limit should be an integer between 1 and 1000'));
    }
  });

  it('takes a sort key of the collection; tenant_id only counts with all-projects', () => {
    expect(parse({ sort_key: 'name' })).toMatchObject({ sortKey: 'name' });
    expect(parse({ sort_key: 'tenant_id' })).toMatchObject({ sortKey: 'created_at' });
    expect(parse({ sort_key: 'tenant_id' }, true)).toMatchObject({ sortKey: 'tenant_id' });
    expect(parse({ sort_key: 'bogus' })).toEqual(bad('invalid_sort_key', "sort key must be one of ['created_at', 'id', 'name', 'ttl', 'description', 'tenant_id']"));
    expect(parse({ sort_key: 'toString' })).toMatchObject({ type: 'invalid_sort_key' });
  });

  it('takes sort_dir asc or desc, exactly', () => {
    expect(parse({ sort_dir: 'desc' })).toMatchObject({ sortDir: 'desc' });
    for (const sort_dir of ['ASC', 'Desc', '', 'up']) {
      expect(parse({ sort_dir })).toEqual(bad('invalid_sort_dir', "Unknown sort direction, must be 'desc' or 'asc'"));
    }
  });

  it('takes only the collection filters and names every other parameter', () => {
    expect(parse({ name: 'a*', marker: id(1), limit: '2', sort_key: 'id', sort_dir: 'asc', ttl: '<5' })).toMatchObject({
      filters: [{ name: 'name', value: 'a*' }, { name: 'ttl', value: '<5' }],
    });
    expect(parse({ foo: '1', name: 'x', bar: '2' })).toEqual(bad('bad_request', 'Invalid filters foo, bar'));
    expect(parse({ constructor: 'x', toString: 'y' })).toEqual(bad('bad_request', 'Invalid filters constructor, toString'));
  });

  it('checks limit, then sort_dir, then sort_key, then filters, then marker (the real service\'s order on the wire)', () => {
    const all = { marker: 'nope', foo: '1', sort_key: 'bogus', sort_dir: 'up', limit: '0' };
    const { limit: _l, ...noLimit } = all;
    const { sort_dir: _d, ...noDir } = noLimit;
    const { sort_key: _k, ...noKey } = noDir;
    const { foo: _f, ...onlyMarker } = noKey;
    expect([all, noLimit, noDir, noKey, onlyMarker].map((q) => (parse(q) as { type: string }).type)).toEqual([
      'invalid_limit', 'invalid_sort_dir', 'invalid_sort_key', 'bad_request', 'invalid_marker',
    ]);
  });
});

describe('listArray: filters, order, paging and envelope of an in-memory collection', () => {
  const items = [
    item(1, { name: 'example.com.', description: 'first line\nsecond' }),
    item(2, { name: 'example.org.', description: 'b.c' }),
    item(3, { name: 'abc.net.', description: 'bxc' }),
    item(4, { name: 'a_c.net.', ttl: 250 }),
    item(5, { name: 'zzz.com.', ttl: 300 }),
  ];
  type Page = { items: { id: string }[]; links: Record<string, string>; metadata?: { total_count: number } };
  const list = (query: Record<string, string>, options: { all?: readonly Item[]; markerExists?: boolean; metadata?: boolean } = {}): Page | object => {
    const p = parsed(query);
    const all = options.all ?? items;
    const marker = all.find((e) => e.id === p.marker);
    const r = listArray(spec(options.metadata ?? true), all, p, options.markerExists ?? marker !== undefined, marker, BASE);
    return r.isOk() ? r.value : r.error.toJSON();
  };
  const ids = (query: Record<string, string>, all?: readonly Item[]) => ((list(query, all ? { all } : {}) as Page).items ?? []).map((e) => Number(e.id.slice(-12)));

  it('matches * as any run and _ as one character, case-insensitively, across lines (SQL LIKE)', () => {
    expect(ids({ name: 'example*' })).toEqual([1, 2]);
    expect(ids({ name: '*.NET.' })).toEqual([3, 4]);
    expect(ids({ name: 'a_c*' })).toEqual([3, 4]);
    expect(ids({ description: 'first*' })).toEqual([1]);
    expect(ids({ description: 'b.c*' })).toEqual([2]);
    expect(ids({ description: '*' })).toEqual([1, 2, 3]);
    expect(ids({ name: '*(x|[a]+)?{1}$^\\/*' })).toEqual([]);
    expect(ids({ ttl: '*00' })).toEqual([1, 2, 3, 5]);
  });

  it('reads % as a wildcard too, and a value holding one as LIKE before any other form (designate-api)', () => {
    // The real API turns `*` into `%`, and its storage hands any value with a `%` to LIKE: on
    // designate-api, `name=%` lists every zone, `name=%.COM.` every .com. one, `name=!%` none.
    expect(ids({ name: '%' })).toEqual([1, 2, 3, 4, 5]);
    expect(ids({ name: '%.COM.' })).toEqual([1, 5]);
    expect(ids({ name: 'a%c*' })).toEqual([3, 4]);
    expect(ids({ name: '!%' })).toEqual([]);
  });

  it('matches wildcards without backtracking: 40 stars against a 45-character name answer at once', () => {
    // As a backtracking RegExp, each more `*` here multiplied the time by ~8 (seconds at seven).
    const long = [item(1, { name: `${'a'.repeat(41)}.com.` })];
    expect(ids({ name: `${'*'.repeat(40)}q` }, long)).toEqual([]);
    expect(ids({ name: `${'*a'.repeat(20)}*q` }, long)).toEqual([]);
    expect(ids({ name: `${'_*'.repeat(30)}.com.` }, long)).toEqual([1]);
  });

  it('reads a leading ! as not equal, case-insensitively', () => {
    expect(ids({ name: '!EXAMPLE.COM.' })).toEqual([2, 3, 4, 5]);
    expect(ids({ ttl: '!300' })).toEqual([1, 2, 4]);
  });

  it('compares numbers as numbers and strings as strings; null never compares', () => {
    expect(ids({ ttl: '<250' })).toEqual([1, 2]);
    expect(ids({ ttl: '<=250' })).toEqual([1, 2, 4]);
    expect(ids({ ttl: '>250' })).toEqual([3, 5]);
    expect(ids({ ttl: '>=250' })).toEqual([3, 4, 5]);
    expect(ids({ ttl: '<1000' })).toEqual([1, 2, 3, 4, 5]);
    expect(ids({ name: '<b' })).toEqual([3, 4]);
    expect(ids({ name: '>=e' })).toEqual([1, 2, 5]);
    expect(ids({ description: '>a' })).toEqual([1, 2, 3]);
    expect(ids({ description: '<z' })).toEqual([1, 2, 3]);
    expect(ids({ ttl: '< ' })).toEqual([]);
  });

  it('reads BETWEEN a,b as an inclusive range', () => {
    expect(ids({ ttl: 'BETWEEN 200,300' })).toEqual([2, 3, 4, 5]);
    expect(ids({ ttl: 'BETWEEN 201,299' })).toEqual([4]);
    expect(ids({ name: 'BETWEEN a,b' })).toEqual([3, 4]);
    expect(ids({ description: 'BETWEEN a,z' })).toEqual([1, 2, 3]);
    expect(ids({ description: 'BETWEEN b,bz' })).toEqual([2, 3]);
  });

  it('never lists a null field for = or ! (SQL: NULL compares as unknown)', () => {
    expect(ids({ description: '!bxc' })).toEqual([1, 2]);
    expect(ids({ description: '' })).toEqual([]);
    expect(ids({ description: '!' })).toEqual([1, 2, 3]);
  });

  it('compares everything else for equality, ignoring case', () => {
    expect(ids({ name: 'EXAMPLE.ORG.' })).toEqual([2]);
    expect(ids({ ttl: '300' })).toEqual([3, 5]);
    expect(ids({ name: 'example' })).toEqual([]);
    expect(ids({ name: 'abc.net.', ttl: '300' })).toEqual([3]);
  });

  it('orders by (sort_key, id) in the asked direction, nulls first ascending', () => {
    expect(ids({ sort_key: 'ttl' })).toEqual([1, 2, 4, 3, 5]);
    expect(ids({ sort_key: 'ttl', sort_dir: 'desc' })).toEqual([5, 3, 4, 2, 1]);
    expect(ids({ sort_key: 'name' })).toEqual([4, 3, 1, 2, 5]);
    const sameName = [item(3, { name: 'same.' }), item(1, { name: 'same.' }), item(2, { name: 'other.' })];
    expect(ids({ sort_key: 'name' }, sameName)).toEqual([2, 1, 3]);
    expect(ids({ sort_key: 'name', sort_dir: 'desc' }, sameName)).toEqual([3, 1, 2]);
    const withNull = [item(1, { description: 'b' }), item(2), item(3, { description: 'a' })];
    expect(ids({ sort_key: 'description' }, withNull)).toEqual([2, 3, 1]);
    expect(ids({ sort_key: 'description', sort_dir: 'desc' }, withNull)).toEqual([1, 3, 2]);
    // Text orders without regard to case, as the production collation does; equal keys by id.
    const cased = [item(1, { name: 'b.' }), item(2, { name: 'C.' }), item(3, { name: 'a.' }), item(4, { name: 'B.' })];
    expect(ids({ sort_key: 'name' }, cased)).toEqual([3, 1, 4, 2]);
    expect(ids({ name: '<b.' }, cased)).toEqual([3]);
    expect(ids({ name: 'BETWEEN B.,b.' }, cased)).toEqual([1, 4]);
    // Rows with equal keys, null ones included, are ordered by id.
    const nulls = [item(3), item(1), item(2, { description: 'a' }), item(4)];
    expect(ids({ sort_key: 'description' }, nulls)).toEqual([1, 3, 4, 2]);
    expect(ids({ sort_key: 'description', sort_dir: 'desc' }, nulls)).toEqual([2, 4, 3, 1]);
  });

  it('starts a page strictly after the marker in that order, even if the marker is filtered out', () => {
    expect(ids({ sort_key: 'ttl', marker: id(4) })).toEqual([3, 5]);
    expect(ids({ sort_key: 'ttl', sort_dir: 'desc', marker: id(4) })).toEqual([2, 1]);
    expect(ids({ sort_key: 'ttl', marker: id(5) })).toEqual([]);
    expect(ids({ sort_key: 'ttl', ttl: '>=250', marker: id(2) })).toEqual([4, 3, 5]);
    expect(ids({ marker: id(3), limit: '1' })).toEqual([4]);
  });

  it('answers marker_not_found with the real service\'s message when the marker does not exist', () => {
    expect(list({ marker: id(99) }, { markerExists: false })).toEqual(bad('marker_not_found', 'Marker None could not be found'));
  });

  it('links self with the echoed parameters, encoded, and next whenever the page is full', () => {
    expect(list({})).toEqual({ items: items.map((e) => ({ id: e.id })), links: { self: `${BASE}/v2/items` }, metadata: { total_count: 5 } });
    expect(list({ limit: '5' })).toMatchObject({ links: { self: `${BASE}/v2/items?limit=5`, next: `${BASE}/v2/items?limit=5&marker=${id(5)}` } });
    expect(list({ name: 'a b&c=*', limit: '9' })).toEqual({ items: [], links: { self: `${BASE}/v2/items?name=a+b%26c%3D%2A&limit=9` }, metadata: { total_count: 0 } });
    expect(list({ marker: id(1), limit: '2', sort_dir: 'asc' })).toEqual({
      items: [{ id: id(2) }, { id: id(3) }],
      links: {
        self: `${BASE}/v2/items?marker=${id(1)}&limit=2&sort_dir=asc`,
        next: `${BASE}/v2/items?marker=${id(3)}&limit=2&sort_dir=asc`,
      },
      metadata: { total_count: 5 },
    });
    expect(list({ limit: '2', marker: id(1) })).toMatchObject({ links: { next: `${BASE}/v2/items?limit=2&marker=${id(3)}` } });
  });

  it('counts every match, ignoring marker and limit, only where the collection has metadata', () => {
    expect(list({ limit: '1', marker: id(1), name: '*.com.' })).toMatchObject({ metadata: { total_count: 2 } });
    expect(list({ limit: '1' }, { metadata: false })).not.toHaveProperty('metadata');
  });
});

describe('listPage: the same semantics read from a storage index', () => {
  const INDEX = 'by_owner_created';
  // Items are written here as they are; the check of what is read back is the repositories' (test/proof/corrupt-values.test.ts).
  const collection = { name: 'items', problem: () => undefined, idOf: (e: Item) => e.id, keys: () => ({}) };
  const scope = (owner: string, visible?: (e: Item) => boolean): ListScope<Item> => ({
    collection,
    index: INDEX,
    prefix: tupleKey(owner),
    keyOf: (e) => tupleKey(owner, e.createdAt),
    ...(visible === undefined ? {} : { visible }),
  });

  async function stored(rows: readonly Item[]) {
    const storage = memoryStorage();
    await storage.transaction(async (tx) => {
      for (const e of rows) await tx.put('items', e.id, e, { [INDEX]: tupleKey(e.owner, e.createdAt) });
    });
    return storage;
  }
  type Page = { items: { id: string }[]; links: Record<string, string>; metadata?: { total_count: number } };
  const page = async (storage: Awaited<ReturnType<typeof stored>>, query: Record<string, string>, s: ListScope<Item> = scope('alice'), metadata = true): Promise<Page | object> =>
    storage.transaction(async (tx) => {
      const r = await listPage(tx, spec(metadata), s, parsed(query), BASE);
      return r.isOk() ? r.value : r.error.toJSON();
    });
  const nums = (p: Page | object) => (p as Page).items.map((e) => Number(e.id.slice(-12)));

  const rows = [
    ...Array.from({ length: 600 }, (_, i) => item(i + 1, { name: i + 1 > 550 ? `late${i + 1}.com.` : `n${i + 1}.com.` })),
    item(1000, { owner: 'bob', name: 'late-bob.com.' }),
  ];

  it('walks the scope index from the marker in (created_at, id) order, both directions', async () => {
    const s = await stored(rows);
    expect(nums(await page(s, { limit: '3' }))).toEqual([1, 2, 3]);
    expect(nums(await page(s, { limit: '3', marker: id(3) }))).toEqual([4, 5, 6]);
    expect(nums(await page(s, { limit: '3', sort_dir: 'desc' }))).toEqual([600, 599, 598]);
    expect(nums(await page(s, { limit: '2', sort_dir: 'desc', marker: id(598) }))).toEqual([597, 596]);
    expect(nums(await page(s, { limit: '3', marker: id(599) }))).toEqual([600]);
    expect(await page(s, { limit: '1000' })).toMatchObject({ items: { length: 600 }, metadata: { total_count: 600 } });
  });

  it('reads past the first batch when a filter skips rows, and stops at the limit', async () => {
    const s = await stored(rows);
    const late = await page(s, { name: 'late*', limit: '5' });
    expect(nums(late)).toEqual([551, 552, 553, 554, 555]);
    expect(late).toMatchObject({ metadata: { total_count: 50 }, links: { next: `${BASE}/v2/items?name=late%2A&limit=5&marker=${id(555)}` } });
    expect(nums(await page(s, { name: 'late*', limit: '100' }))).toEqual(Array.from({ length: 50 }, (_, i) => 551 + i));
    expect(nums(await page(s, { name: 'n*', limit: '300', marker: id(500) }))).toEqual(Array.from({ length: 50 }, (_, i) => 501 + i));
    // A page that fills up inside a full batch ends there.
    expect(nums(await page(s, { name: 'n*', limit: '5' }))).toEqual([1, 2, 3, 4, 5]);
  });

  it('applies the scope visibility like a filter, in the page and in the count', async () => {
    const s = await stored(rows);
    const even = await page(s, { limit: '3' }, scope('alice', (e) => e.createdAt % 2 === 0));
    expect(nums(even)).toEqual([2, 4, 6]);
    expect(even).toMatchObject({ metadata: { total_count: 300 } });
    expect(nums(await page(s, { limit: '2' }, scope('alice', (e) => e.createdAt > 590)))).toEqual([591, 592]);
  });

  it('never reads another scope', async () => {
    const s = await stored(rows);
    expect(await page(s, { name: 'late*', limit: '100' }, scope('bob'))).toMatchObject({ items: [{ id: id(1000) }], metadata: { total_count: 1 } });
    expect(await page(s, { sort_key: 'name', limit: '100' }, scope('bob'))).toMatchObject({ items: [{ id: id(1000) }], metadata: { total_count: 1 } });
  });

  it('sorts by another key over the whole scope, after the marker', async () => {
    const s = await stored(rows);
    const byName = await page(s, { sort_key: 'name', sort_dir: 'desc', limit: '2' });
    expect(nums(byName)).toEqual([99, 98]);
    expect(byName).toMatchObject({ metadata: { total_count: 600 } });
    expect(nums(await page(s, { sort_key: 'name', sort_dir: 'desc', limit: '2', marker: id(98) }))).toEqual([97, 96]);
    expect(await page(s, { sort_key: 'ttl', ttl: '<=300', limit: '10' })).toMatchObject({ items: [{ id: id(1) }, { id: id(2) }, { id: id(3) }], metadata: { total_count: 3 } });
  });

  it('looks the marker up in the collection and answers marker_not_found for an unknown one', async () => {
    const s = await stored(rows);
    expect(await page(s, { marker: id(4242) })).toEqual(bad('marker_not_found', 'Marker None could not be found'));
    // The marker may belong to another scope: it exists, and the page starts after its position.
    expect(nums(await page(s, { marker: id(1000), limit: '2' }, scope('alice')))).toEqual([]);
  });

  it('leaves metadata out where the collection has none', async () => {
    const s = await stored(rows);
    expect(await page(s, { limit: '1' }, scope('alice'), false)).toEqual({
      items: [{ id: id(1) }],
      links: { self: `${BASE}/v2/items?limit=1`, next: `${BASE}/v2/items?limit=1&marker=${id(1)}` },
    });
  });
});
