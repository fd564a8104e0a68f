import { describe, expect, it } from 'vitest';
import { createDnsService } from '../../../src/index.js';
import { memoryStorage } from '../../../src/adapters/memory/memory-storage.js';
import { faultyStorage } from '../../../src/testing/index.js';
import { RECORDSETS } from '../../../src/dns/kernel/recordset.js';
import { ZONES } from '../../../src/dns/kernel/zone-store.js';
import { admin, alice, bob, exportText, FIXTURE, generatedZone, harness, importAndSettle } from './harness.js';

const SOA = 'example.com. 600 IN SOA ns1.example.com. nsadmin.example.com. 2013091101 7200 3600 2419200 10800\n';
const file = (...lines: string[]): string => `$ORIGIN example.com.\n$TTL 300\n${SOA}${lines.join('\n')}\n`;

describe('imports.create', () => {
  it('refuses record types that are not a list of names when the service is made, not at its first import', () => {
    for (const importRecordTypes of ['A', [1], [''], null, { 0: 'A' }]) {
      expect(() => createDnsService({ importRecordTypes: importRecordTypes as never })).toThrow(/importRecordTypes must be an array of record type names/);
    }
    expect(() => createDnsService({ importRecordTypes: ['A', 'soa'] })).not.toThrow();
  });

  it('answers PENDING at once, version 1, zone_id and message null', async () => {
    const h = harness({ mode: 'manual' });
    const r = await h.imports.create(alice, FIXTURE, 'text/dns');
    expect(r._unsafeUnwrap()).toEqual({
      id: '00000000-0000-4000-8000-000000000001',
      status: 'PENDING',
      message: null,
      zone_id: null,
      project_id: 'alice',
      created_at: '2026-01-02T03:04:05.000000',
      updated_at: null,
      version: 1,
      links: { self: 'http://localhost:9001/v2/zones/tasks/imports/00000000-0000-4000-8000-000000000001' },
    });
    expect(h.tasks.pending()).toBe(1);
    expect(h.events.map((e) => e.type)).toEqual(['dns.zone_import.create']);
  });

  it('refuses a content type other than text/dns with 415', async () => {
    const h = harness();
    const r = await h.imports.create(alice, FIXTURE, 'application/json');
    expect(r._unsafeUnwrapErr().status).toBe(415);
    expect(r._unsafeUnwrapErr().message).toBe('Content-type must be text/dns');
    expect((await h.imports.create(alice, FIXTURE, 'Text/DNS; charset=utf-8')).isOk()).toBe(true);
  });

  it('refuses an empty body with 400 empty_request_body and an oversized one with 413', async () => {
    const h = harness({ limits: { maxZoneFileBytes: 100 } });
    const empty = await h.imports.create(alice, '', 'text/dns');
    expect(empty._unsafeUnwrapErr().type).toBe('empty_request_body');
    expect(empty._unsafeUnwrapErr().status).toBe(400);
    const big = await h.imports.create(alice, FIXTURE, 'text/dns');
    expect(big._unsafeUnwrapErr().status).toBe(413);
  });

  it('needs a caller with a project', async () => {
    const h = harness();
    expect((await h.imports.create(undefined as never, FIXTURE, 'text/dns'))._unsafeUnwrapErr().status).toBe(401);
    expect((await h.imports.create({ roles: ['admin'] }, FIXTURE, 'text/dns'))._unsafeUnwrapErr().type).toBe('missing_project_id');
  });
});

