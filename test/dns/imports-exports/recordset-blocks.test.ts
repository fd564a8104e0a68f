/**
 * Imported recordsets are stored in blocks (src/dns/kernel/recordset.ts). These tests pin what
 * that must not change: every page in the default order equals the page of the whole zone sorted
 * as the list sorts it, every get finds what the list shows, and a page or a get reads a few
 * blocks, never the zone.
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../src/adapters/memory/memory-storage.js';
import { createDnsDeps, createDnsService } from '../../../src/dns/service.js';
import { createExportCommands } from '../../../src/dns/exports/index.js';
import { createImportCommands } from '../../../src/dns/imports/index.js';
import { BLOCK_RECORDS, BLOCK_RECORDSETS, drawSortedIds, drawSortedPacked, sortedIdAt, sortedIdCount, takeSmallest, type SortedIds } from '../../../src/dns/kernel/blocks.js';
import { uuidV4Source } from '../../../src/kernel/uuid.js';
import { getRecordset, listRecordsets } from '../../../src/dns/recordsets/recordset-commands.js';
import type { RecordsetBody } from '../../../src/dns/kernel/recordset-body.js';
import { inspectDns, manualClock, seededRandom, sequentialIds } from '../../../src/testing/index.js';
import { deleteZone } from '../../../src/dns/zones/zone-commands.js';
import { countingStorage } from '../recordsets/counting-storage.js';
import { RECORDSETS } from '../../../src/dns/kernel/recordset.js';

const alice = { projectId: 'alice', roles: ['member'] };

/** Random lower-case UUIDs from a seed, so managed and imported ids interleave in id order. */
function seededIds(seed: string): () => string {
  const random = seededRandom(seed);
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  return () => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
}


/** A zone file with `sets` recordsets, a few of them large enough to fill a block on their own. */
function bigZoneFile(sets: number): string {
  const lines = ['$ORIGIN example.com.', '$TTL 300', '@ IN SOA ns1.example.com. admin.example.com. 7 7200 3600 1209600 300', '@ NS ns1.example.com.'];
  for (let i = 0; i < sets; i++) {
    if (i % 500 === 17) {
      for (let k = 0; k < BLOCK_RECORDS + 5; k++) lines.push(`big${i} 60 TXT "r${k}"`);
    } else if (i % 3 === 0) lines.push(`h${i} A 192.0.2.${i % 250}`, `h${i} A 192.0.2.${(i % 250) + 1}`);
    else lines.push(`h${i} ${i % 7 === 0 ? '600 ' : ''}AAAA 2001:db8::${i.toString(16)}`);
  }
  // A recordset whose records are not consecutive in the file.
  lines.push('h1 AAAA 2001:db8::ffff');
  return `${lines.join('\n')}\n`;
}

/** Ids of two lengths (braced UUIDs are UUIDs too), so blocks keep them as arrays. */
function mixedIds(seed: string): () => string {
  const ids = seededIds(seed);
  let n = 0;
  return () => (n++ % 3 === 0 ? `{${ids()}}` : ids());
}

async function importedZone(seed: string, sets: number) {
  const storage = countingStorage(memoryStorage());
  const deps = createDnsDeps({
    storage,
    clock: manualClock('2026-01-02T03:04:05Z'),
    ids: seed.startsWith('mixed') ? mixedIds(seed) : seededIds(seed),
    random: () => 0.5,
    quotas: { zone_recordsets: -1, zone_records: -1, recordset_records: -1, api_export_size: -1 },
  });
  const imports = createImportCommands(deps);
  const created = (await imports.create(alice, bigZoneFile(sets), 'text/dns'))._unsafeUnwrap();
  await deps.tasks.settle();
  const done = (await imports.get(alice, created.id))._unsafeUnwrap();
  expect(done.status).toBe('COMPLETE');
  const zoneId = done.zone_id!;
  const all = [...(await inspectDns(storage).recordsets(zoneId))];
  return { deps, storage, zoneId, all };
}

type Page = { recordsets: RecordsetBody[]; links: { self: string; next?: string }; metadata: { total_count: number } };

