import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDnsService, createQuotaService } from '../../../src/index.js';
import { createHttpHandler, trustedHeaders } from '../../../src/adapters/http/index.js';
import { sequentialIds, manualClock } from '../../../src/testing/index.js';

const member = { 'X-Auth-Project-ID': 'p1', 'X-Roles': 'member' };
const json = { 'content-type': 'application/json' };
const serviceAdmin = { 'X-Project-Id': 'ops', 'X-Roles': 'key-manager:service-admin' };

function setup(options: { tasks?: 'auto' | 'inline' | 'manual'; basePath?: string } = {}) {
  const dns = createDnsService({ ids: sequentialIds(), clock: manualClock('2026-01-01T00:00:00Z'), tasks: options.tasks ?? 'auto' });
  const quotas = createQuotaService();
  const handle = createHttpHandler({ dns, quotas, authenticate: trustedHeaders(), ...(options.basePath ? { basePath: options.basePath } : {}) });
  return { dns, quotas, handle };
}

/** A JSON body, typed loosely: the tests check its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies of many shapes, checked by value
const read = async (r: Response): Promise<any> => r.json();

const createZone = (name = 'example.com.') => JSON.stringify({ name, email: 'admin@example.com' });

describe('zoneward/http: DNS', () => {
  it('creates a zone: 202 PENDING in auto and manual mode, 201 ACTIVE inline, Location = links.self', async () => {
    for (const [tasks, status, state] of [['auto', 202, 'PENDING'], ['inline', 201, 'ACTIVE'], ['manual', 202, 'PENDING']] as const) {
      const { handle } = setup({ tasks });
      const r = await handle(new Request('http://10.0.0.1:8080/v2/zones', { method: 'POST', headers: { ...member, ...json }, body: createZone() }));
      expect(r.status).toBe(status);
      const body = await read(r);
      expect(body.status).toBe(state);
      expect(r.headers.get('location')).toBe(`http://10.0.0.1:8080/v2/zones/${body.id}`);
      expect(body.links.self).toBe(r.headers.get('location'));
      expect(r.headers.get('x-openstack-request-id')).toMatch(/^req-[0-9a-f-]{36}$/);
    }
  });

  it('links point at the origin each request used, mount prefix included', async () => {
    const { handle } = setup({ basePath: '/dns' });
    await handle(new Request('http://a.test/dns/v2/zones', { method: 'POST', headers: { ...member, ...json }, body: createZone() }));
    const r = await handle(new Request('http://b.test:81/dns/v2/zones?limit=1', { headers: member }));
    const body = await read(r);
    expect(body.links.self).toBe('http://b.test:81/dns/v2/zones?limit=1');
    expect(body.zones[0].links.self).toMatch(/^http:\/\/b\.test:81\/dns\/v2\/zones\//);
    expect((await handle(new Request('http://b.test/v2/zones', { headers: member }))).status).toBe(404);
  });

  it('refuses a basePath no request target could show (not ASCII, a space), and takes a percent-encoded one', async () => {
    const dns = createDnsService();
    for (const basePath of ['/dné', '/a b', '/x\n']) {
      expect(() => createHttpHandler({ dns, authenticate: trustedHeaders(), basePath })).toThrow(/basePath/);
    }
    const handle = createHttpHandler({ dns, authenticate: trustedHeaders(), basePath: '/dn%C3%A9' });
    const r = await handle(new Request('http://h/dn%C3%A9/v2/zones', { headers: member }));
    expect(r.status).toBe(200);
    expect((await read(r)).links.self).toBe('http://h/dn%C3%A9/v2/zones');
  });

  it('answers content-type, JSON and empty-body errors in the real service\'s words, with request_id', async () => {
    const { handle } = setup();
    const post = (headers: Record<string, string>, body?: string) =>
      handle(new Request('http://h/v2/zones', { method: 'POST', headers: { ...member, ...headers }, ...(body === undefined ? {} : { body }) }));
    let r = await post({ 'content-type': 'Application/JSON' }, createZone());
    expect(r.status).toBe(415);
    const e = await read(r);
    expect(e).toMatchObject({ code: 415, type: 'unsupported_content_type', message: 'Content-type must be application/json' });
    expect(e.request_id).toBe(r.headers.get('x-openstack-request-id'));
    expect((await post({ 'content-type': 'application/json; charset=utf-8' }, createZone())).status).toBe(202);
    r = await post(json, '{"name":"a.com.",');
    expect(await read(r)).toMatchObject({ type: 'invalid_json', message: 'Expecting property name enclosed in double quotes: line 1 column 18 (char 17)' });
    for (const body of ['', 'null']) expect((await read(await post(json, body))).type).toBe('empty_request_body');
    r = await post(json, '{"name":"c.com.","email":"a@a.com","ttl":NaN}');
    expect(r.status).toBe(400);
    expect((await read(r)).type).toBe('invalid_object');
  });

  it('404 and 405 with the real bodies', async () => {
    const { handle } = setup();
    const r404 = await handle(new Request('http://h/v2/nope', { headers: member }));
    expect(r404.status).toBe(404);
    expect(await read(r404)).toMatchObject({ code: 404, type: 'not_found', message: 'resource not found' });
    const r405 = await handle(new Request('http://h/v2/zones', { method: 'DELETE', headers: member }));
    expect(r405.status).toBe(405);
    expect(Object.keys(await read(r405)).sort()).toEqual(['code', 'request_id', 'type']);
  });

  it('all_projects in the query string overrides the header, both ways', async () => {
    const { handle } = setup();
    await handle(new Request('http://h/v2/zones', { method: 'POST', headers: { ...member, ...json }, body: createZone() }));
    const admin = { 'X-Auth-Project-ID': 'ops', 'X-Roles': 'admin' };
    const count = async (url: string, headers: Record<string, string>) => (await read(await handle(new Request(url, { headers })))).zones.length;
    expect(await count('http://h/v2/zones?all_projects=1', admin)).toBe(1);
    expect(await count('http://h/v2/zones?all_projects=0', { ...admin, 'X-Auth-All-Projects': 'true' })).toBe(0);
    expect(await count('http://h/v2/zones', { ...admin, 'X-Auth-All-Projects': 'true' })).toBe(1);
    const denied = await handle(new Request('http://h/v2/zones?all_tenants=yes', { headers: member }));
    expect(denied.status).toBe(401);
  });

  it('zone delete is 202 with the body; abandon 204; export file honours Accept', async () => {
    const { handle, dns } = setup();
    const zone = await read(await handle(new Request('http://h/v2/zones', { method: 'POST', headers: { ...member, ...json }, body: createZone() })));
    const ex = await handle(new Request(`http://h/v2/zones/${zone.id}/tasks/export`, { method: 'POST', headers: member }));
    expect(ex.status).toBe(202);
    const exportId = (await read(ex)).id;
    await dns.tasks.settle();
    const file = await handle(new Request(`http://h/v2/zones/tasks/exports/${exportId}/export`, { headers: member }));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/dns');
    expect(await file.text()).toContain('$ORIGIN example.com.');
    const refused = await handle(new Request(`http://h/v2/zones/tasks/exports/${exportId}/export`, { headers: { ...member, accept: 'application/json' } }));
    expect(refused.status).toBe(406);
    const del = await handle(new Request(`http://h/v2/zones/${zone.id}`, { method: 'DELETE', headers: member }));
    expect(del.status).toBe(202);
    expect(await read(del)).toMatchObject({ action: 'DELETE', status: 'PENDING' });
  });

  it('transfer requests accept an empty body, and a path id is checked before the content type', async () => {
    const { handle } = setup();
    const zone = await read(await handle(new Request('http://h/v2/zones', { method: 'POST', headers: { ...member, ...json }, body: createZone() })));
    const r = await handle(new Request(`http://h/v2/zones/${zone.id}/tasks/transfer_requests`, { method: 'POST', headers: { ...member, ...json } }));
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toMatch(/\/v2\/zones\/tasks\/transfer_requests\//);
    const bad = await handle(new Request('http://h/v2/zones/abc', { method: 'PATCH', headers: { ...member, 'content-type': 'text/plain' }, body: 'x' }));
    expect(await read(bad)).toMatchObject({ code: 400, type: 'invalid_uuid', message: 'Invalid UUID zone_id: abc' });
  });
});

describe('zoneward/http: quotas', () => {
  it('refuses by policy before reading the body, then checks the content type exactly', async () => {
    const { handle } = setup();
    const put = (headers: Record<string, string>, body: string) =>
      handle(new Request('http://h/v1/project-quotas/p2', { method: 'PUT', headers, body }));
    let r = await put({ 'X-Project-Id': 'p1', 'X-Roles': 'member' }, 'garbage');
    expect(r.status).toBe(401);
    expect((await read(r)).description).toMatch(/attempt not allowed/);
    r = await put({ ...serviceAdmin, 'content-type': 'Application/JSON' }, '{}');
    expect(r.status).toBe(415);
    r = await put({ ...serviceAdmin, ...json }, '{"project_quotas":');
    expect(await read(r)).toEqual({ code: 400, title: 'Bad Request', description: 'Malformed JSON' });
    r = await put({ ...serviceAdmin, ...json }, '{"project_quotas":{"secrets":Infinity}}');
    expect((await read(r)).description).toContain('inf is not of type');
    r = await put({ ...serviceAdmin, 'content-type': 'application/json; charset=utf-8' }, '{"project_quotas":{"secrets":5}}');
    expect(r.status).toBe(204);
    r = await handle(new Request('http://h/v1/project-quotas/p2', { headers: { 'X-Project-Id': 'ops', 'X-Roles': ' Key-Manager:Service-Admin ' } }));
    expect(await read(r)).toEqual({ project_quotas: { secrets: 5, orders: null, containers: null, consumers: null, cas: null } });
  });

  it('reads at most 25,000 bytes of a body', async () => {
    const { handle } = setup();
    const padded = `{"project_quotas":{"secrets":1}}${' '.repeat(25_000)}`;
    expect((await handle(new Request('http://h/v1/project-quotas/p', { method: 'PUT', headers: { ...serviceAdmin, ...json }, body: padded }))).status).toBe(204);
    const cut = `{"project_quotas":{${' '.repeat(25_000)}"secrets":1}}`;
    const r = await handle(new Request('http://h/v1/project-quotas/p', { method: 'PUT', headers: { ...serviceAdmin, ...json }, body: cut }));
    expect(await read(r)).toMatchObject({ code: 400, description: 'Malformed JSON' });
  });

  it('an empty X-Roles is admin, as Barbican reads it; 405 names the allowed methods', async () => {
    const { handle } = setup();
    const r = await handle(new Request('http://h/v1/quotas', { headers: { 'X-Project-Id': 'p1', 'X-Roles': ' , ' } }));
    expect(r.status).toBe(200);
    const r405 = await handle(new Request('http://h/v1/project-quotas/p', { method: 'POST', headers: serviceAdmin }));
    expect(r405.status).toBe(405);
    expect(r405.headers.get('allow')).toBe('DELETE, GET, PUT');
  });
});

describe('createHttpHandler', () => {
  it('requires authenticate, and answers 401 when it throws', async () => {
    expect(() => createHttpHandler({} as never)).toThrow(TypeError);
    const handle = createHttpHandler({ dns: createDnsService(), authenticate: () => { throw new Error('bad token'); } });
    const r = await handle(new Request('http://h/v2/zones'));
    expect(r.status).toBe(401);
    expect((await read(r)).type).toBe('authentication_required');
  });

  it('waits for an authenticate that answers with a promise, once a request, and answers 401 when it settles on no object', async () => {
    const dns = createDnsService();
    let asked = 0;
    const later = createHttpHandler({
      dns,
      authenticate: async (request) => {
        asked++;
        await new Promise((resolve) => setTimeout(resolve, 1));
        return trustedHeaders()(request);
      },
    });
    const created = await later(new Request('http://h/v2/zones', { method: 'POST', headers: { ...member, ...json }, body: createZone() }));
    expect(created.status).toBe(202);
    expect(asked).toBe(1);
    // The caller it settled on is the one the command checks (Designate answers this refusal 401 `forbidden`).
    expect((await read(await later(new Request('http://h/v2/zones?all_projects=1', { headers: member })))).type).toBe('forbidden');
    expect(asked).toBe(2);
    const nothing = createHttpHandler({ dns, authenticate: () => Promise.resolve(null as never) });
    const r = await nothing(new Request('http://h/v2/zones'));
    expect(r.status).toBe(401);
    expect((await read(r)).type).toBe('authentication_required');
  });
});

describe('request bodies', () => {
  it('are read no further than maxBodyBytes (413)', async () => {
    const handle = createHttpHandler({ dns: createDnsService(), authenticate: trustedHeaders(), maxBodyBytes: 100 });
    const r = await handle(new Request('http://h/v2/zones', { method: 'POST', headers: { ...member, ...json }, body: 'x'.repeat(101) }));
    expect(r.status).toBe(413);
    expect((await read(r)).type).toBe('request_too_large');
  });
});

describe('trustedHeaders: X-Designate-Edit-Managed-Records', () => {
  const read = (headers: Record<string, string>) => trustedHeaders()(new Request('http://localhost/v2/zones', { headers }));

  it('reads the header as the real middleware does (a true string, case and space ignored), and leaves it out when absent', () => {
    expect(read({ 'X-Roles': 'admin', 'X-Designate-Edit-Managed-Records': ' True ' }).editManagedRecords).toBe(true);
    expect(read({ 'X-Roles': 'admin', 'X-Designate-Edit-Managed-Records': 'no' }).editManagedRecords).toBe(false);
    expect(read({ 'X-Roles': 'admin' })).not.toHaveProperty('editManagedRecords');
  });
});

describe('trustedHeaders: one pass over the headers', () => {
  const names = ['x-auth-token', 'X-Auth-Project-ID', 'x-roles', 'X-Auth-All-Projects', 'x-auth-sudo-project-id', 'X-Auth-Sudo-Tenant-ID', 'x-designate-edit-managed-records', 'X-Project-Id', 'accept'];
  const values = fc.constantFrom('', 'p1', 'Member,Reader', 'true', ' no ', 'noauth:p2', 'noauth:p3:admin', 'noauth:p4:');
  const headerLists = fc.array(fc.tuple(fc.constantFrom(...names), values), { maxLength: 10 });

  it('reads a Headers walked once as its get() would answer, repeated headers joined, for both services', () => {
    fc.assert(
      fc.property(headerLists, fc.constantFrom('/v2/zones', '/v1/quotas'), (list, path) => {
        const request = new Request(`http://localhost${path}`, { headers: list });
        // The same headers behind nothing but `get`: what the middleware reads name by name.
        const byName = { headers: { get: (name: string) => request.headers.get(name) } } as unknown as Request;
        expect(trustedHeaders()(request)).toEqual(trustedHeaders()(Object.assign(byName, { url: request.url })));
      }),
    );
  });
});
