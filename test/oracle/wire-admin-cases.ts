/**
 * Fixed request sequences for the wire comparison of the admin resources (issue 27): TLDs,
 * tsigkeys, blacklists, pools, service statuses, limits, `GET /v2/recordsets/{id}` and the
 * floating IPs, each asked by a tenant, a reader and an admin, with bad bodies, duplicates,
 * unknown and malformed ids and the list parameters. TLDs, blacklists and pools are the whole
 * service's, not a project's: every one made here is deleted at the end of its sequence (and
 * {@link cleanUp} removes what a failed run left on the real service).
 */
import type { WireRequest } from './wire.js';

const j = { 'content-type': 'application/json' };
const as = (project: string, roles: string) => ({ 'X-Auth-Project-ID': project, 'X-Roles': roles });
const NIL = '00000000-0000-4000-8000-000000000000';
const DEFAULT_POOL = '794ccc2c-d751-44fe-b57f-8894c9f5c842';

/** A JSON POST by `headers`; `save` names what it makes for later steps. */
const postJson = (path: string, body: string, headers: Record<string, string>, save?: string): WireRequest => ({
  method: 'POST',
  path,
  headers: { ...headers, ...j },
  body,
  ...(save === undefined ? {} : { save }),
});

/** The list parameters every admin list takes, with the marker `{saved}`. */
const listParams = (path: string, headers: Record<string, string>, saved: string, filter: string): WireRequest[] =>
  [
    'limit=1',
    'limit=0',
    'limit=abc',
    'limit=max',
    `marker={${saved}}`,
    'marker=abc',
    `marker=${NIL}`,
    'sort_key=name',
    'sort_key=nope',
    'sort_dir=desc',
    'sort_dir=up',
    'sort_key=created_at&sort_dir=asc',
    filter,
    'bogus=1',
  ].map((query) => ({ method: 'GET', path: `${path}?${query}`, headers }));

/** The five id forms a resource URL is asked with: the saved one, malformed, unknown. */
const badIds = (path: string, headers: Record<string, string>): WireRequest[] => [
  { method: 'GET', path: `${path}/abc`, headers },
  { method: 'GET', path: `${path}/${NIL}`, headers },
  { method: 'PATCH', path: `${path}/abc`, headers: { ...headers, ...j }, body: '{}' },
  { method: 'PATCH', path: `${path}/${NIL}`, headers: { ...headers, ...j }, body: '{"description": "d"}' },
  { method: 'DELETE', path: `${path}/abc`, headers },
  { method: 'DELETE', path: `${path}/${NIL}`, headers },
];

/** Bodies that are not an object, or not JSON, on a create. */
const notObjects = (path: string, headers: Record<string, string>): WireRequest[] =>
  [undefined, 'null', '[]', '"x"', '5', '{"a":', '{} x'].map((body) => ({
    method: 'POST',
    path,
    headers: { ...headers, ...j },
    ...(body === undefined ? {} : { body }),
  }));

