/**
 * Model-based tests of the order-statistic B+tree behind in-memory secondary indexes: random
 * operation sequences run against both the tree and a plain sorted array of pairs. Small node
 * capacities make a few dozen entries span several levels, so splits, merges, redistribution
 * and root collapse all get exercised without huge inputs; one long deterministic run covers
 * the default capacities at >100k entries.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { OrderedIndex, type OrderedIndexOptions } from '../../../src/adapters/memory/ordered-index.js';

type Pair = readonly [key: string, id: string];

const less = (a: Pair, b: Pair): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
const compare = (a: Pair, b: Pair): number => (less(a, b) ? -1 : less(b, a) ? 1 : 0);

/** The obviously correct reference: a sorted array, every query by linear scan. */
class Model {
  pairs: Pair[] = [];
  has(key: string, id: string): boolean {
    return this.pairs.some((p) => p[0] === key && p[1] === id);
  }
  insert(key: string, id: string): boolean {
    if (this.has(key, id)) return false;
    this.pairs.push([key, id]);
    this.pairs.sort(compare);
    return true;
  }
  delete(key: string, id: string): boolean {
    const i = this.pairs.findIndex((p) => p[0] === key && p[1] === id);
    if (i < 0) return false;
    this.pairs.splice(i, 1);
    return true;
  }
  lowerBound(key: string, id: string): number {
    return this.pairs.filter((p) => less(p, [key, id])).length;
  }
  upperBound(key: string, id: string): number {
    return this.pairs.filter((p) => !less([key, id], p)).length;
  }
  prefixBounds(prefix: string): { start: number; end: number } {
    const inside = this.pairs.map((p, rank) => ({ rank, hit: p[0].startsWith(prefix) })).filter((x) => x.hit);
    if (inside.length === 0) {
      const start = this.pairs.filter((p) => p[0] < prefix).length;
      return { start, end: start };
    }
    return { start: inside[0]!.rank, end: inside[inside.length - 1]!.rank + 1 };
  }
}

/** Code units that sit at the edges of string order, plus surrogates (lone and paired). */
const unit = fc.constantFrom('a', 'b', 'c', '\u0000', '\u0001', '\uffff', '\ud800', '\udfff', '\ud83d\ude00', '\uff5e');
const key = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 3 }) },
  { weight: 3, arbitrary: fc.string({ unit, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const id = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('', '1', '2', '3', '10', '\uffff') }, { weight: 1, arbitrary: fc.string({ unit, maxLength: 3 }) });
/** Rank-ish numbers: mostly in range, sometimes past either end or fractional. */
const rank = fc.oneof(fc.integer({ min: -3, max: 80 }), fc.constantFrom(Number.NaN, 0.5, 2.5, -0.5, Number.POSITIVE_INFINITY));

type Op =
  | { op: 'insert'; key: string; id: string }
  | { op: 'delete'; key: string; id: string }
  /** Deletes the model's entry at pick % size, so deletes mostly hit. */
  | { op: 'deleteExisting'; pick: number }
  | { op: 'lowerBound' | 'upperBound'; key: string; id: string }
  | { op: 'prefix'; prefix: string }
  /** Prefix of an existing key (often the whole key): the ranges that matter most. */
  | { op: 'prefixOfExisting'; pick: number; cut: number }
  | { op: 'at'; rank: number }
  | { op: 'forEach'; start: number; end: number; desc: boolean; stopAfter: number }
  | { op: 'forEachFrom'; key: string; id: string; exclusive: boolean; stopAfter: number }
  | { op: 'clear' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ op: fc.constant('insert' as const), key, id }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('delete' as const), key, id }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('deleteExisting' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('lowerBound' as const, 'upperBound' as const), key, id }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('prefix' as const), prefix: key }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('prefixOfExisting' as const), pick: fc.nat(), cut: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('at' as const), rank }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('forEach' as const), start: rank, end: rank, desc: fc.boolean(), stopAfter: fc.integer({ min: 0, max: 100 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('forEachFrom' as const), key, id, exclusive: fc.boolean(), stopAfter: fc.integer({ min: 0, max: 100 }) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('clear' as const) }) },
);

