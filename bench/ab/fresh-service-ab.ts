/**
 * What a test pays for a fresh service (issue 29), through each tree's BUILT package (`dist/index.js`;
 * run `npx tsup` in both first), as a suite that imports zoneward runs it:
 * `node --expose-gc --import ./bench/loader.mjs bench/ab/fresh-service-ab.ts [rounds] [old root] [more roots...]`
 * (old root: a checkout of the commit to compare with, e.g. `git worktree add /tmp/base 914217d` with
 * main's node_modules linked in; then any other roots, this checkout last unless given: each is
 * compared with the first). One iteration is what a test does:
 * `createDnsService()` with its defaults (memory storage, default clock and ids, `tasks: 'auto'`),
 * `zones.create`, `tasks.settle()`, `zones.get`, `zones.list`. GC is part of the cost (a suite pays
 * it), so nothing is collected between iterations. Each step is timed as a prefix of the whole
 * (service; service + create; ...), so the difference of two prefixes is what a step adds. The
 * roots run in turn in this one process, their order reversed every other round; prints the
 * median CPU µs per iteration (the machine is shared: wall time measures the scheduler) and each
 * root's ratio to the first.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [roundsArg = '9', ...rootArgs] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);
const N = Number(process.env['FRESH_BENCH_ITERATIONS'] ?? 20_000);
const roots = rootArgs.length === 0 ? ['/tmp/base', '.'] : rootArgs.length === 1 ? [rootArgs[0]!, '.'] : rootArgs;

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
const sides: Create[] = [];
for (const root of roots) sides.push(await load(root));

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
const times: number[][][] = sides.map(() => steps.map(() => []));
for (const side of sides) for (let d = 1; d <= steps.length; d++) await prefix(side, d); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  for (let d = 1; d <= steps.length; d++) {
    const order = sides.map((_, k) => k);
    if ((r + d) % 2 === 1) order.reverse();
    for (const k of order) times[k]![d - 1]!.push(await prefix(sides[k]!, d));
  }
}
const m = times.map((t) => t.map(median));
const step = (k: number, i: number): number => m[k]![i]! - (i === 0 ? 0 : m[k]![i - 1]!);
console.log(`${N} iterations × ${ROUNDS} rounds, medians (µs per iteration); roots: ${roots.join(', ')}\n`);
console.log(`| step | ${roots.join(' | ')} | ${roots.slice(1).map((r) => `${r} ÷ first`).join(' | ')} |`);
console.log(`|---|${roots.map(() => '---:').join('|')}|${roots.slice(1).map(() => '---:').join('|')}|`);
steps.forEach((name, i) => {
  const row = roots.map((_, k) => step(k, i).toFixed(1));
  const ratios = roots.slice(1).map((_, k) => (step(k + 1, i) / step(0, i)).toFixed(2));
  console.log(`| ${name} | ${row.join(' | ')} | ${ratios.join(' | ')} |`);
});
const last = steps.length - 1;
console.log(`| whole iteration | ${roots.map((_, k) => m[k]![last]!.toFixed(1)).join(' | ')} | ${roots.slice(1).map((_, k) => (m[k + 1]![last]! / m[0]![last]!).toFixed(2)).join(' | ')} |`);
