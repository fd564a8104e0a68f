/**
 * The commands before and after the layout move, alternated in one process (issue 26: "no
 * slower, ±5 %"), through each tree's BUILT package: `dist/index.js` and `dist/testing.js` of
 * every root (run `npx tsup` in each first), never `src` through tsx, whose esbuild `keepNames`
 * wraps every closure made per call in a `__name` call and so overstates per-transaction closures.
 * This script itself runs through the benches' loader, which adds nothing (tsx would transform
 * the imported `dist` too, and the script refuses to run under it):
 *
 *     node --import ./bench/loader.mjs bench/ab/layout-ab.ts <rounds> <old root> <new root>
 *
 * The old root a checkout of main just before the move (`git worktree add /tmp/pre-layout
 * 93fa436`, with a `node_modules` link and `npx tsup` run in it); the new root this checkout,
 * built.
 *
 * Each root gets one memory-backed DNS service with the same clock, ids and unlimited quotas. The
 * old tree's `tasks: 'auto'` did a task's work inside the command; the new tree's `'auto'` answers
 * first and works after (the real service's timing), so the new side runs `tasks: 'inline'`: the
 * same work in the same place. Every round times one batch of each command on each side, the
 * order of the sides swapped every round; the ratio new/old is taken per round and its median
 * printed, as a Markdown table; times are the process's CPU time. Within a round each command's batch is cut into slices run old,
 * new, old, new …, so both sides meet the same load from the rest of the machine.
 *
 * More roots may follow (`<rounds> <old> <mid> <new>`): each is compared against the first (the
 * layout move itself, 50a53c0, tells the move's cost from that of later work).
 */
import { existsSync, readFileSync } from 'node:fs';
import { argv, env } from 'node:process';
import { loadavg } from 'node:os';

type Result<T = unknown> = { isErr(): boolean; _unsafeUnwrap(): T };
type Ctx = { projectId: string; roles: string[] };
type Service = {
  zones: {
    create(ctx: Ctx, body: unknown): Promise<Result<{ id: string }>>;
    get(ctx: Ctx, id: string): Promise<Result>;
    list(ctx: Ctx, query?: unknown): Promise<Result>;
  };
  recordsets: {
    create(ctx: Ctx, zoneId: string, body: unknown): Promise<Result<{ id: string }>>;
    list(ctx: Ctx, zoneId: string, query?: unknown): Promise<Result>;
    update(ctx: Ctx, zoneId: string, id: string, body: unknown): Promise<Result>;
  };
  imports: { create(ctx: Ctx, text: string, contentType: string): Promise<Result<{ id: string }>>; get(ctx: Ctx, id: string): Promise<Result<{ status: string }>> };
};

const [rounds = '7', ...roots] = argv.slice(2);
if (roots.length < 2) throw new Error('usage: layout-ab.ts <rounds> <old root> <new root> [<more roots>]');
const BATCH = Number(env['LAYOUT_AB_BATCH'] ?? 200);
const IMPORTS = Number(env['LAYOUT_AB_IMPORTS'] ?? 6);
/** Slices a batch is cut into, alternated between the sides. */
const SLICES = Number(env['LAYOUT_AB_SLICES'] ?? 6);
const owner: Ctx = { projectId: 'bench', roles: ['member'] };

const must = async <T>(r: Promise<Result<T>>, what: string): Promise<T> => {
  const v = await r;
  if (v.isErr()) throw new Error(`${what} failed: ${JSON.stringify(v)}`);
  return v._unsafeUnwrap();
};

/** A side: its service, a zone with 100 recordsets to list, 50 of them to update, a counter for names. */
interface Side {
  readonly dns: Service;
  readonly zoneIds: string[];
  readonly listed: string;
  readonly updated: string[];
  readonly target: string;
  n: number;
}

/** The mode that does a task's work inside the command: `'inline'` where the tree has it, else its `'auto'`. */
function inlineMode(root: string): string {
  const file = [`${root}/src/dns/service.ts`, `${root}/src/dns/dns-service.ts`].find((f) => existsSync(f));
  if (file === undefined) throw new Error(`${root}: no DNS service file`);
  return /readonly tasks\?: [^;]*'inline'/.test(readFileSync(file, 'utf8')) ? 'inline' : 'auto';
}

async function side(root: string): Promise<Side> {
  const tasks = inlineMode(root);
  const { createDnsService } = (await import(`${root}/dist/index.js`)) as { createDnsService: (o: object) => Service };
  const testing = (await import(`${root}/dist/testing.js`)) as Record<'manualClock' | 'sequentialIds', (a?: unknown) => unknown>;
  const dns = createDnsService({
    clock: testing.manualClock('2026-01-01T00:00:00Z'),
    ids: testing.sequentialIds(),
    tasks,
    quotas: { zones: -1, zone_recordsets: -1, zone_records: -1, recordset_records: -1 },
  });
  const zoneIds: string[] = [];
  for (let i = 0; i < 50; i++) zoneIds.push((await must(dns.zones.create(owner, { name: `z${i}.example.com.`, email: 'hostmaster@example.com' }), 'zone')).id);
  const listed = zoneIds[0]!;
  const updated: string[] = [];
  for (let i = 0; i < 100; i++) {
    const rs = await must(dns.recordsets.create(owner, listed, { name: `h${i}.z0.example.com.`, type: 'A', records: [`10.0.0.${i}`] }), 'recordset');
    if (i < 50) updated.push(rs.id);
  }
  return { dns, zoneIds, listed, updated, target: zoneIds[1]!, n: 0 };
}