const capacities: fc.Arbitrary<OrderedIndexOptions> = fc.oneof(
  fc.record({ leafCapacity: fc.integer({ min: 2, max: 6 }), branchCapacity: fc.integer({ min: 4, max: 6 }) }),
  fc.constant({}),
);

/** What forEach must visit: ranks clamped to [0, size], fractional bounds rounded up. */
function expectedWalk(model: Model, start: number, end: number, desc: boolean, stopAfter: number): Pair[] {
  const clamp = (x: number): number => (Number.isNaN(x) ? 0 : Math.min(model.pairs.length, Math.max(0, Math.ceil(x))));
  const slice = model.pairs.slice(clamp(start), Math.max(clamp(start), clamp(end)));
  if (desc) slice.reverse();
  // The visitor returns false on its stopAfter-th call (0: never stops early).
  return stopAfter > 0 ? slice.slice(0, stopAfter) : slice;
}

function walk(index: OrderedIndex, start: number, end: number, desc: boolean, stopAfter: number): Pair[] {
  const seen: Pair[] = [];
  index.forEach(start, end, desc ? 'desc' : 'asc', (k, i) => {
    seen.push([k, i]);
    if (stopAfter > 0 && seen.length >= stopAfter) return false;
    // Alternate the two "keep going" answers the visitor type allows.
    return seen.length % 2 === 0 ? true : undefined;
  });
  return seen;
}

function run(options: OrderedIndexOptions, ops: readonly Op[]): void {
  const index = new OrderedIndex(options);
  const model = new Model();
  for (const o of ops) {
    switch (o.op) {
      case 'insert':
        expect(index.insert(o.key, o.id)).toBe(model.insert(o.key, o.id));
        break;
      case 'delete':
        expect(index.delete(o.key, o.id)).toBe(model.delete(o.key, o.id));
        break;
      case 'deleteExisting': {
        const victim = model.pairs[o.pick % Math.max(1, model.pairs.length)];
        if (victim === undefined) break;
        expect(index.delete(victim[0], victim[1])).toBe(model.delete(victim[0], victim[1]));
        expect(index.delete(victim[0], victim[1])).toBe(false);
        break;
      }
      case 'lowerBound':
      case 'upperBound':
        expect(index[o.op](o.key, o.id)).toBe(model[o.op](o.key, o.id));
        break;
      case 'prefix':
        expect(index.prefixBounds(o.prefix)).toEqual(model.prefixBounds(o.prefix));
        break;
      case 'prefixOfExisting': {
        const target = model.pairs[o.pick % Math.max(1, model.pairs.length)];
        if (target === undefined) break;
        const prefix = target[0].slice(0, target[0].length - (o.cut % (target[0].length + 1)));
        expect(index.prefixBounds(prefix)).toEqual(model.prefixBounds(prefix));
        expect(index.prefixBounds(target[0])).toEqual(model.prefixBounds(target[0]));
        break;
      }
      case 'at': {
        const pair = Number.isInteger(o.rank) ? model.pairs[o.rank] : undefined;
        expect(index.at(o.rank)).toEqual(pair === undefined ? undefined : { key: pair[0], id: pair[1] });
        break;
      }
      case 'forEach':
        expect(walk(index, o.start, o.end, o.desc, o.stopAfter)).toEqual(expectedWalk(model, o.start, o.end, o.desc, o.stopAfter));
        break;
      case 'forEachFrom': {
        // From the first pair >= (or >) the point to the end, as the rank-based walk sees it.
        const from = o.exclusive ? model.upperBound(o.key, o.id) : model.lowerBound(o.key, o.id);
        const seen: Pair[] = [];
        index.forEachFrom(o.key, o.id, o.exclusive, (k, i) => {
          seen.push([k, i]);
          return !(o.stopAfter > 0 && seen.length >= o.stopAfter);
        });
        expect(seen).toEqual(expectedWalk(model, from, Infinity, false, o.stopAfter));
        break;
      }
      case 'clear':
        index.clear();
        model.pairs = [];
        break;
    }
    expect(index.size).toBe(model.pairs.length);
    index.checkInvariants();
  }
  // Everything, both ways, and every rank.
  expect(walk(index, 0, Infinity, false, 0)).toEqual(model.pairs);
  expect(walk(index, -Infinity, index.size, true, 0)).toEqual([...model.pairs].reverse());
  model.pairs.forEach((p, r) => {
    expect(index.at(r)).toEqual({ key: p[0], id: p[1] });
    expect(index.lowerBound(p[0], p[1])).toBe(r);
    expect(index.upperBound(p[0], p[1])).toBe(r + 1);
  });
  expect(index.prefixBounds('')).toEqual({ start: 0, end: model.pairs.length });
}