/** TLDs, and what they mean for zone creates and imports. */
export function tldCases(p: string): WireRequest[] {
  const admin = as(`${p}ops`, 'admin');
  const member = as(`${p}a`, 'member');
  const reader = as(`${p}a`, 'reader');
  const tld = `${p}tld`;
  const post = (body: string, headers: Record<string, string> = admin, save?: string): WireRequest => postJson('/v2/tlds', body, headers, save);
  const zone = (name: string, headers: Record<string, string> = member, save?: string): WireRequest =>
    postJson('/v2/zones', JSON.stringify({ name, email: 'hostmaster@example.com' }), headers, save);
  const importOf = (origin: string, headers: Record<string, string> = member): WireRequest => ({
    method: 'POST',
    path: '/v2/zones/tasks/imports',
    headers: { ...headers, 'content-type': 'text/dns' },
    body: `$ORIGIN ${origin}\n$TTL 300\n@ IN SOA ns1.example.org. admin.example.com. 1 3600 600 86400 300\n@ IN NS ns1.example.org.\n`,
    save: 'im',
  });
  return [
    { method: 'GET', path: '/v2/tlds', headers: member },
    { method: 'GET', path: '/v2/tlds', headers: reader },
    { method: 'GET', path: '/v2/tlds', headers: admin },
    post(JSON.stringify({ name: tld }), member),
    post(JSON.stringify({ name: tld }), reader),
    ...notObjects('/v2/tlds', admin),
    post('{}'),
    post(JSON.stringify({ name: tld, bogus: 1 })),
    post(JSON.stringify({ name: tld, id: NIL })),
    ...['', '-bad', 'bad-', 'a..b', `${tld}.`, 'a b', 'ü', 'x'.repeat(64), `${'a.'.repeat(127)}a`].map((name) => post(JSON.stringify({ name }))),
    post(JSON.stringify({ name: 5 })),
    post(JSON.stringify({ name: null })),
    post(JSON.stringify({ name: [tld] })),
    post(JSON.stringify({ name: tld, description: 'x'.repeat(161) })),
    post(JSON.stringify({ name: tld, description: 5 })),
    post(JSON.stringify({ name: tld, description: 'first' }), admin, 't'),
    post(JSON.stringify({ name: tld })),
    post(JSON.stringify({ name: tld.toUpperCase(), description: null }), admin, 'tu'),
    post(JSON.stringify({ name: `sub.${tld}` }), admin, 'ts'),
    { method: 'GET', path: '/v2/tlds/{t}', headers: admin },
    { method: 'GET', path: '/v2/tlds/{t}', headers: member },
    { method: 'GET', path: '/v2/tlds/{t}', headers: reader },
    ...badIds('/v2/tlds', admin),
    ...listParams('/v2/tlds', admin, 't', `name=${tld}`),
    { method: 'GET', path: `/v2/tlds?name=*${p}*`, headers: admin },
    { method: 'GET', path: '/v2/tlds?description=first', headers: admin },
    { method: 'PATCH', path: '/v2/tlds/{t}', headers: { ...member, ...j }, body: '{"description": "d"}' },
    { method: 'PATCH', path: '/v2/tlds/{t}', headers: { ...admin, ...j }, body: '{"description": "d"}' },
    { method: 'PATCH', path: '/v2/tlds/{t}', headers: { ...admin, ...j }, body: '{}' },
    { method: 'PATCH', path: '/v2/tlds/{t}', headers: { ...admin, ...j }, body: `{"name": "${tld.toUpperCase()}"}` },
    { method: 'PATCH', path: '/v2/tlds/{t}', headers: { ...admin, ...j }, body: '{"name": "-bad"}' },
    { method: 'PATCH', path: '/v2/tlds/{t}', headers: { ...admin, ...j }, body: '{"bogus": 1}' },
    { method: 'PATCH', path: '/v2/tlds/{t}', headers: { ...admin, ...j }, body: '{"description": 5}' },
    { method: 'PATCH', path: '/v2/tlds/{t}', headers: { ...admin, ...j }, body: '[]' },
    { method: 'PATCH', path: '/v2/tlds/{t}', headers: admin },
    { method: 'PUT', path: '/v2/tlds/{t}', headers: { ...admin, ...j }, body: '{}' },
    // Once a TLD exists, a zone must be under one and not be one.
    zone(`a.${tld}.`, member, 'z'),
    zone(`a.${tld}.`, member),
    zone(`b.not${tld}.`),
    zone(`${tld}.`),
    zone(`sub.${tld}.`),
    zone(`${tld}.`, admin),
    zone(`c.${tld.toUpperCase()}.`),
    zone(`c.sub.${tld}.`, admin, 'zs'),
    importOf(`i.${tld}.`),
    { method: 'GET', path: '/v2/zones/tasks/imports/{im}', headers: member },
    importOf(`i.not${tld}.`),
    { method: 'GET', path: '/v2/zones/tasks/imports/{im}', headers: member },
    importOf(`${tld}.`),
    { method: 'GET', path: '/v2/zones/tasks/imports/{im}', headers: member },
    { method: 'DELETE', path: '/v2/tlds/{t}', headers: member },
    { method: 'DELETE', path: '/v2/tlds/{t}', headers: admin },
    { method: 'DELETE', path: '/v2/tlds/{t}', headers: admin },
    { method: 'GET', path: '/v2/tlds/{t}', headers: admin },
    zone(`d.${tld}.`),
    { method: 'DELETE', path: '/v2/tlds/{tu}', headers: admin },
    { method: 'DELETE', path: '/v2/tlds/{ts}', headers: admin },
    zone(`d.${tld}.`),
    { method: 'GET', path: '/v2/tlds', headers: admin },
    { method: 'DELETE', path: '/v2/zones/{z}', headers: member },
    { method: 'DELETE', path: '/v2/zones/{zs}', headers: admin },
  ];
}

