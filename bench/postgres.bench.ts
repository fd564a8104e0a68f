/**
 * The PostgreSQL adapter against pgbench's TPC-B on the same server, in one run (issue #17), and
 * against the in-memory adapter. Needs ZONEWARD_PG_URL (scripts/pg-test-cluster.sh) and pgbench
 * on the PATH; without the URL it prints a one-line note.
 *
 * For each size in ZONEWARD_PG_BENCH_SIZES (default 10,000, 100,000 and 1,000,000 zones over 1,000
 * projects) the database is filled by restoring the memory service's snapshot at that size (one
 * transaction, the public `from` option; creates one by one would take too long), then, on that
 * same server: list pages, pgbench with 1 and with 8 clients, creates with 1 and with 8 in flight,
 * and the same creates from two OS processes sharing the database. Each measure is taken
 * ZONEWARD_PG_BENCH_REPEATS times (default 3), pgbench and creates alternating, so the ratios
 * compare figures taken under the same load; the table shows the median and the range.
 *
 * The timed creates run in worker processes of their own, as a server would: this process holds
 * the memory service the snapshots come from (a million zones at the last size), whose heap would
 * otherwise be what the creates' garbage collection pays for. A worker first creates
 * ZONEWARD_PG_BENCH_WARM zones (default 6,000: the JIT and the connections' prepared statements),
 * then waits for the go, and times ZONEWARD_PG_BENCH_CREATES (default 4,000, about as long as
 * pgbench's run with 8 in flight). Measured on 2026-11-28, 8 in flight, node µs a create by
 * thousand: 930, 430, 280, 240, 260, 230, then 200–220 from the seventh on; 2,000 warm-up creates
 * and 1,000 timed ones (this bench until then) timed the JIT still at work.
 *
 * Run as `node --import ./bench/loader.mjs bench/postgres.bench.ts worker <schema> <tag> <count> <inFlight> <first> <warm>`,
 * it is such a worker: it creates zones in that schema (from project number `first` on) and
 * prints creates/s, retries and its CPU µs per create.
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { createDnsService, memoryStorage, type DnsService, type Storage } from '../src/index.js';
import { postgresStorage } from '../src/adapters/postgres/index.js';
import { manualClock, seededRandom } from '../src/testing/index.js';
import { serverMicrosSince, serverTicks } from './server-cpu.js';
import { LOADER } from './loader-url.js';

const URL = process.env['ZONEWARD_PG_URL'];
const ROOT = fileURLToPath(new globalThis.URL('..', import.meta.url));
const SIZES = (process.env['ZONEWARD_PG_BENCH_SIZES'] ?? '10000,100000,1000000').split(',').map(Number);
const CREATES = Number(process.env['ZONEWARD_PG_BENCH_CREATES'] ?? 4000);
const WARM = Number(process.env['ZONEWARD_PG_BENCH_WARM'] ?? 6000);
const REPEATS = Number(process.env['ZONEWARD_PG_BENCH_REPEATS'] ?? 3);
const PGBENCH_SECONDS = Number(process.env['ZONEWARD_PG_BENCH_PGBENCH_SECONDS'] ?? 4);
const IN_FLIGHT = 8;
const PROJECTS = 1000;
const PAGE_REPS = 100;
const log = (s: string) => process.stderr.write(`${s}\n`);
const f = (n: number) => Math.round(n).toLocaleString('en');

const ctxs = Array.from({ length: PROJECTS }, (_, i) => ({ projectId: `project-${i}`, roles: ['member'] }));
const admin = { projectId: 'ops', roles: ['admin'], allProjects: true };
const body = (name: string) => ({ name, email: 'hostmaster@example.com' });
// Ids are the default random UUIDs, as in a deployment: sequential ids would put every new row
// on the same index page, which under SERIALIZABLE makes concurrent creates conflict.
const service = (storage: Storage, from?: Awaited<ReturnType<DnsService['snapshot']>>) =>
  createDnsService({
    storage,
    clock: manualClock('2026-01-01T00:00:00Z'),
    random: seededRandom(1),
    tasks: 'inline',
    quotas: { zones: -1 },
    ...(from === undefined ? {} : { from }),
  });

/** The built package (dist/), as a user's server imports it; the parent builds it first. */
async function builtPackage(): Promise<{ createDnsService: typeof createDnsService; postgresStorage: typeof postgresStorage }> {
  const dist = (file: string) => pathToFileURL(join(ROOT, 'dist', file)).href;
  const [core, adapter] = await Promise.all([import(dist('index.js')), import(dist('postgres.js'))]);
  return { createDnsService: core.createDnsService, postgresStorage: adapter.postgresStorage };
}

