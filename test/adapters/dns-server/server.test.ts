import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDns, type DnsServer } from '../../../src/adapters/dns-server/index.js';
import { createDnsService, type DnsService } from '../../../src/index.js';
import { ask, decode, lines, queryMessage, tcpRaw, transferEnded, udpRaw } from './client.js';

const alice = { projectId: 'alice', roles: ['member'] };
const bob = { projectId: 'bob', roles: ['member'] };

let dns: DnsService;
let server: DnsServer;
let zoneId: string;
const q = (name: string, type: string, more: { tcp?: boolean; edns?: number } = {}) => ask(name, type, { port: server.port, ...more });

beforeAll(async () => {
  dns = createDnsService();
  server = await serveDns({ dns });
  const zone = (await dns.zones.create(alice, { name: 'example.com.', email: 'hostmaster@example.com', ttl: 600 }))._unsafeUnwrap();
  zoneId = zone.id;
  const add = async (name: string, type: string, records: string[], ttl?: number) => {
    const r = await dns.recordsets.create(alice, zone.id, { name, type, records, ...(ttl === undefined ? {} : { ttl }) });
    if (r.isErr()) throw new Error(`${name} ${type}: ${r.error.message}`);
  };
  await add('www.example.com.', 'A', ['192.0.2.1', '192.0.2.2'], 300);
  await add('www.example.com.', 'AAAA', ['2001:db8::1']);
  await add('alias.example.com.', 'CNAME', ['chain.example.com.']);
  await add('chain.example.com.', 'CNAME', ['www.example.com.']);
  await add('out.example.com.', 'CNAME', ['www.example.net.']);
  await add('dangling.example.com.', 'CNAME', ['missing.example.com.']);
  await add('*.wild.example.com.', 'TXT', ['"wildcard"']);
  await add('exists.wild.example.com.', 'A', ['192.0.2.7']);
  await add('a.b.c.example.com.', 'A', ['192.0.2.8']);
  await add('sub.example.com.', 'NS', ['ns.sub.example.com.', 'ns.elsewhere.net.']);
  await add('ns.sub.example.com.', 'A', ['192.0.2.53']);
  await add('example.com.', 'MX', ['10 mail.example.com.']);
  await add('big.example.com.', 'TXT', Array.from({ length: 20 }, (_, i) => `"${'x'.repeat(100)}${i}"`));
  await add('_sip._udp.example.com.', 'SRV', ['10 5 5060 sip.example.com.']);
  await add('example.com.', 'CAA', ['0 issue letsencrypt.org']);
  (await dns.zones.create(bob, { name: 'other.org.', email: 'hostmaster@other.org' }))._unsafeUnwrap();
});

afterAll(async () => {
  await server.close();
});

