/**
 * What TLDs and blacklist patterns cost a zone create: one service with none, one with 1,000
 * TLDs and 100 patterns (the target of issue 27: at most 1.5 times the create without them).
 * Both in one process, alternated in rounds of creates after a warm-up; medians of the rounds.
 * Prints one Markdown section.
 */
import { createDnsService, type DnsService } from '../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../src/testing/index.js';

const ROUNDS = Number(process.env['NAME_RULES_BENCH_ROUNDS'] ?? 10);
const PER_ROUND = Number(process.env['NAME_RULES_BENCH_CREATES'] ?? 2000);
const admin = { projectId: 'ops', roles: ['admin'] };
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const member = (n: number) => ({ projectId: `project-${n % 100}`, roles: ['member'] });

async function service(rules: boolean): Promise<DnsService> {
  const dns = createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1), tasks: 'inline', quotas: { zones: -1 } });
  if (rules) {
    (await dns.tlds.create(admin, { name: 'com' }))._unsafeUnwrap();
    for (let i = 1; i < 1000; i++) (await dns.tlds.create(admin, { name: `tld${i}` }))._unsafeUnwrap();
    for (let i = 0; i < 100; i++) (await dns.blacklists.create(admin, { pattern: i % 2 === 0 ? `^blocked${i}\\.` : `(bad|evil)${i}[a-z]*\\.com\\.$` }))._unsafeUnwrap();
  }
  return dns;
}

const sides = { none: await service(false), rules: await service(true) };
const times: Record<keyof typeof sides, number[]> = { none: [], rules: [] };
let n = 0;
async function round(side: keyof typeof sides, timed: boolean): Promise<void> {
  const dns = sides[side];
  const start = performance.now();
  for (let i = 0; i < PER_ROUND; i++, n++) {
    const r = await dns.zones.create(member(n), { name: `zone-${n}.example${n % 7}.com.`, email: 'hostmaster@example.com' });
    if (r.isErr()) throw new Error(`create failed: ${r.error.type} ${r.error.message}`);
  }
  if (timed) times[side].push(((performance.now() - start) / PER_ROUND) * 1000);
}
for (const side of ['none', 'rules', 'none', 'rules'] as const) await round(side, false);
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? (['none', 'rules'] as const) : (['rules', 'none'] as const);
  for (const side of order) await round(side, true);
}
const none = median(times.none);
const rules = median(times.rules);
console.log(`## Zone create with TLDs and blacklist patterns

Method: two services in one process (memory storage, \`tasks: 'inline'\`, quota off): one with no TLD
and no pattern, one with 1,000 TLDs and 100 blacklist patterns; ${ROUNDS} rounds of ${PER_ROUND.toLocaleString('en')}
creates each, alternated (the order swapped every round), after two warm-up rounds each; medians.
Target (issue 27): ratio at most 1.5.

| service | µs per create (median) |
| --- | ---: |
| no TLDs, no patterns | ${none.toFixed(1)} |
| 1,000 TLDs, 100 patterns | ${rules.toFixed(1)} |
| ratio | ${(rules / none).toFixed(2)} |`);
