/**
 * Old against new, alternated in one process: the cost of the command pipeline (issue #18) on
 * `zones.create`, a `zones.list` page and the 1M-record import. The baseline is another checkout
 * of zoneward (same dependencies), given as `ZONEWARD_BASELINE=/path/to/checkout`; without it the
 * module prints a note and measures nothing.
 *
 * Each round runs the old code, then the new, then the new, then the old (ABBA), on fresh services,
 * so a drift of the shared machine within a round falls on both sides. Figures are medians over
 * the rounds; the ratio is new / old.
 */

import { generateZone } from '../test/support/zone-generator.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inlineTaskMode, PROBE } from './task-mode.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const baseline = process.env['ZONEWARD_BASELINE'];
const ROUNDS = Number(process.env['PIPELINE_BENCH_ROUNDS'] ?? 5);
const CREATES = 20_000;
// More pages make a longer window, less moved by the other work of a shared machine.
const PAGES = Number(process.env['PIPELINE_BENCH_PAGES'] ?? 2_000);
const IMPORT_RECORDS = 1_000_000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const log = (s: string): void => void process.stderr.write(`pipeline.bench: ${s}\n`);

if (baseline === undefined) {
  process.stdout.write(
    '## Command pipeline against a baseline\n\nNot run: set `ZONEWARD_BASELINE` to another checkout of zoneward to compare with (see bench/pipeline.bench.ts).\n',
  );
  process.exit(0);
}

interface Ctx {
  projectId: string;
  roles: string[];
}
type Ok<T> = { isErr(): boolean; _unsafeUnwrap(): T };
interface Dns {
  zones: {
    create(ctx: Ctx, body: unknown): PromiseLike<Ok<{ id: string }>>;
    list(ctx: Ctx, query: Record<string, string>): PromiseLike<Ok<unknown>>;
  };
  imports: {
    create(ctx: Ctx, text: string, type: string): PromiseLike<Ok<{ id: string }>>;
    get(ctx: Ctx, id: string): PromiseLike<Ok<{ status: string }>>;
  };
  tasks: { settle(): Promise<void> };
}
interface Lib {
  createDnsService(options: object): Dns;
}
interface Testing {
  manualClock(start: string): (() => Date) & { advance(ms: number): void };
  sequentialIds(): () => string;
  seededRandom(seed: number): () => number;
}

async function load(dir: string): Promise<{ lib: Lib; testing: Testing }> {
  const lib = (await import(pathToFileURL(join(dir, 'src', 'index.ts')).href)) as Lib;
  const testing = (await import(pathToFileURL(join(dir, 'src', 'testing', 'index.ts')).href)) as Testing;
  return { lib, testing };
}

function zoneFile(records: number): string {
  const tmp = join(root, '.bench-tmp');
  mkdirSync(tmp, { recursive: true });
  const path = join(tmp, `generated-${records}.zone`);
  if (!existsSync(path)) writeFileSync(path, generateZone({ records, seed: 1 }));
  return readFileSync(path, 'utf8');
}

const member = (i: number): Ctx => ({ projectId: `project-${i}`, roles: ['member'] });

/** Microseconds of CPU since `since` (a `process.cpuUsage()`). */
const cpuMicros = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};

/**
 * µs per create (20,000 creates over 100 projects) and µs per first page of a 100-zone project,
 * each in wall-clock and in CPU time: on a machine shared with other work the wall clock also
 * counts the time this process waited for a core, CPU time does not.
 */
async function createsAndPages(v: { lib: Lib; testing: Testing }): Promise<{ create: number; page: number; createCpu: number; pageCpu: number }> {
  const clock = v.testing.manualClock('2026-01-01T00:00:00Z');
  const tasks = await inlineTaskMode(async (mode) => await v.lib.createDnsService({ tasks: mode }).zones.create({ ...PROBE.ctx, roles: [...PROBE.ctx.roles] }, PROBE.body));
  const dns = v.lib.createDnsService({ clock, ids: v.testing.sequentialIds(), random: v.testing.seededRandom(1), tasks, quotas: { zones: -1 } });
  const ctxs = Array.from({ length: 100 }, (_, i) => member(i));
  gc();
  let t = performance.now();
  let cpu = process.cpuUsage();
  for (let n = 0; n < CREATES; n++) {
    if (n % 16 === 0) clock.advance(1);
    const r = await dns.zones.create(ctxs[n % 100]!, { name: `zone-${n}.example.com.`, email: 'hostmaster@example.com' });
    if (r.isErr()) throw new Error('create failed');
  }
  const createCpu = cpuMicros(cpu) / CREATES;
  const create = ((performance.now() - t) / CREATES) * 1000;
  const probe = member(7); // holds 200 zones: every page is a full page of 20
  t = performance.now();
  cpu = process.cpuUsage();
  for (let i = 0; i < PAGES; i++) (await dns.zones.list(probe, { limit: '20' }))._unsafeUnwrap();
  const pageCpu = cpuMicros(cpu) / PAGES;
  const page = ((performance.now() - t) / PAGES) * 1000;
  return { create, page, createCpu, pageCpu };
}