describe('serveDns answers as an authoritative server', () => {
  it('answers an existing name with AA, and echoes the case of the question', async () => {
    const a = await q('WwW.Example.COM', 'A');
    expect(a.rcode).toBe('NOERROR');
    expect(a.flag_aa).toBe(true);
    expect(a.answers.map((r) => [r.name, r.type, r.ttl, r.data])).toEqual([
      ['WwW.Example.COM', 'A', 300, '192.0.2.1'],
      ['WwW.Example.COM', 'A', 300, '192.0.2.2'],
    ]);
    expect((await q('www.example.com', 'AAAA')).answers?.[0]).toMatchObject({ data: '2001:db8::1', ttl: 600 });
  });

  it('serves every project’s zones, and a zone created a moment ago', async () => {
    expect((await q('other.org', 'SOA')).answers?.[0]?.type).toBe('SOA');
    const zone = (await dns.zones.create(alice, { name: 'fresh.test.', email: 'a@fresh.test' }))._unsafeUnwrap();
    const rs = await dns.recordsets.create(alice, zone.id, { name: 'now.fresh.test.', type: 'A', records: ['192.0.2.99'] });
    expect(rs.isOk()).toBe(true);
    expect((await q('now.fresh.test', 'A')).answers?.[0]?.data).toBe('192.0.2.99');
    expect(server.servedSerial('fresh.test')).toBe((await dns.zones.get(alice, zone.id))._unsafeUnwrap().serial);
  });

  it('answers NXDOMAIN and NODATA with the SOA in the authority section', async () => {
    const nx = await q('nothing.example.com', 'A');
    expect(nx.rcode).toBe('NXDOMAIN');
    expect(nx.flag_aa).toBe(true);
    expect(nx.answers).toEqual([]);
    expect(nx.authorities?.map((r) => [r.name, r.type])).toEqual([['example.com', 'SOA']]);
    const nodata = await q('www.example.com', 'MX');
    expect(nodata.rcode).toBe('NOERROR');
    expect(nodata.answers).toEqual([]);
    expect(nodata.authorities?.map((r) => r.type)).toEqual(['SOA']);
    // An empty non-terminal exists: NODATA, not NXDOMAIN.
    expect((await q('b.c.example.com', 'A')).rcode).toBe('NOERROR');
  });

  it('follows CNAME chains inside the zone and stops at names outside it', async () => {
    const a = await q('alias.example.com', 'A');
    expect(a.answers?.map((r) => `${r.name} ${r.type}`)).toEqual(['alias.example.com CNAME', 'chain.example.com CNAME', 'www.example.com A', 'www.example.com A']);
    expect((await q('out.example.com', 'A')).answers?.map((r) => r.type)).toEqual(['CNAME']);
    const dangling = await q('dangling.example.com', 'A');
    expect(dangling.rcode).toBe('NXDOMAIN');
    expect(dangling.answers?.map((r) => r.type)).toEqual(['CNAME']);
    expect((await q('alias.example.com', 'CNAME')).answers?.map((r) => r.data)).toEqual(['chain.example.com']);
  });

  it('answers from wildcards for names that do not exist, and not for those that do', async () => {
    const w = await q('Anything.Deep.wild.example.com', 'TXT');
    expect(w.answers?.map((r) => [r.name, r.type])).toEqual([['Anything.Deep.wild.example.com', 'TXT']]);
    expect((await q('exists.wild.example.com', 'TXT')).answers).toEqual([]);
    expect((await q('x.wild.example.com', 'A')).rcode).toBe('NOERROR');
  });

  it('refers at a zone cut, with glue and without AA', async () => {
    const r = await q('host.sub.example.com', 'A');
    expect(r.rcode).toBe('NOERROR');
    expect(r.flag_aa).toBe(false);
    expect(r.answers).toEqual([]);
    expect(lines(r.authorities)).toEqual(['sub.example.com NS 600 "ns.sub.example.com"', 'sub.example.com NS 600 "ns.elsewhere.net"']);
    expect(lines(r.additionals)).toEqual(['ns.sub.example.com A 600 "192.0.2.53"']);
  });

  it('refuses names of no served zone', async () => {
    const r = await q('example.net', 'A');
    expect(r.rcode).toBe('REFUSED');
    expect(r.flag_aa).toBe(false);
  });

  it('sets TC over UDP when the answer does not fit, and answers it whole over TCP', async () => {
    const small = await q('big.example.com', 'TXT');
    expect(small.flag_tc).toBe(true);
    expect(small.answers).toEqual([]);
    const edns = await q('big.example.com', 'TXT', { edns: 4096 });
    expect(edns.flag_tc).toBe(true);
    const tcp = await q('big.example.com', 'TXT', { tcp: true });
    expect(tcp.flag_tc).toBe(false);
    expect(tcp.answers).toHaveLength(20);
    const fits = await q('www.example.com', 'A', { edns: 1232 });
    expect(fits.additionals?.find((r) => r.type === 'OPT')).toMatchObject({ udpPayloadSize: 1232 });
  });

  it('encodes the stored record types', async () => {
    expect((await q('_sip._udp.example.com', 'SRV')).answers?.[0]?.data).toMatchObject({ priority: 10, weight: 5, port: 5060, target: 'sip.example.com' });
    expect((await q('example.com', 'MX')).answers?.[0]?.data).toEqual({ preference: 10, exchange: 'mail.example.com' });
    expect((await q('example.com', 'CAA')).answers?.[0]?.data).toMatchObject({ tag: 'issue', value: 'letsencrypt.org' });
  });

  it('answers FORMERR to a query it cannot read, and nothing to a response', async () => {
    const bad = Buffer.from(queryMessage('www.example.com', 'A'));
    bad.writeUInt16BE(2, 4); // two questions, one present
    const answer = await udpRaw(server.port, bad);
    expect(answer === undefined ? undefined : answer[3]! & 0xf).toBe(1);
    const response = Buffer.from(queryMessage('www.example.com', 'A'));
    response[2] = response[2]! | 0x80;
    expect(await udpRaw(server.port, response, 300)).toBeUndefined();
  });

  it('transfers a zone over TCP (AXFR) starting and ending with the SOA', async () => {
    const messages = await tcpRaw(server.port, queryMessage('example.com', 'AXFR'), { count: 1000, done: transferEnded });
    const records = messages.flatMap((m) => decode(m).answers);
    expect(records[0]?.type).toBe('SOA');
    expect(records.at(-1)?.type).toBe('SOA');
    expect(records.filter((r) => r.type === 'SOA')).toHaveLength(2);
    const listed = (await dns.recordsets.list(alice, zoneId, { limit: '1000' }))._unsafeUnwrap().recordsets;
    expect(records.length - 1).toBe(listed.reduce((n, rs) => n + rs.records.length, 0));
  });

  it('stops serving a deleted zone', async () => {
    const zone = (await dns.zones.create(alice, { name: 'gone.test.', email: 'a@gone.test' }))._unsafeUnwrap();
    expect((await q('gone.test', 'SOA')).rcode).toBe('NOERROR');
    (await dns.zones.delete(alice, zone.id))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await q('gone.test', 'SOA')).rcode).toBe('REFUSED');
  });

  it('lists every served zone in its catalog zone', async () => {
    const messages = await tcpRaw(server.port, queryMessage(server.catalog, 'AXFR'), { count: 1000, done: transferEnded });
    const ptrs = messages.flatMap((m) => decode(m).answers).filter((r) => r.type === 'PTR');
    expect(ptrs.map((r) => String(r.data)).sort()).toEqual(['example.com', 'fresh.test', 'other.org']);
  });
});