describe('recordsets stored in blocks', () => {
  it('holds creation order as id order, and spreads the zone over many blocks', async () => {
    const { all, storage, zoneId } = await importedZone('order', 1200);
    const stored = all.slice(2);
    expect(stored.length).toBe(1201 - 1);
    const ids = stored.map((r) => r.id);
    expect(ids).toEqual([...ids].sort());
    expect(stored[0]!.name).toBe('h0.example.com.');
    expect(stored.find((r) => r.name === 'h1.example.com.')!.records).toEqual(['2001:db8::1', '2001:db8::ffff']);
    const blocks = await storage.transaction((tx) => tx.count(RECORDSETS, 'zone'));
    expect(blocks).toBeGreaterThanOrEqual(Math.ceil(stored.length / BLOCK_RECORDSETS));
    expect(blocks).toBeLessThan(stored.length / 100);
    const big = stored.find((r) => r.name === 'big17.example.com.')!;
    expect(big.records).toHaveLength(BLOCK_RECORDS + 5);
    void zoneId;
  });

  it('lists SOA and NS first whatever the ids, then the file in creation order (as the real service)', async () => {
    for (const seed of ['first-a', 'first-b', 'first-c', 'mixed-first']) {
      const { deps, zoneId, all } = await importedZone(seed, 300);
      const page = (await listRecordsets(deps, alice, zoneId, { limit: '5' }))._unsafeUnwrap() as Page;
      expect(page.recordsets.map((r) => r.type).slice(0, 2)).toEqual(['SOA', 'NS']);
      expect(page.recordsets[2]!.name).toBe('h0.example.com.');
      // Every id is still that of one recordset, SOA and NS included.
      expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
      expect((await getRecordset(deps, alice, zoneId, page.recordsets[0]!.id))._unsafeUnwrap().type).toBe('SOA');
    }
  });

  for (const [sortKey, sortDir, ids] of [
    ['created_at', 'asc', 'uuids'],
    ['created_at', 'desc', 'uuids'],
    ['id', 'asc', 'uuids'],
    ['id', 'desc', 'mixed'],
    ['created_at', 'asc', 'mixed'],
  ] as const) {
    {
      it(`pages by ${sortKey} ${sortDir} exactly as the whole zone sorted, reading a few blocks per page (${ids} ids)`, async () => {
        const { deps, storage, zoneId, all } = await importedZone(`${ids}-${sortKey}-${sortDir}`, 1100);
        const expected = [...all].sort((a, b) => (a.id < b.id ? -1 : 1) * (sortDir === 'asc' ? 1 : -1));
        for (const limit of [1, 7, 256, 1000]) {
          const seen: RecordsetBody[] = [];
          let marker: string | undefined;
          for (let pages = 0; pages < 2000; pages++) {
            const query = { limit: String(limit), sort_key: sortKey, sort_dir: sortDir, ...(marker === undefined ? {} : { marker }) };
            storage.rows = 0;
            const page = (await listRecordsets(deps, alice, zoneId, query))._unsafeUnwrap() as Page;
            // One block to find the marker, then as many as the page needs: never the zone.
            expect(storage.rows).toBeLessThanOrEqual(2 + 4 * Math.ceil(limit / 4));
            // The real service counts 0 on a page with no rows (past the last recordset).
            expect(page.metadata.total_count).toBe(page.recordsets.length === 0 ? 0 : all.length);
            if (pages % 16 === 0) {
              // Equal to what a filter that matches everything answers (the path that sorts the whole zone).
              const slow = (await listRecordsets(deps, alice, zoneId, { ...query, status: '*' }))._unsafeUnwrap() as Page;
              expect(page.recordsets).toEqual(slow.recordsets);
              expect(slow.metadata.total_count).toBe(slow.recordsets.length === 0 ? 0 : all.length);
            }
            seen.push(...page.recordsets);
            if (page.links.next === undefined) break;
            expect(page.links.next).toContain(`marker=${encodeURIComponent(page.recordsets[page.recordsets.length - 1]!.id)}`);
            marker = page.recordsets[page.recordsets.length - 1]!.id;
          }
          expect(seen).toEqual(expected);
        }
      });
    }
  }

  it('drops duplicate records of a large recordset, wherever they sit in the file', async () => {
    const lines = ['$ORIGIN example.com.', '@ 300 IN SOA ns1.example.com. admin.example.com. 7 7200 3600 1209600 300'];
    for (let k = 0; k < 100; k++) lines.push(`many 60 TXT "r${k % 40}"`, `other${k} 60 A 192.0.2.1`);
    const storage = memoryStorage();
    const dns = createDnsService({ storage, quotas: { zone_recordsets: -1, zone_records: -1, recordset_records: -1 } });
    const created = (await dns.imports.create(alice, `${lines.join('\n')}\n`, 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    const zoneId = (await dns.imports.get(alice, created.id))._unsafeUnwrap().zone_id!;
    const many = (await inspectDns(storage).recordsets(zoneId)).find((r) => r.name === 'many.example.com.')!;
    expect(many.records).toEqual(Array.from({ length: 40 }, (_, k) => `"r${k}"`));
    expect((await dns.zones.get(alice, zoneId)).isOk()).toBe(true);
  });

  it.each(['get', 'mixed-get'])('gets every recordset by id from one block, and nothing of another zone (%s)', async (seed) => {
    const one = await importedZone(seed, 700);
    for (const r of one.all) {
      one.storage.rows = 0;
      expect((await getRecordset(one.deps, alice, one.zoneId, r.id))._unsafeUnwrap()).toEqual(r);
      expect(one.storage.rows).toBeLessThanOrEqual(1);
    }
    const other = await importedZone('other', 10);
    const foreign = other.all[2]!.id;
    expect((await getRecordset(one.deps, alice, one.zoneId, foreign))._unsafeUnwrapErr().type).toBe('recordset_not_found');
    expect((await getRecordset(one.deps, alice, one.zoneId, 'ffffffff-ffff-4fff-8fff-ffffffffffff'))._unsafeUnwrapErr().type).toBe(
      'recordset_not_found',
    );
    expect((await getRecordset(one.deps, alice, one.zoneId, '00000000-0000-4000-8000-000000000000'))._unsafeUnwrapErr().type).toBe(
      'recordset_not_found',
    );
  });

  it('takes a marker from the zone only (managed SOA and NS included)', async () => {
    const { deps, zoneId, all } = await importedZone('marker', 300);
    const soa = all[0]!;
    const sorted = [...all].sort((a, b) => (a.id < b.id ? -1 : 1));
    const at = sorted.findIndex((r) => r.id === soa.id);
    const page = (await listRecordsets(deps, alice, zoneId, { marker: soa.id, limit: '5' }))._unsafeUnwrap() as Page;
    expect(page.recordsets).toEqual(sorted.slice(at + 1, at + 6));
    for (const marker of ['ffffffff-ffff-4fff-8fff-ffffffffffff', '00000000-0000-4000-8000-000000000000']) {
      expect((await listRecordsets(deps, alice, zoneId, { marker }))._unsafeUnwrapErr().type).toBe('marker_not_found');
      expect((await listRecordsets(deps, alice, zoneId, { marker, type: 'A' }))._unsafeUnwrapErr().type).toBe('marker_not_found');
    }
  });

  it('exports every block in creation order, and deleting the zone removes every block', async () => {
    const { deps, storage, zoneId, all } = await importedZone('export', 600);
    const exports = createExportCommands(deps);
    const ex = (await exports.create(alice, zoneId))._unsafeUnwrap();
    await deps.tasks.settle();
    const text = (await exports.file(alice, ex.id))._unsafeUnwrap();
    const lines = text.split('\n').filter((l) => l !== '' && !l.startsWith('$'));
    const expected = all.flatMap((r) => r.records.map((d) => `${r.name} ${r.ttl === null ? '' : r.ttl} IN ${r.type} ${d}`));
    expect(lines).toEqual(expected);
    expect((await deleteZone(deps, { projectId: 'alice', roles: ['admin'] }, zoneId)).isOk()).toBe(true);
    await deps.tasks.settle();
    expect(await storage.transaction((tx) => tx.count(RECORDSETS, 'zone'))).toBe(0);
  });

  it('restores from a snapshot into a service that pages and gets the same', async () => {
    const storage = memoryStorage();
    const options = {
      storage,
      clock: manualClock('2026-01-02T03:04:05Z'),
      ids: seededIds('snap'),
      random: () => 0.5,
      quotas: { zone_recordsets: -1, zone_records: -1, recordset_records: -1, api_export_size: -1 },
    };
    const dns = createDnsService(options);
    const created = (await dns.imports.create(alice, bigZoneFile(400), 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    const zoneId = (await dns.imports.get(alice, created.id))._unsafeUnwrap().zone_id!;
    const snapshot = await dns.snapshot();
    const copy = createDnsService({ ...options, storage: memoryStorage(), from: JSON.parse(JSON.stringify(snapshot)) as typeof snapshot });
    for (const query of [{ limit: '50' }, { limit: '50', sort_dir: 'desc' }, { limit: '3', type: 'AAAA' }]) {
      expect((await copy.recordsets.list(alice, zoneId, query))._unsafeUnwrap()).toEqual((await dns.recordsets.list(alice, zoneId, query))._unsafeUnwrap());
    }
    const some = (await inspectDns(storage).recordsets(zoneId))[200]!;
    expect((await copy.recordsets.get(alice, zoneId, some.id))._unsafeUnwrap()).toEqual(some);
  });

  it('refuses a snapshot holding a collection it does not store (one row per recordset, as older versions kept them)', () => {
    const older = { format: 1 as const, service: 'dns' as const, collections: { 'dns.zones': [], 'dns.recordsets': [{ id: 'r', value: {} }] } };
    expect(() => createDnsService({ storage: memoryStorage(), from: older })).toThrow(/does not know \(dns\.recordsets\)/);
  });
});

describe('drawSortedIds', () => {
  const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  /** Draws the ids of `ids` in turn, counting the draws. */
  const drawn = (ids: readonly string[]): { sorted: string[]; draws: number } => {
    let draws = 0;
    const sorted = drawSortedIds(ids.length, () => ids[draws++]!);
    return { sorted, draws };
  };
  const hex = fc.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}$/);
  fcTest.prop([fc.array(fc.oneof(hex, fc.constantFrom('0000000a-0000', '0000000a-0001', 'ffffffff-ffff')), { maxLength: 300 })])(
    'draws each id once and orders hex ids as a string sort does, ties on the first 8 digits included',
    (ids) => {
      expect(drawn(ids)).toEqual({ sorted: [...ids].sort(byString), draws: ids.length });
    },
  );
  fcTest.prop([fc.array(fc.string(), { maxLength: 100 })])('orders any other ids as a string sort does', (ids) => {
    expect(drawn(ids).sorted).toEqual([...ids].sort(byString));
  });
  it('keeps ids drawn in order as they are, and orders the usual sources', () => {
    const counting = sequentialIds();
    const ordered = Array.from({ length: 1000 }, () => counting());
    expect(drawn(ordered).sorted).toEqual(ordered);
    const random = Array.from({ length: 1000 }, () => crypto.randomUUID());
    expect(drawn(random).sorted).toEqual([...random].sort(byString));
  });
});

describe('drawSortedPacked', () => {
  const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const all = (ids: SortedIds): string[] => Array.from({ length: sortedIdCount(ids) }, (_, i) => sortedIdAt(ids, i));
  /** The bytes of `count` ids, some sharing their first four bytes (so ties are ordered by the rest). */
  const idBytes = (count: number) =>
    fc.uint8Array({ minLength: 16 * count, maxLength: 16 * count }).chain((b) =>
      fc.array(fc.nat(Math.max(0, count - 1)), { maxLength: count === 0 ? 0 : 8 }).map((twins) => {
        for (const t of twins) b.copyWithin(16 * t, 0, 4);
        return b;
      }),
    );
  /** A default-shaped source replaying `bytes`, in one call of `binary` or one id at a time. */
  const replaying = (bytes: Uint8Array) => {
    let at = 0;
    return uuidV4Source((into) => {
      into.set(bytes.subarray(at, at + into.length));
      at += into.length;
    });
  };
  fcTest.prop([fc.integer({ min: 1, max: 300 }).chain(idBytes)], { numRuns: 40 })(
    'packs the ids of the default source as drawing them one by one and sorting them does',
    (bytes) => {
      const count = bytes.length / 16;
      const one = replaying(bytes);
      const expected = Array.from({ length: count }, () => one()).sort(byString);
      const packed = drawSortedPacked(count, replaying(bytes));
      expect(Array.isArray(packed)).toBe(false);
      expect(all(packed)).toEqual(expected);
    },
  );
  it('draws from any other source one id at a time', () => {
    const ids = ['b', 'a', 'c'];
    let n = 0;
    expect(drawSortedPacked(3, () => ids[n++]!)).toEqual(['a', 'b', 'c']);
  });
  fcTest.prop([fc.integer({ min: 0, max: 60 }).chain(idBytes), fc.array(fc.uuid(), { maxLength: 2 }), fc.boolean()], { numRuns: 60 })(
    'takeSmallest: the smallest of both, the rest still ascending, packed or not',
    (bytes, extra, packed) => {
      const count = bytes.length / 16;
      const ids = packed && count > 0 ? drawSortedPacked(count, replaying(bytes)) : all(drawSortedPacked(count, replaying(bytes)));
      const merged = [...all(ids), ...extra].sort(byString);
      const { smallest, rest } = takeSmallest(ids, extra);
      expect(smallest).toEqual(merged.slice(0, extra.length));
      expect(all(rest)).toEqual(merged.slice(extra.length));
    },
  );
});
