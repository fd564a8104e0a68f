/**
 * `startServer` over real sockets: the identity endpoint as keystoneauth and tempest use it, the
 * DNS and quota APIs knowing callers by the tokens it issued, the test endpoints, the request log
 * and the snapshot file across a restart.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- the answers are JSON bodies read field by field */
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerOptions, type ZonewardServer } from '../../src/server/index.js';

const running: ZonewardServer[] = [];
const start = async (options: ServerOptions = {}): Promise<ZonewardServer> => {
  const server = await startServer({ port: 0, log: false, ...options });
  running.push(server);
  return server;
};
afterAll(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

const passwordLogin = (user: string, password: string, scope?: object) => ({
  auth: {
    identity: { methods: ['password'], password: { user: { name: user, domain: { name: 'Default' }, password } } },
    ...(scope === undefined ? {} : { scope }),
  },
});
const inProject = (name: string) => ({ project: { name, domain: { name: 'Default' } } });

async function login(url: string, user: string, password: string, scope: object | null = inProject('p1')) {
  const r = await fetch(`${url}/identity/v3/auth/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(passwordLogin(user, password, scope ?? undefined)) });
  return { status: r.status, token: r.headers.get('x-subject-token'), body: (await r.json()) as { token: Record<string, any> } };
}

const call = (url: string, token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method,
    headers: { ...(token === null ? {} : { 'x-auth-token': token }), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('identity endpoint, no configuration (anyone logs in)', () => {
  let url: string;
  beforeAll(async () => {
    url = (await start()).url;
  });

  it('discovers versions at /identity (300) and /identity/v3', async () => {
    const root = await fetch(`${url}/identity`);
    expect(root.status).toBe(300);
    const versions = (await root.json()) as any;
    expect(versions.versions.values[0].links[0].href).toBe(`${url}/identity/v3/`);
    const v3 = (await (await fetch(`${url}/identity/v3`)).json()) as any;
    expect(v3.version.id).toMatch(/^v3\./);
  });

  it('logs in with a password: a project-scoped token with roles and a catalog pointing here', async () => {
    const { status, token, body } = await login(url, 'alice', 'anything');
    expect(status).toBe(201);
    expect(token).toBeTruthy();
    expect(body.token['project'].name).toBe('p1');
    expect(body.token['roles'].map((r: { name: string }) => r.name).sort()).toEqual(['member', 'reader']);
    const dns = body.token['catalog'].find((s: { type: string }) => s.type === 'dns');
    expect(dns.endpoints.find((e: { interface: string }) => e.interface === 'public')).toMatchObject({ url, region_id: 'RegionOne' });
    expect(body.token['catalog'].map((s: { type: string }) => s.type)).toContain('key-manager');
  });

  it('gives user admin the admin role and the roles it implies', async () => {
    const { body } = await login(url, 'admin', 'x', inProject('admin'));
    expect(body.token['roles'].map((r: { name: string }) => r.name).sort()).toEqual(['admin', 'member', 'reader']);
  });

  it('keeps project ids the same for the same name, so a restart finds the same owners', async () => {
    const a = await login(url, 'bob', 'x', inProject('shared'));
    const b = await login(url, 'carol', 'y', inProject('shared'));
    expect(a.body.token['project'].id).toBe(b.body.token['project'].id);
    expect(a.body.token['project'].id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('validates tokens (GET and HEAD) and rescopes with the token method', async () => {
    const { token: unscoped, body } = await login(url, 'dave', 'x', null);
    expect(body.token['project']).toBeUndefined();
    expect(body.token['catalog']).toBeUndefined();
    const rescoped = await fetch(`${url}/identity/v3/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth: { identity: { methods: ['token'], token: { id: unscoped } }, scope: inProject('p2') } }),
    });
    expect(rescoped.status).toBe(201);
    const scoped = rescoped.headers.get('x-subject-token')!;
    const shown = await call(url, scoped, 'GET', '/identity/v3/auth/tokens', undefined, { 'x-subject-token': scoped });
    expect(shown.status).toBe(200);
    expect(((await shown.json()) as any).token.project.name).toBe('p2');
    expect((await call(url, scoped, 'HEAD', '/identity/v3/auth/tokens', undefined, { 'x-subject-token': scoped })).status).toBe(200);
    expect((await call(url, scoped, 'GET', '/identity/v3/auth/tokens', undefined, { 'x-subject-token': 'nope' })).status).toBe(404);
    expect((await call(url, 'nope', 'GET', '/identity/v3/auth/tokens', undefined, { 'x-subject-token': scoped })).status).toBe(401);
  });

  it('answers a malformed login 400 and never crashes', async () => {
    for (const body of ['{', '[]', '{"auth":{}}', '{"auth":{"identity":{"methods":["password"]}}}']) {
      const r = await fetch(`${url}/identity/v3/auth/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(r.status).toBe(400);
    }
  });

  it('lists projects, users, domains, roles and role assignments to a token holder', async () => {
    const { token, body } = await login(url, 'erin', 'x', inProject('p3'));
    const projectId = body.token['project'].id as string;
    const get = async (path: string) => {
      const r = await call(url, token, 'GET', `/identity/v3${path}`);
      expect(r.status, path).toBe(200);
      return (await r.json()) as any;
    };
    expect((await get('/projects?name=p3')).projects.map((p: { id: string }) => p.id)).toEqual([projectId]);
    expect((await get(`/projects/${projectId}`)).project.name).toBe('p3');
    expect((await get('/users?name=erin')).users).toHaveLength(1);
    expect((await get('/domains')).domains[0]).toMatchObject({ id: 'default', name: 'Default' });
    expect((await get('/roles')).roles.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['admin', 'member', 'reader']));
    const assignments = (await get(`/role_assignments?scope.project.id=${projectId}&effective`)).role_assignments;
    expect(assignments.length).toBe(2);
    expect((await call(url, null, 'GET', '/identity/v3/projects')).status).toBe(401);
  });
});

describe('identity endpoint with configured users', () => {
  let url: string;
  beforeAll(async () => {
    url = (
      await start({
        identity: {
          users: [
            { name: 'owner', password: 'pw', assignments: [{ project: 'proj', roles: ['member'] }] },
            { name: 'sys', password: 'pw', assignments: [{ system: true, roles: ['admin'] }] },
            { name: 'dom', password: 'pw', assignments: [{ domain: 'default', roles: ['reader'] }] },
          ],
        },
      })
    ).url;
  });

  it('refuses a wrong password, an unknown user and a project the user holds no role on', async () => {
    expect((await login(url, 'owner', 'wrong', inProject('proj'))).status).toBe(401);
    expect((await login(url, 'stranger', 'pw', inProject('proj'))).status).toBe(401);
    expect((await login(url, 'owner', 'pw', inProject('other'))).status).toBe(401);
    expect((await login(url, 'owner', 'pw', inProject('proj'))).status).toBe(201);
  });

  it('issues system- and domain-scoped tokens to the users holding roles there', async () => {
    const sys = await login(url, 'sys', 'pw', { system: { all: true } });
    expect(sys.status).toBe(201);
    expect(sys.body.token['system']).toEqual({ all: true });
    expect(sys.body.token['roles'].map((r: { name: string }) => r.name).sort()).toEqual(['admin', 'member', 'reader']);
    const dom = await login(url, 'dom', 'pw', { domain: { id: 'default' } });
    expect(dom.body.token['domain']).toEqual({ id: 'default', name: 'Default' });
    expect((await login(url, 'owner', 'pw', { system: { all: true } })).status).toBe(401);
  });

  it('the DNS API refuses a token that names no project', async () => {
    const sys = await login(url, 'sys', 'pw', { system: { all: true } });
    expect((await call(url, sys.token, 'GET', '/v2/zones')).status).toBe(401);
  });
});

describe('the services behind the tokens', () => {
  let url: string;
  let alice: string;
  let bob: string;
  let admin: string;
  beforeAll(async () => {
    url = (await start({ dns: { tasks: 'manual' }, quotas: { defaults: { secrets: 7 } } })).url;
    alice = (await login(url, 'alice', 'x', inProject('pa'))).token!;
    bob = (await login(url, 'bob', 'x', inProject('pb'))).token!;
    admin = (await login(url, 'admin', 'x', inProject('admin'))).token!;
  });

  it('knows the caller by X-Auth-Token: own zones only; no or a bad token is 401', async () => {
    const created = await call(url, alice, 'POST', '/v2/zones', { name: 'alice.example.', email: 'a@alice.example' });
    expect(created.status).toBe(202);
    const zone = (await created.json()) as { id: string; status: string };
    expect(zone.status).toBe('PENDING');
    expect((await call(url, bob, 'GET', `/v2/zones/${zone.id}`)).status).toBe(404);
    expect((await call(url, null, 'GET', '/v2/zones')).status).toBe(401);
    expect((await call(url, 'forged', 'GET', '/v2/zones')).status).toBe(401);
    const all = await call(url, admin, 'GET', '/v2/zones', undefined, { 'x-auth-all-projects': 'true' });
    expect(((await all.json()) as { zones: unknown[] }).zones).toHaveLength(1);
    // The same header from a member is refused by policy, as the real service does.
    expect((await call(url, bob, 'GET', '/v2/zones', undefined, { 'x-auth-all-projects': 'true' })).status).toBe(401);

    expect((await call(url, null, 'POST', '/zoneward/settle')).status).toBe(204);
    const shown = (await (await call(url, alice, 'GET', `/v2/zones/${zone.id}`)).json()) as { status: string };
    expect(shown.status).toBe('ACTIVE');
  });

  it('serves the quota API with the options given', async () => {
    const r = await call(url, alice, 'GET', '/v1/quotas');
    expect(r.status).toBe(200);
    expect(((await r.json()) as any).quotas.secrets).toBe(7);
  });

  it('snapshot, reset and restore', async () => {
    await call(url, alice, 'POST', '/v2/zones', { name: 'kept.example.', email: 'a@kept.example' });
    const snapshot = await (await call(url, null, 'GET', '/zoneward/snapshot')).json();
    expect((await call(url, null, 'POST', '/zoneward/reset')).status).toBe(204);
    expect(((await (await call(url, alice, 'GET', '/v2/zones')).json()) as { zones: unknown[] }).zones).toHaveLength(0);
    expect((await call(url, null, 'POST', '/zoneward/restore', snapshot)).status).toBe(204);
    const names = ((await (await call(url, alice, 'GET', '/v2/zones')).json()) as { zones: { name: string }[] }).zones.map((z) => z.name);
    expect(names).toContain('kept.example.');
    expect((await call(url, null, 'POST', '/zoneward/restore', { format: 1 })).status).toBe(400);
    expect((await call(url, null, 'GET', '/zoneward/nothing')).status).toBe(404);
  });

  it('refuses a snapshot whose rows are not the services\', and keeps the state it had', async () => {
    await call(url, alice, 'POST', '/v2/zones', { name: 'stays.example.', email: 'a@stays.example' });
    const good = (await (await call(url, null, 'GET', '/zoneward/snapshot')).json()) as { dns: { collections: Record<string, unknown> }; quotas: unknown };
    const broken = (collections: Record<string, unknown>) => ({ ...good, dns: { ...good.dns, collections: { ...good.dns.collections, ...collections } } });
    for (const [snapshot, says] of [
      [broken({ 'dns.zones': 7 }), "the snapshot's dns.zones is not a list of rows"],
      [broken({ 'dns.zones': [null] }), "a row of the snapshot's dns.zones has no string id"],
      [broken({ 'dns.zones': [{ id: 'z', value: 5 }] }), ''],
      [broken({ 'dns.nothing': [] }), 'does not know (dns.nothing)'],
      [{ ...good, quotas: { format: 1, projects: 5 } }, 'not a quota snapshot'],

    ] as const) {
      const r = await call(url, null, 'POST', '/zoneward/restore', snapshot);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toContain(says);
      const names = ((await (await call(url, alice, 'GET', '/v2/zones')).json()) as { zones: { name: string }[] }).zones.map((z) => z.name);
      expect(names).toContain('stays.example.');
    }
    // A zone nested deeper than any copy goes: refused before the state it replaces is cleared.
    const zones = good.dns.collections['dns.zones'] as { id: string; value: object }[];
    const deep = JSON.stringify(broken({ 'dns.zones': [{ ...zones[0]!, value: { ...zones[0]!.value, x: 'DEEP' } }] }))
      .replace('"DEEP"', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`);
    const r = await fetch(`${url}/zoneward/restore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toContain('cannot be stored');
    expect((await call(url, alice, 'GET', '/v2/zones')).status).toBe(200);
  });

  it('sets the clock and the id source', async () => {
    expect((await call(url, null, 'POST', '/zoneward/clock', { time: '2030-01-02T03:04:05Z' })).status).toBe(200);
    expect((await call(url, null, 'POST', '/zoneward/clock', { advance_ms: 1000 })).status).toBe(200);
    expect((await call(url, null, 'POST', '/zoneward/ids', { mode: 'sequential', prefix: 'abc' })).status).toBe(204);
    const zone = (await (await call(url, bob, 'POST', '/v2/zones', { name: 'clock.example.', email: 'a@clock.example' })).json()) as { id: string; created_at: string };
    expect(zone.created_at).toBe('2030-01-02T03:04:06.000000');
    expect(zone.id).toMatch(/^00000abc-0000-4000-8000-/);
    expect((await call(url, null, 'POST', '/zoneward/clock', { time: 'not a time' })).status).toBe(400);
    expect((await call(url, null, 'POST', '/zoneward/ids', { mode: 'sequential', prefix: 'not hex' })).status).toBe(400);
    expect((await call(url, null, 'POST', '/zoneward/ids', { mode: 'sequential', prefix: 7 })).status).toBe(400);
    expect((await call(url, null, 'DELETE', '/zoneward/clock')).status).toBe(200);
    await call(url, null, 'POST', '/zoneward/ids', { mode: 'random' });
  });
});

describe('serving under a base path, with a request log', () => {
  it('puts every route under the prefix and logs one line per request', async () => {
    const lines: string[] = [];
    const server = await start({ basePath: '/api', log: (line) => lines.push(line) });
    expect(server.url).toMatch(/\/api$/);
    const { token, body } = await login(server.url, 'alice', 'x');
    expect(body.token['catalog'][0].endpoints[0].url).toBe(server.url);
    expect((await call(server.url, token, 'GET', '/v2/zones')).status).toBe(200);
    expect((await fetch(server.url.replace(/\/api$/, '/v2/zones'))).status).toBe(404);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/ GET \/api\/v2\/zones 200 [\d.]+ms$/);
  });
});

describe('the API paths through the handler\'s node entry', () => {
  /** A raw GET whose target node hands over as sent (fetch would normalise it first). */
  const raw = (url: string, target: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const { hostname, port } = new URL(url);
      const req = request({ host: hostname, port, path: target, method: 'GET' }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject).end();
    });

  it('answers what the URL names once normalised, whichever way the target spells it', async () => {
    const lines: string[] = [];
    const server = await start({ log: (line) => lines.push(line) });
    expect((await call(server.url, null, 'POST', '/zoneward/clock', { time: '2030-01-02T03:04:05Z' })).status).toBe(200);
    const clock = await raw(server.url, '/zoneward/clock');
    expect(clock.status).toBe(200);
    // Each of these starts like an API path but names the test endpoint once resolved.
    for (const target of ['/v2/../zoneward/clock', '/v2/%2e%2e/zoneward/clock', '/v2\\..\\zoneward/clock']) {
      const r = await raw(server.url, target);
      expect(r, target).toEqual({ status: 200, body: clock.body });
    }
    expect((await raw(server.url, '/v2/zones')).status).toBe(401);
    // A target no URL can read is answered, and logged as sent, with the server still up.
    expect((await raw(server.url, 'http://[')).status).toBe(404);
    expect((await raw(server.url, '/v2/zones')).status).toBe(401);
    expect(lines.at(-2)).toMatch(/ GET "http:\/\/\[" \d{3} [\d.]+ms$/);
    lines.splice(-2);
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(/ GET \/zoneward\/clock 200 [\d.]+ms$/);
    expect(lines[5]).toMatch(/ GET \/v2\/zones 401 [\d.]+ms$/);
  });
});

describe('the snapshot file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'zoneward-server-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is written by close() and read at the next start', async () => {
    const file = join(dir, 'state.json');
    const first = await startServer({ port: 0, log: false, snapshotFile: file });
    const { token } = await login(first.url, 'alice', 'x');
    expect((await call(first.url, token, 'POST', '/v2/zones', { name: 'saved.example.', email: 'a@saved.example' })).ok).toBe(true);
    await first.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe(1);

    const second = await startServer({ port: 0, log: false, snapshotFile: file });
    try {
      const again = (await login(second.url, 'alice', 'other password')).token;
      const zones = ((await (await call(second.url, again, 'GET', '/v2/zones')).json()) as { zones: { name: string }[] }).zones;
      expect(zones.map((z) => z.name)).toEqual(['saved.example.']);
    } finally {
      await second.close();
    }
  });

  it('refuses to start from a file that is not a snapshot', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"zones": []}');
    await expect(startServer({ port: 0, log: false, snapshotFile: file })).rejects.toThrow(/not a zoneward server snapshot/);
  });

  it('refuses a database that is not a connection string, rather than look for a host named base', async () => {
    await expect(startServer({ port: 0, log: false, database: 'zoneward' })).rejects.toThrow(/database must be a PostgreSQL connection string .* not "zoneward"/);
  });

  it('refuses to start from a snapshot whose rows are not the services\', naming the file', async () => {
    const file = join(dir, 'rows.json');
    const first = await startServer({ port: 0, log: false, snapshotFile: file });
    await first.close();
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { dns: { collections: Record<string, unknown> } };
    saved.dns.collections['dns.zones'] = 'none';
    writeFileSync(file, JSON.stringify(saved));
    await expect(startServer({ port: 0, log: false, snapshotFile: file })).rejects.toThrow(`${file}: the snapshot's dns.zones is not a list of rows`);
  });
});
