/**
 * Random request sequences for the wire comparison that mix TLD and blacklist writes with zone
 * creates and zone-file imports, so that what a rule refuses, and when, is compared step by step
 * with the real service. TLDs and patterns are global there: the suite deletes them after each
 * sequence.
 */
import fc from 'fast-check';
import type { WireRequest } from './wire.js';

const j = { 'content-type': 'application/json' };
const dnsText = { 'content-type': 'text/dns' };
const caller = (project: string, roles: string): Record<string, string> => ({ 'X-Auth-Project-ID': project, 'X-Roles': roles });

/** A zone file for `name` (absolute), as a tenant would import it. */
const zoneFile = (name: string): string =>
  `$ORIGIN ${name}\n@ 3600 IN SOA ns1.example.org. admin.example.org. 1 3600 600 86400 3600\n@ IN NS ns1.example.org.\nwww IN A 192.0.2.1\n`;

/**
 * Random steps of run `p` that mix TLD and blacklist creates and deletes with zone creates
 * (PRIMARY and SECONDARY) and imports by tenants and admins: names under a TLD or not, equal to
 * one, matching a pattern or not; and transfers of project `a`'s last zone to `b`.
 * Each step that makes a rule, an import or a transfer request saves it under its own index.
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
    {
      weight: 1,
      arbitrary: fc.tuple(name, who).map(([n, h]) => ({ kind: 'zone', method: 'POST', path: '/v2/zones', headers: { ...h, ...j }, body: JSON.stringify({ name: n, type: 'SECONDARY', masters: ['192.0.2.53'] }) })),
    },
    // The last zone `a` made changes hands to `b`: a rule made since is not checked again (only creates are).
    { weight: 1, arbitrary: fc.constant({ kind: 'transfer', method: 'POST', path: '/v2/zones/{z}/tasks/transfer_requests', headers: { ...caller(`${p}a`, 'member'), ...j }, body: '{}' }) },
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
      } else if (kind === 'transfer') {
        out.push({ ...r, save: `tr${i}` });
        out.push({ method: 'POST', path: '/v2/zones/tasks/transfer_accepts', headers: { ...caller(`${p}b`, 'member'), ...j }, body: `{"key": "{tr${i}_key}", "zone_transfer_request_id": "{tr${i}}"}` });
      } else out.push((r.headers as Record<string, string>)['X-Auth-Project-ID'] === `${p}a` ? { ...r, save: 'z' } : r);
    });
    for (const project of ['a', 'b', 'ops']) out.push({ method: 'GET', path: '/v2/zones?sort_key=name', headers: caller(`${p}${project}`, project === 'ops' ? 'admin' : 'member') });
    return out;
  });
}