/** A slice of a command's batch on a side (calls `from` to `to`); CPU ms it took. */
const COMMANDS: Record<string, (s: Side, from: number, to: number) => Promise<number>> = {
  'zone create': (s, a, b) =>
    batch(a, b, (i) => must(s.dns.zones.create({ projectId: `p${i % 100}`, roles: ['member'] }, { name: `c${s.n++}.example.org.`, email: 'hostmaster@example.org' }), 'zone create')),
  'zone get': (s, a, b) => batch(a, b, (i) => must(s.dns.zones.get(owner, s.zoneIds[i % s.zoneIds.length]!), 'zone get')),
  'zone list': (s, a, b) => batch(a, b, () => must(s.dns.zones.list(owner), 'zone list')),
  'recordset create': (s, a, b) =>
    batch(a, b, () => must(s.dns.recordsets.create(owner, s.target, { name: `r${s.n++}.z1.example.com.`, type: 'A', records: ['192.0.2.1'] }), 'recordset create')),
  'recordset list': (s, a, b) => batch(a, b, () => must(s.dns.recordsets.list(owner, s.listed), 'recordset list')),
  'recordset update': (s, a, b) =>
    batch(a, b, (i) => must(s.dns.recordsets.update(owner, s.listed, s.updated[i % s.updated.length]!, { records: [`10.1.${s.n++ % 250}.${i % 250}`] }), 'recordset update')),
  'import (200 records)': (s, a, b) =>
    batch(a, b, async () => {
      const origin = `i${s.n++}.example.net.`;
      const created = await must(s.dns.imports.create(owner, zoneFile(origin), 'text/dns'), 'import');
      const done = await must(s.dns.imports.get(owner, created.id), 'import get');
      if (done.status !== 'COMPLETE') throw new Error(`import ${done.status}`);
    }),
};

function zoneFile(origin: string): string {
  const lines = [`$ORIGIN ${origin}`, '$TTL 300', `@ IN SOA ns1.${origin} hostmaster.${origin} 1 3600 600 86400 300`, `@ IN NS ns1.example.com.`];
  for (let i = 0; i < 100; i++) lines.push(`h${i} IN A 10.2.${i >> 8}.${i & 255}`, `h${i} IN TXT "record ${i}"`);
  return lines.join('\n') + '\n';
}

/**
 * The process's CPU time, not the wall clock: on a machine shared with other work (load 5 and
 * more on 2 cores) the wall clock of a slice mostly measures when the scheduler ran it.
 */
async function batch(from: number, to: number, call: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = from; i < to; i++) await call(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

// Under tsx a function made inside another is wrapped in `__name(...)` (see the header).
function probe(): () => number {
  const made = (): number => 0;
  return made;
}
if (probe.toString().includes('__name')) throw new Error('run this bench through bench/loader.mjs, not tsx (see its header): tsx would transform the built dist too');
const sides: Side[] = [];
for (const root of roots) sides.push(await side(root));
const label = (k: number): string => `${roots[k]} (${inlineMode(roots[k]!)})`;
// LAYOUT_AB_ONLY=create narrows the run to the commands whose name holds that word.
const names = Object.keys(COMMANDS).filter((c) => c.includes(env['LAYOUT_AB_ONLY'] ?? ''));
const count = (name: string): number => (name.startsWith('import') ? IMPORTS : BATCH);
/** times[command][side]: CPU µs per call, one entry a round. */
const times: Record<string, number[][]> = Object.fromEntries(names.map((c) => [c, sides.map(() => [] as number[])]));

/** One round of a command: its batch in slices, the sides taking turns (order reversed every other slice and round). */
async function round(name: string, r: number): Promise<number[]> {
  const n = count(name);
  const slices = Math.min(SLICES, n);
  const spent = sides.map(() => 0);
  for (let k = 0; k < slices; k++) {
    const from = Math.floor((k * n) / slices);
    const to = Math.floor(((k + 1) * n) / slices);
    const order = sides.map((_, j) => j);
    if ((k + r) % 2 === 1) order.reverse();
    for (const j of order) spent[j]! += await COMMANDS[name]!(sides[j]!, from, to);
  }
  return spent.map((ms) => (ms / n) * 1000);
}

const load0 = loadavg()[0]!;
// A warm-up round (code, not data), then the measured rounds.
for (const name of names) await round(name, 0);
for (let r = 0; r < Number(rounds); r++) {
  for (const name of names) {
    const perSide = await round(name, r);
    perSide.forEach((us, j) => times[name]![j]!.push(us));
  }
}
const load1 = loadavg()[0]!;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`rounds ${rounds}, ${BATCH} calls a batch (${IMPORTS} imports) in ${SLICES} alternated slices, load average ${load0.toFixed(2)} → ${load1.toFixed(2)}`);
sides.forEach((_, j) => console.log(`side ${j}: ${label(j)}`));
const others = sides.map((_, j) => j).slice(1);
console.log(`| command | CPU µs per call, medians (${sides.map((_, j) => `side ${j}`).join(' / ')}) | ${others.map((j) => `side ${j}/side 0, median of per-round ratios (min–max)`).join(' | ')} |`);
console.log(`| --- | ---: | ${others.map(() => '---:').join(' | ')} |`);
for (const name of names) {
  const t = times[name]!;
  const cells = others.map((j) => {
    const ratios = t[j]!.map((x, k) => x / t[0]![k]!);
    return `${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
  });
  console.log(`| ${name} | ${t.map((xs) => median(xs).toFixed(1)).join(' / ')} | ${cells.join(' | ')} |`);
}
