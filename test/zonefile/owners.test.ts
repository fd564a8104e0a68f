import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { CNAME_AFTER_DATA, CnameRule, DATA_AFTER_CNAME, NO_CLASH, OwnerTable, type ProbeCounter } from '../../src/zonefile/owners.js';

/**
 * The one owner table (engine and imports) and the one CNAME rule. The table's work is counted
 * (slots visited and Map operations through an injected counter), so the hash-flooding laws are
 * bounds on counts, which no load on the machine can change.
 */

/** The law the probe budget gives: one probe per look-up, plus the budget, plus one move to the Map. */
const bound = (lookups: number, expected: number): number => lookups + 8 * expected + 1024 + expected + 1;

/** Look-ups of (key, hash) pairs; hashes may be chosen by an attacker, so they come from few values. */
const ops = fc.array(
  fc.record({ key: fc.stringMatching(/^[a-z]{1,3}$/), hash: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 7 }), fc.integer()), add: fc.boolean() }),
  { maxLength: 400 },
);

describe('OwnerTable', () => {
  test.prop([ops, fc.boolean()], { numRuns: 300 })('numbers keys as a Map does, in order of first add, within the probe bound', (steps, filter) => {
    // The hash must be a function of the key: the first hash a key is given is its hash.
    const hashOf = new Map<string, number>();
    const counter: ProbeCounter = { probes: 0 };
    const table = new OwnerTable(steps.length, filter, counter);
    const model = new Map<string, number>();
    for (const { key, hash, add } of steps) {
      const h = hashOf.get(key) ?? hashOf.set(key, hash).get(key)!;
      // The filter may let absent keys through, never hold back a present one.
      if (model.has(key)) expect(table.mayHold(h)).toBe(true);
      const got = table.lookup(key, h, add);
      if (add && !model.has(key)) model.set(key, model.size);
      expect(got).toBe(model.get(key) ?? -1);
    }
    expect(table.count).toBe(model.size);
    expect(table.keys.slice(0, table.count)).toEqual([...model.keys()]);
    expect(counter.probes).toBeLessThanOrEqual(bound(steps.length, steps.length));
  });

  it('keys that all share one hash: moves to the Map and stays within the bound', () => {
    const n = 20000;
    const counter: ProbeCounter = { probes: 0 };
    const table = new OwnerTable(n, true, counter);
    for (let i = 0; i < n; i++) expect(table.lookup(`k${i}`, 12345, true)).toBe(i);
    for (let i = 0; i < n; i++) expect(table.lookup(`k${i}`, 12345, false)).toBe(i);
    expect(table.lookup('absent', 12345, false)).toBe(-1);
    expect(table.flooded).toBe(true);
    // Probed slot by slot, they would take about n^2 / 2 = 2 * 10^8 probes.
    expect(counter.probes).toBeLessThanOrEqual(bound(2 * n + 1, n));
  });

  it('keys whose different hashes crowd one run of slots: the same', () => {
    const n = 20000;
    const size = 65536; // the power of two at least twice n
    const counter: ProbeCounter = { probes: 0 };
    const table = new OwnerTable(n, false, counter);
    // Hashes with home slot 0, (h ^ h >>> 15) & (size - 1) = 0: for each choice of the high bits, the low bits that cancel them.
    const hashes: number[] = [];
    for (let top = 1; hashes.length < n; top++) {
      let low = 0;
      for (let k = 0; k < 3; k++) low = ((((top << 16) | low) >>> 0) >>> 15) & (size - 1);
      const h = (top << 16) | low;
      if (((h ^ (h >>> 15)) & (size - 1)) === 0) hashes.push(h);
    }
    expect(new Set(hashes).size).toBe(n);
    for (let i = 0; i < n; i++) expect(table.lookup(`k${i}`, hashes[i]!, true)).toBe(i);
    expect(table.flooded).toBe(true);
    expect(counter.probes).toBeLessThanOrEqual(bound(n, n));
  });

  it('ordinary keys do not move to the Map and average under 2.5 probes a look-up', () => {
    const n = 20000;
    const counter: ProbeCounter = { probes: 0 };
    const table = new OwnerTable(n, false, counter);
    for (let i = 0; i < n; i++) table.lookup(`k${i}`, Math.imul(i, -1640531527) ^ (i >>> 3), true);
    expect(table.flooded).toBe(false);
    expect(counter.probes / n).toBeLessThan(2.5);
  });

  it('more owners than expected move to the Map rather than overfill the table', () => {
    const table = new OwnerTable(2);
    expect([0, 1, 2, 3].map((i) => table.lookup(`k${i}`, i, true))).toEqual([0, 1, 2, 3]);
    expect(table.flooded).toBe(true);
    expect(table.lookup('k2', 2, false)).toBe(2);
  });
});

describe('CnameRule', () => {
  it('answers the clash each record makes, in the order given', () => {
    const rule = new CnameRule(3);
    expect(rule.add(0, -1)).toBe(NO_CLASH);
    expect(rule.add(0, 7)).toBe(CNAME_AFTER_DATA);
    expect(rule.add(1, 8)).toBe(NO_CLASH);
    expect(rule.previous).toBe(-1);
    expect(rule.add(1, 9)).toBe(NO_CLASH);
    expect(rule.previous).toBe(8);
    expect(rule.lastCname(1)).toBe(9);
    expect(rule.add(1, -1)).toBe(DATA_AFTER_CNAME);
    expect(rule.lastCname(2)).toBe(-1);
  });

  it('lets NSEC, NSEC3, RRSIG and KEY stand beside a CNAME, and nothing else', () => {
    const beside = [25, 46, 47, 50];
    for (let type = 0; type < 65536; type++) expect(CnameRule.counts(type)).toBe(!beside.includes(type));
  });

  test.prop([fc.array(fc.tuple(fc.nat(4), fc.boolean()), { maxLength: 60 })])('a clash is reported exactly when an owner first holds a CNAME and other data', (records) => {
    const rule = new CnameRule(5);
    const seen = Array.from({ length: 5 }, () => ({ cname: false, other: false }));
    records.forEach(([owner, isCname], i) => {
      const s = seen[owner]!;
      const expected = isCname ? (s.other ? CNAME_AFTER_DATA : NO_CLASH) : s.cname ? DATA_AFTER_CNAME : NO_CLASH;
      if (isCname) s.cname = true;
      else s.other = true;
      expect(rule.add(owner, isCname ? i : -1)).toBe(expected);
    });
  });
});
