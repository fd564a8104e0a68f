/**
 * What a test pays for a fresh service (issue 29), through each tree's BUILT package (`dist/index.js`;
 * run `npx tsup` in both first), as a suite that imports zoneward runs it:
 * `node --expose-gc --import ./bench/loader.mjs bench/ab/fresh-service-ab.ts [rounds] [old root] [new root]`
 * (old root: a checkout of the commit to compare with, e.g. `git worktree add /tmp/base 914217d` with
 * main's node_modules linked in; new: this checkout unless given). One iteration is what a test does:
 * `createDnsService()` with its defaults (memory storage, default clock and ids, `tasks: 'auto'`),
 * `zones.create`, `tasks.settle()`, `zones.get`, `zones.list`. GC is part of the cost (a suite pays
 * it), so nothing is collected between iterations. Each step is timed as a prefix of the whole
 * (service; service + create; ...), so the difference of two prefixes is what a step adds. Old and
 * new run alternately in this one process; prints the median CPU µs per iteration (the machine is
 * shared: wall time measures the scheduler) and new/old.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [roundsArg = '9', oldRoot = '/tmp/base', newRoot = '.'] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);
const N = Number(process.env['FRESH_BENCH_ITERATIONS'] ?? 20_000);

interface Service {
  zones: {
    create(ctx: unknown, body: unknown): Promise<{ isErr(): boolean; value?: { id: string } }>;
    get(ctx: unknown, id: string): Promise<{ isErr(): boolean }>;
    list(ctx: unknown, query?: unknown): Promise<{ isErr(): boolean }>;
  };
  tasks: { settle(): Promise<unknown> };
}
type Create = () => Service;

const load = async (root: string): Promise<Create> => {
  const path = resolve(root, 'dist/index.js');
  if (!existsSync(path)) throw new Error(`${root}: no dist/index.js (run npx tsup there)`);
  return ((await import(pathToFileURL(path).href)) as { createDnsService: Create }).createDnsService;
};
const sides = { old: await load(oldRoot), new: await load(newRoot) };

const ctx = { projectId: 'bench', roles: ['member'] };
const body = { name: 'example.com.', email: 'admin@example.com' };
const steps = ['service', '+ create', '+ settle', '+ get', '+ list'] as const;

/** µs per iteration of the first `depth` steps. */
async function prefix(create: Create, depth: number): Promise<number> {
  const t = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const dns = create();
    // A test awaits between services; without it a loop of bare constructions keeps every
    // service alive until the loop ends, and measures the collector instead.
    if (depth === 1) {
      await Promise.resolve();
      continue;
    }
    const made = await dns.zones.create(ctx, body);
    if (made.isErr()) throw new Error('create failed');
    if (depth === 2) continue;
    await dns.tasks.settle();
    if (depth === 3) continue;
    if ((await dns.zones.get(ctx, made.value!.id)).isErr()) throw new Error('get failed');
    if (depth === 4) continue;
    if ((await dns.zones.list(ctx)).isErr()) throw new Error('list failed');
  }
  const used = process.cpuUsage(t);
  return (used.user + used.system) / N;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const times: Record<'old' | 'new', number[][]> = { old: steps.map(() => []), new: steps.map(() => []) };
for (const name of ['old', 'new'] as const) for (let d = 1; d <= steps.length; d++) await prefix(sides[name], d); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  for (let d = 1; d <= steps.length; d++) {
    const order = (r + d) % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const);
    for (const name of order) times[name][d - 1]!.push(await prefix(sides[name], d));
  }
}
const m = { old: times.old.map(median), new: times.new.map(median) };
console.log(`${N} iterations × ${ROUNDS} rounds, medians (µs per iteration)\n`);
console.log('| step | old | new | new/old | old total | new total | new/old |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
steps.forEach((step, i) => {
  const o = m.old[i]! - (i === 0 ? 0 : m.old[i - 1]!);
  const n = m.new[i]! - (i === 0 ? 0 : m.new[i - 1]!);
  console.log(`| ${step} | ${o.toFixed(1)} | ${n.toFixed(1)} | ${(n / o).toFixed(2)} | ${m.old[i]!.toFixed(1)} | ${m.new[i]!.toFixed(1)} | ${(m.new[i]! / m.old[i]!).toFixed(2)} |`);
});
