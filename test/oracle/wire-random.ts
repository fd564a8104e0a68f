/**
 * fast-check arbitraries of raw requests of every shape for the wire comparison: methods, paths
 * (odd ones included), query strings with repeated keys, callers and roles, content types and
 * bodies (valid, malformed, Python-only literals, empty, `null`).
 */
import fc from 'fast-check';
import type { WireRequest } from './wire.js';

const contentTypes = fc.constantFrom<string | undefined>(
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'text/plain',
  'text/dns',
  undefined,
);

const commonBodies = fc.constantFrom('', 'null', '[]', '"x"', '{}', '   ', '{"a":', '{} x', '{"a": NaN}', '{"a": Infinity}');

const maybeBody = (bodies: fc.Arbitrary<string>) => fc.option(fc.oneof(bodies, commonBodies, fc.json({ maxDepth: 3 })), { nil: undefined });

function request(method: string, path: string, headers: Record<string, string>, contentType: string | undefined, body: string | undefined): WireRequest {
  return {
    method,
    path,
    headers: contentType === undefined ? headers : { ...headers, 'content-type': contentType },
    ...(body === undefined || method === 'GET' || method === 'DELETE' ? {} : { body }),
  };
}

/** DNS requests for run `p`; `{z}` / `{tr}` name what earlier steps created (`save`). */
export function dnsRequest(p: string): fc.Arbitrary<WireRequest> {
  const names = fc.constantFrom('a', 'b', 'c', 'sub.a').map((n) => `${n}.${p}.example.`);
  const zoneBody = fc.record(
    {
      name: names,
      email: fc.constantFrom('hostmaster@example.com', 'bad', ''),
      ttl: fc.constantFrom(300, 0, -1, 'x', 3600),
      description: fc.constantFrom('hi', null, 42),
      type: fc.constantFrom('PRIMARY', 'SECONDARY', 'NOPE'),
    },
    { requiredKeys: [] },
  );
  const bodies = fc.oneof(
    { weight: 3, arbitrary: zoneBody.map((b) => JSON.stringify(b)) },
    fc.constantFrom('{"description": "d"}', '{"ttl": 600}', '{"email": "x@y.z"}', '{"key": "nope", "zone_transfer_request_id": "{tr}"}', '{"zones": 20}', '{"target_project_id": "other"}'),
  );
  const project = fc.constantFrom(`${p}a`, `${p}b`);
  const roles = fc.constantFrom<string | undefined>('member', 'admin', 'reader', '', 'Admin', 'member,admin', undefined);
  const headers = fc
    .tuple(project, roles, fc.constantFrom<string | undefined>(undefined, undefined, 'true', '0'), fc.constantFrom<string | undefined>(undefined, undefined, undefined, `${p}a`))
    .map(([proj, role, all, sudo]) => {
      const h: Record<string, string> = { 'X-Auth-Project-ID': proj };
      if (role !== undefined) h['X-Roles'] = role;
      if (all !== undefined) h['X-Auth-All-Projects'] = all;
      if (sudo !== undefined) h['X-Auth-Sudo-Project-ID'] = sudo;
      return h;
    });
  const paths = fc.constantFrom(
    '/v2/zones',
    '/v2/zones',
    '/v2/zones/{z}',
    '/v2/zones/{z}',
    '/v2/zones/{z}/',
    '/v2/zones/{z}/nameservers',
    '/v2/zones/{z}/recordsets',
    '/v2/zones/{z}/tasks/transfer_requests',
    '/v2/zones/{z}/tasks/export',
    '/v2/zones/{z}/tasks/abandon',
    '/v2/zones/{z}/tasks',
    '/v2/zones/tasks/transfer_requests',
    '/v2/zones/tasks/transfer_requests/{tr}',
    '/v2/zones/tasks/transfer_accepts',
    '/v2/zones/tasks/exports',
    '/v2/zones/tasks/imports',
    '/v2/zones/tasks/nope',
    `/v2/quotas/${p}a`,
    '/v2/quotas',
    '/v2/zones/abc',
    '/v2/zones/00000000-0000-4000-8000-000000000000',
    '/v2/Zones',
    '/v2/nope',
  );
  const query = fc.subarray(
    ['limit=1', 'limit=0', 'limit=max', 'limit=x', 'marker={z}', 'marker=abc', 'sort_key=name', 'sort_key=nope', 'sort_dir=desc', 'sort_dir=up', 'status=ACTIVE', `name=*.${p}.example.`, 'all_projects=1', 'all_tenants=0', 'bogus=1', 'limit=2'],
    { maxLength: 3 },
  );
  const method = fc.constantFrom('GET', 'GET', 'GET', 'POST', 'POST', 'PATCH', 'DELETE', 'PUT');
  return fc.tuple(method, paths, query, headers, contentTypes, maybeBody(bodies)).map(([m, path, q, h, ct, body]) => {
    const full = q.length === 0 ? path : `${path}?${q.join('&')}`;
    const r = request(m, full, h, ct, body);
    // What a step creates is remembered under the name later paths use.
    const save = m === 'POST' && path === '/v2/zones' ? 'z' : m === 'POST' && path.endsWith('/transfer_requests') ? 'tr' : undefined;
    return save === undefined ? r : { ...r, save };
  });
}

/** Quota requests for run `p`. */
export function quotaRequest(p: string): fc.Arbitrary<WireRequest> {
  const value = fc.constantFrom('5', '-1', '0', '" 5 "', 'true', 'null', '1.5', '3.0', 'NaN', 'Infinity', '1e400', '"x"', '-7');
  const kinds = fc.subarray(['secrets', 'orders', 'containers', 'consumers', 'cas', 'bogus'], { maxLength: 3 });
  const quotaBody = fc
    .tuple(kinds, fc.array(value, { minLength: 6, maxLength: 6 }), fc.boolean())
    .map(([ks, vs, wrapped]) => {
      const inner = `{${ks.map((k, i) => `"${k}": ${vs[i]}`).join(', ')}}`;
      return wrapped ? `{"project_quotas": ${inner}}` : inner;
    });
  const roles = fc.constantFrom<string | undefined>('key-manager:service-admin', 'KEY-MANAGER:Service-Admin ', 'admin', 'member', 'reader', 'creator', '', ' , ', undefined);
  const headers = fc.tuple(fc.constantFrom(`${p}a`, `${p}b`), roles).map(([proj, role]) => {
    const h: Record<string, string> = { 'X-Project-Id': proj };
    if (role !== undefined) h['X-Roles'] = role;
    return h;
  });
  const paths = fc.constantFrom(
    '/v1/quotas',
    '/v1/quotas/',
    '/v1/project-quotas',
    `/v1/project-quotas/${p}x`,
    `/v1/project-quotas/${p}x`,
    `/v1/project-quotas/${p}y/`,
    '/v1/nope',
    '/v1/Quotas',
  );
  const query = fc.subarray(['limit=1', 'limit=0', 'limit=x', 'offset=1', 'offset=-2', 'limit=%201%20', 'offset=%2B1'], { maxLength: 2 });
  const method = fc.constantFrom('GET', 'GET', 'PUT', 'PUT', 'DELETE', 'POST');
  return fc
    .tuple(method, paths, query, headers, contentTypes, maybeBody(quotaBody))
    .map(([m, path, q, h, ct, body]) => request(m, q.length === 0 ? path : `${path}?${q.join('&')}`, h, ct, body));
}
