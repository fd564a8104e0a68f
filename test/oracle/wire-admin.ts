/**
 * The wire comparison's requests for the admin resources of the whole API (TLDs, TSIG keys,
 * blacklists, pools, service statuses, limits, the recordset redirect, reverse floating IPs), and
 * random sequences that mix TLD and blacklist writes with zone creates and zone-file imports, so
 * that what a rule refuses, and when, is compared step by step with the real service.
 *
 * TLDs and blacklist patterns are global in the real service: every sequence deletes what it made
 * (`cleanup`), and these suites run against their own real process.
 */
import fc from 'fast-check';
import type { WireRequest } from './wire.js';

const j = { 'content-type': 'application/json' };
const dnsText = { 'content-type': 'text/dns' };
const caller = (project: string, roles?: string): Record<string, string> => ({ 'X-Auth-Project-ID': project, ...(roles === undefined ? {} : { 'X-Roles': roles }) });
const DEFAULT_POOL = '794ccc2c-d751-44fe-b57f-8894c9f5c842';
const NIL = '00000000-0000-4000-8000-000000000000';

/** A zone file for `name` (absolute), as a tenant would import it. */
export const zoneFile = (name: string): string =>
  `$ORIGIN ${name}\n@ 3600 IN SOA ns1.example.org. admin.example.org. 1 3600 600 86400 3600\n@ IN NS ns1.example.org.\nwww IN A 192.0.2.1\n`;

/** CRUD of one admin collection: bad bodies, every caller, paging, sort and filters, not-found and bad ids. */
function crud(p: string, path: string, save: string, good: object, other: object, bad: readonly string[], filter: string): WireRequest[] {
  const admin = caller(`${p}ops`, 'admin');
  const member = caller(`${p}a`, 'member');
  const reader = caller(`${p}a`, 'reader');
  return [
    { method: 'GET', path, headers: admin },
    { method: 'GET', path, headers: member },
    { method: 'GET', path, headers: reader },
    { method: 'POST', path, headers: { ...member, ...j }, body: JSON.stringify(good) },
    { method: 'POST', path, headers: { ...admin, ...j } },
    { method: 'POST', path, headers: { ...admin, ...j }, body: '{}' },
    { method: 'POST', path, headers: { ...admin, ...j }, body: '[]' },
    { method: 'POST', path, headers: { ...admin, ...j }, body: '{"bogus": 1}' },
    // Some of these the real service takes (a TLD named `a.b`, a number as a name): each is deleted below.
    ...bad.map((body, i) => ({ method: 'POST', path, headers: { ...admin, ...j }, body, save: `${save}bad${i}` })),
    { method: 'POST', path, headers: { ...admin, ...j }, body: JSON.stringify(good), save },
    { method: 'POST', path, headers: { ...admin, ...j }, body: JSON.stringify(good) },
    { method: 'POST', path, headers: { ...admin, ...j }, body: JSON.stringify(other), save: `${save}2` },
    { method: 'POST', path, headers: caller(`${p}ops`), body: JSON.stringify({ ...other, description: 'no roles is admin' }) },
    { method: 'GET', path: `${path}/{${save}}`, headers: admin },
    { method: 'GET', path: `${path}/{${save}}`, headers: member },
    { method: 'GET', path: `${path}/abc`, headers: admin },
    { method: 'GET', path: `${path}/${NIL}`, headers: admin },
    { method: 'GET', path: `${path}?limit=1`, headers: admin },
    { method: 'GET', path: `${path}?limit=0`, headers: admin },
    { method: 'GET', path: `${path}?limit=x`, headers: admin },
    { method: 'GET', path: `${path}?marker={${save}}`, headers: admin },
    { method: 'GET', path: `${path}?marker=abc`, headers: admin },
    { method: 'GET', path: `${path}?marker=${NIL}`, headers: admin },
    { method: 'GET', path: `${path}?sort_key=created_at&sort_dir=desc`, headers: admin },
    { method: 'GET', path: `${path}?sort_key=nope`, headers: admin },
    { method: 'GET', path: `${path}?sort_dir=up`, headers: admin },
    { method: 'GET', path: `${path}?${filter}`, headers: admin },
    { method: 'GET', path: `${path}?bogus=1`, headers: admin },
    { method: 'PATCH', path: `${path}/{${save}}`, headers: { ...member, ...j }, body: '{"description": "m"}' },
    { method: 'PATCH', path: `${path}/{${save}}`, headers: { ...admin, ...j }, body: '{"description": "changed"}' },
    { method: 'PATCH', path: `${path}/{${save}}`, headers: { ...admin, ...j }, body: '{"description": 5}' },
    { method: 'PATCH', path: `${path}/{${save}}`, headers: { ...admin, ...j }, body: '{"id": "x"}' },
    { method: 'PATCH', path: `${path}/{${save}}`, headers: { ...admin, ...j }, body: '{}' },
    { method: 'PATCH', path: `${path}/{${save}}`, headers: { ...admin, ...j } },
    { method: 'PATCH', path: `${path}/{${save}2}`, headers: { ...admin, ...j }, body: JSON.stringify(good) },
    { method: 'PATCH', path: `${path}/${NIL}`, headers: { ...admin, ...j }, body: '{"description": "x"}' },
    { method: 'PATCH', path: `${path}/abc`, headers: { ...admin, ...j }, body: '{"description": "x"}' },
    { method: 'PUT', path: `${path}/{${save}}`, headers: { ...admin, ...j }, body: '{}' },
    { method: 'DELETE', path: `${path}/{${save}}`, headers: member },
    { method: 'DELETE', path: `${path}/{${save}}`, headers: admin },
    { method: 'DELETE', path: `${path}/{${save}}`, headers: admin },
    { method: 'DELETE', path: `${path}/{${save}2}`, headers: admin },
    { method: 'DELETE', path: `${path}/abc`, headers: admin },
    { method: 'DELETE', path, headers: admin },
    ...bad.map((_, i) => ({ method: 'DELETE', path: `${path}/{${save}bad${i}}`, headers: admin })),
  ];
}

