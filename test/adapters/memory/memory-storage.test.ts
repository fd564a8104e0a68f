import { fc } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../src/index.js';
import { runStorageConformance } from '../../../src/testing/index.js';
import { rangeQuery } from './range-queries.js';

runStorageConformance(() => memoryStorage());

describe('memoryStorage ranges', () => {
  // Keys and ids from few code units, so that prefixes, equal keys and exact keys meet often.
  const str = fc.string({ unit: fc.constantFrom('\u0000', 'a', 'b', '\uffff'), maxLength: 3 });
  const query = rangeQuery(str);
  const cmp = (a: { key: string; id: string }, b: { key: string; id: string }): number =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

  it('answers every range as sorting and filtering its entries would (prefix, exact, after, offset, limit, direction)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(str, str), { maxLength: 20 }), query, async (puts, q) => {
        const s = memoryStorage();
        await s.transaction(async (tx) => {
          for (const [id, key] of puts) await tx.put('c', id, Object.freeze({ id }), { i: key });
        });
        const got = await s.transaction((tx) => tx.range('c', 'i', q));
        const prefix = q.prefix ?? '';
        const desc = q.direction === 'desc';
        let model = [...new Map(puts)].map(([id, key]) => ({ key, id })).sort(cmp);
        model = model.filter((e) => (q.exact === true ? e.key === prefix : e.key.startsWith(prefix)));
        if (desc) model.reverse();
        const after = q.after;
        if (after !== undefined) model = model.filter((e) => (desc ? cmp(e, after) < 0 : cmp(e, after) > 0));
        model = model.slice(q.offset ?? 0, q.limit === undefined ? undefined : (q.offset ?? 0) + q.limit);
        expect(got.map((e) => [e.key, e.id])).toEqual(model.map((e) => [e.key, e.id]));
      }),
      { numRuns: 400 },
    );
  });
});
