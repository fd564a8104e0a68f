import { afterAll, beforeAll, expect, it } from 'vitest';
import { axfrMasters } from '../../../src/adapters/axfr/index.js';
import { createDnsService, type DnsService } from '../../../src/index.js';
import { parseZoneFile } from '../../../src/zonefile/index.js';
import { describeWith } from '../../support/requires.js';
import { generatedZone } from '../imports-exports/harness.js';
import { freePort, nsdRequirement, startNsd, type RunningNsd } from './nsd.js';

const alice = { projectId: 'alice', roles: ['member'] };

/**
 * A record as a comparable line. Owner names, and the data of types made of names and numbers,
 * in lower case: a master compressing names on the wire points at an earlier spelling of the
 * same name (RFC 1035 §4.1.4), whose case may differ, and DNS compares names without case.
 */
const line = (name: string, ttl: number, type: string, data: string): string =>
  `${name.toLowerCase()} ${ttl} ${type} ${/^(NS|CNAME|MX|SRV|PTR|SOA)$/.test(type) ? data.toLowerCase() : data}`;

/** Records of a zone file as comparable lines. */
function fileRecords(text: string, origin: string): string[] {
  const parsed = parseZoneFile(text, { origin });
  if (parsed.isErr()) throw new Error(`${parsed.error.line}: ${parsed.error.message}`);
  return parsed.value.records.map((r) => line(r.name, r.ttl, r.type, r.rdata)).sort();
}

/** Records of the zone as its recordsets list them, in the same form. */
async function storedRecords(dns: DnsService, zoneId: string, zoneTtl: number): Promise<string[]> {
  const out: string[] = [];
  let marker: string | undefined;
  for (;;) {
    const page = (await dns.recordsets.list(alice, zoneId, { limit: 1000, ...(marker ? { marker } : {}) }))._unsafeUnwrap();
    for (const rs of page.recordsets) for (const d of rs.records) out.push(line(rs.name, rs.ttl ?? zoneTtl, rs.type, d));
    if (page.recordsets.length < 1000) return out.sort();
    marker = page.recordsets.at(-1)!.id;
  }
}

async function exportedRecords(dns: DnsService, zoneId: string): Promise<string[]> {
  const exp = (await dns.exports.create(alice, zoneId))._unsafeUnwrap();
  await dns.tasks.settle();
  return fileRecords((await dns.exports.file(alice, exp.id))._unsafeUnwrap(), 'example.com.');
}

const withSerial = (text: string, serial: number): string => text.replace(/\d+(\s*; serial)/, `${serial}$1`);

describeWith(nsdRequirement, 'a real master (NSD) and axfrMasters()', () => {
  let nsd: RunningNsd;
  const first = withSerial(generatedZone(400, 1), 2024010101);
  beforeAll(async () => {
    nsd = await startNsd('example.com.', first);
  });
  afterAll(() => nsd?.stop());

  it('create transfers the zone record for record; xfr after a serial bump transfers it again', async () => {
    const dns = createDnsService({ masters: axfrMasters({ timeoutMs: 5000 }) });
    const zone = (await dns.zones.create(alice, { name: 'example.com.', type: 'SECONDARY', masters: [`127.0.0.1:${nsd.port}`] }))._unsafeUnwrap();
    await dns.tasks.settle();
    const got = (await dns.zones.get(alice, zone.id))._unsafeUnwrap();
    expect(got).toMatchObject({ serial: 2024010101, status: 'ACTIVE' });
    expect(got.transferred_at).not.toBeNull();
    const master = fileRecords(first, 'example.com.');
    expect(master).toHaveLength(400);
    expect(await storedRecords(dns, zone.id, 3600)).toEqual(master);
    expect(await exportedRecords(dns, zone.id)).toEqual(master);

    // Same serial: xfr asks, and nothing changes.
    (await dns.zones.xfr(alice, zone.id))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap().version).toBe(got.version);

    const second = withSerial(generatedZone(300, 2), 2024010102);
    nsd.reload(second);
    const probe = axfrMasters({ timeoutMs: 2000 });
    // NSD reloads in the background; a query may meet the reload (a reset connection): ask again.
    const serialNow = () => probe.serial({ host: '127.0.0.1', port: nsd.port }, 'example.com.').catch(() => null);
    for (let i = 0; i < 200 && (await serialNow()) !== 2024010102; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    (await dns.zones.xfr(alice, zone.id))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ serial: 2024010102, status: 'ACTIVE' });
    const master2 = fileRecords(second, 'example.com.');
    expect(await storedRecords(dns, zone.id, 3600)).toEqual(master2);
    expect(await exportedRecords(dns, zone.id)).toEqual(master2);
  });

  it('a master port nothing listens on ends within the timeout, the zone untouched', async () => {
    const port = await freePort();
    const dns = createDnsService({ masters: axfrMasters({ timeoutMs: 1000 }) });
    const started = performance.now();
    const zone = (await dns.zones.create(alice, { name: 'example.com.', type: 'SECONDARY', masters: [`127.0.0.1:${port}`] }))._unsafeUnwrap();
    (await dns.zones.xfr(alice, zone.id))._unsafeUnwrap();
    await dns.tasks.settle();
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ serial: 1, transferred_at: null, status: 'ACTIVE' });
  });
});

describeWith(nsdRequirement, 'a real-sized master (NSD, 3,000 records) and the default options', () => {
  let nsd: RunningNsd;
  const text = withSerial(generatedZone(3000, 29), 2024020301);
  beforeAll(async () => {
    nsd = await startNsd('example.com.', text);
  });
  afterAll(() => nsd?.stop());

  it('transfers the whole zone though it is far above the project quotas (zone_records 500): no quota applies to a master', async () => {
    const dns = createDnsService({ masters: axfrMasters({ timeoutMs: 10_000 }) });
    const zone = (await dns.zones.create(alice, { name: 'example.com.', type: 'SECONDARY', masters: [`127.0.0.1:${nsd.port}`] }))._unsafeUnwrap();
    await dns.tasks.settle();
    const got = (await dns.zones.get(alice, zone.id))._unsafeUnwrap();
    expect(got).toMatchObject({ serial: 2024020301, status: 'ACTIVE' });
    expect(got.transferred_at).not.toBeNull();
    const master = fileRecords(text, 'example.com.');
    expect(master).toHaveLength(3000);
    expect(await storedRecords(dns, zone.id, 3600)).toEqual(master);
  });
});
