import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../src/adapters/memory/memory-storage.js';
import { DNS_COLLECTIONS } from '../../../src/dns/service.js';
import { restoreSnapshot, takeSnapshot } from '../../../src/kernel/snapshot.js';
import { EXPORT_COLLECTIONS } from '../../../src/dns/exports/index.js';
import { IMPORT_COLLECTIONS } from '../../../src/dns/imports/index.js';
import { alice, FIXTURE, generatedZone, harness } from './harness.js';
import { createDnsService, type DnsService } from '../../../src/index.js';
import type { DnsEvent } from '../../../src/dns/kernel/events.js';
import { manualClock, seededRandom, sequentialIds } from '../../../src/testing/index.js';

const KEYS = { ...DNS_COLLECTIONS, ...IMPORT_COLLECTIONS, ...EXPORT_COLLECTIONS };

describe('snapshots', () => {
  it('hold imports, exports and their pending tasks; a restore finishes them', async () => {
    const h = harness({ mode: 'manual' });
    const imported = (await h.imports.create(alice, FIXTURE, 'text/dns'))._unsafeUnwrap();
    const snap = await takeSnapshot(h.deps.storage, 'dns', KEYS);
    expect(snap.collections['dns.imports']).toHaveLength(1);

    const storage = memoryStorage();
    await restoreSnapshot(storage, snap, KEYS);
    const restored = harness({ storage, mode: 'manual' });
    await restored.tasks.recount();
    expect(restored.tasks.pending()).toBe(1);
    await restored.tasks.settle();
    const done = (await restored.imports.get(alice, imported.id))._unsafeUnwrap();
    expect(done.status).toBe('COMPLETE');
    const listed = (await restored.imports.list(alice))._unsafeUnwrap() as { imports: { id: string }[] };
    expect(listed.imports.map((i) => i.id)).toEqual([imported.id]);

    const exp = (await restored.exports.create(alice, done.zone_id!))._unsafeUnwrap();
    const again = memoryStorage();
    await restoreSnapshot(again, await takeSnapshot(storage, 'dns', KEYS), KEYS);
    const third = harness({ storage: again, mode: 'manual' });
    await third.tasks.recount();
    await third.tasks.settle();
    expect((await third.exports.get(alice, exp.id))._unsafeUnwrap().status).toBe('COMPLETE');
    expect(((await third.exports.list(alice, { zone_id: done.zone_id! }))._unsafeUnwrap() as { exports: unknown[] }).exports).toHaveLength(1);
    expect((await third.exports.file(alice, exp.id))._unsafeUnwrap()).toContain('delegation.example.com. 10800 IN NS ns1.example.com.\n\n\n');
  });
});

/**
 * Everything a caller can see of a service's imports and zones, with ids renamed in the order they
 * are first met (the restored service draws its own, from its own source) and the events that
 * followed the snapshot.
 */
async function visible(dns: DnsService, events: readonly DnsEvent[]): Promise<unknown> {
  const names = new Map<string, string>();
  const rename = (v: unknown): unknown => {
    if (typeof v === 'string') {
      return v.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
        if (!names.has(id)) names.set(id, `id${names.size}`);
        return names.get(id)!;
      });
    }
    if (Array.isArray(v)) return v.map(rename);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rename(x)]));
    return v;
  };
  const imports = (await dns.imports.list(alice))._unsafeUnwrap();
  const zones = (await dns.zones.list(alice))._unsafeUnwrap();
  const out: unknown[] = [imports, zones, dns.tasks.pending()];
  for (const i of (imports as { imports: { id: string }[] }).imports) out.push(await dns.imports.get(alice, i.id));
  for (const z of zones.zones) {
    out.push(await dns.zones.get(alice, z.id), await dns.zones.nameservers(alice, z.id));
    const page = (await dns.recordsets.list(alice, z.id, { limit: 1000 }))._unsafeUnwrap();
    out.push(page);
    for (const r of page.recordsets) out.push(await dns.recordsets.get(alice, z.id, r.id));
    const exported = (await dns.exports.create(alice, z.id))._unsafeUnwrap();
    await dns.tasks.settle();
    out.push((await dns.exports.file(alice, exported.id))._unsafeUnwrap());
  }
  out.push(events.map((e) => [e.type, e.payload]));
  return rename(JSON.parse(JSON.stringify(out)));
}

describe('a snapshot taken at any point of a manual-mode import', () => {
  const file = generatedZone(60, 3);
  const options = { clock: manualClock('2026-01-02T03:04:05.678Z'), tasks: 'manual' as const };

  it('restores into a service that finishes it exactly as the original does (everything visible, ids renamed)', async () => {
    for (let point = 0; ; point++) {
      const original = createDnsService({ ...options, ids: sequentialIds('a'), random: seededRandom('original') });
      (await original.imports.create(alice, file, 'text/dns'))._unsafeUnwrap();
      let ran = 0;
      while (ran < point && (await original.tasks.runNext())) ran++;
      const snapshot = JSON.parse(JSON.stringify(await original.snapshot())) as Awaited<ReturnType<DnsService['snapshot']>>;
      const left = original.tasks.pending();
      // Its own id and random sources: what a pending task needs must come from the snapshot.
      const restored = createDnsService({ ...options, ids: sequentialIds('b'), random: seededRandom('restored'), from: snapshot });
      const seen: [DnsEvent[], DnsEvent[]] = [[], []];
      original.events.subscribe((e) => seen[0].push(e));
      restored.events.subscribe((e) => seen[1].push(e));
      await original.tasks.settle();
      await restored.tasks.settle();
      expect(await visible(restored, seen[1]), `snapshot after ${point} task(s)`).toEqual(await visible(original, seen[0]));
      if (left === 0) break;
    }
  });
});