/** Blacklists, and what they mean for a tenant's and an admin's zone creates and imports. */
export function blacklistCases(p: string): WireRequest[] {
  const admin = as(`${p}ops`, 'admin');
  const member = as(`${p}a`, 'member');
  const reader = as(`${p}a`, 'reader');
  const pattern = `^bl\\.${p}\\.example\\.$`;
  const post = (body: string, headers: Record<string, string> = admin, save?: string): WireRequest => postJson('/v2/blacklists', body, headers, save);
  const zone = (name: string, headers: Record<string, string> = member, save?: string): WireRequest =>
    postJson('/v2/zones', JSON.stringify({ name, email: 'hostmaster@example.com' }), headers, save);
  return [
    { method: 'GET', path: '/v2/blacklists', headers: member },
    { method: 'GET', path: '/v2/blacklists', headers: reader },
    post(JSON.stringify({ pattern }), member),
    ...notObjects('/v2/blacklists', admin),
    post('{}'),
    post(JSON.stringify({ pattern, bogus: 1 })),
    ...['(', '[a-', '*', 'a{2,1}', '', '(?P<x>a)', '\\', '(?<=a+)b'].map((bad) => post(JSON.stringify({ pattern: bad }))),
    post(JSON.stringify({ pattern: 5 })),
    post(JSON.stringify({ pattern: null })),
    post(JSON.stringify({ pattern: 'x'.repeat(256) })),
    post(JSON.stringify({ pattern, description: 'x'.repeat(161) })),
    post(JSON.stringify({ pattern, description: 'no tenants here' }), admin, 'b'),
    post(JSON.stringify({ pattern })),
    post(JSON.stringify({ pattern: `^.*\\.bl2\\.${p}\\.example\\.$` }), admin, 'b2'),
    { method: 'GET', path: '/v2/blacklists/{b}', headers: admin },
    { method: 'GET', path: '/v2/blacklists/{b}', headers: member },
    ...badIds('/v2/blacklists', admin),
    ...listParams('/v2/blacklists', admin, 'b', `pattern=${encodeURIComponent(pattern)}`).map((r) => ({ ...r, path: r.path.replace('sort_key=name', 'sort_key=pattern') })),
    { method: 'PATCH', path: '/v2/blacklists/{b}', headers: { ...member, ...j }, body: '{"description": "d"}' },
    { method: 'PATCH', path: '/v2/blacklists/{b}', headers: { ...admin, ...j }, body: '{"description": "d"}' },
    { method: 'PATCH', path: '/v2/blacklists/{b2}', headers: { ...admin, ...j }, body: JSON.stringify({ pattern }) },
    { method: 'PATCH', path: '/v2/blacklists/{b2}', headers: { ...admin, ...j }, body: '{"pattern": "("}' },
    { method: 'PATCH', path: '/v2/blacklists/{b2}', headers: { ...admin, ...j }, body: '{"bogus": 1}' },
    // A tenant is refused a matching name; an admin (use_blacklisted_zone) is not.
    zone(`bl.${p}.example.`),
    zone(`x.bl.${p}.example.`),
    zone(`x.bl2.${p}.example.`),
    zone(`BL.${p}.example.`),
    zone(`bl.${p}.example.`, admin, 'zb'),
    {
      method: 'POST',
      path: '/v2/zones/tasks/imports',
      headers: { ...member, 'content-type': 'text/dns' },
      body: `$ORIGIN y.bl2.${p}.example.\n$TTL 300\n@ IN SOA ns1.example.org. admin.example.com. 1 3600 600 86400 300\n@ IN NS ns1.example.org.\n`,
      save: 'im',
    },
    { method: 'GET', path: '/v2/zones/tasks/imports/{im}', headers: member },
    { method: 'DELETE', path: '/v2/blacklists/{b}', headers: member },
    { method: 'DELETE', path: '/v2/blacklists/{b}', headers: admin },
    { method: 'DELETE', path: '/v2/blacklists/{b}', headers: admin },
    { method: 'DELETE', path: '/v2/blacklists/{b2}', headers: admin },
    zone(`x.bl2.${p}.example.`, member, 'zx'),
    { method: 'GET', path: '/v2/blacklists', headers: admin },
    { method: 'DELETE', path: '/v2/zones/{zb}', headers: admin },
    { method: 'DELETE', path: '/v2/zones/{zx}', headers: member },
  ];
}

