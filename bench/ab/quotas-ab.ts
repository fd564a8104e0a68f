/**
 * Old against new, alternated in one process: `node --import ./bench/loader.mjs bench/ab/quotas-ab.ts <rounds> <old root>`
 * (old root: a checkout or `git archive <commit> src | tar -x -C <dir>` of the commit to compare
 * with, inside this repository so that it resolves its packages; new: this checkout). Each round
 * runs every command of the quota service on both sides, in alternating order, and prints the
 * median ratio new/old of each (below 1: new is faster).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { QuotaService, QuotaServiceOptions } from '../../src/project-quotas/index.js';

type Create = (options?: QuotaServiceOptions) => QuotaService;
const [rounds = '5', oldRoot = '.bench-tmp/quotas-old'] = process.argv.slice(2);
const load = async (root: string): Promise<Create> =>
  ((await import(pathToFileURL(resolve(root, 'src/project-quotas/index.ts')).href)) as { createQuotaService: Create }).createQuotaService;
const sides: Record<'old' | 'new', Create> = { old: await load(oldRoot), new: await load('.') };

const admin = { projectId: 'ops', roles: ['key-manager:service-admin'] };
const seed = (n: number) => ({
  version: 1 as const,
  projectQuotas: Array.from({ length: n }, (_, i) => ({ project_id: `p${i}`, project_quotas: { secrets: i % 100, orders: null, containers: null, consumers: null, cas: null } })),
});

/** Microseconds per call of `run` over `n` calls. */
async function perCall(n: number, run: (i: number) => unknown): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < n; i++) await run(i);
  return ((performance.now() - t) * 1000) / n;
}

const big = seed(100_000);
const small = seed(1000);
async function measure(create: Create): Promise<Record<string, number>> {
  const q = create({ from: small });
  await q.projectQuotas.list(admin);
  const out: Record<string, number> = {};
  out['enforce'] = await perCall(50_000, (i) => q.enforce(`p${i % 1000}`, 'secrets', { inUse: i & 15 }));
  out['set'] = await perCall(20_000, (i) => q.projectQuotas.set(admin, `n${i % 5000}`, { project_quotas: { secrets: i } }));
  out['get'] = await perCall(20_000, (i) => q.projectQuotas.get(admin, `p${i % 1000}`));
  out['effective'] = await perCall(20_000, (i) => q.effective({ projectId: `p${i % 1000}`, roles: ['reader'] }));
  out['list page'] = await perCall(5_000, (i) => q.projectQuotas.list(admin, { offset: String(i % 900), limit: '10' }));
  out['delete+set'] = await perCall(5_000, async (i) => {
    await q.projectQuotas.delete(admin, `n${i}`);
    await q.projectQuotas.set(admin, `n${i}`, { project_quotas: { cas: 1 } });
  });
  out['fresh service'] = await perCall(20_000, () => create().effective({ projectId: 'a', roles: ['reader'] }));
  let t = performance.now();
  const restored = create({ from: big });
  await restored.projectQuotas.list(admin);
  out['restore 100k (ms)'] = performance.now() - t;
  t = performance.now();
  await restored.snapshot();
  out['snapshot 100k (ms)'] = performance.now() - t;
  t = performance.now();
  await restored.reset();
  out['reset 100k (ms)'] = performance.now() - t;
  return out;
}

const ratios: Record<string, number[]> = {};
const figures: Record<'old' | 'new', Record<string, number[]>> = { old: {}, new: {} };
for (let r = 0; r < Number(rounds); r++) {
  const order: ('old' | 'new')[] = r % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
  const got: Partial<Record<'old' | 'new', Record<string, number>>> = {};
  for (const side of order) {
    got[side] = await measure(sides[side]);
    for (const [k, v] of Object.entries(got[side])) (figures[side][k] ??= []).push(v);
  }
  for (const k of Object.keys(got.new!)) (ratios[k] ??= []).push(got.new![k]! / got.old![k]!);
  process.stderr.write(`round ${r + 1}/${rounds} done\n`);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const lines = ['| command | old (µs/call) | new (µs/call) | new/old (median of rounds) |', '| --- | ---: | ---: | ---: |'];
for (const k of Object.keys(ratios)) lines.push(`| ${k} | ${median(figures.old[k]!).toFixed(2)} | ${median(figures.new[k]!).toFixed(2)} | ${median(ratios[k]!).toFixed(3)} |`);
process.stdout.write(`${lines.join('\n')}\n`);
