import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alice, exportText, harness, importAndSettle, type Harness } from './harness.js';

interface GenSet {
  owner: string;
  type: string;
  ttl: number;
  records: string[];
}

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/);
const mixCase = (s: string, flips: number): string =>
  [...s].map((c, i) => ((flips >> i % 16) & 1 ? c.toUpperCase() : c)).join('');
// TTL 0 is left out: the reference layout writes such a recordset without a TTL, and what a
// TTL-less line means on the way back in (the $TTL, or the last stated TTL as dnspython reads it)
// is the parser's rule, not the export's; exports.test.ts covers the TTL-less line itself.
const ttl = fc.oneof(fc.integer({ min: 1, max: 2147483647 }), fc.constantFrom(300, 3600, 86400));
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
const ipv6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((p) => p.map((x) => x.toString(16)).join(':'));
const txt = fc.array(fc.stringMatching(/^[ -!#-[\]-~]{0,20}$/), { minLength: 1, maxLength: 3 }).map((parts) => parts.map((p) => `"${p}"`).join(' '));
const host = fc.array(label, { minLength: 1, maxLength: 3 }).map((l) => `${l.join('.')}.example.org.`);

const rdataOf: Record<string, fc.Arbitrary<string>> = {
  A: ipv4,
  AAAA: ipv6,
  TXT: txt,
  MX: fc.tuple(fc.nat(65535), host).map(([p, h]) => `${p} ${h}`),
  SRV: fc.tuple(fc.nat(65535), fc.nat(65535), fc.nat(65535), host).map(([a, b, c, h]) => `${a} ${b} ${c} ${h}`),
  CAA: fc.tuple(fc.constantFrom('issue', 'iodef'), fc.stringMatching(/^[a-z.]{1,12}$/)).map(([t, v]) => `0 ${t} "${v}"`),
  PTR: host,
  NS: host,
  CNAME: host,
};

const recordset = fc
  .constantFrom(...Object.keys(rdataOf))
  .chain((type) =>
    fc.record({
      owner: label,
      flips: fc.nat(),
      type: fc.constant(type),
      ttl,
      records: fc.uniqueArray(rdataOf[type]!, { minLength: 1, maxLength: type === 'CNAME' ? 1 : 4 }),
    }),
  )
  .map(({ owner, flips, type, ttl: t, records }) => ({
    // One owner per recordset (a type prefix keeps CNAMEs and delegations apart from other data).
    owner: mixCase(`${type.toLowerCase()}-${owner}`, flips),
    type,
    ttl: t,
    records,
  }));

const zone = fc.record({
  origin: fc.tuple(label, fc.constantFrom('com', 'net', 'org')).map(([a, b]) => `${a}.${b}.`),
  soaTtl: fc.integer({ min: 1, max: 2147483647 }),
  serial: fc.nat(4294967295),
  rname: fc.tuple(label, label).map(([a, b]) => `${a}.${b}.com.`),
  sets: fc.uniqueArray(recordset, { maxLength: 12, selector: (s) => s.owner.toLowerCase() }),
});

function render(z: { origin: string; soaTtl: number; serial: number; rname: string; sets: GenSet[] }): string {
  const lines = [`$ORIGIN ${z.origin}`, `@ ${z.soaTtl} IN SOA ns1.example.org. ${z.rname} ${z.serial} 7200 3600 1209600 300`];
  for (const s of z.sets) for (const r of s.records) lines.push(`${s.owner} ${s.ttl} IN ${s.type} ${r}`);
  return `${lines.join('\n')}\n`;
}

async function stored(h: Harness, zoneId: string) {
  const zoneBody = (await h.zones.get(alice, zoneId))._unsafeUnwrap();
  const list = (await h.recordsets.list(alice, zoneId, { limit: 'max' }))._unsafeUnwrap() as {
    recordsets: { name: string; type: string; ttl: number | null; records: string[] }[];
  };
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
      fc.asyncProperty(zone, async (z) => {
        const first = harness({ quotas: unlimited });
        const a = await importAndSettle(first, render(z));
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