describe('OrderedIndex against a sorted-array model', () => {
  test.prop([capacities, fc.array(op, { maxLength: 300 })], { numRuns: 300 })('random operation sequences', (options, ops) => {
    run(options, ops);
  });

  test.prop([fc.array(op, { maxLength: 300 })], { numRuns: 100 })('random sequences at the smallest capacities', (ops) => {
    run({ leafCapacity: 2, branchCapacity: 4 }, ops);
  });

  test.prop(
    [
      capacities,
      fc.array(fc.tuple(fc.constantFrom('', 'a', 'ab', 'b', 'a\u0000', 'a\uffff', 'a\ud800'), fc.integer({ min: 0, max: 40 })), { minLength: 1, maxLength: 200 }),
      fc.array(fc.nat(), { maxLength: 150 }),
    ],
    { numRuns: 200 },
  )('fill then drain: few keys with many ids, then deletes in random order', (options, inserts, deletes) => {
    const ops: Op[] = inserts.map(([k, n]) => ({ op: 'insert', key: k, id: String(n).padStart(2, '0') }));
    for (const pick of deletes) {
      ops.push({ op: 'deleteExisting', pick });
      ops.push({ op: 'prefixOfExisting', pick, cut: pick });
      ops.push({ op: 'forEach', start: pick % 20, end: (pick % 20) + 7, desc: pick % 2 === 0, stopAfter: pick % 5 });
    }
    run(options, ops);
  });
});

describe('prefixBounds at the edges of string order', () => {
  test('keys continuing with U+FFFF or surrogates stay inside the range; a sentinel would miss them', () => {
    const index = new OrderedIndex({ leafCapacity: 2, branchCapacity: 4 });
    const keys = ['a', 'a\u0000', 'a\uffff', 'a\uffff\uffff', 'a\ud83d\ude00', 'a\udfff', 'ab', 'b', '', '\u0000', '\uffff', '\uffffa'];
    keys.forEach((k, n) => index.insert(k, `id${n}`));
    const sorted = [...keys].sort();
    const count = (p: string): number => sorted.filter((k) => k.startsWith(p)).length;
    for (const p of ['', 'a', 'a\uffff', 'a\ud83d', '\uffff', '\u0000', 'c', 'ab', 'ac', 'a\uffff\uffff\uffff']) {
      const { start, end } = index.prefixBounds(p);
      expect(end - start, JSON.stringify(p)).toBe(count(p));
      expect(start).toBe(sorted.filter((k) => k < p).length);
    }
  });

  test('the empty key and the empty id are ordinary values', () => {
    const index = new OrderedIndex();
    expect(index.insert('', '')).toBe(true);
    expect(index.insert('', '')).toBe(false);
    expect(index.insert('', 'x')).toBe(true);
    expect(index.lowerBound('', '')).toBe(0);
    expect(index.upperBound('', '')).toBe(1);
    expect(index.prefixBounds('')).toEqual({ start: 0, end: 2 });
    expect(index.at(0)).toEqual({ key: '', id: '' });
    expect(index.delete('', '')).toBe(true);
    expect(index.size).toBe(1);
  });

  test('an empty index answers every query without throwing', () => {
    const index = new OrderedIndex();
    expect(index.size).toBe(0);
    expect(index.at(0)).toBeUndefined();
    expect(index.lowerBound('a', 'b')).toBe(0);
    expect(index.upperBound('a', 'b')).toBe(0);
    expect(index.prefixBounds('a')).toEqual({ start: 0, end: 0 });
    expect(index.delete('a', 'b')).toBe(false);
    index.forEach(0, 10, 'desc', () => {
      throw new Error('visited an entry of an empty index');
    });
    index.checkInvariants();
  });
});