/** Tsigkeys: every field's rules. */
export function tsigkeyCases(p: string): WireRequest[] {
  const admin = as(`${p}ops`, 'admin');
  const member = as(`${p}a`, 'member');
  const reader = as(`${p}a`, 'reader');
  const key = { name: `${p}key`, algorithm: 'hmac-sha256', secret: 'c2VjcmV0', scope: 'POOL', resource_id: DEFAULT_POOL };
  const post = (body: object | string, headers: Record<string, string> = admin, save?: string): WireRequest =>
    postJson('/v2/tsigkeys', typeof body === 'string' ? body : JSON.stringify(body), headers, save);
  const without = (field: string) => Object.fromEntries(Object.entries(key).filter(([k]) => k !== field));
  const patch = (body: object, headers: Record<string, string> = admin): WireRequest => ({
    method: 'PATCH',
    path: '/v2/tsigkeys/{k}',
    headers: { ...headers, ...j },
    body: JSON.stringify(body),
  });
  return [
    { method: 'GET', path: '/v2/tsigkeys', headers: member },
    { method: 'GET', path: '/v2/tsigkeys', headers: reader },
    post(key, member),
    ...notObjects('/v2/tsigkeys', admin),
    post({}),
    ...Object.keys(key).map((field) => post(without(field))),
    post({ ...key, bogus: 1 }),
    post({ ...key, algorithm: 'hmac-foo' }),
    post({ ...key, algorithm: 'HMAC-SHA256' }),
    post({ ...key, algorithm: 5 }),
    post({ ...key, scope: 'PROJECT' }),
    post({ ...key, scope: 'pool' }),
    post({ ...key, resource_id: 'abc' }),
    post({ ...key, resource_id: 5 }),
    post({ ...key, resource_id: null }),
    post({ ...key, name: 'x'.repeat(161) }),
    post({ ...key, name: '' }),
    post({ ...key, secret: 'x'.repeat(161) }),
    post({ ...key, secret: null }),
    post(key, admin, 'k'),
    post(key),
    post({ ...key, name: `${p}key2`, algorithm: 'hmac-md5', scope: 'ZONE', resource_id: NIL.toUpperCase() }, admin, 'k2'),
    { method: 'GET', path: '/v2/tsigkeys/{k}', headers: admin },
    { method: 'GET', path: '/v2/tsigkeys/{k}', headers: member },
    ...badIds('/v2/tsigkeys', admin),
    ...listParams('/v2/tsigkeys', admin, 'k', `name=${p}key`),
    { method: 'GET', path: '/v2/tsigkeys?scope=ZONE', headers: admin },
    { method: 'GET', path: '/v2/tsigkeys?algorithm=hmac-md5', headers: admin },
    patch({ name: `${p}renamed` }, member),
    patch({ name: `${p}renamed` }),
    patch({ name: `${p}key2` }),
    patch({ algorithm: 'hmac-sha512', secret: 'bmV3' }),
    patch({ algorithm: 'nope' }),
    patch({ scope: 'ZONE', resource_id: NIL }),
    patch({ resource_id: 'abc' }),
    patch({ id: NIL }),
    patch({}),
    { method: 'DELETE', path: '/v2/tsigkeys/{k}', headers: member },
    { method: 'DELETE', path: '/v2/tsigkeys/{k}', headers: admin },
    { method: 'DELETE', path: '/v2/tsigkeys/{k}', headers: admin },
    { method: 'DELETE', path: '/v2/tsigkeys/{k2}', headers: admin },
  ];
}

