/**
 * Zone creates over PostgreSQL, old against new, alternated in one process (ABBA): for measuring
 * one change to the adapter or the core at a time (issue #17), which the full bench's ratios to
 * pgbench are too coarse for. Not a `*.bench.ts` module, so `npm run bench` does not run it.
 *
 *   ZONEWARD_PG_URL=… ZONEWARD_BASELINE=/path/to/old/checkout \
 *     node --import ./bench/loader.mjs bench/postgres-ab.ts [inFlight=8] [creates per run=3000] [rounds=3]
 *
 * Each side gets its own pool and a fresh schema of its own, makes 6,000 untimed creates (the JIT; see postgres.bench.ts), then
 * each round runs old, new, new, old (or the reverse), so both sides meet the same load. Prints
 * creates/s, node CPU (this process) and server CPU (every PostgreSQL process) per create, by
 * side, and new ÷ old pooled over the rounds. The old checkout needs its own `node_modules` (a
 * symlink to this one's will do).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type * as Core from '../src/index.js';
import type * as Postgres from '../src/adapters/postgres/index.js';
import type * as Testing from '../src/testing/index.js';
import { serverMicrosSince, serverTicks } from './server-cpu.js';
import { inlineTaskMode, PROBE } from './task-mode.js';

const URL = process.env['ZONEWARD_PG_URL'];
const BASELINE = process.env['ZONEWARD_BASELINE'];
if (URL === undefined || BASELINE === undefined) {
  console.error('set ZONEWARD_PG_URL (scripts/pg-test-cluster.sh) and ZONEWARD_BASELINE (another checkout of zoneward)');
  process.exit(2);
}
const [inFlight = 8, count = 3000, rounds = 3] = process.argv.slice(2).map(Number);
const roots = { old: BASELINE, new: join(fileURLToPath(import.meta.url), '..', '..') };

interface Side {
  readonly create: (n: number) => Promise<{ isErr(): boolean }>;
  readonly close: () => Promise<void>;
  next: number;
  readonly rate: number[];
  readonly node: number[];
  readonly server: number[];
}

const sides = new Map<'old' | 'new', Side>();
for (const [name, root] of Object.entries(roots) as ['old' | 'new', string][]) {
  const { createDnsService } = (await import(join(root, 'src/index.ts'))) as typeof Core;
  const { postgresStorage } = (await import(join(root, 'src/adapters/postgres/index.ts'))) as typeof Postgres;
  const { manualClock, seededRandom } = (await import(join(root, 'src/testing/index.ts'))) as typeof Testing;
  const schema = `zoneward_ab_${name}_${process.pid}`;
  const pool = new pg.Pool({ connectionString: URL, max: inFlight + 2 });
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  const storage = postgresStorage({ pool, schema });
  await storage.migrate();
  const tasks = await inlineTaskMode(async (mode) => await createDnsService({ tasks: mode }).zones.create({ ...PROBE.ctx, roles: [...PROBE.ctx.roles] }, PROBE.body));
  const dns = createDnsService({ storage, clock: manualClock('2026-01-01T00:00:00Z'), random: seededRandom(1), tasks, quotas: { zones: -1 } });
  sides.set(name, {
    create: async (n) => await dns.zones.create({ projectId: `project-${n % 1000}`, roles: ['member'] }, { name: `z${n}.example.com.`, email: 'hostmaster@example.com' }),
    close: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await storage.close();
      await pool.end();
    },
    next: 0,
    rate: [],
    node: [],
    server: [],
  });
}

/** `n` creates on one side, `inFlight` at once. */
async function run(side: Side, n: number): Promise<void> {
  let done = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (done++ < n) {
        const result = await side.create(side.next++);
        if (result.isErr()) throw new Error(`a create failed: ${JSON.stringify(result)}`);
      }
    }),
  );
}

for (const side of sides.values()) await run(side, 6000);
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? (['old', 'new', 'new', 'old'] as const) : (['new', 'old', 'old', 'new'] as const)) {
    const side = sides.get(name)!;
    const before = serverTicks();
    const cpu = process.cpuUsage();
    const t = performance.now();
    await run(side, count);
    const seconds = (performance.now() - t) / 1000;
    const used = process.cpuUsage(cpu);
    side.rate.push(count / seconds);
    side.node.push((used.user + used.system) / count);
    side.server.push(serverMicrosSince(before) / count);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const [old, neu] = [sides.get('old')!, sides.get('new')!];
for (const [name, side] of sides) {
  console.log(`${name} (${roots[name]}): ${inFlight} in flight, ${Math.round(median(side.rate))} creates/s (${side.rate.map(Math.round).join(' ')}), node ${Math.round(median(side.node))} µs, server ${Math.round(median(side.server))} µs a create`);
}
console.log(
  `new / old, pooled: creates/s ${(sum(neu.rate) / sum(old.rate)).toFixed(3)}, node CPU ${(sum(neu.node) / sum(old.node)).toFixed(3)}, server CPU ${(sum(neu.server) / sum(old.server)).toFixed(3)}`,
);
for (const side of sides.values()) await side.close();
