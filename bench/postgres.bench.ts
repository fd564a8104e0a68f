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
 * Run as `node --import tsx bench/postgres.bench.ts worker <schema> <tag> <count> <inFlight> <first>`, it is
 * one of the two processes: it creates zones in that schema (from project number `first` on) and prints creates/s and retries.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDnsService, memoryStorage, type DnsService, type Storage } from '../src/index.js';
import { postgresStorage } from '../src/postgres/index.js';
import { manualClock, seededRandom } from '../src/testing/index.js';

const URL = process.env['ZONEWARD_PG_URL'];
const SIZES = (process.env['ZONEWARD_PG_BENCH_SIZES'] ?? '10000,100000,1000000').split(',').map(Number);
const CREATES = Number(process.env['ZONEWARD_PG_BENCH_CREATES'] ?? 600);
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
    quotas: { zones: -1 },
    ...(from === undefined ? {} : { from }),
  });

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
  // One of the two processes: its own pool and service on the shared schema.
  const [schema, tag, count, inFlight, first] = process.argv.slice(3) as [string, string, string, string, string];
  const pool = new pg.Pool({ connectionString: URL, max: Number(inFlight) + 1 });
  let retries = 0;
  const storage = postgresStorage({ pool, schema, onRetry: () => retries++ });
  const dns = service(storage);
  // Wait for the parent's go, so both processes start together.
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  const rate = await creates(dns, tag, Number(count), Number(inFlight), Number(first));
  process.stdout.write(JSON.stringify({ rate, retries }));
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

/** pgbench TPC-B for a few seconds; answers tps. */
function pgbench(clients: number): number {
  const out = execFileSync('pgbench', ['-n', '-c', String(clients), '-j', String(Math.min(clients, 2)), '-T', String(PGBENCH_SECONDS), URL!], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tps = /tps = ([\d.]+)/.exec(out);
  if (tps === null) throw new Error(`pgbench printed no tps:\n${out}`);
  return Number(tps[1]);
}

/** Two worker processes, each with `inFlight` creates at once; answers their summed creates/s and retries. */
async function twoProcesses(schema: string, tag: string, count: number, inFlight: number): Promise<{ rate: number; retries: number }> {
  const script = fileURLToPath(import.meta.url);
  // The second process starts half way round the projects: started together, the two would
  // otherwise create in the same project at the same moment, which (a project's zone count being
  // read against its quota) is a real conflict that one process's creates in flight never have.
  const children = ['a', 'b'].map((side) =>
    spawn(process.execPath, ['--import', 'tsx', script, 'worker', schema, `${tag}${side}`, String(count), String(inFlight), String(side === 'a' ? 0 : PROJECTS / 2)], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: process.env,
    }),
  );
  const results = children.map(
    (child) =>
      new Promise<{ rate: number; retries: number }>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as { rate: number; retries: number }) : reject(new Error(`worker exited ${code}`))));
      }),
  );
  await new Promise((resolve) => setTimeout(resolve, 3000)); // both loaded and connected
  for (const child of children) child.stdin.write('go\n');
  const done = await Promise.all(results);
  return { rate: done.reduce((a, r) => a + r.rate, 0), retries: done.reduce((a, r) => a + r.retries, 0) };
}

/**
 * CPU ticks of each PostgreSQL server process (user + system, from /proc), by pid; empty where
 * /proc is missing.
 */
function serverTicks(): Map<string, number> {
  const out = new Map<string, number>();
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('postgres')) continue;
      const f = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ');
      out.set(pid, Number(f[11]) + Number(f[12]));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/**
 * Creates with 1 in flight, and what one costs: node CPU µs, and server CPU µs (what the server
 * processes alive at the end spent meanwhile, background processes included).
 */
async function measuredCreates(dns: DnsService, tag: string, count: number): Promise<{ rate: number; node: number; server: number }> {
  const cpu = process.cpuUsage();
  const before = serverTicks();
  const rate = await creates(dns, tag, count, 1);
  const used = process.cpuUsage(cpu);
  let ticks = 0;
  for (const [pid, t] of serverTicks()) ticks += t - (before.get(pid) ?? 0);
  return { rate, node: (used.user + used.system) / count, server: (ticks * 1e4) / count }; // USER_HZ 100: a tick is 10,000 µs
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[], fmt = f) => (xs.length === 1 ? fmt(xs[0]!) : `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`);

log('postgres bench: pgbench -i -s 10');
execFileSync('pgbench', ['-i', '-q', '-s', '10', URL], { stdio: ['ignore', 'ignore', 'inherit'] });

interface SizeResult {
  size: number;
  restoreSeconds: number;
  memPages: number[];
  pgPages: number[];
  tps1: number[];
  tps8: number[];
  c1: number[];
  node1: number[];
  server1: number[];
  c8: number[];
  retries8: number[];
  two1: number[];
  two8: number[];
  twoRetries8: number[];
  tables: string;
}

