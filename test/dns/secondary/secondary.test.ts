import { describe, expect, it } from 'vitest';
import { createDnsService, type DnsService, type MasterPort, type MasterRecord } from '../../../src/index.js';
import { manualClock, scriptedMaster, seededRandom, sequentialIds } from '../../../src/testing/index.js';

const alice = { projectId: 'alice', roles: ['member'] };
const bob = { projectId: 'bob', roles: ['member'] };

const ZONE = `$ORIGIN example.com.
@ 3600 IN SOA ns1.example.com. hostmaster.example.com. 7 7200 3600 1209600 300
@ 86400 IN NS ns1
@ 86400 IN NS ns2.example.net.
@ 300 IN MX 10 mail
ns1 300 IN A 192.0.2.53
mail 300 IN A 192.0.2.25
www 300 IN CNAME mail
`;

function service(options: { tasks?: 'auto' | 'inline' | 'manual'; master?: ReturnType<typeof scriptedMaster> } = {}) {
  const master = options.master ?? scriptedMaster({ pageSize: 2 });
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  const dns = createDnsService({
    masters: master,
    clock: manualClock('2026-01-02T03:04:05.678Z'),
    ids: sequentialIds(),
    random: seededRandom(1),
    tasks: options.tasks ?? 'inline',
  });
  dns.events.subscribe((e) => events.push(e as never));
  return { dns, master, events };
}

const createSecondary = async (dns: DnsService, masters: unknown = ['192.0.2.1', '192.0.2.2:5353']) =>
  (await dns.zones.create(alice, { name: 'example.com.', type: 'SECONDARY', masters }))._unsafeUnwrap();

async function recordsets(dns: DnsService, zoneId: string) {
  const page = (await dns.recordsets.list(alice, zoneId, { limit: 1000 }))._unsafeUnwrap();
  return page.recordsets.map((r) => `${r.name} ${r.ttl ?? '-'} ${r.type} ${[...r.records].sort().join(' | ')}`);
}

