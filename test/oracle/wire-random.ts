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

function request(method: string, path: string, headers: Record<string, string>, contentType: string | undefined, body: string | Uint8Array | undefined): WireRequest {
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

/** Numbers in every form Python's `json` reads: ints, whole and fractional floats, exponents both ways, out of range. */
const pythonNumbers = ['5', '-1', '0', '-0', '-7', '1.0', '-0.0', '3.0', '1.5', '1e16', '1E5', '1e+2', '1e-7', '2.5e-3', '0.000123', '1e22', '1.5e300', '1e-400', '1e400', '12345678901234567890', '9007199254740993'];

/** Bodies no UTF-8 reader takes: a bad byte, UTF-16 with and without its byte-order mark, a UTF-8 byte-order mark. */
const byteBodies = (inner: fc.Arbitrary<string>): fc.Arbitrary<Uint8Array> =>
  fc.tuple(inner, fc.constantFrom('bad byte', 'utf-16', 'utf-16le', 'utf-8 bom')).map(([text, form]) => {
    const utf8 = new TextEncoder().encode(text);
    if (form === 'bad byte') return new Uint8Array([...utf8.subarray(0, utf8.length >> 1), 0xff, ...utf8.subarray(utf8.length >> 1)]);
    if (form === 'utf-8 bom') return new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]);
    const le = Uint8Array.from(Buffer.from(text, 'utf16le'));
    return form === 'utf-16' ? new Uint8Array([0xff, 0xfe, ...le]) : le;
  });

/** Quota requests for run `p`. */
export function quotaRequest(p: string): fc.Arbitrary<WireRequest> {
  const value = fc.constantFrom(...pythonNumbers, '" 5 "', '"\\t5\\n"', '" str "', 'true', 'null', 'NaN', 'Infinity', '"x"', '[1.0, " a "]', '{" k ": " v "}');
  const kinds = fc.subarray(['secrets', 'orders', 'containers', 'consumers', 'cas', 'bogus'], { maxLength: 3 });
  const quotaBody = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(kinds, fc.array(value, { minLength: 6, maxLength: 6 }), fc.boolean()).map(([ks, vs, wrapped]) => {
        const inner = `{${ks.map((k, i) => `"${k}": ${vs[i]}`).join(', ')}}`;
        return wrapped ? `{"project_quotas": ${inner}}` : inner;
      }),
    },
    // What stands where an object should: a number of any form, a padded string, a list of them.
    value.map((v) => `{"project_quotas": ${v}}`),
    value,
    fc.array(value, { maxLength: 3 }).map((vs) => `[${vs.join(', ')}]`),
  );
  const roles = fc.constantFrom<string | undefined>(
    'key-manager:service-admin',
    'KEY-MANAGER:Service-Admin ',
    ' key-manager:service-admin ,',
    'admin',
    'ADMIN',
    'member',
    'MEMBER',
    'reader',
    'creator',
    '',
    ' ',
    ',',
    ' , ',
    ', ,',
    undefined,
  );
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
    '/v1/project-quotas/%FF',
    `/v1/project-quotas/${p}%C3%28`,
    '/v1/nope',
    '/v1/Quotas',
  );
  const quotaContentTypes = fc.oneof(
    contentTypes,
    fc.constantFrom('application/json; charset=UTF8', 'application/json; charset=latin-1', 'application/javascript', 'application/json', 'application/json'),
  );
  const body = fc.option(fc.oneof({ weight: 3, arbitrary: fc.oneof(quotaBody, commonBodies, fc.json({ maxDepth: 3 })) }, byteBodies(quotaBody)), { nil: undefined });
  const query = fc.subarray(['limit=1', 'limit=0', 'limit=x', 'offset=1', 'offset=-2', 'limit=%201%20', 'offset=%2B1'], { maxLength: 2 });
  const method = fc.constantFrom('GET', 'GET', 'PUT', 'PUT', 'PUT', 'DELETE', 'POST');
  return fc
    .tuple(method, paths, query, headers, quotaContentTypes, body)
    .map(([m, path, q, h, ct, b]) => request(m, q.length === 0 ? path : `${path}?${q.join('&')}`, h, ct, b));
}