/** Fixed steps over every admin endpoint; `p` keeps names apart between runs on the shared real service. */
export function adminCases(p: string): WireRequest[] {
  const admin = caller(`${p}ops`, 'admin');
  const member = caller(`${p}a`, 'member');
  const zone = (name: string) => JSON.stringify({ name, email: 'hostmaster@example.com' });
  const tld = `${p}tld`;
  return [
    ...crud(p, '/v2/tlds', 't', { name: tld }, { name: `${p}other`, description: 'x' }, [`{"name": "a.${p}"}`, '{"name": "-x"}', '{"name": 5}', `{"name": "${p}x", "description": 5}`, `{"name": "${'a'.repeat(64)}"}`], `name=${tld}`),
    ...crud(
      p,
      '/v2/tsigkeys',
      'k',
      { name: `${p}key`, algorithm: 'hmac-sha256', secret: 'c2VjcmV0', scope: 'POOL', resource_id: DEFAULT_POOL },
      { name: `${p}key2`, algorithm: 'hmac-md5', secret: 's', scope: 'ZONE', resource_id: NIL },
      [
        `{"name": "${p}k", "algorithm": "hmac-nope", "secret": "s", "scope": "POOL", "resource_id": "${DEFAULT_POOL}"}`,
        `{"name": "${p}k", "algorithm": "hmac-sha1", "secret": "s", "scope": "NOPE", "resource_id": "${DEFAULT_POOL}"}`,
        `{"name": "${p}k", "algorithm": "hmac-sha1", "secret": "s", "scope": "POOL", "resource_id": "abc"}`,
        `{"name": "${p}k", "algorithm": "hmac-sha1", "scope": "POOL", "resource_id": "${DEFAULT_POOL}"}`,
        `{"name": "${p}k", "secret": "s", "scope": "POOL", "resource_id": "${DEFAULT_POOL}"}`,
      ],
      `name=${p}key`,
    ),
    ...crud(p, '/v2/blacklists', 'b', { pattern: `^never\\.${p}\\.` }, { pattern: `^also\\.${p}\\.` }, ['{"pattern": "("}', '{"pattern": 5}', '{"pattern": ""}', '{"description": "x"}'], `pattern=^never*`),
    { method: 'GET', path: '/v2/pools', headers: admin },
    { method: 'GET', path: '/v2/pools', headers: member },
    { method: 'GET', path: `/v2/pools/${DEFAULT_POOL}`, headers: admin },
    { method: 'GET', path: `/v2/pools/${NIL}`, headers: admin },
    { method: 'GET', path: '/v2/pools/abc', headers: admin },
    { method: 'GET', path: '/v2/pools?name=default', headers: admin },
    { method: 'GET', path: '/v2/pools?limit=x', headers: admin },
    { method: 'POST', path: '/v2/pools', headers: { ...admin, ...j }, body: '{"name": "default"}' },
    { method: 'POST', path: '/v2/pools', headers: { ...admin, ...j }, body: '{"bogus": 1}' },
    { method: 'PATCH', path: `/v2/pools/${DEFAULT_POOL}`, headers: { ...member, ...j }, body: '{"description": "x"}' },
    { method: 'PATCH', path: `/v2/pools/${NIL}`, headers: { ...admin, ...j }, body: '{"description": "x"}' },
    { method: 'PATCH', path: `/v2/pools/${DEFAULT_POOL}`, headers: { ...admin, ...j }, body: '{"ns_records": []}' },
    { method: 'PATCH', path: `/v2/pools/${DEFAULT_POOL}`, headers: { ...admin, ...j }, body: '{"ns_records": [{"hostname": "nsx", "priority": 1}]}' },
    { method: 'DELETE', path: `/v2/pools/${DEFAULT_POOL}`, headers: member },
    { method: 'DELETE', path: `/v2/pools/${NIL}`, headers: admin },
    { method: 'GET', path: '/v2/service_statuses', headers: admin },
    { method: 'GET', path: '/v2/service_statuses', headers: member },
    { method: 'GET', path: `/v2/service_statuses/${NIL}`, headers: admin },
    { method: 'GET', path: '/v2/service_statuses/abc', headers: admin },
    { method: 'GET', path: '/v2/service_status', headers: admin },
    { method: 'GET', path: '/v2/limits', headers: member },
    { method: 'GET', path: '/v2/limits', headers: admin },
    { method: 'POST', path: '/v2/zones', headers: { ...member, ...j }, body: zone(`z.${p}.example.`), save: 'z' },
    { method: 'GET', path: '/v2/zones/{z}/recordsets?type=NS', headers: member, save: 'ns' },
    { method: 'GET', path: `/v2/recordsets/${NIL}`, headers: member },
    { method: 'GET', path: '/v2/recordsets/abc', headers: member },
    { method: 'GET', path: '/v2/reverse/floatingips', headers: member },
    { method: 'GET', path: `/v2/reverse/floatingips/RegionOne:${NIL}`, headers: member },
    { method: 'PATCH', path: `/v2/reverse/floatingips/RegionOne:${NIL}`, headers: { ...member, ...j }, body: '{"ptrdname": "x.example."}' },
    // The TLD rule on creates and imports, and the blacklist's, with the admin's exemption.
    { method: 'POST', path: '/v2/tlds', headers: { ...admin, ...j }, body: JSON.stringify({ name: tld }), save: 'rule' },
    { method: 'POST', path: '/v2/zones', headers: { ...member, ...j }, body: zone(`a.${p}.example.`) },
    { method: 'POST', path: '/v2/zones', headers: { ...member, ...j }, body: zone(`a.${tld}.`) },
    { method: 'POST', path: '/v2/zones', headers: { ...member, ...j }, body: zone(`${tld}.`) },
    { method: 'POST', path: '/v2/zones/tasks/imports', headers: { ...member, ...dnsText }, body: zoneFile(`i.${p}.example.`), save: 'i1' },
    { method: 'GET', path: '/v2/zones/tasks/imports/{i1}', headers: member },
    { method: 'POST', path: '/v2/blacklists', headers: { ...admin, ...j }, body: JSON.stringify({ pattern: `^bad\\.${tld}\\.$` }), save: 'deny' },
    { method: 'POST', path: '/v2/zones', headers: { ...member, ...j }, body: zone(`bad.${tld}.`) },
    { method: 'POST', path: '/v2/zones', headers: { ...admin, ...j }, body: zone(`bad.${tld}.`) },
    { method: 'POST', path: '/v2/zones/tasks/imports', headers: { ...member, ...dnsText }, body: zoneFile(`bad.${tld}.`), save: 'i2' },
    { method: 'GET', path: '/v2/zones/tasks/imports/{i2}', headers: member },
    { method: 'GET', path: `/v2/zones?name=bad.${tld}.`, headers: caller(`${p}ops`, 'admin') },
    { method: 'DELETE', path: '/v2/blacklists/{deny}', headers: admin },
    { method: 'DELETE', path: '/v2/tlds/{rule}', headers: admin },
  ];
}