/** `inFlight` creates at once until `count` are done; answers creates/s. */
async function creates(dns: DnsService, tag: string, count: number, inFlight: number, first = 0): Promise<number> {
  const t = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const n = first + next++;
        (await dns.zones.create(ctxs[n % PROJECTS]!, body(`${tag}-${n}.example.com.`)))._unsafeUnwrap();
      }
    }),
  );
  return count / ((performance.now() - t) / 1000);
}

if (process.argv[2] === 'worker') {
  // A server process as a user runs one: the built package, its default clock, ids and pool, on
  // the shared schema.
  const [schema, tag, count, inFlight, first, warm] = process.argv.slice(3) as [string, string, string, string, string, string];
  const built = await builtPackage();
  let retries = 0;
  const storage = built.postgresStorage({ connectionString: URL!, schema, onRetry: () => retries++ });
  const dns = built.createDnsService({ storage, tasks: 'inline', quotas: { zones: -1 } });
  await creates(dns, `${tag}w`, Number(warm), Number(inFlight), Number(first));
  retries = 0;
  process.stdout.write('ready\n');
  // Wait for the parent's go, so that workers start together and the parent can watch the server.
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  const cpu = process.cpuUsage();
  const rate = await creates(dns, tag, Number(count), Number(inFlight), Number(first) + Number(warm));
  const used = process.cpuUsage(cpu);
  process.stdout.write(`${JSON.stringify({ rate, retries, node: (used.user + used.system) / Number(count) })}\n`);
  // Connected until the parent has read the server's CPU: a backend's time goes with it when it ends.
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  await storage.close();
  process.exit(0);
}

if (process.argv[2] === 'pages') {
  // The list pages over PostgreSQL, away from the memory service's heap (see `pagesInWorker`).
  const pool = new pg.Pool({ connectionString: URL, max: 2 });
  const dns = service(postgresStorage({ pool, schema: process.argv[3]! }));
  process.stdout.write(`${JSON.stringify(await pages(dns))}\n`);
  await pool.end();
  process.exit(0);
}

if (URL === undefined) {
  console.log('## PostgreSQL adapter\n\nSkipped: ZONEWARD_PG_URL is not set (start a cluster with `eval "$(scripts/pg-test-cluster.sh start)"`).');
  process.exit(0);
}

/** Mean µs of a list call. */
async function page(dns: DnsService, ctx: object, query: Record<string, string>): Promise<number> {
  (await dns.zones.list(ctx, query))._unsafeUnwrap(); // warm: plans and caches
  const t = performance.now();
  for (let i = 0; i < PAGE_REPS; i++) (await dns.zones.list(ctx, query))._unsafeUnwrap();
  return ((performance.now() - t) / PAGE_REPS) * 1000;
}

/** One project's first page, its page after a middle marker, an admin's all-projects first page. */
async function pages(dns: DnsService): Promise<number[]> {
  const probe = ctxs[7]!;
  const all = (await dns.zones.list(probe, { limit: 'max' }))._unsafeUnwrap() as { zones: { id: string }[] };
  const middle = all.zones[Math.floor(all.zones.length / 2)]!.id;
  return [await page(dns, probe, { limit: '20' }), await page(dns, probe, { limit: '20', marker: middle }), await page(dns, admin, { limit: '20' })];
}

/**
 * {@link pages} over PostgreSQL, in a process of its own, like the timed creates: in this one, whose
 * heap holds the memory service at the size measured, a one-project page at 1,000,000 zones took
 * 2.0–2.4 ms against 1.2–1.3 ms in a process of its own (2026-11-28).
 */