describe('forEach with a visitor that changes the index', () => {
  test.prop([capacities, fc.array(fc.tuple(key, id), { maxLength: 120 }), rank, rank, fc.boolean()], { numRuns: 200 })(
    'deleting each visited entry visits exactly the original range',
    (options, pairs, start, end, desc) => {
      const index = new OrderedIndex(options);
      const model = new Model();
      for (const [k, i] of pairs) {
        index.insert(k, i);
        model.insert(k, i);
      }
      const expected = expectedWalk(model, start, end, desc, 0);
      const seen: Pair[] = [];
      index.forEach(start, end, desc ? 'desc' : 'asc', (k, i) => {
        seen.push([k, i]);
        expect(index.delete(k, i)).toBe(true);
      });
      expect(seen).toEqual(expected);
      expect(index.size).toBe(model.pairs.length - expected.length);
      index.checkInvariants();
    },
  );

  test.prop(
    [
      capacities,
      fc.array(fc.tuple(key, id), { maxLength: 80 }),
      rank,
      rank,
      fc.boolean(),
      fc.array(fc.oneof(fc.constant(null), fc.tuple(fc.boolean(), key, id)), { maxLength: 60 }),
    ],
    { numRuns: 200 },
  )('random inserts and deletes: the walk continues after the last visited pair up to the original far end', (options, pairs, start, end, desc, edits) => {
    const index = new OrderedIndex(options);
    const model = new Model();
    for (const [k, i] of pairs) {
      index.insert(k, i);
      model.insert(k, i);
    }
    const range = expectedWalk(model, start, end, desc, 0);
    const far = range[range.length - 1];
    const seen: Pair[] = [];
    const expected: Pair[] = [];
    let step = 0;
    let next: Pair | undefined = range[0];
    index.forEach(start, end, desc ? 'desc' : 'asc', (k, i) => {
      expected.push(next!);
      seen.push([k, i]);
      const edit = edits[step++];
      if (edit) {
        const [insert, ek, ei] = edit;
        expect(insert ? index.insert(ek, ei) : index.delete(ek, ei)).toBe(insert ? model.insert(ek, ei) : model.delete(ek, ei));
      }
      // The model's idea of the next pair: the neighbour of the one just visited, in the index as it now is.
      const current: Pair = [k, i];
      next = desc ? model.pairs.findLast((p) => less(p, current)) : model.pairs.find((p) => less(current, p));
      if (next !== undefined && far !== undefined && (desc ? less(next, far) : less(far, next))) next = undefined;
    });
    expect(next).toBeUndefined();
    expect(seen).toEqual(expected);
    index.checkInvariants();
  });

  test('clear() from inside the visitor ends the walk', () => {
    const index = new OrderedIndex({ leafCapacity: 2, branchCapacity: 4 });
    for (let n = 0; n < 50; n++) index.insert('k', String(n).padStart(2, '0'));
    let visits = 0;
    index.forEach(0, 50, 'asc', () => {
      visits++;
      index.clear();
    });
    expect(visits).toBe(1);
    expect(index.size).toBe(0);
  });
});

describe('options', () => {
  test('capacities out of range are rejected up front', () => {
    expect(() => new OrderedIndex({ leafCapacity: 1 })).toThrow(RangeError);
    expect(() => new OrderedIndex({ branchCapacity: 3 })).toThrow(RangeError);
    expect(() => new OrderedIndex({ leafCapacity: 2.5 })).toThrow(RangeError);
    expect(() => new OrderedIndex({ branchCapacity: 70000 })).toThrow(RangeError);
  });
});

