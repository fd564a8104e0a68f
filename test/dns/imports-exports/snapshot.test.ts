import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../src/adapters/memory/memory-storage.js';
import { DNS_COLLECTIONS } from '../../../src/dns/service.js';
import { restoreSnapshot, takeSnapshot } from '../../../src/kernel/snapshot.js';
import { EXPORT_COLLECTIONS } from '../../../src/dns/exports/index.js';
import { IMPORT_COLLECTIONS } from '../../../src/dns/imports/index.js';
import { alice, FIXTURE, harness } from './harness.js';

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
