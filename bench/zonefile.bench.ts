/**
 * Zone-file engine speed: parseZoneFile and writeZoneFile on generated files (test/support/zone-generator.ts, 1M records).
 * Each measurement runs in a fresh child process so that peak memory (maxRSS) is the parse's own.
 * Prints one Markdown section on stdout; progress goes to stderr.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseZoneFile, writeZoneFile } from '../src/zonefile/index.js';
import { HOSTILE_OPTIONS, HOSTILE_SHAPES } from '../test/zonefile/hostile-shapes.js';
import { generateZone } from '../test/support/zone-generator.js';
import { LOADER } from './loader-url.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const tmp = join(root, '.bench-tmp');

interface Sample {
  records: number;
  bytes: number;
  splitMs: number;
  parseMs: number;
  parseCpuMs: number;
  writeMs: number;
  writeCpuMs: number;
  maxRssMiB: number;
  heapAfterParseMiB: number;
}

const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

/**
 * Child: one file, one process. The baseline (read + split into lines) is the issue's yardstick.
 * CPU time is the process's (all threads, so the GC's helpers count too); wall time is also kept.
 */
function child(file: string, structured: boolean): void {
  const t0 = performance.now();
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length;
  const splitMs = performance.now() - t0;
  globalThis.gc?.();
  const c1 = process.cpuUsage();
  const t1 = performance.now();
  const parsed = parseZoneFile(text, { maxBytes: 1 << 30, structured });
  const parseMs = performance.now() - t1;
  const parseCpuMs = cpuMs(process.cpuUsage(c1));
  if (parsed.isErr()) throw new Error(JSON.stringify(parsed.error));
  const maxRssMiB = process.resourceUsage().maxRSS / 1024;
  globalThis.gc?.();
  const heapAfterParseMiB = process.memoryUsage().heapUsed / 2 ** 20;
  const c2 = process.cpuUsage();
  const t2 = performance.now();
  const out = writeZoneFile({ origin: parsed.value.origin, ttl: 3600, records: parsed.value.records });
  out.charCodeAt(out.length >> 1);
  const writeMs = performance.now() - t2;
  const writeCpuMs = cpuMs(process.cpuUsage(c2));
  if (out.length === 0 || lines === 0) throw new Error('nothing written');
  const sample: Sample = { records: parsed.value.records.length, bytes: statSync(file).size, splitMs, parseMs, parseCpuMs, writeMs, writeCpuMs, maxRssMiB, heapAfterParseMiB };
  process.stdout.write(JSON.stringify({ sample }));
}

function ensure(records: number): string {
  const file = join(tmp, `generated-ds-${records}.zone`);
  if (!existsSync(file)) {
    mkdirSync(tmp, { recursive: true });
    process.stderr.write(`zonefile bench: generating ${records} records\n`);
    writeFileSync(file, generateZone({ records, seed: 1, ds: true }));
  }
  return file;
}

function measure(file: string, structured: boolean): Sample {
  const args = ['--expose-gc', '--import', LOADER, fileURLToPath(import.meta.url), '--child', file];
  if (structured) args.push('--structured');
  const out = execFileSync(process.execPath, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return (JSON.parse(out) as { sample: Sample }).sample;
}

const RUNS = Number(process.env['ZONEFILE_BENCH_RUNS'] ?? 5);

function main(): void {
  const rows: string[] = [];
  const rate = (n: number, ms: number): string => `${Math.round(n / (ms / 1000)).toLocaleString('en-US')}`;
  const cases: [number, boolean][] = [
    [100_000, false],
    [1_000_000, false],
    [1_000_000, true],
  ];
  for (const [n, structured] of cases) {
    const file = ensure(n);
    // Best of RUNS runs, each in a fresh process, damps noise from other work on the machine.
    const runs = Array.from({ length: RUNS }, () => {
      process.stderr.write(`zonefile bench: ${n} records${structured ? ' (structured)' : ''}\n`);
      return measure(file, structured);
    });
    const best = (key: 'parseMs' | 'parseCpuMs' | 'writeMs' | 'writeCpuMs' | 'splitMs'): number => Math.min(...runs.map((r) => r[key]));
    const s = runs[0]!;
    const rss = runs.map((r) => r.maxRssMiB);
    rows.push(
      `| ${n.toLocaleString('en-US')}${structured ? ' (`structured: true`)' : ''} | ${(s.bytes / 1e6).toFixed(1)} MB | ${rate(s.records, best('parseCpuMs'))} | ${rate(s.records, best('parseMs'))} | ${rate(s.records, best('splitMs'))} | ${(best('splitMs') / best('parseMs')).toFixed(2)} | ${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)} MiB | ${Math.max(...runs.map((r) => r.heapAfterParseMiB)).toFixed(0)} MiB | ${rate(s.records, best('writeCpuMs'))} | ${rate(s.records, best('writeMs'))} |`,
    );
  }
  // Hostile shapes: the unit tests count their work (test/zonefile/properties.test.ts); here it is timed.
  const time = (input: string): number => {
    let best = Infinity;
    for (let k = 0; k < RUNS; k++) {
      const t0 = performance.now();
      parseZoneFile(input, HOSTILE_OPTIONS);
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  };
  const shapes = HOSTILE_SHAPES.map(([name, make]) => {
    const n = 20000;
    time(make(n));
    const small = time(make(n));
    const large = time(make(8 * n));
    return `| ${name} | ${small.toFixed(2)} | ${large.toFixed(2)} | ${(large / Math.max(small, 0.01)).toFixed(1)} |`;
  });
  process.stdout.write(
    [
      '## Zone files',
      '',
      `Method: \`generateZone({ records: N, seed: 1, ds: true })\` (test/support/zone-generator.ts); each run in a fresh Node process (best of ${RUNS}): read the file and split it into lines (the issue's yardstick), then \`parseZoneFile\` on the text, then \`writeZoneFile\` of the result. Rates are given per CPU second (\`process.cpuUsage()\`, user + system of the whole process, so the GC's helper threads count) and per wall-clock second. Peak memory is the child's \`process.resourceUsage().maxRSS\` right after the parse (file text, parsed records and the baseline's lines included), the range over the runs; heap is \`heapUsed\` after a GC with the records alive. Targets: parse ≥ 1,000,000 records/s and ≤ 400 MiB on 1M records; write ≥ 2,000,000 records/s.`,
      '',
      '| records | file | parse rec/s (CPU) | parse rec/s (wall) | read+split lines/s (wall) | parse ÷ split speed (wall) | peak RSS | heap with records | write rec/s (CPU) | write rec/s (wall) |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
      `Hostile inputs (test/zonefile/hostile-shapes.ts), best of ${RUNS} in this process: linear is about 8×, quadratic about 64×.`,
      '',
      '| shape | ms at n = 20,000 | ms at 8n | ratio |',
      '| --- | ---: | ---: | ---: |',
      ...shapes,
      '',
    ].join('\n'),
  );
}

const at = process.argv.indexOf('--child');
if (at >= 0) child(process.argv[at + 1]!, process.argv.includes('--structured'));
else main();
