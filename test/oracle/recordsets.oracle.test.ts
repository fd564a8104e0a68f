/**
 * Recordset writes against the real DNS API (`../shared/tools/designate-api`, Designate 15's v2
 * REST API over HTTP): the same requests, in the same order, to it and to zoneward, every answer
 * reduced to what a client sees (status class, error type, message and field errors; for a
 * recordset its name, type, records, ttl, description, status, action and version) and compared.
 * Skipped where the real API cannot run (no ../shared or no python3-designate).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDnsService, type ApiError, type DnsService, type RequestContext } from '../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';
import { describeWith, requirement } from '../support/requires.js';
import { oracleAvailable } from './oracle-process.js';

const API_DIR = join(process.env['ZONEWARD_TOOLS_DIR'] ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/tools'), 'designate-api');
const available = requirement('designate-api', existsSync(join(API_DIR, 'serve.py')) && oracleAvailable(), `${API_DIR}/serve.py (the workplace's ../shared/tools) and python3-designate`);

/** A free TCP port on 127.0.0.1, as the OS hands one out. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

interface Caller {
  readonly project: string;
  readonly admin?: boolean;
  readonly editManaged?: boolean;
}

/** One answer in the shape both sides are compared in. */
type Answer = string;

/** A recordset or an error, reduced to what the contract fixes. */
function reduce(status: number, body: unknown): Answer {
  const b = body as Record<string, unknown>;
  if (status >= 400) {
    const errors = (b['errors'] as { errors?: { path: unknown[]; message: string }[] } | undefined)?.errors;
    // The real service numbers refused records in the order of its record set (Python's string
    // hashing, different every run), not the body's: positions are compared as a set of messages.
    const detail =
      errors === undefined
        ? ''
        : ` ${JSON.stringify(errors.map((e) => [e.path.map((p) => (typeof p === 'number' || /^\d+$/.test(String(p)) ? '#' : String(p))).join('.'), e.message]).sort())}`;
    return `${status} ${String(b['type'])}: ${typeof b['message'] === 'string' ? b['message'] : '-'}${detail}`;
  }
  if (Array.isArray(b['recordsets'])) {
    const sets = (b['recordsets'] as Record<string, unknown>[]).map((r) => `${String(r['name'])} ${String(r['type'])}`);
    return `list ${(b['metadata'] as { total_count: number }).total_count} [${sets.join(', ')}]`;
  }
  const records = [...(b['records'] as string[])].sort();
  return `ok ${String(b['name'])} ${String(b['type'])} ${JSON.stringify(records)} ttl=${String(b['ttl'])} d=${String(b['description'])} ${String(b['status'])}/${String(b['action'])} v${String(b['version'])}`;
}

/** The real API over HTTP. */
class RealApi {
  constructor(readonly base: string) {}