/** CPU seconds of one import (imports.create and its task until COMPLETE). */
async function importCpu(v: { lib: Lib }, text: string): Promise<number> {
  const dns = v.lib.createDnsService({
    limits: { maxZoneFileBytes: 1 << 30 },
    quotas: { zone_recordsets: -1, zone_records: -1, recordset_records: -1, api_export_size: -1 },
  });
  const ctx = member(0);
  gc();
  const cpu = process.cpuUsage();
  const created = (await dns.imports.create(ctx, text, 'text/dns'))._unsafeUnwrap();
  await dns.tasks.settle();
  const used = process.cpuUsage(cpu);
  if ((await dns.imports.get(ctx, created.id))._unsafeUnwrap().status !== 'COMPLETE') throw new Error('import did not complete');
  return (used.user + used.system) / 1e6;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const oldCode = await load(resolve(baseline));
const newCode = await load(root);
const text = zoneFile(IMPORT_RECORDS);
const warm = zoneFile(10_000);
// Warm both up (bytecode and type feedback are made on first use, not counted as data).
for (const v of [oldCode, newCode]) {
  await createsAndPages(v);
  await importCpu(v, warm);
}

const samples = () => ({ create: [] as number[], page: [] as number[], createCpu: [] as number[], pageCpu: [] as number[], import: [] as number[] });
const results = { old: samples(), new: samples() };
for (let round = 0; round < ROUNDS; round++) {
  for (const side of ['old', 'new', 'new', 'old'] as const) {
    const v = side === 'old' ? oldCode : newCode;
    const cp = await createsAndPages(v);
    results[side].create.push(cp.create);
    results[side].page.push(cp.page);
    results[side].createCpu.push(cp.createCpu);
    results[side].pageCpu.push(cp.pageCpu);
    results[side].import.push(await importCpu(v, text));
    log(`${side} create ${cp.create.toFixed(1)} (CPU ${cp.createCpu.toFixed(1)}) page ${cp.page.toFixed(1)} (CPU ${cp.pageCpu.toFixed(1)}) import ${results[side].import.at(-1)!.toFixed(2)}`);
    gc();
  }
  log(`round ${round + 1}/${ROUNDS} done`);
}

const row = (what: string, unit: string, key: keyof ReturnType<typeof samples>, digits: number): string => {
  const o = median(results.old[key]);
  const n = median(results.new[key]);
  return `| ${what} | ${unit} | ${o.toFixed(digits)} | ${n.toFixed(digits)} | ${(n / o).toFixed(3)} |`;
};

process.stdout.write(
  [
    '## Command pipeline against a baseline',
    '',
    `Old = the checkout in \`ZONEWARD_BASELINE\`, new = this one; one process, ${ROUNDS} rounds of old, new, new, old on fresh services (medians of ${ROUNDS * 2} runs per side, after a warm-up of each). ` +
      `Create: ${CREATES.toLocaleString('en')} \`zones.create\` over 100 projects (manual clock, sequential ids, pushes inside the create: \`tasks: 'inline'\`, \`'auto'\` in builds before it). ` +
      `Page: ${PAGES.toLocaleString('en')} \`zones.list\` first pages (limit 20) of a project holding 200 zones. ` +
      `Import: CPU seconds of a ${IMPORT_RECORDS.toLocaleString('en')}-record \`generateZone\` file through \`imports.create\` and its task.`,
    '',
    '| what | unit | old | new | new / old |',
    '| --- | --- | ---: | ---: | ---: |',
    row('zones.create', 'µs per create', 'create', 1),
    row('zones.create', 'CPU µs per create', 'createCpu', 1),
    row('zones.list page', 'µs per page', 'page', 1),
    row('zones.list page', 'CPU µs per page', 'pageCpu', 1),
    row('1M import', 'CPU s', 'import', 2),
    '',
    'Target (issue #18): each ratio within 1.05.',
  ].join('\n') + '\n',
);