/** Deterministic PRNG for the large run (mulberry32), so a failure reproduces. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('large indexes (default capacities, multi-level)', () => {
  /** Binary-searched model for big runs; the linear Model would take minutes. */
  function lowerBoundOf(sorted: readonly Pair[], p: Pair): number {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (less(sorted[mid]!, p)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function checkAgainst(index: OrderedIndex, sorted: readonly Pair[], random: () => number): void {
    expect(index.size).toBe(sorted.length);
    index.checkInvariants();
    let r = 0;
    index.forEach(0, index.size, 'asc', (k, i) => {
      const p = sorted[r++]!;
      if (p[0] !== k || p[1] !== i) expect([k, i]).toEqual(p);
    });
    expect(r).toBe(sorted.length);
    for (let n = 0; n < 2000 && sorted.length > 0; n++) {
      const rank = Math.floor(random() * sorted.length);
      const p = sorted[rank]!;
      expect(index.at(rank)).toEqual({ key: p[0], id: p[1] });
      expect(index.lowerBound(p[0], p[1])).toBe(rank);
      expect(index.upperBound(p[0], p[1] + '\u0000')).toBe(lowerBoundOf(sorted, [p[0], p[1] + '\u0000']));
      const prefix = p[0].slice(0, 1 + Math.floor(random() * p[0].length));
      const start = lowerBoundOf(sorted, [prefix, '']);
      // Keys with a common prefix are contiguous from `start`, so "still has the prefix" is
      // monotone over [start, n) and can be binary-searched without any sentinel key.
      let end = start;
      let hi = sorted.length;
      while (end < hi) {
        const mid = (end + hi) >>> 1;
        if (sorted[mid]![0].startsWith(prefix)) end = mid + 1;
        else hi = mid;
      }
      expect(index.prefixBounds(prefix)).toEqual({ start, end });
    }
  }

  test('150k random pairs with few distinct keys, then 90% deleted in random order', () => {
    const random = prng(42);
    const index = new OrderedIndex();
    const chars = ['a', 'b', '\u0000', '\uffff', '\ud83d\ude00'];
    const all: Pair[] = [];
    for (let n = 0; n < 150_000; n++) {
      let k = 'tenant' + chars[Math.floor(random() * chars.length)]!;
      for (let d = Math.floor(random() * 4); d > 0; d--) k += chars[Math.floor(random() * chars.length)]!;
      const p: Pair = [k, Math.floor(random() * 1e9).toString(36)];
      if (index.insert(p[0], p[1])) all.push(p);
    }
    const sorted = [...all].sort(compare);
    expect(sorted.length).toBeGreaterThan(100_000);
    checkAgainst(index, sorted, random);

    // Delete 90% in random order (Fisher-Yates over the insertion list).
    for (let n = all.length - 1; n > 0; n--) {
      const j = Math.floor(random() * (n + 1));
      [all[n], all[j]] = [all[j]!, all[n]!];
    }
    const doomed = all.slice(0, Math.floor(all.length * 0.9));
    expect(doomed.filter(([k, i]) => index.delete(k, i)).length).toBe(doomed.length);
    const gone = new Set(doomed.map(([k, i]) => `${k}\u0000\u0000${i}`));
    checkAgainst(
      index,
      sorted.filter(([k, i]) => !gone.has(`${k}\u0000\u0000${i}`)),
      random,
    );
    const rest = all.slice(doomed.length);
    expect(rest.filter(([k, i]) => index.delete(k, i)).length).toBe(rest.length);
    expect(index.size).toBe(0);
    index.checkInvariants();
  });

  test('120k ascending then 120k descending inserts, drained from the middle out', () => {
    const index = new OrderedIndex();
    const pad = (n: number): string => n.toString().padStart(7, '0');
    // Count successes instead of one expect per call: 240k expects dominate the run time.
    let inserted = 0;
    for (let n = 0; n < 120_000; n++) if (index.insert('asc', pad(n))) inserted++;
    for (let n = 120_000; n > 0; n--) if (index.insert('desc', pad(n))) inserted++;
    expect(inserted).toBe(240_000);
    expect(index.prefixBounds('asc')).toEqual({ start: 0, end: 120_000 });
    expect(index.prefixBounds('desc')).toEqual({ start: 120_000, end: 240_000 });
    expect(index.at(119_999)).toEqual({ key: 'asc', id: pad(119_999) });
    expect(index.at(120_000)).toEqual({ key: 'desc', id: pad(1) });
    index.checkInvariants();
    let removed = 0;
    for (let n = 60_000; n < 120_000; n++) {
      if (index.delete('asc', pad(n))) removed++;
      if (index.delete('asc', pad(119_999 - n))) removed++;
      if (removed % 20_000 === 0) index.checkInvariants();
    }
    expect(removed).toBe(120_000);
    expect(index.prefixBounds('asc')).toEqual({ start: 0, end: 0 });
    expect(index.size).toBe(120_000);
    const seen: string[] = [];
    index.forEach(0, index.size, 'desc', (k, i) => {
      seen.push(i);
      return seen.length < 3;
    });
    expect(seen).toEqual([pad(120_000), pad(119_999), pad(119_998)]);
    index.checkInvariants();
  });
});
