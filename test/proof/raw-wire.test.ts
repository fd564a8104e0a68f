/**
 * Hostile bytes on the wire: any request line, `Host`, header set and body, sent raw over a
 * socket to `toNodeListener` and to `zoneward serve` (with its request log on). The law: every
 * request is answered with a whole HTTP response that is never a 500 (a 500 is a defect of ours;
 * node's parser answers what it cannot read 400), no request throws or rejects past the server,
 * and the server answers a plain request afterwards as it did before.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsService, createQuotaService } from '../../src/index.js';
import { createHttpHandler, toNodeListener, trustedHeaders } from '../../src/adapters/http/index.js';
import { startServer, type ZonewardServer } from '../../src/server/index.js';

const RUNS = 250;

/** One raw exchange: the bytes sent, everything read until the server closes (or a deadline). */
function exchange(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error(`no answer within 10 s to ${JSON.stringify(bytes.toString('latin1'))}`));
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    // The server may close before taking the whole request (a refused body): what came back counts.
    socket.on('error', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.end(bytes);
  });
}

const segment = fc.oneof(
  fc.constantFrom(
    'v2', 'v1', 'zones', 'recordsets', 'tasks', 'imports', 'exports', 'transfer_requests', 'transfer_accepts', 'quotas',
    'project-quotas', 'tlds', 'tsigkeys', 'blacklists', 'pools', 'service_statuses', 'limits', 'reports', 'identity', 'v3',
    'auth', 'tokens', 'projects', 'zoneward', 'clock', 'snapshot', 'settle', 'reset', 'restore', 'ids', '..', '.', '',
    '%2e%2e', '%2E', '%', '%zz', '%C3%28', '%F0%9F', '%00', '%2f', 'a%20b', ';x', 'ZONE',
  ),
  fc.string({ maxLength: 6 }).map((s) => [...s].filter((c) => c > ' ' && c !== '\x7f').join('')),
);
const separator = fc.constantFrom('/', '/', '/', '\\', '//');
const path = fc.array(fc.tuple(separator, segment), { maxLength: 6 }).map((parts) => parts.map(([s, p]) => s + p).join(''));
const query = fc.option(
  fc.array(fc.tuple(fc.constantFrom('limit', 'marker', 'sort_key', 'sort_dir', 'all_projects', 'name', 'type', 'offset', '%ff', ''), fc.constantFrom('1', '-1', 'x', '%ff', '', 'name', 'ZONE')), { maxLength: 4 })
    .map((q) => `?${q.map(([k, v]) => `${k}=${v}`).join('&')}`),
  { nil: '' },
);
/** Endpoints of both services, the identity endpoint and the test endpoints, `ZONE` the zone every test starts with. */
const endpoint = fc.constantFrom(
  '/', '/v2', '/v2/zones', '/v2/zones/ZONE', '/v2/zones/ZONE/recordsets', '/v2/zones/ZONE/recordsets/ZONE', '/v2/zones/ZONE/tasks/export',
  '/v2/zones/ZONE/tasks/transfer_requests', '/v2/zones/ZONE/tasks/abandon', '/v2/zones/ZONE/tasks/xfr', '/v2/zones/ZONE/nameservers',
  '/v2/zones/tasks/imports', '/v2/zones/tasks/exports', '/v2/zones/tasks/transfer_requests', '/v2/zones/tasks/transfer_accepts',
  '/v2/recordsets', '/v2/quotas/p1', '/v2/quotas', '/v2/tlds', '/v2/tsigkeys', '/v2/blacklists', '/v2/pools', '/v2/service_statuses',
  '/v2/limits', '/v2/reverse/floatingips', '/v1', '/v1/quotas', '/v1/project-quotas', '/v1/project-quotas/p1', '/identity/v3',
  '/identity/v3/auth/tokens', '/identity/v3/projects', '/zoneward/clock', '/zoneward/settle', '/zoneward/snapshot', '/zoneward/ids',
);
const target = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(endpoint, fc.option(path, { nil: '' }), query).map(([e, p, q]) => e + p + q) },
  { weight: 3, arbitrary: fc.tuple(path, query).map(([p, q]) => (p.startsWith('/') ? p : `/${p}`) + q) },
  fc.tuple(fc.constantFrom('http://[', 'http://x', 'http://[::1]:1', 'https://a:b@h', 'http://h:99999', '//', '*', 'h', 'http://'), path).map(([a, p]) => a + p),
);
/** Who calls: the no-auth headers the handler trusts in the first test, a token in the second. */
const caller = fc.constantFrom(
  ['X-Auth-Project-ID: p1', 'X-Roles: member'], ['X-Auth-Project-ID: p1', 'X-Roles: member'], ['X-Auth-Project-ID: p2', 'X-Roles: member'],
  ['X-Roles: admin'], ['X-Project-Id: p1', 'X-Roles: admin'], ['X-Auth-Token: TOKEN'], ['X-Auth-Token: TOKEN'], [],
);
const method = fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'get', 'FOO');
const host = fc.constantFrom<string[]>([], ['localhost'], ['['], ['[::1]:80'], ['a b'], ['h:99999'], ['é'], [''], ['a', 'b'], ['x/y'], ['%zz']);
const header = fc.oneof(
  fc.constantFrom(
    'X-Auth-Project-ID: p1', 'X-Auth-Project-ID: p2', 'X-Auth-Project-ID:', 'X-Roles: member', 'X-Roles: admin', 'X-Roles: ,,',
    'X-Roles: member,admin', 'X-Auth-All-Projects: true', 'X-Auth-All-Projects: maybe', 'X-Auth-Sudo-Project-ID: p2',
    'X-Auth-Sudo-Project-ID: ', 'X-Auth-Token: noauth:p1:member', 'X-Auth-Token: x', 'X-Auth-Token: TOKEN', 'X-Subject-Token: TOKEN',
    'Content-Type: application/json', 'Content-Type: text/dns', 'Content-Type: application/json; charset=latin1',
    'Accept: text/dns', 'Accept: */*', 'X-Designate-Edit-Managed-Records: true', 'X-Designate-Hard-Delete: yes',
    'Transfer-Encoding: chunked', 'Expect: 100-continue', 'Content-Length: -1', 'Content-Length: x',
  ),
  fc.tuple(fc.constantFrom('X-Roles', 'X-Auth-Project-ID', 'Content-Type', 'If-Match', 'Cookie'), fc.string({ maxLength: 12 }))
    .map(([n, v]) => `${n}: ${v.replace(/[\r\n]/g, '')}`),
);
const body = fc.oneof(
  fc.constant(''),
  fc.json({ maxDepth: 3 }),
  fc.constantFrom(
    '{"name":"a.example.com.","email":"h@example.com"}', '{"name":"a.example.com.","type":"SECONDARY","masters":["192.0.2.1"]}',
    '{"name":"www.a.example.com.","type":"A","records":["192.0.2.1"]}', '{"quotas":{"zones":-1}}', '{"project_quotas":{"secrets":1}}',
    '$ORIGIN a.example.com.\n@ 3600 IN SOA ns. h. 1 2 3 4 5\n@ IN NS ns.\n', '{"auth":{"identity":{"methods":["token"],"token":{"id":"TOKEN"}}}}',
    '{"time":"2030-01-01T00:00:00Z"}', '{"mode":"sequential"}', '{', '\u00ff\u00fe', 'null',
  ),
);
const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
type Operation = readonly [method: string, target: string, body: string];
/** Whole operations a client makes, for the requests to reach the commands. */
const operation: fc.Arbitrary<Operation> = fc.oneof(
  label.map((l): Operation => ['POST', '/v2/zones', JSON.stringify({ name: `${l}.example.com.`, email: 'h@example.com' })]),
  label.map((l): Operation => ['POST', '/v2/zones/ZONE/recordsets', JSON.stringify({ name: `${l}.z.example.com.`, type: 'A', records: ['192.0.2.1'] })]),
  label.map((l): Operation => ['POST', '/v2/zones/tasks/imports', `$ORIGIN ${l}.example.org.\n@ 300 IN SOA ns.example.net. h.example.net. 1 2 3 4 5\n@ IN NS ns.example.net.\nwww IN A 192.0.2.9\n`]),
  label.map((l): Operation => ['POST', '/v2/tlds', JSON.stringify({ name: l })]),
  // Logins of every shape the identity endpoint may be sent, the parts of a good one swapped for anything.
  fc
    .record({
      methods: fc.oneof(fc.constant(['password']), fc.constant(['token']), fc.constant(['password', 'token']), fc.jsonValue()),
      user: fc.oneof(fc.constant({ name: 'u', domain: { name: 'Default' }, password: 'x' }), fc.constant({ id: 'u' }), fc.jsonValue()),
      token: fc.oneof(fc.constant({ id: 'TOKEN' }), fc.jsonValue()),
      scope: fc.oneof(fc.constant({ project: { name: 'p1', domain: { name: 'Default' } } }), fc.constant({ system: { all: true } }), fc.constant('unscoped'), fc.jsonValue()),
    })
    .map(({ methods, user, token, scope }): Operation => [
      'POST',
      '/identity/v3/auth/tokens',
      JSON.stringify({ auth: { identity: { methods, password: { user }, token }, ...(scope === 'unscoped' ? {} : { scope }) } }),
    ]),
  fc.constantFrom<Operation>(['GET', '/identity/v3/auth/tokens', ''], ['GET', '/identity/v3/projects', ''], ['GET', '/identity/v3/users', ''], ['GET', '/identity/v3/role_assignments', ''], ['POST', '/zoneward/ids', '{"mode":"sequential","prefix":7}'], ['POST', '/zoneward/clock', '{"time":"yesterday"}'], ['POST', '/zoneward/restore', '{"format":1,"dns":{},"quotas":[]}']),
  fc.constantFrom<Operation>(
    ['GET', '/v2/zones/ZONE', ''], ['PATCH', '/v2/zones/ZONE', '{"ttl":600,"description":"d"}'], ['GET', '/v2/zones/ZONE/recordsets', ''],
    ['POST', '/v2/zones/ZONE/tasks/export', ''], ['POST', '/v2/zones/ZONE/tasks/transfer_requests', '{"target_project_id":"p2"}'],
    ['GET', '/v2/zones/tasks/transfer_requests', ''], ['PATCH', '/v2/quotas/p1', '{"zones":50}'], ['GET', '/v2/quotas/p1', ''],
    ['PUT', '/v1/project-quotas/p1', '{"project_quotas":{"secrets":3}}'], ['GET', '/v1/project-quotas', ''], ['DELETE', '/v1/project-quotas/p1', ''],
    ['POST', '/v2/zones/ZONE/tasks/abandon', ''], ['DELETE', '/v2/zones/ZONE', ''], ['POST', '/zoneward/clock', '{"advance_ms":60000}'],
    ['POST', '/zoneward/settle', ''], ['GET', '/zoneward/snapshot', ''], ['GET', '/v2/service_statuses', ''], ['GET', '/v2/limits', ''],
  ),
);
const request = fc.oneof(
  { weight: 1, arbitrary: fc.record({ method, target, host, caller, headers: fc.array(header, { maxLength: 4 }), body }) },
  { weight: 2, arbitrary: fc.record({ operation, host: fc.constantFrom<string[]>(['h'], ['h'], ['[']), caller, headers: fc.array(header, { maxLength: 1 }) }).map(
    ({ operation: [m, t, b], host: h, caller: c, headers: hs }) => ({ method: m, target: t, host: h, caller: c, headers: t.endsWith('imports') ? ['Content-Type: text/dns', ...hs] : hs, body: b }),
  ) },
);
type RawRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

