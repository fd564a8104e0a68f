/**
 * Old against new, alternated in one process: `node --import ./bench/loader.mjs bench/ab/name-rules-ab.ts <rounds> <old root> <new root>`
 * (roots: checkouts of the two commits, e.g. `git archive <commit> src | tar -x -C <dir>`). Each
 * root gets the two services of bench/name-rules.bench.ts (no rules; 1,000 TLDs and 100
 * blacklist patterns); every round times a batch of creates on each of the four, in an order
 * that rotates every round. Prints medians and the rules/none ratio of each root, the figure
 * issue 27 bounds (at most 1.5), as a Markdown table.
 */
import { argv, env } from 'node:process';

type Service = {
  tlds: { create(ctx: unknown, body: unknown): Promise<{ isErr(): boolean }> };
  blacklists: { create(ctx: unknown, body: unknown): Promise<{ isErr(): boolean }> };
  zones: { create(ctx: unknown, body: unknown): Promise<{ isErr(): boolean }> };
};

const [rounds = '10', oldRoot, newRoot] = argv.slice(2);
if (oldRoot === undefined || newRoot === undefined) throw new Error('usage: name-rules-ab.ts <rounds> <old root> <new root>');
const PER_ROUND = Number(env['NAME_RULES_BENCH_CREATES'] ?? 1000);
const admin = { projectId: 'ops', roles: ['admin'] };
const member = (n: number) => ({ projectId: `project-${n % 100}`, roles: ['member'] });

async function service(root: string, rules: boolean): Promise<Service> {
  const { createDnsService } = (await import(`${root}/src/index.ts`)) as { createDnsService: (o: object) => Service };
  const testing = (await import(`${root}/src/testing/index.ts`)) as Record<'manualClock' | 'seededRandom' | 'sequentialIds', (a?: unknown) => unknown>;
  const dns = createDnsService({
    clock: testing.manualClock('2026-01-01T00:00:00Z'),
    ids: testing.sequentialIds(),
    random: testing.seededRandom(1),
    tasks: 'inline',
    quotas: { zones: -1 },
  });
  const must = async (r: Promise<{ isErr(): boolean }>) => {
    if ((await r).isErr()) throw new Error('setup failed');
  };
  if (rules) {
    await must(dns.tlds.create(admin, { name: 'com' }));
    for (let i = 1; i < 1000; i++) await must(dns.tlds.create(admin, { name: `tld${i}` }));
    for (let i = 0; i < 100; i++) await must(dns.blacklists.create(admin, { pattern: i % 2 === 0 ? `^blocked${i}\\.` : `(bad|evil)${i}[a-z]*\\.com\\.$` }));
  }
  return dns;
}

const sides = {
  'old none': await service(oldRoot, false),
  'old rules': await service(oldRoot, true),
  'new none': await service(newRoot, false),
  'new rules': await service(newRoot, true),
};
type Side = keyof typeof sides;
const names = Object.keys(sides) as Side[];
const times = Object.fromEntries(names.map((s) => [s, [] as number[]])) as Record<Side, number[]>;
let n = 0;
async function round(side: Side): Promise<number> {
  const dns = sides[side];
  const start = performance.now();
  for (let i = 0; i < PER_ROUND; i++, n++) {
    const r = await dns.zones.create(member(n), { name: `zone-${n}.example${n % 7}.com.`, email: 'hostmaster@example.com' });
    if (r.isErr()) throw new Error(`${side}: create failed`);
  }
  return ((performance.now() - start) / PER_ROUND) * 1000;
}
for (const side of [...names, ...names]) await round(side);
for (let r = 0; r < Number(rounds); r++) {
  const order = names.map((_, k) => names[(k + r) % names.length]!);
  if (r % 2 === 1) order.reverse();
  for (const side of order) times[side].push(await round(side));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log('| side | µs per create, median | min | max |');
console.log('| --- | ---: | ---: | ---: |');
for (const side of names) console.log(`| ${side} | ${median(times[side]).toFixed(1)} | ${Math.min(...times[side]).toFixed(1)} | ${Math.max(...times[side]).toFixed(1)} |`);
// The ratio of each round (rules against none of the same root), then the median of those.
const ratios = (root: 'old' | 'new') => times[`${root} rules`].map((t, k) => t / times[`${root} none`][k]!);
console.log(`\nrules/none, median of per-round ratios: old ${median(ratios('old')).toFixed(2)}, new ${median(ratios('new')).toFixed(2)}`);