describe('import processing', () => {
  it('creates the zone and its recordsets: COMPLETE, version 2, links.href, message', async () => {
    const h = harness();
    const done = await importAndSettle(h, FIXTURE);
    expect(done.status).toBe('COMPLETE');
    expect(done.message).toBe('example.com. imported');
    expect(done.version).toBe(2);
    expect(done.zone_id).not.toBeNull();
    expect(done.links.href).toBe(`http://localhost:9001/v2/zones/${done.zone_id}`);
    const zone = (await h.zones.get(alice, done.zone_id!))._unsafeUnwrap();
    expect(zone).toMatchObject({ name: 'example.com.', email: 'nsadmin@example.com', ttl: 600, serial: 2013091101, status: 'ACTIVE' });
    const list = (await h.recordsets.list(alice, done.zone_id!, { limit: 100 }))._unsafeUnwrap();
    expect(list.recordsets.map((r) => [r.name, r.type, r.ttl, r.records])).toEqual([
      ['example.com.', 'SOA', null, ['ns1.example.org. nsadmin.example.com. 2013091101 3550 3600 2419200 3600']],
      ['example.com.', 'NS', null, ['ns1.example.org.']],
      ['example.com.', 'MX', 10800, ['5 192.0.0.2.example.com.', '10 192.0.0.3.example.com.']],
      ['example.com.', 'TXT', 10800, ['"abc" "def"']],
      ['example.com.', 'SPF', 10800, ['"v=spf1 mx a"']],
      ['ipv4.example.com.', 'A', 300, ['192.0.0.1']],
      ['ipv6.example.com.', 'AAAA', 10800, ['fd00::1']],
      ['cname.example.com.', 'CNAME', 10800, ['example.com.']],
      ['_http._tcp.example.com.', 'SRV', 10800, ['10 0 80 192.0.0.4.example.com.', '10 5 80 192.0.0.5.example.com.']],
      ['delegation.example.com.', 'NS', 10800, ['ns1.example.com.']],
    ]);
    expect(h.events.map((e) => e.type)).toContain('dns.zone_import.update');
    expect(h.events.map((e) => e.type)).toContain('dns.zone.create');
  });

  it('exports the imported fixture exactly as the reference probe shows', async () => {
    const h = harness();
    const done = await importAndSettle(h, FIXTURE);
    const text = await exportText(h, done.zone_id!);
    expect(text).toBe(
      [
        '$ORIGIN example.com.',
        '$TTL 600',
        '',
        'example.com.  IN SOA ns1.example.org. nsadmin.example.com. 2013091101 3550 3600 2419200 3600',
        'example.com.  IN NS ns1.example.org.',
        'example.com. 10800 IN MX 5 192.0.0.2.example.com.',
        'example.com. 10800 IN MX 10 192.0.0.3.example.com.',
        'example.com. 10800 IN TXT "abc" "def"',
        'example.com. 10800 IN SPF "v=spf1 mx a"',
        'ipv4.example.com. 300 IN A 192.0.0.1',
        'ipv6.example.com. 10800 IN AAAA fd00::1',
        'cname.example.com. 10800 IN CNAME example.com.',
        '_http._tcp.example.com. 10800 IN SRV 10 0 80 192.0.0.4.example.com.',
        '_http._tcp.example.com. 10800 IN SRV 10 5 80 192.0.0.5.example.com.',
        'delegation.example.com. 10800 IN NS ns1.example.com.',
        '',
        '',
        '',
      ].join('\n'),
    );
  });

  const outcomes: [string, string, string][] = [
    ['no $ORIGIN', `$TTL 300\n${SOA}`, 'The $ORIGIN statement is required and must be the first statement in the zonefile.'],
    ['$ORIGIN after the first record', `${SOA}$ORIGIN example.com.\n`, 'The $ORIGIN statement is required and must be the first statement in the zonefile.'],
    ['bad RDATA', file('www IN A 999.1.1.1'), 'Malformed zonefile.'],
    ['$INCLUDE', file('$INCLUDE /etc/passwd'), 'Malformed zonefile.'],
    ['wrong class', file('www CH A 192.0.2.1'), 'Malformed zonefile.'],
    ['junk', file('this is not a record at all !!'), 'Malformed zonefile.'],
    ['no SOA', '$ORIGIN example.com.\n$TTL 300\nwww IN A 192.0.2.1\n', 'An SOA record is required.'],
    ['SOA only outside the origin', '$ORIGIN example.com.\nother.com. 300 IN SOA a. b. 1 2 3 4 5\n', 'An SOA record is required.'],
    ['HINFO refused, with type and line', file('www IN A 192.0.2.1', '', 'host IN HINFO "PC" "Linux"'), 'Record type HINFO on line 6 is not supported by this service.'],
    ['CNAME at apex', file('@ IN CNAME other.org.'), 'An undefined error occurred. CNAME rdataset is not compatible with a regular data node'],
    ['CNAME with other data', file('www IN A 192.0.2.1', 'www IN CNAME other.org.'), 'An undefined error occurred. CNAME rdataset is not compatible with a regular data node'],
    ['CNAME with other data in another case', file('WWW IN A 192.0.2.1', 'www IN CNAME other.org.'), 'An undefined error occurred. CNAME rdataset is not compatible with a regular data node'],
    ['CNAME with a refused type', file('www IN HINFO "PC" "Linux"', 'www IN CNAME other.org.'), 'An undefined error occurred. CNAME rdataset is not compatible with a regular data node'],
    ['CNAME with other data after a refused type', file('h1 IN HINFO "PC" "Linux"', 'www IN A 192.0.2.1', 'www IN CNAME other.org.'), 'An undefined error occurred. CNAME rdataset is not compatible with a regular data node'],
    // The real service (designate-oracle): dnspython refuses an SOA off the apex as it adds it, before any CNAME clash.
    ['CNAME with a non-apex SOA', file('www IN SOA a.com. b.com. 1 2 3 4 5', 'www IN CNAME other.org.'), 'An undefined error occurred. add() has non-origin SOA'],
    ['a non-apex SOA after a CNAME', file('www IN CNAME other.org.', 'www IN SOA a.com. b.com. 1 2 3 4 5'), 'An undefined error occurred. add() has non-origin SOA'],
    ['NSEC (refused) beside a CNAME', file('www IN CNAME other.org.', 'www IN NSEC next.example.com. A'), 'Record type NSEC on line 5 is not supported by this service.'],
    ['an origin that is no host name', '$ORIGIN bad_-.example.com.\n@ 300 IN SOA a.com. b.com. 1 2 3 4 5\n', 'An undefined error occurred. Domain bad_-.example.com. is invalid'],
    ['single-label origin', '$ORIGIN com.\ncom. 300 IN SOA a.com. b.com. 1 2 3 4 5\n', 'An undefined error occurred. More than one label is required'],
    // The real service's answers (designate-oracle): dnspython says which came second.
    ['other data after a CNAME', file('www IN CNAME other.org.', 'www IN A 192.0.2.1'), 'An undefined error occurred. rdataset type is not compatible with a CNAME node'],
    ['a CNAME at the apex before the SOA', '$ORIGIN example.com.\n$TTL 300\n@ IN CNAME other.org.\n' + SOA, 'An undefined error occurred. rdataset type is not compatible with a CNAME node'],
    ['a CNAME at the apex without an SOA', '$ORIGIN example.com.\n$TTL 300\n@ IN CNAME other.org.\n', 'An SOA record is required.'],
    ['a CNAME at the apex after other apex data and another name', file('@ IN MX 10 mx.example.com.', 'www IN A 192.0.2.1', 'example.com. IN CNAME other.org.'), 'An undefined error occurred. CNAME rdataset is not compatible with a regular data node'],
    // The real service's own SOA record takes serials from 1; the zone would take 0.
    ['SOA serial 0', '$ORIGIN example.com.\nexample.com. 600 IN SOA ns1.example.com. nsadmin.example.com. 0 7200 3600 2419200 10800\n', 'An undefined error occurred. Value must be >= 1 for field serial'],
    ['SOA serial 0, over a quota too', `$ORIGIN example.com.\nexample.com. 600 IN SOA ns1.example.com. nsadmin.example.com. 0 7200 3600 2419200 10800\n${Array.from({ length: 21 }, (_, i) => `big 300 IN A 192.0.2.${i + 1}`).join('\n')}\n`, 'An undefined error occurred. Value must be >= 1 for field serial'],
  ];
  for (const [what, text, message] of outcomes) {
    it(`ERROR for ${what}: ${message}`, async () => {
      const h = harness();
      const done = await importAndSettle(h, text);
      expect(done).toMatchObject({ status: 'ERROR', message, zone_id: null, version: 2 });
      expect(done.links.href).toBeUndefined();
      expect(await h.deps.storage.transaction((tx) => tx.count(ZONES, 'created'))).toBe(0);
    });
  }

  it('ERROR Duplicate zone. for an existing zone (own project or another)', async () => {
    const h = harness();
    expect((await importAndSettle(h, FIXTURE)).status).toBe('COMPLETE');
    expect((await importAndSettle(h, FIXTURE)).message).toBe('Duplicate zone.');
    expect((await importAndSettle(h, FIXTURE, bob)).message).toBe('Duplicate zone.');
  });

  it('ERROR TTL is below the minimum for a non-admin; an admin passes', async () => {
    const h = harness({ limits: { minTtl: 700 } });
    expect((await importAndSettle(h, FIXTURE)).message).toBe('TTL is below the minimum: 700');
    expect((await importAndSettle(h, FIXTURE, admin)).status).toBe('COMPLETE');
  });

  it('ERROR Quota exceeded during zone import. for every quota, leaving nothing behind', async () => {
    for (const quotas of [{ zones: 0 }, { zone_recordsets: 9 }, { zone_records: 9 }, { recordset_records: 1 }]) {
      const h = harness({ quotas });
      const done = await importAndSettle(h, FIXTURE);
      expect(done.message, JSON.stringify(quotas)).toBe('Quota exceeded during zone import.');
      expect(await h.deps.storage.transaction((tx) => tx.count(RECORDSETS, 'zone'))).toBe(0);
    }
    const fits = harness({ quotas: { zone_recordsets: 10, zone_records: 10, recordset_records: 2 } });
    expect((await importAndSettle(fits, FIXTURE)).status).toBe('COMPLETE');
  });

  it('widens the record types with the option', async () => {
    const h = harness({ imports: { recordTypes: ['A', 'HINFO'] } });
    const done = await importAndSettle(h, file('host IN HINFO "PC" "Linux"'));
    expect(done.status).toBe('COMPLETE');
    const narrow = harness({ imports: { recordTypes: ['A'] } });
    expect((await importAndSettle(narrow, file('mail IN MX 10 mx'))).message).toBe('Record type MX on line 4 is not supported by this service.');
  });

  it('names the line of a refused type after multi-line records and comments', async () => {
    const h = harness({ quotas: { zone_recordsets: -1, zone_records: -1, recordset_records: -1 } });
    const generated = generatedZone(60, 3);
    const text = `${generated}; a comment mentioning HINFO\nlegacy  IN  ( HINFO\n  "PC" "Linux" )\n`;
    const line = text.split('\n').length - 2;
    expect((await importAndSettle(h, text)).message).toBe(`Record type HINFO on line ${line} is not supported by this service.`);
  });

  it('drops records outside the zone, keeps delegations, compares owners without case', async () => {
    const h = harness();
    const done = await importAndSettle(
      h,
      file('other.org. IN A 192.0.2.9', 'WWW.Example.COM. IN A 192.0.2.1', 'www IN A 192.0.2.2', 'sub IN NS ns.sub', 'EXAMPLE.com. IN NS ns9.example.net.'),
    );
    expect(done.status).toBe('COMPLETE');
    const list = (await h.recordsets.list(alice, done.zone_id!))._unsafeUnwrap();
    expect(list.recordsets.slice(2).map((r) => [r.name, r.type, r.records])).toEqual([
      ['WWW.Example.COM.', 'A', ['192.0.2.1', '192.0.2.2']],
      ['sub.example.com.', 'NS', ['ns.sub.example.com.']],
    ]);
    expect(list.recordsets[1]!.records).toEqual(['ns1.example.org.']);
  });

  it('drops a CNAME and other data at one name outside the zone, as dnspython drops the name unread', async () => {
    const h = harness();
    const done = await importAndSettle(h, file('other.org. IN A 192.0.2.9', 'other.org. IN CNAME x.other.org.', 'www IN A 192.0.2.1'));
    expect(done.status).toBe('COMPLETE');
    const list = (await h.recordsets.list(alice, done.zone_id!))._unsafeUnwrap();
    expect(list.recordsets.slice(2).map((r) => r.name)).toEqual(['www.example.com.']);
  });

  it('reads the email from the RNAME as the real service does: its first dot, even an escaped one, becomes @', async () => {
    const h = harness();
    const plain = await importAndSettle(h, '$ORIGIN example.com.\n@ 600 IN SOA ns1 host\\-master.team.example.com. 5 7200 3600 2419200 10800\n');
    expect((await h.zones.get(alice, plain.zone_id!))._unsafeUnwrap().email).toBe('host-master@team.example.com');
    const escaped = await importAndSettle(h, '$ORIGIN example.org.\n@ 600 IN SOA ns1 first\\.last.example.org. 5 7200 3600 2419200 10800\n');
    expect([escaped.status, escaped.message]).toEqual(['ERROR', 'An undefined error occurred. Email first\\@last.example.org is invalid']);
    const root = await importAndSettle(h, '$ORIGIN example.net.\n@ 600 IN SOA ns1 . 5 7200 3600 2419200 10800\n');
    expect([root.status, root.message]).toEqual(['ERROR', 'An undefined error occurred. Email @ is invalid']);
  });

  it('gives a TTL 0 recordset a null TTL and keeps the others', async () => {
    const h = harness();
    const done = await importAndSettle(h, file('zero 0 IN A 192.0.2.1', 'ten 10 IN A 192.0.2.2'));
    const list = (await h.recordsets.list(alice, done.zone_id!))._unsafeUnwrap();
    expect(list.recordsets.slice(2).map((r) => r.ttl)).toEqual([null, 10]);
  });

  // The real service's answers (designate-oracle, dnspython 2.3), reference §8.3: records without a
  // TTL take the last stated one before the SOA, the SOA minimum after it, a $TTL once one is read.
  it.each([
    [
      'a TTL before the SOA, the SOA minimum after it, then $TTL ($GENERATE alike)',
      '$ORIGIN t1.test.\na 600 IN A 192.0.2.1\nb IN A 192.0.2.2\nt1.test. 3600 IN SOA ns.t1.test. admin.t1.test. 7 3600 600 86400 300\nc 900 IN A 192.0.2.3\nd IN A 192.0.2.4\n$GENERATE 1-2 g$ A 192.0.2.$\n$TTL 1200\ne IN A 192.0.2.5\n$GENERATE 1-2 h$ A 192.0.2.$\n',
      3600,
      { a: 600, b: 600, c: 900, d: 300, g1: 300, g2: 300, e: 1200, h1: 1200, h2: 1200 },
    ],
    ['an SOA without a TTL takes its minimum', '$ORIGIN t2.test.\nt2.test. IN SOA ns.t2.test. admin.t2.test. 7 3600 600 86400 400\nd IN A 192.0.2.4\n', 400, { d: 400 }],
    ['a $TTL before the SOA wins', '$ORIGIN t3.test.\n$TTL 500\nt3.test. IN SOA ns.t3.test. admin.t3.test. 7 3600 600 86400 400\nc 900 IN A 192.0.2.3\nd IN A 192.0.2.4\n', 500, { c: 900, d: 500 }],
    ['a $TTL before $ORIGIN wins too', '$TTL 500\n$ORIGIN t4.test.\nt4.test. 100 IN SOA ns.t4.test. admin.t4.test. 7 3600 600 86400 400\nd IN A 192.0.2.4\n', 100, { d: 500 }],
  ])('gives records without a TTL the one the real service gives: %s', async (_, text, zoneTtl, ttls) => {
    const h = harness();
    const done = await importAndSettle(h, text);
    expect(done.status, String(done.message)).toBe('COMPLETE');
    expect((await h.zones.get(alice, done.zone_id!))._unsafeUnwrap().ttl).toBe(zoneTtl);
    const list = (await h.recordsets.list(alice, done.zone_id!))._unsafeUnwrap();
    const got = Object.fromEntries(list.recordsets.filter((r) => r.type === 'A').map((r) => [r.name.split('.')[0], r.ttl]));
    expect(got).toEqual(ttls);
  });

  it('keeps AAAA data as written, each address once (the first spelling), as the real service stores it', async () => {
    const h = harness();
    const done = await importAndSettle(
      h,
      file('a IN AAAA 2001:DB8:0:0:0:0:0:1', 'a IN AAAA 2001:db8::1', 'a IN AAAA 2001:0db8:0000::0001', 'a IN AAAA ( ::FFFF:192.0.2.1 )', 'a IN AAAA ::ffff:c000:201', 'a IN AAAA fd00::1'),
    );
    expect(done.status, String(done.message)).toBe('COMPLETE');
    const list = (await h.recordsets.list(alice, done.zone_id!))._unsafeUnwrap();
    expect(list.recordsets.find((r) => r.type === 'AAAA')?.records).toEqual(['2001:DB8:0:0:0:0:0:1', '::FFFF:192.0.2.1', 'fd00::1']);
  });

  it('compares AAAA addresses, not spellings, in a recordset too large to walk', async () => {
    const h = harness({ quotas: { recordset_records: -1 } });
    const short = Array.from({ length: 40 }, (_, i) => `a IN AAAA 2001:db8::${(i + 1).toString(16)}`);
    const long = Array.from({ length: 40 }, (_, i) => `a IN AAAA 2001:0DB8:0:0:0:0:0:${(i + 1).toString(16).padStart(4, '0')}`);
    const done = await importAndSettle(h, file(...short, ...long, 'a IN AAAA 2001:db8::ff:1'));
    expect(done.status, String(done.message)).toBe('COMPLETE');
    const list = (await h.recordsets.list(alice, done.zone_id!))._unsafeUnwrap();
    const records = list.recordsets.find((r) => r.type === 'AAAA')?.records ?? [];
    expect([...records].sort()).toEqual([...short.map((l) => l.split(' ')[3]!), '2001:db8::ff:1'].sort());
  });

  it('puts the records of one name and type in one recordset, however far apart and however the apex is written', async () => {
    const h = harness();
    const done = await importAndSettle(h, file('@ IN MX 10 a.example.org.', 'www IN A 192.0.2.1', 'example.com. IN MX 20 b.example.org.', 'www.example.com. IN A 192.0.2.2'));
    expect(done.status, String(done.message)).toBe('COMPLETE');
    const list = (await h.recordsets.list(alice, done.zone_id!))._unsafeUnwrap();
    const of = (type: string) => list.recordsets.filter((r) => r.type === type).map((r) => [r.name, [...r.records].sort()]);
    expect(of('MX')).toEqual([['example.com.', ['10 a.example.org.', '20 b.example.org.']]]);
    expect(of('A')).toEqual([['www.example.com.', ['192.0.2.1', '192.0.2.2']]]);
  });

  it('ends in ERROR with nothing half-written when storage fails inside the task', async () => {
    let failing = false;
    let n = 0;
    // The third put of the task falls inside the transaction that creates the zone (zone, block, counted zone).
    const storage = faultyStorage(memoryStorage(), (op) => failing && op === 'put' && ++n === 3);
    const h = harness({ storage });
    const created = (await h.imports.create(alice, FIXTURE, 'text/dns'))._unsafeUnwrap();
    failing = true;
    await h.tasks.settle();
    failing = false;
    const got = (await h.imports.get(alice, created.id))._unsafeUnwrap();
    expect(got.status).toBe('ERROR');
    expect(got.message).toMatch(/^An undefined error occurred\. /);
    expect(await storage.transaction((tx) => tx.count(ZONES, 'created'))).toBe(0);
    expect(await storage.transaction((tx) => tx.count(RECORDSETS, 'zone'))).toBe(0);
  });
});