/** The request as bytes; `Connection: close` so that the server ends the exchange. */
function bytesOf(r: RawRequest, token: string, zone: string): Buffer {
  const headers = [...r.caller, ...r.headers].map((h) => h.replace('TOKEN', token));
  if (r.body.startsWith('{') && !headers.some((h) => h.startsWith('Content-Type'))) headers.push('Content-Type: application/json');
  const lines = [`${r.method} ${r.target.replaceAll('ZONE', zone)} HTTP/1.1`, ...r.host.map((h) => `Host: ${h}`), ...headers];
  const chunked = headers.includes('Transfer-Encoding: chunked');
  const content = Buffer.from(r.body, 'utf8');
  if (!chunked && !headers.some((h) => h.startsWith('Content-Length'))) lines.push(`Content-Length: ${content.length}`);
  lines.push('Connection: close');
  const payload = chunked ? Buffer.concat([Buffer.from(`${content.length.toString(16)}\r\n`), content, Buffer.from('\r\n0\r\n\r\n')]) : content;
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

/** The status of the final response in what came back (after any `100 Continue`), or why there is none. */
const statusOf = (answer: string): number | string => {
  const m = /^(?:HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)*HTTP\/1\.1 (\d{3}) /.exec(answer);
  return m === null ? `not a response: ${JSON.stringify(answer.slice(0, 80))}` : Number(m[1]);
};

const uncaught: unknown[] = [];
const record = (e: unknown): void => void uncaught.push(e);
beforeAll(() => {
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
});
afterAll(() => {
  process.off('uncaughtException', record);
  process.off('unhandledRejection', record);
});

async function holds(port: number, token: string, zone: string, plain: () => Promise<number>): Promise<void> {
  const before = await plain();
  const seen = new Set<number>();
  let succeeded = 0;
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const answer = await exchange(port, bytesOf(r, token, zone));
      const status = statusOf(answer);
      expect(status, answer.slice(0, 400)).toBeTypeOf('number');
      // Save the one 500 that is the caller's doing: /zoneward/ids switched to a sequence that
      // starts over, and a create refuses to reuse an id (docs/errors.md).
      if (!answer.includes('"type":"duplicate_id"')) expect(status, answer.slice(0, 400)).not.toBe(500);
      seen.add(status as number);
      if ((status as number) < 300) succeeded += 1;
    }),
    { numRuns: RUNS },
  );
  expect(uncaught).toEqual([]);
  expect(await plain()).toBe(before);
  // The requests reach the commands, not only the parser and the router.
  // About one answer in ten is a success (9 to 40 of 250 over 16 seeds); none means the generator broke.
  expect(succeeded).toBeGreaterThan(0);
  expect([...seen].filter((s) => s >= 400).length).toBeGreaterThan(2);
}