/** What a random rule sequence may have made: deleted at its end so the next starts clean. */
export function cleanup(steps: readonly WireRequest[]): WireRequest[] {
  const admin = { 'X-Auth-Project-ID': 'cleanup', 'X-Roles': 'admin' };
  return steps.flatMap((s) =>
    s.save === undefined || s.method !== 'POST' || (s.path !== '/v2/tlds' && s.path !== '/v2/blacklists') ? [] : [{ method: 'DELETE', path: `${s.path}/{${s.save}}`, headers: admin }],
  );
}

/**
 * Random steps of run `p` that mix TLD and blacklist creates and deletes with zone creates and
 * imports by tenants and admins: names under a TLD or not, equal to one, matching a pattern or not.
 * Each step that makes a rule saves it under its own index, so `cleanup` finds every one.
 */
export function ruleSequence(p: string): fc.Arbitrary<WireRequest[]> {
  const tlds = [`${p}t`, `${p}u`];
  const name = fc.constantFrom(`a.${p}t.`, `b.${p}u.`, `bad.${p}t.`, `x.bad.${p}u.`, `${p}t.`, `c.${p}v.`, `a.b.${p}t.`);
  const who = fc.constantFrom(caller(`${p}a`, 'member'), caller(`${p}b`, 'member'), caller(`${p}ops`, 'admin'));
  const pattern = fc.constantFrom(`^bad\\.`, `bad`, `^${p}t\\.$`, `\\.${p}u\\.$`, `^[a-c]\\.`, '(', `^x\\.`);
  const step = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...tlds, `${p}v`, 'a.b').map((t): Omit<WireRequest, 'save'> & { kind: string } => ({ kind: 'tld', method: 'POST', path: '/v2/tlds', headers: { ...caller(`${p}ops`, 'admin'), ...j }, body: JSON.stringify({ name: t }) })) },
    { weight: 2, arbitrary: pattern.map((pt) => ({ kind: 'blacklist', method: 'POST', path: '/v2/blacklists', headers: { ...caller(`${p}ops`, 'admin'), ...j }, body: JSON.stringify({ pattern: pt }) })) },
    { weight: 1, arbitrary: fc.constantFrom('tlds', 'blacklists').map((c) => ({ kind: `delete ${c}`, method: 'DELETE', path: `/v2/${c}`, headers: caller(`${p}ops`, 'admin') })) },
    { weight: 4, arbitrary: fc.tuple(name, who).map(([n, h]) => ({ kind: 'zone', method: 'POST', path: '/v2/zones', headers: { ...h, ...j }, body: JSON.stringify({ name: n, email: 'hostmaster@example.com' }) })) },
    { weight: 2, arbitrary: fc.tuple(name, who).map(([n, h]) => ({ kind: 'import', method: 'POST', path: '/v2/zones/tasks/imports', headers: { ...h, ...dnsText }, body: zoneFile(n) })) },
  );
  return fc.array(step, { minLength: 4, maxLength: 14 }).map((raw) => {
    const out: WireRequest[] = [];
    raw.forEach(({ kind, ...r }, i) => {
      if (kind === 'tld' || kind === 'blacklist') out.push({ ...r, save: `r${i}` });
      else if (kind.startsWith('delete')) {
        // Deletes the latest rule of that kind made so far (a literal `{r..}` when none: 400 on both sides).
        const c = kind.slice('delete '.length);
        const last = [...out].reverse().find((s) => s.path === `/v2/${c}` && s.save !== undefined);
        out.push({ ...r, path: `/v2/${c}/{${last?.save ?? 'none'}}` });
      } else if (kind === 'import') {
        out.push({ ...r, save: `i${i}` });
        // The import's outcome (COMPLETE, or ERROR and its message) once its task ran.
        out.push({ method: 'GET', path: `/v2/zones/tasks/imports/{i${i}}`, headers: r.headers ?? {} });
      } else out.push(r);
    });
    for (const project of ['a', 'b', 'ops']) out.push({ method: 'GET', path: '/v2/zones?sort_key=name', headers: caller(`${p}${project}`, project === 'ops' ? 'admin' : 'member') });
    return out;
  });
}