  async call(caller: Caller, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = {
      'X-Auth-Project-ID': caller.project,
      'X-Roles': caller.admin === true ? 'admin' : 'member,reader',
      'Content-Type': 'application/json',
    };
    if (caller.editManaged === true) headers['X-Designate-Edit-Managed-Records'] = 'true';
    const res = await fetch(`${this.base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as unknown) };
  }
}

const ctxOf = (c: Caller): RequestContext => ({
  projectId: c.project,
  roles: c.admin === true ? ['admin'] : ['member', 'reader'],
  ...(c.editManaged === true ? { editManagedRecords: true } : {}),
});

const ours = async (r: ResultAsync<object, ApiError>): Promise<Answer> => {
  const res = await r;
  return res.isErr() ? reduce(res.error.status, res.error.toJSON()) : reduce(200, res.value);
};

/** A zone created on both sides, with both ids. */
interface Pair {
  readonly theirs: string;
  readonly ours: string;
}

describeWith(available, 'recordset writes against the real API', () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  let real: RealApi;
  let dns: DnsService;
  let zones = 0;
  const owner: Caller = { project: 'rs-owner' };

  beforeAll(async () => {
    const port = await freePort();
    child = spawn('/usr/bin/python3', ['serve.py', String(port)], { cwd: API_DIR, stdio: 'pipe' });
    await new Promise<void>((ready, fail) => {
      let out = '';
      child!.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('real designate API on')) ready();
      });
      child!.on('exit', (code) => fail(new Error(`designate-api exited (${code})`)));
    });
    real = new RealApi(`http://127.0.0.1:${port}`);
    dns = createDnsService({ tasks: 'manual', forbiddenStatus: 403, clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1) });
  }, 60_000);

  afterAll(() => {
    child?.kill();
  });

  /** A fresh zone on both sides, settled so that it is ACTIVE. */
  async function zone(): Promise<Pair & { name: string }> {
    zones++;
    const name = `z${zones}.rs.test.`;
    const theirs = await real.call(owner, 'POST', '/v2/zones', { name, email: 'a@example.com' });
    const mine = await dns.zones.create(ctxOf(owner), { name, email: 'a@example.com' });
    if (theirs.status !== 202 || mine.isErr()) throw new Error(`zone create failed: ${JSON.stringify(theirs.body)}`);
    await new Promise((r) => setTimeout(r, 150));
    await dns.tasks.settle();
    return { name, theirs: (theirs.body as { id: string }).id, ours: mine.value.id };
  }

  async function create(c: Caller, z: Pair, body: unknown): Promise<[Answer, Answer, string | undefined, string | undefined]> {
    const t = await real.call(c, 'POST', `/v2/zones/${z.theirs}/recordsets`, body);
    const o = await dns.recordsets.create(ctxOf(c), z.ours, body);
    return [
      reduce(t.status, t.body),
      o.isErr() ? reduce(o.error.status, o.error.toJSON()) : reduce(200, o.value),
      t.status < 300 ? (t.body as { id: string }).id : undefined,
      o.isOk() ? o.value.id : undefined,
    ];
  }

  /** The zone's version and its SOA recordset's version and status, once settled. */
  async function theirVersions(c: Caller, z: Pair): Promise<string> {
    const zone = (await real.call(c, 'GET', `/v2/zones/${z.theirs}`)).body as { version: number; status: string };
    const soa = ((await real.call(c, 'GET', `/v2/zones/${z.theirs}/recordsets?type=SOA`)).body as { recordsets: { version: number; status: string }[] }).recordsets[0]!;
    return `zone v${zone.version} ${zone.status}, SOA v${soa.version} ${soa.status}`;
  }
  async function versions(c: Caller, z: Pair): Promise<string> {
    const zone = (await dns.zones.get(ctxOf(c), z.ours))._unsafeUnwrap();
    const list = (await dns.recordsets.list(ctxOf(c), z.ours, { type: 'SOA' }))._unsafeUnwrap() as { recordsets: { version: number; status: string }[] };
    return `zone v${zone.version} ${zone.status}, SOA v${list.recordsets[0]!.version} ${list.recordsets[0]!.status}`;
  }

  const settle = async (): Promise<void> => {
    await new Promise((r) => setTimeout(r, 150));
    await dns.tasks.settle();
  };

  it('body fields: validation and exact errors', async () => {
    const z = await zone();
    const n = z.name;
    const bodies: unknown[] = [
      {},
      { name: `a.${n}` },
      { name: `a.${n}`, type: 'A', records: ['192.0.2.1'], foo: 1 },
      { name: `a.${n}`, type: 'A', records: ['192.0.2.1'], id: 'x' },
      { name: `a.${n}`, type: 'A', records: ['192.0.2.1'], status: 'ACTIVE' },
      { name: `a.${n}`, type: 'A', records: ['192.0.2.1'], status: 'PENDING' },
      { name: 'a.elsewhere.test.', type: 'A', records: ['192.0.2.1'] },
      { name: `a.${n}`.slice(0, -1), type: 'A', records: ['192.0.2.1'] },
      { name: 5, type: 'A', records: ['192.0.2.1'] },
      { name: `a.${n}`, type: 'a', records: ['192.0.2.1'] },
      { name: `a.${n}`, type: 'LOC', records: ['192.0.2.1'] },
      { name: `a.${n}`, type: 'DS', records: ['1 2 3 abcd'] },
      { name: `a.${n}`, type: 'SOA', records: ['ns.x. h.x. 1 2 3 4 5'] },
      { name: `a.${n}`, type: 'A', records: '192.0.2.1' },
      { name: `a.${n}`, type: 'A', records: [1] },
      { name: `a.${n}`, type: 'A', records: ['192.0.2.1', 'x', '192.0.2.300'] },
      { name: `a.${n}`, type: 'A', records: ['192.0.2.1'], ttl: -1 },
      { name: `a.${n}`, type: 'A', records: ['192.0.2.1'], ttl: 2147483648 },
      { name: `a.${n}`, type: 'A', records: ['192.0.2.1'], description: 'x'.repeat(161) },
      { name: `a.*.${n}`, type: 'A', records: ['192.0.2.1'] },
      { name: `-a.${n}`, type: 'A', records: ['192.0.2.1'] },
      { name: `${'a'.repeat(64)}.${n}`, type: 'A', records: ['192.0.2.1'] },
      { name: `x.${n}`.toUpperCase(), type: 'A', records: ['192.0.2.1'] },
      { name: `_sip._tcp.${n}`, type: 'SRV', records: ['10 20 5060 sip.example.com.'] },
      { name: `nosrv.${n}`, type: 'SRV', records: ['10 20 5060 sip.example.com.'] },
      { name: `*.${n}`, type: 'NS', records: ['ns.example.com.'] },
      { name: n, type: 'CNAME', records: ['x.example.com.'] },
      { name: `c.${n}`, type: 'CNAME', records: ['x.example.com.', 'y.example.com.'] },
      { type: 'A', records: ['192.0.2.1'] },
      { name: null, type: 'A', records: ['192.0.2.1'] },
      { name: `a.${n}`, type: null },
      { name: `a.${n}`, type: 'A', records: [null] },
      { name: `a.${n}`, type: 'TXT', records: [{ a: 1 }] },
      { name: `a.${n}`, type: 'A', records: null },
      { name: `a.${n}`, type: 'A', records: { a: 1 } },
      { name: `a.${n}`, type: 'A', records: 5 },
      [],
    ];
    for (const body of bodies) {
      const [t, o] = await create(owner, z, body);
      expect({ body, answer: o }).toEqual({ body, answer: t });
    }
  });

  it('writes: sets of records, CNAME rules, duplicates, subzones, update and delete', async () => {
    const z = await zone();
    const n = z.name;
    const steps: [Answer, Answer][] = [];
    const [t1, o1, tid, oid] = await create(owner, z, { name: `www.${n}`, type: 'A', records: ['192.0.2.2', '192.0.2.1', '192.0.2.2'], ttl: 300, description: 'web' });
    steps.push([t1, o1]);
    for (const body of [
      { name: `www.${n}`, type: 'A', records: ['192.0.2.9'] },
      { name: `www.${n}`, type: 'CNAME', records: ['x.example.com.'] },
      { name: `www.${n}`, type: 'TXT', records: ['"hello world"'] },
      { name: `alias.${n}`, type: 'CNAME', records: ['x.example.com.'] },
      { name: `alias.${n}`, type: 'A', records: ['192.0.2.1'] },
      { name: `empty.${n}`, type: 'A' },
      { name: n, type: 'NS', records: ['ns9.example.com.'] },
    ]) {
      const [t, o] = await create(owner, z, body);
      steps.push([t, o]);
    }
    // A subzone owned by the same project: names inside it are refused in the parent.
    const sub = `sub.${n}`;
    await real.call(owner, 'POST', '/v2/zones', { name: sub, email: 'a@example.com' });
    await dns.zones.create(ctxOf(owner), { name: sub, email: 'a@example.com' });
    await settle();
    steps.push((await create(owner, z, { name: `x.${sub}`, type: 'A', records: ['192.0.2.1'] })).slice(0, 2) as [Answer, Answer]);
    await settle();
    const put = async (c: Caller, body: unknown): Promise<[Answer, Answer]> => {
      const t = await real.call(c, 'PUT', `/v2/zones/${z.theirs}/recordsets/${tid!}`, body);
      return [reduce(t.status, t.body), await ours(dns.recordsets.update(ctxOf(c), z.ours, oid!, body))];
    };
    steps.push(await put(owner, {}));
    await settle();
    steps.push(await put(owner, { description: 'changed' }));
    steps.push(await put(owner, { name: `other.${n}` }));
    steps.push(await put(owner, { type: 'AAAA' }));
    steps.push(await put(owner, { type: 'A', records: ['192.0.2.7'] }));
    steps.push(await put(owner, { records: ['nope'] }));
    steps.push(await put(owner, { ttl: null }));
    steps.push(await put({ project: 'rs-stranger' }, { ttl: 5 }));
    await settle();
    const t = await real.call({ project: 'rs-stranger' }, 'DELETE', `/v2/zones/${z.theirs}/recordsets/${tid!}`);
    steps.push([reduce(t.status, t.body), await ours(dns.recordsets.delete(ctxOf({ project: 'rs-stranger' }), z.ours, oid!))]);
    const del = await real.call(owner, 'DELETE', `/v2/zones/${z.theirs}/recordsets/${tid!}`);
    steps.push([reduce(del.status, del.body), await ours(dns.recordsets.delete(ctxOf(owner), z.ours, oid!))]);
    const gone = await real.call(owner, 'GET', `/v2/zones/${z.theirs}/recordsets/${tid!}`);
    steps.push([reduce(gone.status, gone.body), await ours(dns.recordsets.get(ctxOf(owner), z.ours, oid!))]);
    for (const [theirs, mine] of steps) expect(mine).toBe(theirs);
    await settle();
    expect(await versions(owner, z)).toEqual(await theirVersions(owner, z));
  });

  it('managed SOA and NS, and editManagedRecords', async () => {
    const z = await zone();
    const theirList = (await real.call(owner, 'GET', `/v2/zones/${z.theirs}/recordsets`)).body as { recordsets: { id: string; type: string }[] };
    const ourList = (await dns.recordsets.list(ctxOf(owner), z.ours))._unsafeUnwrap() as { recordsets: { id: string; type: string }[] };
    const id = (list: { recordsets: { id: string; type: string }[] }, type: string): string => list.recordsets.find((r) => r.type === type)!.id;
    const admin: Caller = { project: 'rs-owner', admin: true, editManaged: true };
    const cases: [Caller, 'PUT' | 'DELETE', string, unknown][] = [
      [owner, 'PUT', 'SOA', { ttl: 5 }],
      [owner, 'PUT', 'SOA', { zzz: 5 }],
      [owner, 'DELETE', 'SOA', undefined],
      [owner, 'PUT', 'NS', { ttl: 5 }],
      [owner, 'DELETE', 'NS', undefined],
      [{ project: 'rs-owner', editManaged: true }, 'PUT', 'NS', { ttl: 5 }],
      [admin, 'PUT', 'SOA', { ttl: 5 }],
      [admin, 'DELETE', 'SOA', undefined],
      [admin, 'PUT', 'NS', { description: 'x' }],
      [{ project: 'rs-owner', admin: true }, 'PUT', 'SOA', { ttl: 5 }],
      [{ project: 'rs-other', admin: true, editManaged: true }, 'DELETE', 'NS', undefined],
      [admin, 'DELETE', 'NS', undefined],
    ];
    for (const [c, method, type, body] of cases) {
      const t = await real.call(c, method, `/v2/zones/${z.theirs}/recordsets/${id(theirList, type)}`, body);
      const o =
        method === 'PUT'
          ? await ours(dns.recordsets.update(ctxOf(c), z.ours, id(ourList, type), body))
          : await ours(dns.recordsets.delete(ctxOf(c), z.ours, id(ourList, type)));
      expect({ c, method, type, body, answer: o }).toEqual({ c, method, type, body, answer: reduce(t.status, t.body) });
    }
    await settle();
    expect(await versions(owner, z)).toEqual(await theirVersions(owner, z));
    const t = await real.call(owner, 'GET', `/v2/zones/${z.theirs}/recordsets?type=NS`);
    expect(await ours(dns.recordsets.list(ctxOf(owner), z.ours, { type: 'NS' }))).toBe(reduce(t.status, t.body));
    const soa = await real.call(owner, 'POST', `/v2/zones/${z.theirs}/recordsets`, { name: `x.${z.name}`, type: 'SOA', records: ['a. b. 1 2 3 4 5'] });
    expect(await ours(dns.recordsets.create(ctxOf(admin), z.ours, { name: `x.${z.name}`, type: 'SOA', records: ['a. b. 1 2 3 4 5'] }))).toBe(
      reduce(soa.status, soa.body),
    );
  });

  it('the cross-zone list: filters, sort keys, visibility', async () => {
    const lister: Caller = { project: 'rs-lister' };
    for (let i = 0; i < 2; i++) {
      zones++;
      const name = `l${zones}.rs.test.`;
      const t = await real.call(lister, 'POST', '/v2/zones', { name, email: 'a@example.com' });
      const o = await dns.zones.create(ctxOf(lister), { name, email: 'a@example.com' });
      await settle();
      const z = { theirs: (t.body as { id: string }).id, ours: o._unsafeUnwrap().id };
      await create(lister, z, { name: `www.${name}`, type: 'A', records: ['192.0.2.4', '192.0.2.5'], ttl: 300 });
      await create(lister, z, { name: `mail.${name}`, type: 'MX', records: ['10 mx.example.com.'], description: 'hi' });
    }
    await settle();
    const queries: Record<string, string>[] = [
      {},
      { type: 'A' },
      { name: 'www*' },
      { name: '*.test.' },
      { data: '192.0.2.5' },
      { data: '192.0.2.*' },
      { ttl: '300' },
      { description: 'hi' },
      { foo: '1' },
      { sort_key: 'records' },
      { sort_key: 'id' },
      { limit: '0' },
    ];
    for (const q of queries) {
      const qs = new URLSearchParams(q).toString();
      const t = await real.call(lister, 'GET', `/v2/recordsets${qs === '' ? '' : `?${qs}`}`);
      const answer = await ours(dns.recordsets.listAll(ctxOf(lister), q));
      // Sorting within equal created_at differs by ids (each side draws its own); compare as sets.
      const norm = (a: string): string => a.replace(/\[(.*)\]$/, (_m, inner: string) => `[${inner.split(', ').sort().join(', ')}]`);
      expect({ q, answer: norm(answer) }).toEqual({ q, answer: norm(reduce(t.status, t.body)) });
    }
    const admin = await real.call({ project: 'rs-nobody', admin: true }, 'GET', '/v2/recordsets');
    expect(await ours(dns.recordsets.listAll(ctxOf({ project: 'rs-nobody', admin: true })))).toBe(reduce(admin.status, admin.body));
  });

  it('imported recordsets: names and order as the real service lists them', async () => {
    zones++;
    const origin = `imp${zones}.rs.test.`;
    // Owners written in two spellings, types of one owner apart and again later, a duplicate.
    const text = [
      `$ORIGIN ${origin}`,
      '$TTL 300',
      '@ IN SOA ns1.example.org. admin.example.com. 1 3600 600 86400 300',
      '@ IN NS ns1.example.org.',
      'zeta IN A 192.0.2.1',
      'Alpha IN A 192.0.2.2',
      'mid IN TXT "x"',
      'alpha IN MX 10 mx.example.',
      'zeta IN TXT "z"',
      '@ IN MX 10 mx.example.',
      'Zeta IN A 192.0.2.1',
      'BETA IN A 192.0.2.3',
      'beta IN AAAA ::1',
      'Mid IN A 192.0.2.4',
      '',
    ].join('\n');
    const headers = { 'X-Auth-Project-ID': owner.project, 'X-Roles': 'member,reader', 'Content-Type': 'text/dns' };
    const posted = (await (await fetch(`${real.base}/v2/zones/tasks/imports`, { method: 'POST', headers, body: text })).json()) as { id: string };
    let theirs: { status: string; zone_id: string | null } = { status: 'PENDING', zone_id: null };
    for (let i = 0; i < 200 && theirs.status === 'PENDING'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      theirs = (await real.call(owner, 'GET', `/v2/zones/tasks/imports/${posted.id}`)).body as typeof theirs;
    }
    const mine = (await dns.imports.create(ctxOf(owner), text, 'text/dns'))._unsafeUnwrap();
    await settle();
    const zoneId = ((await dns.imports.get(ctxOf(owner), mine.id))._unsafeUnwrap() as { zone_id: string }).zone_id;
    expect(theirs.status).toBe('COMPLETE');
    await settle();
    // Default order (created_at, then id): SOA and NS (created first there, given the smallest
    // ids here), then dnspython's nodes in the order their owners first occur, a node's
    // recordsets in the order of their last records, each named as its owner was first written.
    const t = await real.call(owner, 'GET', `/v2/zones/${theirs.zone_id!}/recordsets`);
    expect(await ours(dns.recordsets.list(ctxOf(owner), zoneId))).toBe(reduce(t.status, t.body));
  });

  /** Record data for each type: tokens that are valid, nearly valid and wrong, joined by one or two spaces. */
  const TOKENS: Record<string, string[]> = {
    A: ['192.0.2.1', '01.2.3.4', '1.2.3', '256.1.1.1', '0.0.0.0', '::1', ' 1.2.3.4'],
    AAAA: ['2001:db8::1', '2001:DB8::1', '::ffff:1.2.3.4', '::', '1::2::3', '2001:db8::1%eth0', '1.2.3.4', '00000::1'],
    MX: ['10', '0', '65536', '+10', '010', 'mail.example.com.', 'mail.example.com', '.', ''],
    SRV: ['10', '+5', '70000', '0', 'sip.example.com.', '*.example.com.', 'sip'],
    TXT: ['hello', '"hello world"', 'hello world', '"a\\"b"', '"a"b"', 'x\\', '""', '"'],
    SPF: ['v=spf1', '-all', '"v=spf1 -all"', '"a"b"'],
    SSHFP: ['1', '2', '5', '01', '123456789abcdef67890', 'xyz', '12ab'],
    CAA: ['0', '1', '128', 'issue', 'iodef', 'bogus', 'letsencrypt.org', '"letsencrypt.org"', 'mailto:a@b.example', 'https://x.example/', 'ca.net; key=v', 'ca.net;key=v'],
    NAPTR: ['100', '10', 'S', 'SS', 'AU', 'x', 'SIP+D2U', '""', '!^.*$!sip:a@b!', '_sip._udp.example.com.', '.'],
    CERT: ['1', 'PKIX', 'pkix', '65536', 'RSASHA1', 'RSA-X', '256', 'MTIzNA==', 'MTIzNA=', 'MTIz', '!!!'],
    CNAME: ['a.example.com.', 'a.example.com', '*.example.com.', '.'],
    PTR: ['host.example.com.', 'host', `${'a'.repeat(64)}.example.`],
  };
  const arbRecord = fc.constantFrom(...Object.keys(TOKENS)).chain((type) =>
    fc.tuple(fc.constant(type), fc.array(fc.constantFrom(...TOKENS[type]!), { minLength: 1, maxLength: 6 }), fc.array(fc.constantFrom(' ', '  '), { minLength: 5, maxLength: 5 })),
  );

  it('a new zone: SOA before NS in the default order, the SOA never updated, an empty last page counts 0', async () => {
    type List = { recordsets: { id: string; type: string; updated_at: string | null }[]; metadata: { total_count: number } };
    const shape = (first: List, empty: List) =>
      `${first.recordsets.map((r) => `${r.type} updated=${r.updated_at === null ? 'null' : 'set'}`).join(', ')}; past the last: ${empty.recordsets.length} rows, total ${empty.metadata.total_count}`;
    // Random ids on our side, as a service has by default: the order must not depend on them.
    const fresh = createDnsService({ tasks: 'manual', forbiddenStatus: 403 });
    // A project of its own: the real service allows 10 zones per project.
    const creator: Caller = { project: 'rs-new' };
    for (let i = 0; i < 6; i++) {
      const name = `new${i}.rs.test.`;
      const theirs = (await real.call(creator, 'POST', '/v2/zones', { name, email: 'a@example.com' })).body as { id: string };
      const mine = (await fresh.zones.create(ctxOf(creator), { name, email: 'a@example.com' }))._unsafeUnwrap();
      await new Promise((r) => setTimeout(r, 150));
      await fresh.tasks.settle();
      const tList = (await real.call(creator, 'GET', `/v2/zones/${theirs.id}/recordsets`)).body as List;
      const tEmpty = (await real.call(creator, 'GET', `/v2/zones/${theirs.id}/recordsets?limit=1&marker=${tList.recordsets[1]!.id}`)).body as List;
      const oList = (await fresh.recordsets.list(ctxOf(creator), mine.id))._unsafeUnwrap() as unknown as List;
      const oEmpty = (await fresh.recordsets.list(ctxOf(creator), mine.id, { limit: '1', marker: oList.recordsets[1]!.id }))._unsafeUnwrap() as unknown as List;
      expect(shape(oList, oEmpty)).toBe(shape(tList, tEmpty));
    }
  });

  it('per-type record validation agrees with the real service (generated records)', async () => {
    const z = await zone();
    let k = 0;
    await fc.assert(
      fc.asyncProperty(arbRecord, async ([type, tokens, gaps]) => {
        k++;
        const data = tokens.map((t, i) => (i === 0 ? t : `${gaps[i - 1] ?? ' '}${t}`)).join('');
        const name = type === 'SRV' ? `_s${k}._tcp.${z.name}` : `r${k}.${z.name}`;
        const [t, o] = await create(owner, z, { name, type, records: [data] });
        expect({ type, data, answer: o }).toEqual({ type, data, answer: t });
      }),
      { numRuns: 250, seed: 19 },
    );
  }, 120_000);
});
