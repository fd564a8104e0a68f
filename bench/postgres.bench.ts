/**
 * The PostgreSQL adapter against the in-memory one, in one run: creates/s and list-page latency
 * with 100k zones (ZONEWARD_PG_BENCH_ZONES) spread over 1,000 projects. Needs ZONEWARD_PG_URL
 * (scripts/pg-test-cluster.sh); without it, prints a one-line note.
 *
 * 100k creates one by one over PostgreSQL would take minutes, so the database is filled by
 * restoring the memory service's snapshot (one transaction, the public `from` option), then
 * creates are timed on top of the 100k, the same way for both adapters.
 */
import pg from 'pg';
import { createDnsService, memoryStorage, type DnsService, type Storage } from '../src/index.js';
import { postgresStorage } from '../src/postgres/index.js';
import { manualClock, seededRandom, sequentialIds } from '../src/testing/index.js';

const URL = process.env['ZONEWARD_PG_URL'];
const SIZE = Number(process.env['ZONEWARD_PG_BENCH_ZONES'] ?? 100_000);
const TIMED_CREATES = Number(process.env['ZONEWARD_PG_BENCH_CREATES'] ?? 1000);
const CONCURRENCY = 8;
const PROJECTS = 1000;
const PAGE_REPS = 100;
const log = (s: string) => process.stderr.write(`${s}\n`);
const f = (n: number) => Math.round(n).toLocaleString('en');

if (URL === undefined) {
  console.log('## PostgreSQL adapter\n\nSkipped: ZONEWARD_PG_URL is not set (start a cluster with `eval "$(scripts/pg-test-cluster.sh start)"`).');
  process.exit(0);
}

const ctxs = Array.from({ length: PROJECTS }, (_, i) => ({ projectId: `project-${i}`, roles: ['member'] }));
const admin = { projectId: 'ops', roles: ['admin'], allProjects: true };
const body = (name: string) => ({ name, email: 'hostmaster@example.com' });
const service = (storage: Storage, idPrefix: string, from?: Awaited<ReturnType<DnsService['snapshot']>>) =>
  createDnsService({
    storage,
    clock: manualClock('2026-01-01T00:00:00Z'),
    ids: sequentialIds(idPrefix),
    random: seededRandom(1),
    quotas: { zones: -1 },
    ...(from === undefined ? {} : { from }),
  });

/** Creates one at a time; answers creates/s. */
async function sequential(dns: DnsService, tag: string, count: number): Promise<number> {
  const t = performance.now();
  for (let n = 0; n < count; n++) (await dns.zones.create(ctxs[n % PROJECTS]!, body(`${tag}-${n}.example.com.`)))._unsafeUnwrap();
  return count / ((performance.now() - t) / 1000);
}

/** `CONCURRENCY` creates in flight at once, in one process; answers creates/s. */
async function concurrent(dns: DnsService, tag: string, count: number): Promise<number> {
  const t = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const n = next++;
        (await dns.zones.create(ctxs[n % PROJECTS]!, body(`${tag}-${n}.example.com.`)))._unsafeUnwrap();
      }
    }),
  );
  return count / ((performance.now() - t) / 1000);
}

/** Mean µs of a list call. */
async function page(dns: DnsService, ctx: object, query: Record<string, string>): Promise<number> {
  (await dns.zones.list(ctx, query))._unsafeUnwrap(); // warm: plans and caches
  const t = performance.now();
  for (let i = 0; i < PAGE_REPS; i++) (await dns.zones.list(ctx, query))._unsafeUnwrap();
  return ((performance.now() - t) / PAGE_REPS) * 1000;
}

async function pages(dns: DnsService): Promise<number[]> {
  const probe = ctxs[7]!;
  const all = (await dns.zones.list(probe, { limit: 'max' }))._unsafeUnwrap() as { zones: { id: string }[] };
  const middle = all.zones[Math.floor(all.zones.length / 2)]!.id;
  return [
    await page(dns, probe, { limit: '20' }),
    await page(dns, probe, { limit: '20', marker: middle }),
    await page(dns, admin, { limit: '20' }),
  ];
}

// Memory: fill by creates (that is the memory creates/s at scale), then the same timed steps.
log(`postgres bench: memory, ${SIZE} creates`);
const mem = service(memoryStorage(), '');
const memFill = await sequential(mem, 'zone', SIZE);
const state = await mem.snapshot(); // what PostgreSQL is filled with: the same zones, no more
const memSeq = await sequential(mem, 'seq', TIMED_CREATES);
const memConc = await concurrent(mem, 'conc', TIMED_CREATES);
const memPages = await pages(mem);
log(`postgres bench: memory done (fill ${f(memFill)} creates/s)`);

