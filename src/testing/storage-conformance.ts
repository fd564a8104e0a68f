import { insert, type Storage } from '../ports/storage.js';

/**
 * The three vitest functions the conformance suite registers its tests with.
 *
 * @category Testing
 */
export interface ConformanceTestApi {
  /** vitest's `describe`. */
  readonly describe: (name: string, body: () => void) => void;
  /** vitest's `it`. */
  readonly it: (name: string, body: () => Promise<void>) => void;
  /** vitest's `expect`. */
  readonly expect: (actual: unknown) => ConformanceAssertion;
}

/**
 * The subset of vitest's `expect(...)` the suite uses.
 *
 * @category Testing
 */
export interface ConformanceAssertion {
  /** Deep equality. */
  toEqual(expected: unknown): void;
  /** `Object.is` equality. */
  toBe(expected: unknown): void;
  /** The value is `undefined`. */
  toBeUndefined(): void;
  /** For promises: the rejection. */
  readonly rejects: {
    /** The promise rejects with an error whose message contains `message`. */
    toThrow(message: string): Promise<void>;
  };
}

/**
 * vitest's API without importing vitest: zoneward/testing must load (ESM and CommonJS) where
 * vitest is absent or ESM-only, so the suite finds vitest in the running test worker instead
 * (the namespace vitest exposes for in-source tests, or its globals).
 */
function currentVitest(): ConformanceTestApi | undefined {
  const g = globalThis as Record<string, unknown>;
  const candidates = [g['__vitest_index__'], g];
  for (const c of candidates) {
    const api = c as Partial<ConformanceTestApi> | undefined;
    if (typeof api?.describe === 'function' && typeof api.it === 'function' && typeof api.expect === 'function') {
      return api as ConformanceTestApi;
    }
  }
  return undefined;
}

const frozen = <T extends object>(v: T): T => Object.freeze(v);

