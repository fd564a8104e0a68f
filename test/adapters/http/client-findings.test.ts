/**
 * Wire differences the real Python clients found (test/http-clients), each pinned by the exact
 * answer of the real service (`../shared/tools/designate-api`, `barbican-api`), so that they stay
 * fixed without the clients installed.
 */
import { describe, expect, it } from 'vitest';
import { createDnsService } from '../../../src/index.js';
import { createHttpHandler, trustedHeaders } from '../../../src/adapters/http/index.js';

const member = { 'X-Auth-Project-ID': 'p1', 'X-Roles': 'member', 'content-type': 'application/json' };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- error bodies, checked by value
const read = async (r: Response): Promise<any> => r.json();

describe('zoneward/http, as the real clients found it', () => {
  const handle = createHttpHandler({ dns: createDnsService(), authenticate: trustedHeaders() });
  const call = (method: string, path: string) =>
    handle(new Request(`http://h${path}`, { method, headers: member, ...(method === 'POST' ? { body: '{}' } : {}) }));

  it('/v2/zones/tasks/export and /xfr (per-zone tasks without a zone): 405, and a bare 404 to POST', async () => {
    // openstacksdk 0.101 lists exports with GET /v2/zones/tasks/export: the real service answers 405.
    for (const path of ['/v2/zones/tasks/export', '/v2/zones/tasks/xfr']) {
      for (const method of ['GET', 'DELETE', 'PATCH']) {
        const r = await call(method, path);
        expect(r.status).toBe(405);
        expect(await read(r)).toEqual({ code: 405, type: 'method_not_allowed', request_id: r.headers.get('x-openstack-request-id') });
      }
      const r = await call('POST', path);
      expect(r.status).toBe(404);
      expect(await read(r)).toEqual({ code: 404, type: 'not_found', request_id: r.headers.get('x-openstack-request-id') });
    }
  });
});
