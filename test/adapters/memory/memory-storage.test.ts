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

describe('memoryStorage transactions', () => {
  it('runs one at a time, first asked first run, one asked for from inside another included', async () => {
    const storage = memoryStorage();
    const log: string[] = [];
    let inner: Promise<unknown> | undefined;
    const a = storage.transaction(async (tx) => {
      log.push('a starts');
      // Asked for while `a` runs (before its first await): it must wait for `a`, not start at once.
      inner = storage.transaction(async (t) => {
        log.push(`c sees ${String(await t.get('c', '1'))}`);
      });
      await tx.put('c', '1', 'a', {});
      await Promise.resolve();
      log.push('a ends');
    });
    const b = storage.transaction(async (tx) => {
      log.push('b starts');
      await tx.put('c', '1', 'b', {});
    });
    await Promise.all([a, b, inner]);
    expect(log).toEqual(['a starts', 'a ends', 'c sees a', 'b starts']);
    // Idle again: the next one starts at once and sees every write before it.
    expect(await storage.transaction((tx) => tx.get('c', '1'))).toBe('b');
  });

  it('keeps running them in order through a long queue and after failures', async () => {
    const storage = memoryStorage();
    const order: number[] = [];
    const runs = Array.from({ length: 3000 }, (_, i) =>
      storage.transaction(async (tx) => {
        order.push(i);
        await tx.put('c', String(i % 7), i, {});
        if (i % 5 === 0) throw new Error('rolled back');
      }).then(
        () => true,
        () => false,
      ),
    );
    const outcomes = await Promise.all(runs);
    expect(order).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    expect(outcomes.filter((ok) => !ok).length).toBe(600);
    // Key 6 holds the last write to it that was not rolled back.
    let last = -1;
    for (let i = 0; i < 3000; i++) if (i % 7 === 6 && i % 5 !== 0) last = i;
    expect(await storage.transaction((tx) => tx.get('c', '6'))).toBe(last);
  });
});