function pagesInWorker(schema: string): number[] {
  const out = execFileSync(process.execPath, ['--import', LOADER, fileURLToPath(import.meta.url), 'pages', schema], {
    encoding: 'utf8',
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').pop()!) as number[];
}

/**
 * pgbench's standard TPC-B for a few seconds, with the vacuum it runs first (no `-n`: that
 * vacuum also empties pgbench_history, which `-n` lets grow round after round and so slows
 * pgbench's own side); answers tps.
 */
function pgbench(clients: number): number {
  const out = execFileSync('pgbench', ['-c', String(clients), '-j', String(Math.min(clients, 2)), '-T', String(PGBENCH_SECONDS), URL!], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tps = /tps = ([\d.]+)/.exec(out);
  if (tps === null) throw new Error(`pgbench printed no tps:\n${out}`);
  return Number(tps[1]);
}

interface Timed {
  /** Creates/s, summed over the workers. */
  readonly rate: number;
  readonly retries: number;
  /** Node CPU µs per create, averaged over the workers. */
  readonly node: number;
  /** CPU µs per create of every PostgreSQL server process meanwhile (background ones included). */
  readonly server: number;
}

/**
 * `processes` worker processes, each with `inFlight` creates at once and `count` creates in all.
 * The second one starts half way round the projects: started together, the two would otherwise
 * create in the same project at the same moment, which (a project's zone count being read
 * against its quota) is a real conflict that one process's creates in flight never have.
 */
async function workers(schema: string, tag: string, processes: number, count: number, inFlight: number): Promise<Timed> {
  const script = fileURLToPath(import.meta.url);
  const children = Array.from({ length: processes }, (_, k) =>
    spawn(process.execPath, ['--import', LOADER, script, 'worker', schema, `${tag}${k}`, String(count), String(inFlight), String((k * PROJECTS) / processes), String(WARM)], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: process.env,
    }),
  );
  type Result = { rate: number; retries: number; node: number };
  const ready: Promise<void>[] = [];
  const exited: Promise<void>[] = [];
  const results = children.map((child) => {
    let out = '';
    let signal: () => void = () => undefined;
    let fail: (error: Error) => void = () => undefined;
    ready.push(new Promise<void>((resolve, reject) => ((signal = resolve), (fail = reject))));
    return new Promise<Result>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const lines = out.split('\n');
        if (lines[0] === 'ready' && lines.length > 1) signal();
        if (lines.length > 2) resolve(JSON.parse(lines[1]!) as Result);
      });
      exited.push(
        new Promise<void>((done) =>
          child.on('exit', (code) => {
            if (code === 0) return done();
            // A worker that dies before it is ready must not leave the bench waiting for it.
            const error = new Error(`worker exited ${code}`);
            fail(error);
            reject(error);
            done();
          }),
        ),
      );
    });
  });
  try {
    await Promise.all(ready);
  } catch (error) {
    for (const child of children) child.kill();
    throw error;
  }
  const before = serverTicks();
  for (const child of children) child.stdin.write('go\n');
  const done = await Promise.all(results);
  const server = serverMicrosSince(before);
  for (const child of children) child.stdin.write('bye\n');
  await Promise.all(exited);
  const sum = (pick: (r: Result) => number) => done.reduce((a, r) => a + pick(r), 0);
  return { rate: sum((r) => r.rate), retries: sum((r) => r.retries), node: sum((r) => r.node) / processes, server: server / (count * processes) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[], fmt = f) => (xs.length === 1 ? fmt(xs[0]!) : `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`);

