/**
 * The owner index of imported recordsets (src/dns/kernel/owner-index.ts) on its own, at
 * layouts the service's tests do not reach cheaply: many rows, and three-character entries (a
 * zone of more than 2^18 blocks). Law: every block holding a name is among the blocks the look-up
 * of that name answers, and names that are not there lead to almost no block.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDnsService, memoryStorage, type RequestContext } from '../../../src/index.js';
import { seededRandom, sequentialIds } from '../../../src/testing/index.js';
import { countingStorage } from './counting-storage.js';
import { blocksNamed, ownerNameHash, putOwnerRows, type OwnerKey } from '../../../src/dns/kernel/owner-index.js';
import { collidingOwners, unkeyedHash } from '../../support/colliding-names.js';
import { importedZoneKeys, RECORDSET_ZONES, RECORDSETS, type ImportedZone, type RecordsetBlock } from '../../../src/dns/kernel/recordset.js';
import type { Zone } from '../../../src/dns/kernel/zone.js';

const zone = { id: '11111111-2222-4333-8444-555555555555', name: 'Owners.Test.' } as Zone;

const KEY: OwnerKey = [0x5eed, 0xc0ffee];

/** Blocks as the index reads them: only their names matter. */
const blocksOf = (names: readonly (readonly string[])[]): RecordsetBlock[] => names.map((n) => ({ names: n }) as unknown as RecordsetBlock);

async function indexed(names: readonly (readonly string[])[]) {
  const storage = memoryStorage();
  const blocks = blocksOf(names);
  const hashes = Uint32Array.from(names.flat(), (n) => ownerNameHash(n, zone.name, KEY));
  await storage.transaction(async (tx) => {
    const ownerBits = await putOwnerRows(tx, zone, blocks, hashes);
    const row: ImportedZone = { zoneId: zone.id, projectId: 'p', createdAt: 0, ownerBits, ownerKey: KEY };
    await tx.put(RECORDSET_ZONES, zone.id, row, importedZoneKeys(row));
  });
  return (name: string): Promise<number[]> => storage.transaction((tx) => blocksNamed(tx, zone, name));
}

describe('the owner index', () => {
  it('finds every block of every name, over several rows (generated zones)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6000 }), fc.integer({ min: 1, max: 40 }), fc.nat(), async (owners, perBlock, salt) => {
        // Owners in runs of one to three recordsets, blocks cut every `perBlock` recordsets (so runs straddle blocks).
        const flat: string[] = [];
        for (let o = 0; o < owners; o++) for (let k = 0; k <= (o + salt) % 3; k++) flat.push(o % 5 === 0 ? `H${o}-${salt}.owners.test.` : `h${o}-${salt}.Owners.Test.`);
        const names: string[][] = [];
        for (let i = 0; i < flat.length; i += perBlock) names.push(flat.slice(i, i + perBlock));
        const lookup = await indexed(names);
        const where = new Map<string, Set<number>>();
        names.forEach((b, n) => b.forEach((name) => where.set(name, (where.get(name) ?? new Set()).add(n))));
        for (const [name, blocks] of [...where].filter((_, i) => i % 7 === 0)) {
          const found = new Set(await lookup(name));
          for (const n of blocks) expect(found.has(n), `${name} in block ${n}`).toBe(true);
        }
        let stray = 0;
        for (let i = 0; i < 200; i++) stray += (await lookup(`absent${i}.owners.test.`)).length;
        expect(stray).toBeLessThanOrEqual(2);
      }),
      { numRuns: 25, seed: 19 },
    );
  });

  it('packs entries in three characters when a zone has more than 2^18 blocks', async () => {
    const count = (1 << 18) + 5;
    const names = Array.from({ length: count }, (_, n) => [`n${n}.owners.test.`]);
    const lookup = await indexed(names);
    for (const n of [0, 1, 4095, 1 << 17, (1 << 18) - 1, 1 << 18, count - 1]) expect(await lookup(`n${n}.owners.test.`)).toContain(n);
    expect(await lookup('absent.owners.test.')).toEqual([]);
  });

  // Names that share one hash put their entries under one key: a write at any of them reads
  // every block that holds one. Under the unkeyed FNV-1a the index used, anyone could make
  // thousands of such names offline (collidingOwners) and spread them one a block, so that every
  // later write in the zone at one of them read them all (64 here, and a million-record file
  // can hold 4,096 such blocks); keyed per zone, they lead to their own block as any name does.
  it('an import crafted for its owner names to collide costs a write at one of them a block read, as for any name', async () => {
    const names = collidingOwners(6);
    expect(new Set(names.map(unkeyedHash)).size).toBe(1);
    const lines = ['$ORIGIN attack.test.', '$TTL 300', '@ IN SOA ns1.example.org. h.attack.test. 1 3600 600 86400 300', '@ IN NS ns1.example.org.'];
    // 256 other owners after each: a block holds at most 256 recordsets, so each colliding name is in a block of its own.
    names.forEach((n, i) => {
      lines.push(`${n} IN A 192.0.2.1`);
      for (let j = 0; j < 256; j++) lines.push(`f${i}-${j} IN A 192.0.2.2`);
    });
    const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
    const storage = countingStorage(memoryStorage());
    const dns = createDnsService({ storage, ids: sequentialIds(), random: seededRandom(3), quotas: { zone_recordsets: -1, zone_records: -1 } });
    const imp = (await dns.imports.create(alice, `${lines.join('\n')}\n`, 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    const z = (await dns.imports.get(alice, imp.id))._unsafeUnwrap().zone_id!;
    expect(z).not.toBeNull();
    for (const at of [5, 40]) {
      storage.reads.clear();
      expect((await dns.recordsets.create(alice, z, { name: `${names[at]}.attack.test.`, type: 'TXT', records: ['"x"'] })).isOk()).toBe(true);
      expect(storage.reads.get(RECORDSETS) ?? 0).toBeLessThanOrEqual(2);
    }
  });
});
