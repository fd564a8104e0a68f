/**
 * Zone creates at 1k, 10k, 100k and 1M zones spread over 1k projects: creates/s, the per-create
 * cost at each size relative to the first, list page cost (first and middle page of one
 * project, limit 20), and heap bytes per zone including its SOA/NS recordsets.
 */
import { createDnsService } from '../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../src/testing/index.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const SIZES = (process.env['ZONES_BENCH_SIZES'] ?? '1000,10000,100000,1000000').split(',').map(Number);
const PROJECTS = 1000;
const log = (s: string) => process.stderr.write(`${s}\n`);

const clock = manualClock('2026-01-01T00:00:00Z');
const dns = createDnsService({ clock, ids: sequentialIds(), random: seededRandom(1), tasks: 'inline', quotas: { zones: -1 } });
const ctxs = Array.from({ length: PROJECTS }, (_, i) => ({ projectId: `project-${i}`, roles: ['member'] }));

// The probed project holds the same 100 zones at every size, so every page compared is a full
// page of 20 and only the size of everything else changes.
const probe = { projectId: 'probe', roles: ['member'] };
const PROBE_ZONES = 100;

gc();
const heap0 = process.memoryUsage().heapUsed;
let made = 0;
for (let i = 0; i < PROBE_ZONES; i++) {
  (await dns.zones.create(probe, { name: `probe-${i}.example.net.`, email: 'hostmaster@example.com' }))._unsafeUnwrap();
  made++;
}
const rows: string[] = [];
let firstPerCreate = 0;

async function timePage(ctx: { projectId: string; roles: string[] }, query: Record<string, string>): Promise<number> {
  const reps = 200;
  const t = performance.now();
  for (let i = 0; i < reps; i++) (await dns.zones.list(ctx, query))._unsafeUnwrap();
  return ((performance.now() - t) / reps) * 1000;
}

for (const size of SIZES) {
  const started = performance.now();
  const batchStart = made;
  while (made < size) {
    if (made % 16 === 0) clock.advance(1);
    const n = made++;
    const r = await dns.zones.create(ctxs[n % PROJECTS]!, { name: `zone-${n}.example.com.`, email: 'hostmaster@example.com' });
    if (r.isErr()) throw r.error;
  }
  const seconds = (performance.now() - started) / 1000;
  const perCreate = (seconds / (size - batchStart)) * 1e6;
  if (firstPerCreate === 0) firstPerCreate = perCreate;
  gc();
  const heap = process.memoryUsage().heapUsed - heap0;
  const perProject = Math.floor((size - PROBE_ZONES) / PROJECTS);
  const all = (await dns.zones.list(probe, { limit: 'max', sort_key: 'created_at' }))._unsafeUnwrap() as { zones: { id: string }[] };
  const middleMarker = all.zones[Math.floor(all.zones.length / 2)]?.id;
  const first = await timePage(probe, { limit: '20' });
  const middle = middleMarker === undefined ? first : await timePage(probe, { limit: '20', marker: middleMarker });
  rows.push(
    `| ${size.toLocaleString('en')} | ${perProject} | ${Math.round((size - batchStart) / seconds).toLocaleString('en')} | ${perCreate.toFixed(1)} | ${(perCreate / firstPerCreate).toFixed(2)} | ${first.toFixed(1)} | ${middle.toFixed(1)} | ${Math.round(heap / size)} |`,
  );
  log(`zones: ${size} done (${seconds.toFixed(1)} s)`);
}

const firstRow = rows[0]!.split('|').map((s) => s.trim());
const lastRow = rows[rows.length - 1]!.split('|').map((s) => s.trim());
console.log(`## Zones (create, list, memory)

Method: one process, \`createDnsService\` with the default memory storage and \`tasks: 'inline'\` (the default
pool targets accept inside the create's own transaction: one commit per create), zones spread round-robin over
${PROJECTS} projects, quota unlimited. "per create" is the mean of the creates added since the previous size (the
first size includes the JIT's warm-up). Page times are the mean of 200 \`zones.list\` calls (limit 20) for a
project that holds the same ${PROBE_ZONES} zones at every size: its first page, and the page after a marker in the
middle of its zones. Heap is \`heapUsed\` after \`gc()\` minus the empty service's, divided by the zones stored
(each zone's SOA and NS recordsets are derived from the zone and its pool, not stored).

| zones | per other project | creates/s | µs per create | cost ratio vs first | first page µs | middle page µs | heap bytes/zone |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

Targets: ≥ 100,000 creates/s; per-create cost ratio at the largest size vs the smallest ≤ 1.5 (here ${lastRow[5]});
page cost flat, ratio ≤ 2 (first page ${firstRow[6]} → ${lastRow[6]} µs, middle ${firstRow[7]} → ${lastRow[7]} µs); ≤ 1 KiB per zone (here ${lastRow[8]} bytes).`);