describe('imports get/list/delete', () => {
  it('scopes to the caller project and deleting an import leaves its zone', async () => {
    const h = harness();
    const done = await importAndSettle(h, FIXTURE);
    expect((await h.imports.get(bob, done.id))._unsafeUnwrapErr().type).toBe('zone_import_not_found');
    expect((await h.imports.get(alice, 'nope'))._unsafeUnwrapErr().type).toBe('invalid_uuid');
    const mine = (await h.imports.list(alice))._unsafeUnwrap() as { imports: { id: string }[]; metadata: { total_count: number } };
    expect(mine.imports.map((i) => i.id)).toEqual([done.id]);
    expect(mine.metadata.total_count).toBe(1);
    expect(((await h.imports.list(bob))._unsafeUnwrap() as { imports: unknown[] }).imports).toEqual([]);
    const filtered = (await h.imports.list(alice, { status: 'ERROR' }))._unsafeUnwrap() as { imports: unknown[] };
    expect(filtered.imports).toEqual([]);
    expect((await h.imports.delete(bob, done.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await h.imports.delete(alice, done.id)).isOk()).toBe(true);
    expect((await h.imports.delete(alice, done.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await h.zones.get(alice, done.zone_id!)).isOk()).toBe(true);
    expect(h.events.map((e) => e.type)).toContain('dns.zone_import.delete');
  });

  it('an import deleted before its task ran is dropped quietly', async () => {
    const h = harness({ mode: 'manual' });
    const created = (await h.imports.create(alice, FIXTURE, 'text/dns'))._unsafeUnwrap();
    await h.imports.delete(alice, created.id);
    await h.tasks.settle();
    expect(await h.deps.storage.transaction((tx) => tx.count(ZONES, 'created'))).toBe(0);
  });
});
