/**
 * The quota API's messages on the wire as the real Barbican answers them (issue 29, difference 4;
 * settled against `../shared/tools/barbican-api`, see test/oracle/wire-cases.ts): numbers echoed
 * as Python prints them, a string body echoed as sent, undecodable bodies refused before the
 * policy, a path segment that is not UTF-8 answered 400.
 */
import { describe, expect, it } from 'vitest';
import { createQuotaService } from '../../../src/index.js';
import { createHttpHandler, trustedHeaders } from '../../../src/adapters/http/index.js';

const serviceAdmin = { 'X-Project-Id': 'ops', 'X-Roles': 'key-manager:service-admin' };
const member = { 'X-Project-Id': 'p1', 'X-Roles': 'member' };
const json = { 'content-type': 'application/json' };
const prefix = "Provided object does not match schema 'Project Quota': ";

function setup() {
  const quotas = createQuotaService({ forbiddenStatus: 403 });
  const handle = createHttpHandler({ quotas, authenticate: trustedHeaders() });
  const send = async (method: string, path: string, headers: Record<string, string>, body?: string | Uint8Array) => {
    const r = await handle(new Request(`http://h${path}`, { method, headers, ...(body === undefined ? {} : { body }) }));
    const text = await r.text();
    return { status: r.status, body: text === '' ? null : (JSON.parse(text) as { description?: string | null }) };
  };
  const put = (body: string | Uint8Array, headers: Record<string, string> = { ...serviceAdmin, ...json }) => send('PUT', '/v1/project-quotas/p9', headers, body);
  return { quotas, send, put };
}

const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

