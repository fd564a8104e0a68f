/**
 * The checks of stored values (src/kernel/stored.ts): a field table says what a stored value is,
 * and where a collection also has a written-out check for speed (zones), the two agree on every
 * value: each field spoiled in every way, and sound zones made by the service.
 */
import { describe, expect, it } from 'vitest';
import { createDnsService, memoryStorage } from '../../src/index.js';
import { CorruptValue } from '../../src/kernel/command.js';
import { checked, isInteger, isString, orNull, shapeCheck, type Collection } from '../../src/kernel/stored.js';
import { ZONE_SHAPE, zoneRepository } from '../../src/dns/kernel/zone-store.js';

const SPOILS: readonly unknown[] = [undefined, null, 'x', '', 7, 1.5, -0.5, Number.NaN, 2 ** 60, true, {}, [], ['x'], { a: 1 }, { a: 'b' }];

async function soundZones(): Promise<Record<string, unknown>[]> {
  const storage = memoryStorage();
  const dns = createDnsService({ storage });
  const alice = { projectId: 'alice', roles: ['member'] };
  const a = (await dns.zones.create(alice, { name: 'a.com.', email: 'h@a.com', description: 'd', attributes: { k: 'v' } }))._unsafeUnwrap();
  await dns.zones.create(alice, { name: 'sub.a.com.', email: 'h@a.com' });
  await dns.zones.create(alice, { name: 's.com.', type: 'SECONDARY', masters: ['192.0.2.1'] });
  await dns.zones.update(alice, a.id, { ttl: 900 });
  const snapshot = await dns.snapshot();
  return (snapshot.collections['dns.zones'] ?? []).map((r) => r.value as Record<string, unknown>);
}

describe('the zone check written out agrees with the zone field table', () => {
  const c = zoneRepository.collection;

  it('passes every zone the service stores, in both forms', async () => {
    const zones = await soundZones();
    expect(zones.length).toBe(3);
    for (const z of zones) {
      expect(c.problem(z)).toBeUndefined();
      expect(c.is!(z)).toBe(true);
    }
  });

  it('agrees on every field spoiled in every way', async () => {
    const [zone] = await soundZones();
    let refused = 0;
    for (const field of Object.keys(ZONE_SHAPE)) {
      for (const bad of SPOILS) {
        const spoiled = { ...zone, [field]: bad };
        const problem = c.problem(spoiled);
        expect(c.is!(spoiled), `${field} = ${String(bad)}: the table says ${problem ?? 'sound'}`).toBe(problem === undefined);
        if (problem !== undefined) refused += 1;
      }
    }
    // Every field has spoils the table refuses, so no field goes unchecked by either form.
    expect(refused).toBeGreaterThan(Object.keys(ZONE_SHAPE).length * 5);
  });

  it('refuses what is not an object at all, in both forms', () => {
    for (const bad of [null, undefined, 'zone', 3, [], [1]]) {
      expect(c.is!(bad)).toBe(false);
      expect(c.problem(bad)).toMatch(/not an object/);
    }
  });
});

describe('checked', () => {
  interface Item {
    readonly id: string;
    readonly n: number;
    readonly note: string | null;
  }
  const items: Collection<Item> = {
    name: 'items',
    problem: shapeCheck({ id: isString, n: isInteger, note: orNull(isString) }),
    idOf: (i) => i.id,
    keys: () => ({}),
  };

  it('answers a sound value as it is', () => {
    const v = { id: 'a', n: 1, note: null };
    expect(checked(items, 'a', v)).toBe(v);
  });

  it('names the collection, the id and the first field that fails', () => {
    expect(() => checked(items, 'a', { id: 'a', n: 'one', note: null })).toThrow(CorruptValue);
    expect(() => checked(items, 'a', { id: 'a', n: 'one', note: null })).toThrow("items/a that is not one it stores (n is the string 'one')");
  });

  it('refuses a sound value filed under another id', () => {
    expect(() => checked(items, 'a', { id: 'b', n: 1, note: null })).toThrow('it carries the id b');
  });
});