const loadBefore = (await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(', ');
log('postgres bench: npm run build (the workers run the built package)');
execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
log('postgres bench: pgbench -i -s 10');
execFileSync('pgbench', ['-i', '-q', '-s', '10', URL], { stdio: ['ignore', 'ignore', 'inherit'] });

interface SizeResult {
  size: number;
  restoreSeconds: number;
  memPages: number[];
  pgPages: number[];
  tps1: number[];
  tps8: number[];
  one1: Timed[];
  one8: Timed[];
  two1: Timed[];
  two8: Timed[];
  tables: string;
}

const results: SizeResult[] = [];
const mem = service(memoryStorage());
let filled = 0;
for (const size of SIZES) {
  log(`postgres bench: memory to ${f(size)} zones`);
  await creates(mem, 'zone', size - filled, 1, filled);
  filled = size;
  const memPages = await pages(mem);
  const state = await mem.snapshot();

  const schema = `zoneward_bench_${process.pid}_${size}`;
  const pool = new pg.Pool({ connectionString: URL, max: IN_FLIGHT + 2 });
  const storage = postgresStorage({ pool, schema });
  const r: SizeResult = { size, restoreSeconds: 0, memPages, pgPages: [], tps1: [], tps8: [], one1: [], one8: [], two1: [], two8: [], tables: '' };
  try {
    await storage.migrate();
    log(`postgres bench: restoring ${f(size)} zones into PostgreSQL`);
    const t = performance.now();
    const db = service(storage, state);
    (await db.zones.list(ctxs[0]!, { limit: '1' }))._unsafeUnwrap(); // commands wait for the restore
    r.restoreSeconds = (performance.now() - t) / 1000;
    // A bulk load leaves no statistics and no visibility map; a deployment's autovacuum gets there too.
    await pool.query(`VACUUM ANALYZE "${schema}".zoneward_rows, "${schema}".zoneward_index, "${schema}".zoneward_counts`);
    const count = ((await db.zones.list(admin, { limit: '1' }))._unsafeUnwrap() as { metadata: { total_count: number } }).metadata.total_count;
    if (count !== size) throw new Error(`restored ${count} zones, expected ${size}`);
    log('postgres bench: pages');
    r.pgPages = pagesInWorker(schema);
    for (let rep = 0; rep < REPEATS; rep++) {
      log(`postgres bench: ${f(size)} zones, round ${rep + 1} of ${REPEATS}`);
      r.tps1.push(pgbench(1));
      r.one1.push(await workers(schema, `s${rep}`, 1, CREATES, 1));
      r.tps8.push(pgbench(IN_FLIGHT));
      r.one8.push(await workers(schema, `c${rep}`, 1, CREATES, IN_FLIGHT));
      r.two1.push(await workers(schema, `t${rep}`, 2, CREATES / 2, 1));
      r.two8.push(await workers(schema, `u${rep}`, 2, CREATES / 2, IN_FLIGHT / 2));
    }
    const sizes = await pool.query<{ rows: string; index: string }>(
      `SELECT pg_size_pretty(pg_total_relation_size('"${schema}".zoneward_rows')) AS rows, pg_size_pretty(pg_total_relation_size('"${schema}".zoneward_index')) AS index`,
    );
    r.tables = `zoneward_rows ${sizes.rows[0]!.rows}, zoneward_index ${sizes.rows[0]!.index}`;
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await storage.close();
    await pool.end();
  }
  results.push(r);
}

const loadavg = (await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(', ');
const us = (n: number | undefined) => (n === undefined ? '–' : f(n));
const ratio = (a: Timed[], b: number[]) => range(a.map((x, i) => x.rate / b[i]!), (x) => x.toFixed(2));
const of = (ts: Timed[], pick: (t: Timed) => number) => range(ts.map(pick));
const rows = results.map(
  (r) =>
    `| ${f(r.size)} | ${range(r.tps1)} | ${of(r.one1, (t) => t.rate)} | ${ratio(r.one1, r.tps1)} | ${range(r.tps8)} | ${of(r.one8, (t) => t.rate)} | ${ratio(r.one8, r.tps8)} | ${of(r.one8, (t) => t.retries)} | ${of(r.two1, (t) => t.rate)} | ${of(r.two8, (t) => t.rate)} | ${of(r.two8, (t) => t.retries)} |`,
);
const costRows = results.map(
  (r) => `| ${f(r.size)} | ${of(r.one1, (t) => t.node)} | ${of(r.one1, (t) => t.server)} | ${of(r.one8, (t) => t.node)} | ${of(r.one8, (t) => t.server)} |`,
);
const pageRows = results.map(
  (r) =>
    `| ${f(r.size)} | ${us(r.memPages[0])} | ${us(r.pgPages[0])} | ${us(r.memPages[1])} | ${us(r.pgPages[1])} | ${us(r.memPages[2])} | ${us(r.pgPages[2])} | ${r.restoreSeconds.toFixed(1)} s | ${r.tables} |`,
);
console.log(`## PostgreSQL adapter

Method: \`createDnsService\` with \`tasks: 'inline'\` (with the default pool targets a create is one transaction),
zones over ${f(PROJECTS)} projects, quota off, a local PostgreSQL on the same machine (see scripts/pg-test-cluster.sh:
fsync off). For each size the database is filled by restoring the memory service's snapshot, then VACUUM ANALYZE.
pgbench runs its standard TPC-B (\`pgbench -i -s 10\` once, then \`pgbench -c N -j min(N,2) -T ${PGBENCH_SECONDS}\` with the vacuum
it runs first) against the same server, alternating with ${f(CREATES)} timed creates: ${REPEATS} rounds, median (min–max); a ratio
is the median of the per-round ratios. The creates run in worker processes of their own, as a user's server would: the built
package (dist/) with its default clock, ids and pool (10 connections); each first makes ${f(WARM)} untimed creates. One process, or two sharing the
schema ("2 processes", with 1 (2 in all) and ${IN_FLIGHT / 2} (${IN_FLIGHT} in all) creates in flight, the second one starting
half way round the projects, as one process's creates in flight never create in one project at once; their rates are summed).
Retries: serialization failures retried during the timed creates with ${IN_FLIGHT} in flight. Load average before: ${loadBefore}; at the end: ${loadavg}.

| zones | pgbench tps, 1 client | creates/s, 1 in flight | ratio | pgbench tps, ${IN_FLIGHT} clients | creates/s, ${IN_FLIGHT} in flight | ratio | retries | creates/s, 2 processes × 1 | creates/s, 2 processes × ${IN_FLIGHT / 2} | retries |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

What one create costs (µs, median (min–max)): node CPU of the worker (user + system), and CPU of every
PostgreSQL server process over the same time (background processes included).

| zones | node CPU, 1 in flight | server CPU, 1 in flight | node CPU, ${IN_FLIGHT} in flight | server CPU, ${IN_FLIGHT} in flight |
| ---: | ---: | ---: | ---: | ---: |
${costRows.join('\n')}

List pages, mean µs of ${PAGE_REPS} \`zones.list\` calls (limit 20): one project's first page, its page after a
middle marker, and an admin's all-projects first page (whose \`total_count\` counts every zone). Over PostgreSQL
they are measured in a process of their own, right after the restore.

| zones | one project, memory | PostgreSQL | marker page, memory | PostgreSQL | all projects, memory | PostgreSQL | restore | tables |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${pageRows.join('\n')}`);