/** The cases of the suite, each run on a fresh storage. */
const CASES: readonly (readonly [string, (s: Storage, expect: ConformanceTestApi['expect']) => Promise<void>])[] = [
  [
    'commits every write of a transaction that resolves',
    async (s, expect) => {
      await s.transaction(async (tx) => {
        await tx.put('c', 'a', frozen({ n: 1 }), { i: 'k1' });
        await tx.put('c', 'b', frozen({ n: 2 }), { i: 'k2' });
      });
      await s.transaction(async (tx) => {
        expect(await tx.get('c', 'a')).toEqual({ n: 1 });
        expect(await tx.get('c', 'b')).toEqual({ n: 2 });
        expect(await tx.count('c', 'i')).toBe(2);
      });
    },
  ],
  [
    'keeps nothing of a transaction that rejects, index entries included',
    async (s, expect) => {
      await s.transaction(async (tx) => {
        await tx.put('c', 'a', frozen({ n: 1 }), { i: 'k1' });
      });
      await expect(
        s.transaction(async (tx) => {
          await tx.put('c', 'a', frozen({ n: 9 }), { i: 'k9' });
          await tx.put('c', 'b', frozen({ n: 2 }), { i: 'k2' });
          await tx.delete('c', 'a');
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      await s.transaction(async (tx) => {
        expect(await tx.get('c', 'a')).toEqual({ n: 1 });
        expect(await tx.get('c', 'b')).toBeUndefined();
        const entries = await tx.range('c', 'i');
        expect(entries.map((e) => [e.key, e.id])).toEqual([['k1', 'a']]);
      });
    },
  ],
  [
    'sees its own writes inside the transaction',
    async (s, expect) => {
      await s.transaction(async (tx) => {
        await tx.put('c', 'a', frozen({ n: 1 }), { i: 'x' });
        expect(await tx.get('c', 'a')).toEqual({ n: 1 });
        expect(await tx.count('c', 'i', 'x')).toBe(1);
        expect(await tx.delete('c', 'a')).toBe(true);
        expect(await tx.delete('c', 'a')).toBe(false);
        expect(await tx.count('c', 'i', 'x')).toBe(0);
      });
    },
  ],
  [
    'inserts only where nothing is stored (insert, where the adapter has it), and rolls an insert back',
    async (s, expect) => {
      await s.transaction(async (tx) => {
        await tx.put('c', 'a', frozen({ n: 1 }), { i: 'x' });
        expect(await insert(tx, 'c', 'a', frozen({ n: 2 }), { i: 'y' })).toBe(false);
        expect(await tx.get('c', 'a')).toEqual({ n: 1 });
        expect(await insert(tx, 'c', 'b', frozen({ n: 3 }), { i: 'y' })).toBe(true);
        expect((await tx.range('c', 'i')).map((e) => [e.key, e.id])).toEqual([['x', 'a'], ['y', 'b']]);
      });
      await s
        .transaction(async (tx) => {
          expect(await insert(tx, 'c', 'c', frozen({ n: 4 }), { i: 'z' })).toBe(true);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await s.transaction(async (tx) => {
        expect(await tx.get('c', 'c')).toBeUndefined();
        expect(await tx.count('c', 'i')).toBe(2);
        expect(await insert(tx, 'c', 'b', frozen({ n: 5 }), {})).toBe(false);
        expect(await tx.count('c', 'i', 'y')).toBe(1);
      });
    },
  ],
  [
    'replaces index entries when a value is put again',
    async (s, expect) => {
      await s.transaction(async (tx) => {
        await tx.put('c', 'a', frozen({ v: 1 }), { i: 'old', j: 'j' });
        await tx.put('c', 'a', frozen({ v: 2 }), { i: 'new' });
        expect((await tx.range('c', 'i')).map((e) => e.key)).toEqual(['new']);
        expect(await tx.count('c', 'j')).toBe(0);
      });
    },
  ],
  [
    'orders by (key, id) with prefix, after, offset, limit and direction',
    async (s, expect) => {
      const keys = ['b\u0000', 'a\u0000x\u0000', 'a\u0000', 'a\u0000', 'ab\u0000', 'a\u0001\u0001\u0000'];
      await s.transaction(async (tx) => {
        for (const [n, key] of keys.entries()) await tx.put('c', `id${n}`, frozen({ n }), { i: key });
      });
      await s.transaction(async (tx) => {
        const all = (await tx.range('c', 'i')).map((e) => `${e.key}|${e.id}`);
        const expected = keys
          .map((k, n) => [k, `id${n}`] as const)
          .sort(([ka, ia], [kb, ib]) => (ka < kb ? -1 : ka > kb ? 1 : ia < ib ? -1 : ia > ib ? 1 : 0))
          .map(([k, id]) => `${k}|${id}`);
        expect(all).toEqual(expected);
        const a = await tx.range('c', 'i', { prefix: 'a\u0000' });
        expect(a.map((e) => e.id)).toEqual(['id2', 'id3', 'id1']);
        expect((await tx.range('c', 'i', { prefix: 'a\u0000', exact: true })).map((e) => e.id)).toEqual(['id2', 'id3']);
        expect((await tx.range('c', 'i', { prefix: 'a\u0000', exact: true, direction: 'desc', offset: 1 })).map((e) => e.id)).toEqual(['id2']);
        expect((await tx.range('c', 'i', { prefix: 'a', exact: true })).map((e) => e.id)).toEqual([]);
        expect(await tx.count('c', 'i', 'a\u0000')).toBe(3);
        const after = await tx.range('c', 'i', { prefix: 'a\u0000', after: { key: 'a\u0000', id: 'id2' } });
        expect(after.map((e) => e.id)).toEqual(['id3', 'id1']);
        const desc = await tx.range('c', 'i', { prefix: 'a\u0000', direction: 'desc', after: { key: 'a\u0000x\u0000', id: 'id1' } });
        expect(desc.map((e) => e.id)).toEqual(['id3', 'id2']);
        const paged = await tx.range('c', 'i', { offset: 2, limit: 2 });
        expect(paged.map((e) => `${e.key}|${e.id}`)).toEqual(expected.slice(2, 4));
        const lastTwo = await tx.range('c', 'i', { direction: 'desc', limit: 2 });
        expect(lastTwo.map((e) => `${e.key}|${e.id}`)).toEqual(expected.slice(-2).reverse());
      });
    },
  ],
  [
    'scans a collection in id order, a page at a time',
    async (s, expect) => {
      await s.transaction(async (tx) => {
        for (const id of ['c', 'a', 'e', 'b', 'd']) await tx.put('c', id, frozen({ id }), {});
      });
      await s.transaction(async (tx) => {
        const first = await tx.scan('c', undefined, 2);
        const rest = await tx.scan('c', first[first.length - 1]!.id, 10);
        expect([...first, ...rest].map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
        expect(await tx.scan('missing', undefined, 10)).toEqual([]);
      });
    },
  ],
  [
    'runs concurrent transactions as if one after another (no lost update)',
    async (s, expect) => {
      await s.transaction((tx) => tx.put('c', 'counter', frozen({ n: 0 }), {}));
      const bump = () =>
        s.transaction(async (tx) => {
          const { n } = (await tx.get('c', 'counter')) as { n: number };
          await Promise.resolve();
          await tx.put('c', 'counter', frozen({ n: n + 1 }), {});
        });
      await Promise.all(Array.from({ length: 20 }, bump));
      expect(await s.transaction((tx) => tx.get('c', 'counter'))).toEqual({ n: 20 });
    },
  ],
  [
    'never shows a concurrent transaction its uncommitted writes',
    async (s, expect) => {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      const writer = s
        .transaction(async (tx) => {
          await tx.put('c', 'x', frozen({ v: 1 }), {});
          await gate;
          throw new Error('rolled back');
        })
        .catch(() => 'rolled back');
      const reader = s.transaction((tx) => tx.get('c', 'x'));
      release();
      expect(await writer).toBe('rolled back');
      expect(await reader).toBeUndefined();
    },
  ],
];

/**
 * Registers the vitest suites every storage adapter must pass: atomic commits and rollbacks,
 * serializable concurrent transactions, `(key, id)` ordering, prefix ranges and counts, marker
 * and offset paging, and id-ordered scans. `memoryStorage()` passes it in this project's CI.
 *
 * Call it at the top level of a test file run by vitest; `makeStorage` must return an empty
 * storage each time. vitest is found in the running worker; pass `{ describe, it, expect }`
 * to use another runner with the same API.
 *
 * @param makeStorage - makes a fresh, empty storage
 * @param api - the test functions; default: the running vitest's
 * @throws TypeError when called outside a vitest worker without `api`
 * @example
 * ```ts
 * import { runStorageConformance } from 'zoneward/testing';
 * runStorageConformance(() => myStorage());
 * ```
 * @category Testing
 */
export function runStorageConformance(makeStorage: () => Storage | Promise<Storage>, api?: ConformanceTestApi): void {
  const runner = api ?? currentVitest();
  if (runner === undefined) {
    throw new TypeError('runStorageConformance: call it from a vitest test file, or pass { describe, it, expect }.');
  }
  const { describe, it, expect } = runner;
  describe('storage port conformance', () => {
    for (const [name, body] of CASES) it(name, async () => body(await makeStorage(), expect));
  });
}