const results: SizeResult[] = [];
/** Retries by SQLSTATE in this process (not the two-process workers). */
const retryCodes = new Map<string, number>();
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
  let retries = 0;
  const storage = postgresStorage({
    pool,
    schema,
    onRetry: (_attempt, code) => {
      retries++;
      retryCodes.set(code, (retryCodes.get(code) ?? 0) + 1);
    },
  });
  const r: SizeResult = { size, restoreSeconds: 0, memPages, pgPages: [], tps1: [], tps8: [], c1: [], node1: [], server1: [], c8: [], retries8: [], two1: [], two8: [], twoRetries8: [], tables: '' };
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
    r.pgPages = await pages(db);
    for (let rep = 0; rep < REPEATS; rep++) {
      log(`postgres bench: ${f(size)} zones, round ${rep + 1} of ${REPEATS}`);
      r.tps1.push(pgbench(1));
      const one = await measuredCreates(db, `s${rep}`, CREATES);
      r.c1.push(one.rate);
      r.node1.push(one.node);
      r.server1.push(one.server);
      r.tps8.push(pgbench(IN_FLIGHT));
      retries = 0;
      r.c8.push(await creates(db, `c${rep}`, CREATES, IN_FLIGHT));
      r.retries8.push(retries);
      r.two1.push((await twoProcesses(schema, `t${rep}`, CREATES / 2, 1)).rate);
      const two = await twoProcesses(schema, `u${rep}`, CREATES / 2, IN_FLIGHT / 2);
      r.two8.push(two.rate);
      r.twoRetries8.push(two.retries);
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
const ratio = (a: number[], b: number[]) => range(a.map((x, i) => x / b[i]!), (x) => x.toFixed(2));
const rows = results.map(
  (r) =>
    `| ${f(r.size)} | ${range(r.tps1)} | ${range(r.c1)} | ${ratio(r.c1, r.tps1)} | ${range(r.tps8)} | ${range(r.c8)} | ${ratio(r.c8, r.tps8)} | ${range(r.retries8)} | ${range(r.two1)} | ${range(r.two8)} | ${range(r.twoRetries8)} |`,
);
const costRows = results.map((r) => `| ${f(r.size)} | ${range(r.node1)} | ${range(r.server1)} |`);
const pageRows = results.map(
  (r) =>
    `| ${f(r.size)} | ${us(r.memPages[0])} | ${us(r.pgPages[0])} | ${us(r.memPages[1])} | ${us(r.pgPages[1])} | ${us(r.memPages[2])} | ${us(r.pgPages[2])} | ${r.restoreSeconds.toFixed(1)} s | ${r.tables} |`,
);
console.log(`## PostgreSQL adapter

Method: \`createDnsService\` with \`tasks: 'auto'\` (with the default pool targets a create is one transaction),
zones over ${f(PROJECTS)} projects, quota off, a local PostgreSQL on the same machine (see scripts/pg-test-cluster.sh:
fsync off). For each size the database is filled by restoring the memory service's snapshot, then VACUUM ANALYZE.
pgbench runs TPC-B (\`pgbench -n -c N -j min(N,2) -T ${PGBENCH_SECONDS}\`, scale 10) against the same server, alternating
with ${f(CREATES)} timed creates: ${REPEATS} rounds, median (min–max). "2 processes" are two OS processes sharing the
schema, each with its own pool, with 1 (2 in all) and ${IN_FLIGHT / 2} (${IN_FLIGHT} in all) creates in flight, the second one starting
half way round the projects (as one process's creates in flight, they never create in one project at once); their rates are summed.
Retries: serialization failures retried during the ${f(CREATES)} creates with ${IN_FLIGHT} in flight (by SQLSTATE, this
process over the whole run: ${[...retryCodes].map(([c, n]) => `${c} × ${f(n)}`).join(', ') || 'none'}). Load average at the end: ${loadavg}.

| zones | pgbench tps, 1 client | creates/s, 1 in flight | ratio | pgbench tps, ${IN_FLIGHT} clients | creates/s, ${IN_FLIGHT} in flight | ratio | retries | creates/s, 2 processes × 1 | creates/s, 2 processes × ${IN_FLIGHT / 2} | retries |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

What one create costs with 1 in flight (µs, median (min–max)): node CPU of this process (user + system),
and CPU of every PostgreSQL server process over the same time.

| zones | node CPU per create | server CPU per create |
| ---: | ---: | ---: |
${costRows.join('\n')}

List pages, mean µs of ${PAGE_REPS} \`zones.list\` calls (limit 20): one project's first page, its page after a
middle marker, and an admin's all-projects first page (whose \`total_count\` counts every zone).

| zones | one project, memory | PostgreSQL | marker page, memory | PostgreSQL | all projects, memory | PostgreSQL | restore | tables |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${pageRows.join('\n')}`);
