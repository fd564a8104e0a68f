import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alice, exportText, harness, importAndSettle, type Harness } from './harness.js';
import { genZone, renderZone } from './zone-arbitraries.js';

async function stored(h: Harness, zoneId: string) {
  const zoneBody = (await h.zones.get(alice, zoneId))._unsafeUnwrap();
  const list = (await h.recordsets.list(alice, zoneId, { limit: 'max' }))._unsafeUnwrap();
  return {
    zone: { name: zoneBody.name, email: zoneBody.email, ttl: zoneBody.ttl, serial: zoneBody.serial },
    recordsets: list.recordsets
      .filter((r) => r.type !== 'SOA' && !(r.type === 'NS' && r.name.toLowerCase() === zoneBody.name.toLowerCase()))
      .map((r) => ({ name: r.name, type: r.type, ttl: r.ttl, records: [...r.records].sort() })),
  };
}

const unlimited = { zones: -1, zone_recordsets: -1, zone_records: -1, recordset_records: -1, api_export_size: -1 };

describe('round trip', () => {
  it('import → export → import gives the same zone and recordsets', async () => {
    await fc.assert(
      fc.asyncProperty(genZone, async (z) => {
        const first = harness({ quotas: unlimited });
        const a = await importAndSettle(first, renderZone(z));
        expect(a.status, String(a.message)).toBe('COMPLETE');
        const text = await exportText(first, a.zone_id!);
        const second = harness({ quotas: unlimited });
        const b = await importAndSettle(second, text);
        expect(b.status, `${String(b.message)}\n${text}`).toBe('COMPLETE');
        const before = await stored(first, a.zone_id!);
        const after = await stored(second, b.zone_id!);
        expect(after.recordsets).toEqual(before.recordsets);
        expect(after.zone).toEqual(before.zone);
        expect(before.recordsets).toHaveLength(z.sets.length);
      }),
      { numRuns: 60 },
    );
  });
});