describe('raw requests on the wire', () => {
  it(`toNodeListener answers any request line, Host, headers and body, never 500 (${RUNS} runs)`, async () => {
    const dns = createDnsService();
    const zone = (await dns.zones.create({ projectId: 'p1', roles: ['member'] }, { name: 'z.example.com.', email: 'h@example.com' }))._unsafeUnwrap();
    const handle = createHttpHandler({ dns, quotas: createQuotaService(), authenticate: trustedHeaders() });
    const server: Server = createServer(toNodeListener(handle));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const plain = async () => statusOf(await exchange(port, Buffer.from('GET /v2/zones HTTP/1.1\r\nHost: h\r\nX-Roles: member\r\nConnection: close\r\n\r\n'))) as number;
      await holds(port, 'noauth:p1:member', zone.id, plain);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }, 120_000);

  it(`zoneward serve, logging, answers them too (${RUNS} runs)`, async () => {
    const lines: string[] = [];
    const server: ZonewardServer = await startServer({ port: 0, log: (line) => lines.push(line) });
    try {
      const login = await fetch(`${server.url}/identity/v3/auth/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ auth: { identity: { methods: ['password'], password: { user: { name: 'u', domain: { name: 'Default' }, password: 'x' } } }, scope: { project: { name: 'p1', domain: { name: 'Default' } } } } }),
      });
      const token = login.headers.get('x-subject-token')!;
      const made = await fetch(`${server.url}/v2/zones`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': token },
        body: JSON.stringify({ name: 'z.example.com.', email: 'h@example.com' }),
      });
      const zone = ((await made.json()) as { id: string }).id;
      expect(made.status).toBe(202);
      const plain = async () => statusOf(await exchange(server.port, Buffer.from(`GET /v2/zones HTTP/1.1\r\nHost: h\r\nX-Auth-Token: ${token}\r\nConnection: close\r\n\r\n`))) as number;
      await holds(server.port, token, zone, plain);
      expect(lines.length).toBeGreaterThan(RUNS / 2);
    } finally {
      await server.close();
    }
  }, 120_000);
});