describe('SECONDARY zones transfer from their masters', () => {
  it('create transfers the master zone: recordsets, serial, transferred_at, events', async () => {
    const { dns, master, events } = service();
    master.serve('example.com.', ZONE);
    const zone = await createSecondary(dns);
    expect(zone).toMatchObject({ serial: 1, transferred_at: null, email: null, ttl: null });
    await dns.tasks.settle();
    const after = (await dns.zones.get(alice, zone.id))._unsafeUnwrap();
    expect(after).toMatchObject({ serial: 7, status: 'ACTIVE', action: 'NONE', version: zone.version + 2 });
    // whole seconds, as the real service's column keeps it
    expect(after.transferred_at).toBe('2026-01-02T03:04:05.000000');
    expect(await recordsets(dns, zone.id)).toEqual([
      'example.com. 3600 SOA ns1.example.com. hostmaster.example.com. 7 7200 3600 1209600 300',
      'example.com. 86400 NS ns1.example.com. | ns2.example.net.',
      'example.com. 300 MX 10 mail.example.com.',
      'ns1.example.com. 300 A 192.0.2.53',
      'mail.example.com. 300 A 192.0.2.25',
      'www.example.com. 300 CNAME mail.example.com.',
    ]);
    expect(master.calls.map((c) => c.method)).toEqual(['transfer']);
    const zoneEvents = events.filter((e) => e.type.startsWith('dns.zone.')).map((e) => `${e.type} ${String(e.payload['action'])}/${String(e.payload['status'])} v${String(e.payload['version'])}`);
    expect(zoneEvents).toEqual([
      'dns.zone.create CREATE/PENDING v1',
      'dns.zone.update NONE/ACTIVE v2',
      'dns.zone.update UPDATE/PENDING v3',
      'dns.zone.update NONE/ACTIVE v4',
    ]);
  });

  it('before its first transfer a SECONDARY zone has the service SOA alone (as the real one), then the master SOA', async () => {
    const { dns, master } = service({ tasks: 'manual' });
    master.serve('example.com.', ZONE);
    const zone = await createSecondary(dns);
    const own = (await dns.recordsets.list(alice, zone.id))._unsafeUnwrap();
    expect(own.recordsets.map((r) => [r.type, r.ttl])).toEqual([['SOA', null]]);
    expect(own.recordsets[0]!.records[0]).toMatch(/^ns1\.example\.org\. hostmaster\.example\.com\. 1 \d+ 600 86400 3600$/);
    expect(own.metadata.total_count).toBe(1);
    expect((await dns.recordsets.get(alice, zone.id, own.recordsets[0]!.id))._unsafeUnwrap().type).toBe('SOA');
    await dns.tasks.settle();
    const after = (await dns.recordsets.list(alice, zone.id))._unsafeUnwrap();
    expect(after.recordsets.filter((r) => r.type === 'SOA')).toHaveLength(1);
    expect(after.metadata.total_count).toBe(6);
    // The master's SOA takes the place of the service's own, and its id, as the real storage updates it in place.
    const soa = (await dns.recordsets.get(alice, zone.id, own.recordsets[0]!.id))._unsafeUnwrap();
    expect(soa.records).toEqual(['ns1.example.com. hostmaster.example.com. 7 7200 3600 1209600 300']);
  });

  it('a transfer again keeps the ids of the recordsets whose name and type survive it; the others go, new ones get new ids', async () => {
    const { dns, master } = service();
    master.serve('example.com.', ZONE);
    const zone = await createSecondary(dns);
    await dns.tasks.settle();
    const ids = async () => {
      const page = (await dns.recordsets.list(alice, zone.id, { limit: 1000 }))._unsafeUnwrap();
      return new Map(page.recordsets.map((r) => [`${r.name} ${r.type}`, { id: r.id, records: [...r.records] }]));
    };
    const first = await ids();
    master.serve(
      'example.com.',
      ZONE.replace(' 7 7200', ' 8 7200')
        .replace('mail 300 IN A 192.0.2.25', 'mail 300 IN A 192.0.2.26')
        .replace('www 300 IN CNAME mail\n', 'ftp 300 IN A 192.0.2.21\nMAIL 300 IN AAAA 2001:db8::25\n'),
    );
    (await dns.zones.xfr(alice, zone.id))._unsafeUnwrap();
    await dns.tasks.settle();
    const second = await ids();
    // A node is named as the master first spelled it (MAIL is mail).
    expect([...second.keys()].sort()).toEqual(
      ['mail.example.com. AAAA', 'example.com. MX', 'example.com. NS', 'example.com. SOA', 'ftp.example.com. A', 'mail.example.com. A', 'ns1.example.com. A'].sort(),
    );
    for (const key of ['example.com. SOA', 'example.com. NS', 'example.com. MX', 'ns1.example.com. A', 'mail.example.com. A']) {
      expect(second.get(key)!.id, key).toBe(first.get(key)!.id);
    }
    expect(second.get('mail.example.com. A')!.records).toEqual(['192.0.2.26']);
    const known = new Set([...first.values()].map((r) => r.id));
    expect(known.has(second.get('ftp.example.com. A')!.id)).toBe(false);
    expect(known.has(second.get('mail.example.com. AAAA')!.id)).toBe(false);
    // What the master no longer has is gone; what it kept answers by its old id.
    expect((await dns.recordsets.get(alice, zone.id, first.get('www.example.com. CNAME')!.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await dns.recordsets.get(alice, zone.id, first.get('mail.example.com. A')!.id))._unsafeUnwrap().records).toEqual(['192.0.2.26']);
    expect((await dns.recordsets.list(alice, zone.id))._unsafeUnwrap().metadata.total_count).toBe(7);
  });

  it('manual mode: the push, then the transfer, each a step', async () => {
    const { dns, master } = service({ tasks: 'manual' });
    master.serve('example.com.', ZONE);
    const zone = await createSecondary(dns);
    expect(dns.tasks.pending()).toBe(2);
    expect(await dns.tasks.runNext()).toBe(true);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ status: 'ACTIVE', serial: 1 });
    expect(await dns.tasks.runNext()).toBe(true);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ status: 'PENDING', action: 'UPDATE', serial: 7 });
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ status: 'ACTIVE', serial: 7 });
  });

  it('xfr: 202 for SECONDARY, transfers only when the master serial is newer', async () => {
    const { dns, master } = service();
    master.serve('example.com.', ZONE);
    const zone = await createSecondary(dns);
    await dns.tasks.settle();
    const v = (await dns.zones.get(alice, zone.id))._unsafeUnwrap().version;
    expect((await dns.zones.xfr(alice, zone.id)).isOk()).toBe(true);
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap().version).toBe(v); // same serial: nothing
    master.serve('example.com.', ZONE.replace(' 7 7200', ' 8 7200').replace('mail 300 IN A 192.0.2.25', 'mail 300 IN A 192.0.2.26'));
    expect((await dns.zones.xfr(alice, zone.id)).isOk()).toBe(true);
    await dns.tasks.settle();
    const after = (await dns.zones.get(alice, zone.id))._unsafeUnwrap();
    expect(after).toMatchObject({ serial: 8, version: v + 2 });
    expect(await recordsets(dns, zone.id)).toContain('mail.example.com. 300 A 192.0.2.26');
    expect(master.calls.map((c) => c.method)).toEqual(['transfer', 'serial', 'serial', 'transfer']);
  });

  it('xfr: 400 on PRIMARY, 404 for another project, 400 for a bad id', async () => {
    const { dns } = service();
    const primary = (await dns.zones.create(alice, { name: 'p.org.', email: 'a@p.org' }))._unsafeUnwrap();
    const e = (await dns.zones.xfr(alice, primary.id))._unsafeUnwrapErr();
    expect([e.status, e.type, e.message]).toEqual([400, 'bad_request', "Can't XFR a non Secondary zone."]);
    const zone = await createSecondary(dns);
    expect((await dns.zones.xfr(bob, zone.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await dns.zones.xfr(alice, 'nope'))._unsafeUnwrapErr().type).toBe('invalid_uuid');
  });

  it('PATCH of masters transfers again, whatever the serial', async () => {
    const { dns, master } = service();
    master.serve('example.com.', ZONE);
    const zone = await createSecondary(dns);
    await dns.tasks.settle();
    master.serve('example.com.', ZONE.replace('www 300 IN CNAME mail', 'web 300 IN CNAME mail'));
    (await dns.zones.update(alice, zone.id, { masters: ['192.0.2.9'] }))._unsafeUnwrap();
    await dns.tasks.settle();
    expect(await recordsets(dns, zone.id)).toContain('web.example.com. 300 CNAME mail.example.com.');
    expect(await recordsets(dns, zone.id)).not.toContain('www.example.com. 300 CNAME mail.example.com.');
    expect(master.calls.at(-1)).toMatchObject({ method: 'transfer', master: { host: '192.0.2.9', port: 53 } });
  });

  it('an unreachable master leaves the zone as it was, with no event', async () => {
    const { dns, master, events } = service();
    master.reachable = false;
    const zone = await createSecondary(dns);
    await dns.tasks.settle();
    const after = (await dns.zones.get(alice, zone.id))._unsafeUnwrap();
    expect(after).toMatchObject({ serial: 1, status: 'ACTIVE', transferred_at: null, version: 2 });
    expect(events.filter((e) => e.type === 'dns.zone.update')).toHaveLength(1);
    expect(master.calls.map((c) => `${c.master.host}:${c.master.port}`).sort()).toEqual(['192.0.2.1:53', '192.0.2.2:5353']);
  });

  it('masters are reached as the real service splits them (IPv6 literal: port 53)', async () => {
    const { dns, master } = service();
    master.reachable = false;
    await dns.zones.create(alice, { name: 'example.com.', type: 'SECONDARY', masters: ['2001:db8::1'] });
    await dns.tasks.settle();
    expect(master.calls[0]?.master).toEqual({ host: '2001:db8::1', port: 53 });
  });

  it('without a master port nothing is queued and the zone stays at serial 1', async () => {
    const dns = createDnsService({ tasks: 'inline' }); // inline: the create's push queues nothing either
    const zone = (await dns.zones.create(alice, { name: 'example.com.', type: 'SECONDARY', masters: ['192.0.2.1'] }))._unsafeUnwrap();
    expect(dns.tasks.pending()).toBe(0);
    expect((await dns.zones.xfr(alice, zone.id)).isOk()).toBe(true);
    expect(dns.tasks.pending()).toBe(0);
  });

  it('the export of a transferred zone is the master zone', async () => {
    const { dns, master } = service();
    master.serve('example.com.', ZONE);
    const zone = await createSecondary(dns);
    await dns.tasks.settle();
    const exp = (await dns.exports.create(alice, zone.id))._unsafeUnwrap();
    await dns.tasks.settle();
    const text = (await dns.exports.file(alice, exp.id))._unsafeUnwrap();
    expect(text).toContain('example.com. 3600 IN SOA ns1.example.com. hostmaster.example.com. 7 7200 3600 1209600 300');
    expect(text).toContain('ns2.example.net.');
    expect(text).not.toContain('ns1.example.org.');
  });

  describe('a hostile master is refused whole, the previous data untouched', () => {
    const soa: MasterRecord = { name: 'example.com.', type: 'SOA', ttl: 3600, data: 'ns1.example.com. h.example.com. 9 1 1 1 1' };
    const a = (name: string, data = '192.0.2.1'): MasterRecord => ({ name, type: 'A', ttl: 60, data });
    const cases: [string, readonly MasterRecord[]][] = [
      ['a record outside the zone', [soa, a('www.example.com.'), a('evil.example.org.')]],
      ['a second SOA', [soa, a('www.example.com.'), { ...soa, data: 'ns1.example.com. h.example.com. 10 1 1 1 1' }]],
      ['an SOA below the apex', [soa, { ...soa, name: 'sub.example.com.' }]],
      ['no SOA', [a('www.example.com.')]],
      ['malformed data', [soa, a('www.example.com.', '999.1.1.1')]],
      ['a line break in the data', [soa, a('www.example.com.', '192.0.2.1\n$INCLUDE /etc/passwd')]],
      ['a parenthesis that would join lines', [soa, a('www.example.com.', '( 192.0.2.1'), a('x.example.com.')]],
      ['a relative name', [soa, a('www')]],
      ['a type the service does not store', [soa, { name: 'example.com.', type: 'DNSKEY', ttl: 60, data: '257 3 8 AwEAAQ==' }]],
      ['a CNAME beside other data', [soa, a('www.example.com.'), { name: 'www.example.com.', type: 'CNAME', ttl: 60, data: 'x.example.com.' }]],
      ['a bad TTL', [soa, { ...a('www.example.com.'), ttl: -1 }]],
    ];
    it.each(cases)('%s', async (_label, records) => {
      const { dns, master } = service();
      master.serve('example.com.', ZONE);
      const zone = await createSecondary(dns);
      await dns.tasks.settle();
      const before = await recordsets(dns, zone.id);
      const version = (await dns.zones.get(alice, zone.id))._unsafeUnwrap().version;
      master.serve('example.com.', records);
      (await dns.zones.update(alice, zone.id, { masters: ['192.0.2.1'] }))._unsafeUnwrap();
      await dns.tasks.settle();
      expect(await recordsets(dns, zone.id)).toEqual(before);
      const after = (await dns.zones.get(alice, zone.id))._unsafeUnwrap();
      expect(after).toMatchObject({ serial: 7, version: version + 2 }); // the PATCH and its push only
    });

    it.each([
      ['records', { maxRecords: 6 }],
      ['bytes of record text', { maxBytes: 200 }],
    ])('more %s than the transfer ceiling (transferLimits)', async (_what, transferLimits) => {
      const { master } = service();
      const dns = createDnsService({ masters: master, transferLimits });
      master.serve('example.com.', ZONE);
      const zone = (await dns.zones.create(alice, { name: 'example.com.', type: 'SECONDARY', masters: ['192.0.2.1'] }))._unsafeUnwrap();
      await dns.tasks.settle();
      expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ serial: 1, transferred_at: null, status: 'ACTIVE' });
      // Only the service's own SOA, as before any transfer (refresh is random here).
      const left = await recordsets(dns, zone.id);
      expect(left).toHaveLength(1);
      expect(left[0]).toMatch(/^example\.com\. - SOA ns1\.example\.org\. hostmaster\.example\.com\. 1 \d+ 600 86400 3600$/);
    });
  });

  it('no project quota applies to what a master sends (the real service applies none)', async () => {
    const master = scriptedMaster();
    const dns = createDnsService({ masters: master, quotas: { zone_records: 2, zone_recordsets: 2, recordset_records: 1 } });
    master.serve('example.com.', ZONE);
    const zone = (await dns.zones.create(alice, { name: 'example.com.', type: 'SECONDARY', masters: ['192.0.2.1'] }))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ serial: 7, status: 'ACTIVE' });
    expect(await recordsets(dns, zone.id)).toHaveLength(6);
  });

  it('refuses a transfer ceiling that is not a positive integer', () => {
    for (const transferLimits of [{ maxRecords: 0 }, { maxBytes: -1 }, { maxRecords: 1.5 }, { maxBytes: Number.NaN }]) {
      expect(() => createDnsService({ transferLimits })).toThrow(TypeError);
    }
  });

  describe('a slow master holds only its own zone', () => {
    /** A port whose `slow.example.` transfer waits until released; every other zone is served at once. */
    function holdingMaster() {
      const fast = scriptedMaster();
      fast.serve('fast.example.', ZONE.replaceAll('example.com.', 'fast.example.'));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let waiting = 0;
      const port: MasterPort = {
        serial: (m, zone) => fast.serial(m, zone),
        transfer: (m, zone, limits) =>
          zone !== 'slow.example.'
            ? fast.transfer(m, zone, limits)
            : // eslint-disable-next-line require-yield -- a master that sends nothing before it gives up
              (async function* () {
                waiting += 1;
                await released;
                throw new Error('the master gave up');
              })(),
      };
      return { port, release, waiting: () => waiting };
    }

    /** Resolves once a zone event says the zone is ACTIVE at `serial`. */
    const activeAt = (dns: DnsService, name: string, serial: number) =>
      new Promise<void>((resolve) => {
        const stop = dns.events.subscribe((e) => {
          const z = e.payload as { name?: string; status?: string; serial?: number };
          if (e.type === 'dns.zone.update' && z.name === name && z.status === 'ACTIVE' && z.serial === serial) {
            stop();
            resolve();
          }
        });
      });

    for (const mode of ['auto', 'manual'] as const) {
      it(`${mode} mode: another zone's pushes and transfer complete while the slow transfer waits`, async () => {
        const { port, release, waiting } = holdingMaster();
        const dns = createDnsService({ masters: port, tasks: mode, ids: sequentialIds(), clock: manualClock('2026-01-02T03:04:05Z') });
        const fastDone = activeAt(dns, 'fast.example.', 7);
        const slow = (await dns.zones.create(alice, { name: 'slow.example.', type: 'SECONDARY', masters: ['192.0.2.1'] }))._unsafeUnwrap();
        const fast = (await dns.zones.create(alice, { name: 'fast.example.', type: 'SECONDARY', masters: ['192.0.2.2'] }))._unsafeUnwrap();
        const settled = mode === 'manual' ? dns.tasks.settle() : undefined;
        await fastDone;
        // The fast zone: pushed, transferred, pushed again; the slow one pushed, its transfer still waiting.
        expect(waiting()).toBe(1);
        expect((await dns.zones.get(alice, fast.id))._unsafeUnwrap()).toMatchObject({ status: 'ACTIVE', serial: 7, version: 4 });
        expect((await dns.zones.get(alice, slow.id))._unsafeUnwrap()).toMatchObject({ status: 'ACTIVE', serial: 1, transferred_at: null });
        expect(dns.tasks.pending()).toBe(1);
        release();
        await (settled ?? dns.tasks.settle());
        expect(dns.tasks.pending()).toBe(0);
        expect((await dns.zones.get(alice, slow.id))._unsafeUnwrap()).toMatchObject({ status: 'ACTIVE', serial: 1, transferred_at: null, version: 2 });
      });
    }

    it("a zone's own steps still apply in order: its update's push waits behind its waiting transfer", async () => {
      const { port, release } = holdingMaster();
      const dns = createDnsService({ masters: port, ids: sequentialIds() });
      const slowPushed = activeAt(dns, 'slow.example.', 1);
      const slow = (await dns.zones.create(alice, { name: 'slow.example.', type: 'SECONDARY', masters: ['192.0.2.1'] }))._unsafeUnwrap();
      await slowPushed; // the create's push; its transfer now waits
      (await dns.zones.update(alice, slow.id, { description: 'later' }))._unsafeUnwrap();
      // Another zone queued after the update and served: the worker has looked at the update's push and left it.
      const fastDone = activeAt(dns, 'fast.example.', 7);
      (await dns.zones.create(alice, { name: 'fast.example.', type: 'SECONDARY', masters: ['192.0.2.2'] }))._unsafeUnwrap();
      await fastDone;
      expect((await dns.zones.get(alice, slow.id))._unsafeUnwrap()).toMatchObject({ status: 'PENDING', action: 'UPDATE' });
      release();
      await dns.tasks.settle();
      expect((await dns.zones.get(alice, slow.id))._unsafeUnwrap()).toMatchObject({ status: 'ACTIVE', description: 'later' });
    });
  });
});
