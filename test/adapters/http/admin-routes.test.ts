/**
 * The admin resources and the cross-zone recordset URL on the wire: the statuses of the real
 * controllers (201 with Location on create, 204 on delete, 202 on a pool PATCH) and the 301 of
 * `GET /v2/recordsets/{id}`, through createHttpHandler.
 */
import { describe, expect, it } from 'vitest';
import { createDnsService } from '../../../src/index.js';
import { createHttpHandler, trustedHeaders } from '../../../src/adapters/http/index.js';

const setup = () => {
  const dns = createDnsService({ tasks: 'inline' });
  const handle = createHttpHandler({ dns, authenticate: trustedHeaders() });
  const call = async (method: string, path: string, body?: unknown, roles = 'admin', accept?: string) => {
    const headers: Record<string, string> = { 'x-auth-project-id': 'p1', 'x-roles': roles, 'content-type': 'application/json' };
    if (accept !== undefined) headers['accept'] = accept;
    const response = await handle(new Request(`http://dns.test${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
    const text = await response.text();
    return { status: response.status, location: response.headers.get('location'), type: response.headers.get('content-type'), text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  return { dns, call };
};

describe('the admin resources on the wire', () => {
  it.each(['tlds', 'tsigkeys', 'blacklists'])('%s: 201 with Location, get, list, 200 PATCH, 204 DELETE; members are refused', async (path) => {
    const { call } = setup();
    const bodies: Record<string, object> = {
      tlds: { name: 'com' },
      tsigkeys: { name: 'k1', algorithm: 'hmac-sha256', secret: 'c2VjcmV0', scope: 'POOL', resource_id: '794ccc2c-d751-44fe-b57f-8894c9f5c842' },
      blacklists: { pattern: '^example\\.com\\.$' },
    };
    const made = await call('POST', `/v2/${path}`, bodies[path]);
    expect(made.status).toBe(201);
    const id = made.json()['id'] as string;
    expect(made.location).toBe(`http://dns.test/v2/${path}/${id}`);
    expect((await call('GET', `/v2/${path}/${id}`)).status).toBe(200);
    expect(((await call('GET', `/v2/${path}`)).json()[path] as unknown[]).length).toBe(1);
    expect((await call('PATCH', `/v2/${path}/${id}`, path === 'tsigkeys' ? { name: 'k2' } : { description: 'd' })).status).toBe(200);
    expect([401, 403]).toContain((await call('GET', `/v2/${path}`, undefined, 'member')).status);
    expect((await call('DELETE', `/v2/${path}/${id}`)).status).toBe(204);
    expect((await call('GET', `/v2/${path}/${id}`)).status).toBe(404);
  });

  it('pools, service statuses and limits answer; a pool PATCH is 202', async () => {
    const { call } = setup();
    const pools = (await call('GET', '/v2/pools')).json()['pools'] as { id: string }[];
    expect(pools.map((p) => p.id)).toEqual(['794ccc2c-d751-44fe-b57f-8894c9f5c842']);
    expect((await call('PATCH', `/v2/pools/${pools[0]!.id}`, { description: 'd' })).status).toBe(202);
    const statuses = (await call('GET', '/v2/service_statuses')).json()['service_statuses'] as { service_name: string; status: string }[];
    expect(statuses.every((s) => s.status === 'UP')).toBe(true);
    // The singular alias the real root controller keeps for an old API reference's path.
    const alias = (await call('GET', '/v2/service_status')).json()['service_statuses'] as { id: string }[];
    expect(alias.map((s) => s.id)).toEqual(statuses.map((s) => (s as unknown as { id: string }).id));
    expect((await call('GET', `/v2/service_status/${alias[0]!.id}`)).status).toBe(200);
    expect((await call('GET', '/v2/limits', undefined, 'member')).json()).toHaveProperty('max_zone_name_length');
  });

  it('GET /v2/recordsets/{id} is a 301 to the canonical URL (JSON body when asked), and a 404 for another project', async () => {
    const { call } = setup();
    const zone = (await call('POST', '/v2/zones', { name: 'example.com.', email: 'a@example.com' }, 'member')).json();
    const rs = ((await call('GET', `/v2/zones/${zone['id'] as string}/recordsets`, undefined, 'member')).json()['recordsets'] as { id: string }[])[0]!;
    const moved = await call('GET', `/v2/recordsets/${rs.id}`, undefined, 'member', 'application/json');
    expect(moved.status).toBe(301);
    expect(moved.location).toBe(`http://dns.test/v2/zones/${zone['id'] as string}/recordsets/${rs.id}`);
    expect(moved.json()).toEqual({ code: 301, title: 'Moved Permanently', description: null });
    expect((await call('GET', `/v2/recordsets/${rs.id}`, undefined, 'member')).type).toMatch(/^text\/html/);
    const other = await (async () => {
      const { call: call2 } = setup();
      return call2('GET', `/v2/recordsets/${rs.id}`, undefined, 'member');
    })();
    expect(other.status).toBe(404);
  });

  it.each(['tlds', 'tsigkeys', 'blacklists', 'pools'])('%s: a body that is empty, null or not JSON is answered as such (as the real API on the wire), never read as an object', async (path) => {
    const { dns } = setup();
    const handle = createHttpHandler({ dns, authenticate: trustedHeaders() });
    const send = async (method: string, url: string, body?: string) => {
      const r = await handle(new Request(`http://dns.test${url}`, { method, headers: { 'x-auth-project-id': 'p1', 'x-roles': 'admin', 'content-type': 'application/json' }, ...(body === undefined ? {} : { body }) }));
      return ((await r.json()) as { type: string }).type;
    };
    for (const method of ['POST', 'PATCH']) {
      const url = method === 'POST' ? `/v2/${path}` : `/v2/${path}/00000000-0000-4000-8000-000000000000`;
      expect(await send(method, url)).toBe('empty_request_body');
      expect(await send(method, url, 'null')).toBe('empty_request_body');
      expect(await send(method, url, '{"a":')).toBe('invalid_json');
    }
    // A bad id comes before the body's error.
    expect(await send('PATCH', `/v2/${path}/abc`, '{"a":')).toBe('invalid_uuid');
  });
});
