/**
 * Old against new, alternated in one run: `node --import ./bench/loader.mjs bench/ab/zonefile-ab.ts <rounds> <old root> <new root> <file> <no-DS file>`
 * (roots: checkouts of the two commits, e.g. `git worktree add --detach`; files from
 * test/support/zone-generator.ts with and without `ds`). Each measurement runs zonefile-measure.ts in a fresh Node process:
 * the parse and write of <file>, the import of <no-DS file>. Prints medians and minima of CPU and
 * wall time and peak RSS as a Markdown table; the machine is shared, so CPU time is the steadier.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOADER } from '../loader-url.js';

interface ParseRun { parseWall: number; parseCpu: number; rss: number; writeWall: number; writeCpu: number }
interface ImportRun { importWall: number; importCpu: number; rss: number; held: number }
type Side = { parse: ParseRun[]; import: ImportRun[] };

const [rounds, oldRoot, newRoot, file, noDsFile] = process.argv.slice(2) as [string, string, string, string, string];
const measure = join(dirname(fileURLToPath(import.meta.url)), 'zonefile-measure.ts');
const res: Record<'old' | 'new', Side> = { old: { parse: [], import: [] }, new: { parse: [], import: [] } };
const run = <T>(root: string, kind: string, path: string): T =>
  JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--import', LOADER, measure, root, kind, path], { cwd: newRoot, encoding: 'utf8', maxBuffer: 1 << 26 })) as T;
for (let i = 0; i < Number(rounds); i++) {
  const order: ['old' | 'new', string][] = i % 2 === 0 ? [['old', oldRoot], ['new', newRoot]] : [['new', newRoot], ['old', oldRoot]];
  for (const [name, root] of order) {
    const p = run<ParseRun>(root, 'parse', file);
    res[name].parse.push(p);
    const m = run<ImportRun>(root, 'import', noDsFile);
    res[name].import.push(m);
    process.stderr.write(`${i} ${name} parse ${p.parseWall.toFixed(3)}s/${p.parseCpu.toFixed(3)} CPU s, RSS ${p.rss.toFixed(0)}; write ${p.writeCpu.toFixed(3)} CPU s; import ${m.importWall.toFixed(3)}s/${m.importCpu.toFixed(3)} CPU s, RSS ${m.rss.toFixed(0)}\n`);
  }
}
const med = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const row = (label: string, f: (s: Side) => number[]): void => {
  const o = f(res.old);
  const n = f(res.new);
  const cell = (v: number[]): string => `${med(v).toFixed(3)} (${Math.min(...v).toFixed(3)}–${Math.max(...v).toFixed(3)})`;
  console.log(`| ${label} | ${cell(o)} | ${cell(n)} | ${(med(n) / med(o)).toFixed(3)} | ${(Math.min(...n) / Math.min(...o)).toFixed(3)} |`);
};
console.log('| measure | old: median (range) | new: median (range) | new/old, medians | new/old, minima |');
console.log('| --- | ---: | ---: | ---: | ---: |');
row('parse 1M, CPU s', (s) => s.parse.map((x) => x.parseCpu));
row('parse 1M, wall s', (s) => s.parse.map((x) => x.parseWall));
row('write 1M, CPU s', (s) => s.parse.map((x) => x.writeCpu));
row('import 1M, CPU s', (s) => s.import.map((x) => x.importCpu));
row('import 1M, wall s', (s) => s.import.map((x) => x.importWall));
row('parse, peak RSS MiB', (s) => s.parse.map((x) => x.rss));
row('import, peak RSS MiB', (s) => s.import.map((x) => x.rss));
row('import, heap the zone holds after it (file dropped) MiB', (s) => s.import.map((x) => x.held));