describe('zoneward/http quota messages, as the real service writes them', () => {
  it.each([
    ['{"project_quotas": 1.0}', "1.0 is not of type 'object'. Invalid property: 'project_quotas'"],
    ['{"project_quotas": -0.0}', "-0.0 is not of type 'object'. Invalid property: 'project_quotas'"],
    ['{"project_quotas": 1e16}', "1e+16 is not of type 'object'. Invalid property: 'project_quotas'"],
    ['{"project_quotas": 1E5}', "100000.0 is not of type 'object'. Invalid property: 'project_quotas'"],
    ['{"project_quotas": 1e-7}', "1e-07 is not of type 'object'. Invalid property: 'project_quotas'"],
    ['{"project_quotas": 123456789012345678901234567890}', "123456789012345678901234567890 is not of type 'object'. Invalid property: 'project_quotas'"],
    ['[1.0, -0.0, 2.5e-5, " a "]', "[1.0, -0.0, 2.5e-05, 'a'] is not of type 'object'. Invalid property: 'None'"],
    ['{"project_quotas": {"secrets": 1e-5}}', "1e-05 is not of type 'integer'. Invalid property: 'project_quotas'"],
    ['" str "', "' str ' is not of type 'object'. Invalid property: 'None'"],
    ['{"project_quotas": " str "}', "'str' is not of type 'object'. Invalid property: 'project_quotas'"],
    ['{"project_quotas": {"secrets": {" k ": " v "}}}', "{' k ': 'v'} is not of type 'integer'. Invalid property: 'project_quotas'"],
  ])('echoes %s as Python does', async (body, reason) => {
    const { put } = setup();
    expect(await put(body)).toEqual({ status: 400, body: { code: 400, title: 'Bad Request', description: prefix + reason } });
  });

  it('takes whole floats as integers, stored as such (never a -0)', async () => {
    const { put, quotas } = setup();
    expect((await put('{"project_quotas": {"secrets": 3.0, "orders": -0.0, "cas": 1e2, "consumers": 1e-400}}')).status).toBe(204);
    expect((await quotas.projectQuotas.get({ projectId: 'ops', roles: ['key-manager:service-admin'] }, 'p9'))._unsafeUnwrap()).toEqual({
      project_quotas: { secrets: 3, orders: 0, containers: null, consumers: 0, cas: 100 },
    });
    const stored = (await quotas.snapshot()).projectQuotas[0]!.project_quotas.orders;
    expect(Object.is(stored, -0)).toBe(false);
    // A whole float beyond 2^53 - 1 is refused like such an integer (API.md), echoed as sent.
    expect((await put('{"project_quotas": {"secrets": 1e16}}')).body?.description).toBe(
      `${prefix}1e+16 is out of the supported range (-9007199254740991..9007199254740991). Invalid property: 'project_quotas'`,
    );
  });

  it('refuses a body declared UTF-8 JSON that does not decode with a bare 400, before the policy and before a 405', async () => {
    const { put, send } = setup();
    const notUtf8 = bytes('{"project_quotas": {"secrets": "', [0xff], '"}}');
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from('{"project_quotas": {"secrets": 2}}', 'utf16le')]);
    const bare = { status: 400, body: { code: 400, title: 'Bad Request', description: '' } };
    expect(await put(notUtf8, { ...member, ...json })).toEqual(bare);
    expect(await put(utf16, { ...member, ...json })).toEqual(bare);
    expect(await put(utf16, { ...member, 'content-type': 'application/json; charset="UTF8"' })).toEqual(bare);
    expect(await put(notUtf8, { ...member, 'content-type': 'application/javascript' })).toEqual(bare);
    expect(await send('POST', '/v1/quotas', { ...member, ...json }, notUtf8)).toEqual(bare);
    expect(await send('DELETE', '/v1/project-quotas/p9', { ...member, ...json }, notUtf8)).toEqual(bare);
    // Not routed, not declared JSON or UTF-8: the usual order (404, policy, content type, then the reader's words).
    expect((await send('PUT', '/v1/nope', { ...serviceAdmin, ...json }, notUtf8)).status).toBe(404);
    expect((await put(notUtf8, { ...member, 'content-type': 'text/plain' })).status).toBe(403);
    expect((await put(notUtf8, { ...member, 'content-type': 'application/json; charset=latin-1' })).status).toBe(403);
    expect((await put(notUtf8, { ...serviceAdmin, 'content-type': 'application/json; charset=latin-1' })).body?.description).toBe('Malformed JSON');
    // UTF-8 with a byte-order mark, or UTF-16 without one, decodes: it is then not JSON.
    expect((await put(bytes([0xef, 0xbb, 0xbf], '{}'), { ...member, ...json })).status).toBe(403);
    expect((await put(bytes([0xef, 0xbb, 0xbf], '{}'))).body?.description).toBe('Malformed JSON');
  });

  it('answers a path segment that is not UTF-8 with a clear 400, never a project named %FF', async () => {
    const { send } = setup();
    for (const [method, path] of [['GET', '/v1/project-quotas/%FF'], ['DELETE', '/v1/project-quotas/a%C3%28'], ['POST', '/v1/project-quotas/%FF']] as const) {
      const r = await send(method, path, serviceAdmin);
      expect(r.status).toBe(400);
      expect(r.body?.description).toMatch(/not UTF-8/);
    }
    expect((await send('GET', '/v1/project-quotas/%C3%A9', serviceAdmin)).status).toBe(404);
  });

  it('reads X-Roles as the middleware does: empty pieces dropped before the trim, lowercased, none = admin', async () => {
    const { send } = setup();
    const as = (roles: string) => ({ 'X-Project-Id': 'p1', 'X-Roles': roles });
    for (const roles of ['Key-Manager:Service-Admin', ' key-manager:service-admin ,', ',key-manager:service-admin']) {
      expect((await send('GET', '/v1/project-quotas', as(roles))).status).toBe(200);
    }
    // No role named: admin, which may read its effective quotas but not configure any.
    for (const roles of ['', ',']) {
      expect((await send('GET', '/v1/quotas', as(roles))).status).toBe(200);
      expect((await send('GET', '/v1/project-quotas', as(roles))).status).toBe(403);
    }
    // A blank piece between commas is a role of its own (the empty one), so no admin default.
    expect((await send('GET', '/v1/quotas', as(', ,'))).status).toBe(403);
    // The header's own surrounding space is not part of it (HTTP trims it): ' , ' is ','.
    expect((await send('GET', '/v1/quotas', as(' , '))).status).toBe(200);
    expect((await send('GET', '/v1/quotas', as('ADMIN'))).status).toBe(200);
  });
});