// PostgreSQL: a schema of its own, filled from the memory service's state at SIZE zones.
const schema = `zoneward_bench_${process.pid}`;
const pool = new pg.Pool({ connectionString: URL, max: CONCURRENCY + 2 });
let retries = 0;
const storage = postgresStorage({ pool, schema, onRetry: () => retries++ });
let restoreSeconds = 0;
let vacuumSeconds = 0;
let pgSeq = 0;
let pgConc = 0;
let pgPages: number[] = [];
let concRetries = 0;
let tableBytes = '';
try {
  await storage.migrate();
  log(`postgres bench: restoring ${SIZE} zones into PostgreSQL`);
  let t = performance.now();
  const db = service(storage, 'b', state);
  (await db.zones.list(ctxs[0]!, { limit: '1' }))._unsafeUnwrap(); // commands wait for the restore
  restoreSeconds = (performance.now() - t) / 1000;
  log(`postgres bench: restored in ${restoreSeconds.toFixed(1)} s`);
  t = performance.now();
  // A bulk load leaves no statistics and no visibility map; a real deployment's autovacuum
  // gets there too, the bench just does not wait for it.
  await pool.query(`VACUUM ANALYZE "${schema}".zoneward_rows, "${schema}".zoneward_index`);
  vacuumSeconds = (performance.now() - t) / 1000;
  const count = ((await db.zones.list(admin, { limit: '1' }))._unsafeUnwrap() as { metadata: { total_count: number } }).metadata.total_count;
  if (count !== SIZE) throw new Error(`restored ${count} zones, expected ${SIZE}`);
  log('postgres bench: timed creates');
  pgSeq = await sequential(db, 'seq', TIMED_CREATES);
  retries = 0;
  pgConc = await concurrent(db, 'conc', TIMED_CREATES);
  concRetries = retries;
  log('postgres bench: pages');
  pgPages = await pages(db);
  const size = await pool.query<{ rows: string; index: string }>(
    `SELECT pg_size_pretty(pg_total_relation_size('"${schema}".zoneward_rows')) AS rows, pg_size_pretty(pg_total_relation_size('"${schema}".zoneward_index')) AS index`,
  );
  tableBytes = `zoneward_rows ${size.rows[0]!.rows}, zoneward_index ${size.rows[0]!.index}`;
} finally {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await storage.close();
  await pool.end();
}

const us = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(0));
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? '–' : `${(a / b).toFixed(1)}×`);
console.log(`## PostgreSQL adapter

Method: one process, \`createDnsService\` with \`tasks: 'auto'\` (with the default pool targets a create is one
transaction), ${f(SIZE)} zones over ${f(PROJECTS)} projects, quota off. Memory is filled
by ${f(SIZE)} creates; PostgreSQL (a local server, one \`pg.Pool\`, SERIALIZABLE) by restoring the memory
service's snapshot at that size in one transaction (${restoreSeconds.toFixed(1)} s, then VACUUM ANALYZE
${vacuumSeconds.toFixed(1)} s), since ${f(SIZE)} creates one by one would take several minutes. Then, on top of
the ${f(SIZE)}: ${f(TIMED_CREATES)} creates one at a time, and ${f(TIMED_CREATES)} with ${CONCURRENCY} in flight. Pages are
the mean of ${PAGE_REPS} \`zones.list\` calls (limit 20): one project's first page, its page after a middle marker,
and an admin's all-projects first page (whose \`total_count\` counts all ${f(SIZE)} zones).
PostgreSQL tables at the end: ${tableBytes}. The ${CONCURRENCY}-in-flight creates needed ${f(concRetries)} retries
(serialization failures: concurrent creates read overlapping ranges of the name index, for the
subzone and superzone checks, that the others write).

| | memory | PostgreSQL | PostgreSQL / memory |
| --- | ---: | ---: | ---: |
| creates/s, filling to ${f(SIZE)} | ${f(memFill)} | (restored) | |
| creates/s at ${f(SIZE)}, one at a time | ${f(memSeq)} | ${f(pgSeq)} | ${ratio(memSeq, pgSeq)} slower |
| creates/s at ${f(SIZE)}, ${CONCURRENCY} in flight | ${f(memConc)} | ${f(pgConc)} | ${ratio(memConc, pgConc)} slower |
| first page µs (one project) | ${us(memPages[0])} | ${us(pgPages[0])} | ${ratio(pgPages[0], memPages[0])} |
| middle page µs (one project, marker) | ${us(memPages[1])} | ${us(pgPages[1])} | ${ratio(pgPages[1], memPages[1])} |
| first page µs (all projects, counts ${f(SIZE)}) | ${us(memPages[2])} | ${us(pgPages[2])} | ${ratio(pgPages[2], memPages[2])} |`);