/** Pools (reads, and the deprecated writes), service statuses, limits, recordsets by id, floating IPs. */
export function otherAdminCases(p: string): WireRequest[] {
  const admin = as(`${p}ops`, 'admin');
  const member = as(`${p}a`, 'member');
  const other = as(`${p}b`, 'member');
  const reader = as(`${p}a`, 'reader');
  return [
    { method: 'GET', path: '/v2/pools', headers: member },
    { method: 'GET', path: '/v2/pools', headers: reader },
    { method: 'GET', path: '/v2/pools', headers: admin },
    { method: 'GET', path: `/v2/pools/${DEFAULT_POOL}`, headers: admin },
    { method: 'GET', path: `/v2/pools/${DEFAULT_POOL}`, headers: member },
    ...badIds('/v2/pools', admin),
    { method: 'GET', path: '/v2/pools?name=default', headers: admin },
    { method: 'GET', path: '/v2/pools?name=nope', headers: admin },
    { method: 'GET', path: '/v2/pools?limit=abc', headers: admin },
    { method: 'GET', path: '/v2/pools?sort_key=nope', headers: admin },
    { method: 'GET', path: '/v2/pools?bogus=1', headers: admin },
    { method: 'POST', path: '/v2/pools', headers: { ...member, ...j }, body: JSON.stringify({ name: `${p}pool` }) },
    ...notObjects('/v2/pools', admin),
    { method: 'POST', path: '/v2/pools', headers: { ...admin, ...j }, body: '{}' },
    { method: 'POST', path: '/v2/pools', headers: { ...admin, ...j }, body: JSON.stringify({ name: 'default' }) },
    { method: 'POST', path: '/v2/pools', headers: { ...admin, ...j }, body: JSON.stringify({ name: `${p}pool`, bogus: 1 }) },
    { method: 'POST', path: '/v2/pools', headers: { ...admin, ...j }, body: JSON.stringify({ name: `${p}pool`, description: 'spare' }), save: 'pl' },
    { method: 'GET', path: '/v2/pools/{pl}', headers: admin },
    { method: 'PATCH', path: '/v2/pools/{pl}', headers: { ...member, ...j }, body: '{"description": "d"}' },
    { method: 'PATCH', path: '/v2/pools/{pl}', headers: { ...admin, ...j }, body: '{"description": "d"}' },
    { method: 'PATCH', path: '/v2/pools/{pl}', headers: { ...admin, ...j }, body: '{"name": "default"}' },
    { method: 'PATCH', path: '/v2/pools/{pl}', headers: { ...admin, ...j }, body: '{"bogus": 1}' },
    { method: 'DELETE', path: '/v2/pools/{pl}', headers: member },
    { method: 'DELETE', path: '/v2/pools/{pl}', headers: admin },
    { method: 'DELETE', path: '/v2/pools/{pl}', headers: admin },

    { method: 'GET', path: '/v2/service_statuses', headers: member },
    { method: 'GET', path: '/v2/service_statuses', headers: reader },
    { method: 'GET', path: '/v2/service_statuses', headers: admin },
    { method: 'GET', path: '/v2/service_status', headers: admin },
    { method: 'GET', path: '/v2/service_statuses/abc', headers: admin },
    { method: 'GET', path: `/v2/service_statuses/${NIL}`, headers: admin },
    { method: 'GET', path: `/v2/service_status/${NIL}`, headers: admin },
    { method: 'GET', path: '/v2/service_statuses?limit=abc', headers: admin },
    { method: 'GET', path: '/v2/service_statuses?bogus=1', headers: admin },
    { method: 'POST', path: '/v2/service_statuses', headers: { ...admin, ...j }, body: '{}' },

    { method: 'GET', path: '/v2/limits', headers: member },
    { method: 'GET', path: '/v2/limits', headers: reader },
    { method: 'GET', path: '/v2/limits', headers: admin },
    { method: 'GET', path: '/v2/limits?limit=1', headers: member },
    { method: 'POST', path: '/v2/limits', headers: { ...admin, ...j }, body: '{}' },

    { method: 'POST', path: '/v2/zones', headers: { ...member, ...j }, body: JSON.stringify({ name: `rs.${p}.example.`, email: 'hostmaster@example.com' }), save: 'z' },
    { method: 'GET', path: '/v2/zones/{z}/recordsets', headers: member, save: 'rs' },
    { method: 'GET', path: '/v2/recordsets/{rs}', headers: member },
    { method: 'GET', path: '/v2/recordsets/{rs}', headers: { ...member, accept: 'application/json' } },
    { method: 'GET', path: '/v2/recordsets/{rs}', headers: other },
    { method: 'GET', path: '/v2/recordsets/{rs}', headers: admin },
    { method: 'GET', path: '/v2/recordsets/{rs}?all_projects=1', headers: admin },
    { method: 'GET', path: '/v2/recordsets/abc', headers: member },
    { method: 'GET', path: `/v2/recordsets/${NIL}`, headers: member },
    { method: 'DELETE', path: '/v2/zones/{z}', headers: member },

    { method: 'GET', path: '/v2/reverse/floatingips', headers: member },
    { method: 'GET', path: '/v2/reverse/floatingips', headers: admin },
    { method: 'GET', path: `/v2/reverse/floatingips/RegionOne:${NIL}`, headers: member },
    { method: 'GET', path: '/v2/reverse/floatingips/nope', headers: member },
    { method: 'PATCH', path: `/v2/reverse/floatingips/RegionOne:${NIL}`, headers: { ...member, ...j }, body: '{"ptrdname": "x.example.org."}' },
    ...[undefined, '{}', '{"ptrdname": null}', '{"description": "x", "ttl": 5}', '{"bogus": 1}', '{"address": "192.0.2.1"}', '[]', 'null', '{"a":',
      // Each value is coerced by the real fields in body order before the 404: the first bad one answers.
      '{"ptrdname": "not a name"}', '{"ptrdname": 5}', '{"ptrdname": []}', '{"ptrdname": "a..b."}', '{"ptrdname": "*.example.org."}',
      `{"ptrdname": "${'a'.repeat(64)}.org."}`, '{"ttl": "abc"}', '{"ttl": 0}', '{"ttl": 2147483648}', '{"ttl": " 7 ", "description": true}',
      '{"ttl": 5.5}', '{"ttl": {}}', `{"description": "${'x'.repeat(161)}"}`, '{"description": [1]}', '{"bogus": 1, "ttl": "x"}',
      '{"ptrdname": "a.example.org.", "ttl": "x"}', '{"ptrdname": null, "ttl": -1}', '{"action": null, "status": null}', '{"action": "x"}',
      '{"address": null, "ttl": "x"}', '{"ttl": "x", "address": null}'].map(
      (body): WireRequest => ({
        method: 'PATCH',
        path: `/v2/reverse/floatingips/RegionOne:${NIL}`,
        headers: { ...member, ...j },
        ...(body === undefined ? {} : { body }),
      }),
    ),
    { method: 'PATCH', path: '/v2/reverse/floatingips/nope', headers: { ...member, ...j }, body: '{}' },
    { method: 'PATCH', path: '/v2/reverse/floatingips/nope', headers: { ...member, ...j }, body: 'null' },
    { method: 'PATCH', path: `/v2/reverse/floatingips/RegionOne:${NIL}`, headers: member, body: '{}' },
  ];
}

/** Requests that remove every TLD, blacklist and pool a run made, once their ids are listed by {@link cleanUp}. */
export const cleanUp = { headers: as('cleanup', 'admin'), lists: ['tlds', 'blacklists', 'tsigkeys', 'pools'] as const };
