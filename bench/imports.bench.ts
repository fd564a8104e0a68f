/**
 * Zone imports and exports, end to end, as a user's service runs them: `createDnsService` with
 * its defaults (random ids, real clock, `tasks: 'auto'`) and the quotas raised. A generated master
 * file goes through `imports.create` and its task (parse, validate, store the zone and its
 * recordsets, in blocks, in one transaction), then through `exports.create` and `exports.file`.
 *
 * Each size runs in a fresh Node process, so its peak RSS is its own. Prints one Markdown section
 * on stdout.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryStorage } from '../src/adapters/memory/memory-storage.js';
import { createDnsService } from '../src/dns/service.js';
import { zoneRepository } from '../src/dns/kernel/zone-store.js';
import { generateZone } from '../test/support/zone-generator.js';
import { LOADER } from './loader-url.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const tmp = join(root, '.bench-tmp');
const ctx = { projectId: 'bench', roles: ['member'] };
const log = (s: string): void => void process.stderr.write(`imports.bench: ${s}\n`);

function zoneFile(records: number): string {
  mkdirSync(tmp, { recursive: true });
  const path = join(tmp, `generated-${records}.zone`);
  if (!existsSync(path)) {
    log(`generating ${records} records`);
    writeFileSync(path, generateZone({ records, seed: 1 }));
  }
  return path;
}

interface Row {
  records: number;
  stored: number;
  importSeconds: number;
  importCpuSeconds: number;
  heapPerRecord: number;
  rssBeforeMiB: number;
  peakRssMiB: number;
  exportSeconds: number;
}

const service = (storage = memoryStorage()) =>
  createDnsService({
    storage,
    limits: { maxZoneFileBytes: 1 << 30 },
    quotas: { zone_recordsets: -1, zone_records: -1, recordset_records: -1, api_export_size: -1 },
  });

/** One size, in this process (the child's side), after a small import that warms the code up. */
async function measure(records: number, path: string, warmUp: string): Promise<Row> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  // The code an import runs (its bytecode and type feedback live on the heap too) is made on its
  // first run: without a warm-up it would count as data, most visibly in the 10,000-record row.
  const warm = service();
  await warm.imports.create(ctx, readFileSync(warmUp, 'utf8'), 'text/dns');
  await warm.tasks.settle();
  const text = readFileSync(path, 'utf8');
  const storage = memoryStorage();
  const dns = service(storage);
  gc();
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const created = await dns.imports.create(ctx, text, 'text/dns');
  if (created.isErr()) throw created.error;
  await dns.tasks.settle();
  const importSeconds = (performance.now() - t0) / 1000;
  const c1 = process.cpuUsage(c0);
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const done = (await dns.imports.get(ctx, created.value.id))._unsafeUnwrap();
  if (done.status !== 'COMPLETE' || done.zone_id === null) throw new Error(`import of ${records} records: ${done.status} ${String(done.message)}`);
  const zoneId = done.zone_id;
  gc();
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const zone = (await storage.transaction((tx) => zoneRepository.byId(tx, zoneId)))!;
  const stored = zone.recordCount;
  const ex = (await dns.exports.create(ctx, zoneId))._unsafeUnwrap();
  await dns.tasks.settle();
  const t1 = performance.now();
  const file = (await dns.exports.file(ctx, ex.id))._unsafeUnwrap();
  const exportSeconds = (performance.now() - t1) / 1000;
  if (file.length === 0) throw new Error('empty export');
  return {
    records,
    stored,
    importSeconds,
    importCpuSeconds: (c1.user + c1.system) / 1e6,
    heapPerRecord: (heapAfter - heapBefore) / stored,
    rssBeforeMiB: rssBefore / 2 ** 20,
    peakRssMiB: peakRss / 2 ** 20,
    exportSeconds,
  };
}

const child = process.argv.indexOf('--child');
if (child >= 0) {
  const records = Number(process.argv[child + 1]);
  process.stdout.write(JSON.stringify(await measure(records, process.argv[child + 2]!, process.argv[child + 3]!)));
} else {
  /** One size, in a fresh process (the parent's side). */
  const warmUp = zoneFile(2000);
  const run = (records: number): Row => {
    const path = zoneFile(records);
    log(`importing ${records} records`);
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', LOADER, fileURLToPath(import.meta.url), '--child', String(records), path, warmUp], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return JSON.parse(out) as Row;
  };
  // IMPORTS_BENCH_SIZES=100000 runs only the listed sizes (for quick comparisons).
  const only = process.env['IMPORTS_BENCH_SIZES'];
  const rows = (only ?? '10000,100000').split(',').map((n) => run(Number(n)));
  const last = rows[rows.length - 1]!;
  let skipped = '';
  if (only !== undefined) skipped = '';
  else if (last.importSeconds * 10 <= 60) rows.push(run(1_000_000));
  else skipped = `1,000,000 records not run: 100k took ${last.importSeconds.toFixed(1)} s, so 1M would take well over 60 s.`;

  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
  const out = [
    '## Imports and exports',
    '',
    'Files from `generateZone({ records: N, seed: 1 })` (test/support/zone-generator.ts; no DS). The service is `createDnsService` with its defaults (in-memory storage, random v4 ids, `tasks: auto`) and the quotas unlimited; each size runs in a fresh Node process, after a 2,000-record import into another service (so that making the code is not counted as data).',
    'Import = `imports.create` + its task (parse, convert, create the zone and its recordset blocks in one transaction) until `COMPLETE`; CPU s = process CPU time over the same span (on a shared machine the steadier figure).',
    'Heap per stored record = heap growth after GC (zone, recordsets, indexes, import record) / records stored (apex SOA/NS excluded).',
    'RSS before = the process with the file read and the service made; peak RSS = `process.resourceUsage().maxRSS` once the import is done (the file text counts in both).',
    'Export = `exports.file` rendering the whole zone (the export task itself is O(1)).',
    '',
    '| records in file | records stored | import s | import CPU s | import records/s | records/CPU s | heap bytes / stored record | RSS before MiB | peak RSS MiB | export s | export records/s |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${fmt(r.records)} | ${fmt(r.stored)} | ${r.importSeconds.toFixed(2)} | ${r.importCpuSeconds.toFixed(2)} | ${fmt(r.records / r.importSeconds)} | ${fmt(r.records / r.importCpuSeconds)} | ${fmt(r.heapPerRecord)} | ${fmt(r.rssBeforeMiB)} | ${fmt(r.peakRssMiB)} | ${r.exportSeconds.toFixed(3)} | ${fmt(r.stored / r.exportSeconds)} |`,
    ),
    '',
    'Targets (issue 5): import ≥ 300,000 records/s at 1M and ≤ 250 bytes of heap per stored record; export ≥ 1,000,000 records/s.',
    'Recordsets are stored in blocks of up to 256 recordsets / 1,024 records (one storage row and index entry per block,',
    "fields in parallel arrays), so the storage's per-row cost is paid a few thousand times per million records.",
    ...(skipped === '' ? [] : ['', skipped]),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}
