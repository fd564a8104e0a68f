/**
 * Issue 29's speed targets against other programs, each measurement a fresh process, the sides
 * alternated (ABBA) so that a shared machine's load falls on both:
 *
 * - the end-to-end import of a 100,000-record zone (`imports.create` and its task, in process, CPU
 *   seconds; after a 2,000-record import as bench/imports.bench.ts warms up, and after three
 *   imports of the file itself) against dnspython's parse alone of the same file, as Designate
 *   calls it (`dns.zone.from_text(text, relativize=False, check_origin=False)`, CPU seconds of the
 *   call), and, to show where each one's time goes, the import's parse alone and dnspython's tokenizer alone;
 * - the parse of a 1,000,000-record file as a whole process (Node started, the file read, parsed,
 *   the process gone; user + system CPU of the child) against `kzonecheck` checking the same file,
 *   and the floor of any such parse in JavaScript: Node started, the file read and split into lines;
 * - in process, `parseZoneFile` against reading the file and splitting it into lines (wall time, as
 *   docs/benchmarks.md's "Zone files" section states it).
 *
 * `node --import ./bench/loader.mjs bench/imports-vs.ts [rounds=2] [old root]`: with an old root (a checkout of another
 * commit, e.g. `git worktree add --detach /tmp/base 914217d`), that tree's import and parse are
 * measured in the same rounds too. Zones come from test/support/zone-generator.ts (seed 1, no DS:
 * the import refuses DS by default). A comparison whose program is missing (python3 with dnspython,
 * kzonecheck) is skipped with the reason, and fails under CI=true. Prints Markdown on stdout.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { generateZone } from '../test/support/zone-generator.js';
import { LOADER } from './loader-url.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const tmp = join(root, '.bench-tmp');
const rounds = Number(process.argv[2] ?? 2);
const oldRoot = process.argv[3];
const log = (s: string): void => void process.stderr.write(`imports-vs: ${s}\n`);
const ci = process.env.CI === 'true';

function skipOrFail(reason: string): void {
  if (ci) throw new Error(`imports-vs: ${reason} (CI=true: the bench needs it; .ci/run installs it)`);
  log(`SKIPPED: ${reason}`);
}

function zoneFile(records: number): string {
  mkdirSync(tmp, { recursive: true });
  const path = join(tmp, `generated-${records}-nods.zone`);
  if (!existsSync(path)) {
    log(`generating ${records} records`);
    writeFileSync(path, generateZone({ records, seed: 1 }));
  }
  return path;
}

const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
// dnspython's own timer: the process's CPU time around the call the real service makes.
const DNSPYTHON = `
import sys, time, json, dns.zone, dns.tokenizer
text = open(sys.argv[1]).read()
c0 = time.process_time(); w0 = time.perf_counter()
z = dns.zone.from_text(text, origin=sys.argv[2], relativize=False, check_origin=False)
c = time.process_time() - c0; w = time.perf_counter() - w0
tok = dns.tokenizer.Tokenizer(text)
c0 = time.process_time()
while not tok.get(want_leading=True, want_comment=True).is_eof(): pass
print(json.dumps({"cpu": c, "wall": w, "names": len(z.nodes), "tokenizerCpu": time.process_time() - c0}))
`;

function has(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** User + system CPU seconds of a child process and its wall time, from bash's `times`. */
function wholeProcess(cmd: string, args: string[]): { cpu: number; wall: number } {
  const quoted = [cmd, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const t0 = performance.now();
  const out = execFileSync('bash', ['-c', `${quoted} >/dev/null || exit 1; times`], { encoding: 'utf8' });
  const wall = (performance.now() - t0) / 1000;
  const children = out.trim().split('\n').pop()!.split(/\s+/);
  const secs = (t: string): number => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    if (!m) throw new Error(`imports-vs: cannot read bash times ${JSON.stringify(out)}`);
    return Number(m[1]) * 60 + Number(m[2]);
  };
  return { cpu: secs(children[0]!) + secs(children[1]!), wall };
}

/** A parse-only program for a tree, bundled as the package is (tsup, ESM): no TypeScript loader in the child. */
async function parseProgram(tree: string, name: string): Promise<string> {
  const dir = join(tmp, `parse-${name}`);
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `import { readFileSync } from 'node:fs';\n` +
      `import { parseZoneFile } from ${JSON.stringify(join(tree, 'src/zonefile/index.ts'))};\n` +
      `const r = parseZoneFile(readFileSync(process.argv[2], 'utf8'), { maxBytes: 1 << 30 });\n` +
      `if (r.isErr()) { console.error(r.error); process.exit(1); }\n` +
      `console.log(r.value.records.length);\n`,
  );
  await build({ entry: { parse: entry }, format: ['esm'], outDir: dir, platform: 'node', target: 'node20', silent: true, config: false, dts: false, sourcemap: false, noExternal: [/.*/] });
  return join(dir, 'parse.js');
}

interface ImportRun { importCpu: number; importWall: number; rss: number; held: number }
interface InProcess { splitWall: number; parseWall: number; parseCpu: number }
const measure = join(here, 'ab', 'zonefile-measure.ts');
const node = (args: string[]): string => execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
const importRun = (tree: string, file: string, kind = 'import'): ImportRun => JSON.parse(node(['--expose-gc', '--import', LOADER, measure, tree, kind, file])) as ImportRun;
// The yardstick first in a fresh process, as bench/zonefile.bench.ts does, then the parse.
const IN_PROCESS = `
import { readFileSync } from 'node:fs';
const [tree, file] = process.argv.slice(1);
const { parseZoneFile } = await import(tree + '/src/zonefile/index.ts');
parseZoneFile(readFileSync(file, 'utf8').slice(0, 200_000).replace(/\\n[^\\n]*$/, '\\n'));
let t0 = performance.now();
const lines = readFileSync(file, 'utf8').split('\\n').length;
const splitWall = (performance.now() - t0) / 1000;
const text = readFileSync(file, 'utf8');
t0 = performance.now(); const c0 = process.cpuUsage();
const r = parseZoneFile(text, { maxBytes: 1 << 30 });
const parseWall = (performance.now() - t0) / 1000; const c = process.cpuUsage(c0);
if (r.isErr() || lines < r.value.records.length) throw new Error('parse');
process.stdout.write(JSON.stringify({ splitWall, parseWall, parseCpu: (c.user + c.system) / 1e6 }));
`;
// The import's own parse alone (the columns it reads), in a fresh process warmed up as the import's is.
const PARSE_ONLY = `
import { existsSync, readFileSync } from 'node:fs';
const [tree, file] = process.argv.slice(1);
// Either side of the layout move.
const plan = ['/src/dns/kernel/import-plan.ts', '/src/imports/convert.ts'].find((p) => existsSync(tree + p));
const { readColumns } = await import(tree + plan);
const text = readFileSync(file, 'utf8');
readColumns(text.slice(0, 120_000).replace(/\\n[^\\n]*$/, '\\n'), 1 << 30);
const c0 = process.cpuUsage();
const r = readColumns(text, 1 << 30);
const c = process.cpuUsage(c0);
if (typeof r === 'string') throw new Error(r);
process.stdout.write(String((c.user + c.system) / 1e6));
`;
// What any JavaScript parse of the file as a process pays at least: Node started, the file read and split into lines.
const SPLIT_ONLY = "console.log(require('node:fs').readFileSync(process.argv[1], 'utf8').split('\\n').length)";
const inProcess = (tree: string, file: string): InProcess =>
  JSON.parse(node(['--import', LOADER, '--input-type=module', '-e', IN_PROCESS, tree, file])) as InProcess;

const small = zoneFile(100_000);
const large = zoneFile(1_000_000);
const trees: [string, string][] = [['new', root], ...(oldRoot ? [['old', oldRoot] as [string, string]] : [])];
const hasDnspython = has(PYTHON, ['-c', 'import dns.zone']);
if (!hasDnspython) skipOrFail(`${PYTHON} cannot import dns.zone (Debian: python3-dnspython): no import-vs-dnspython comparison`);
const hasKnot = has('kzonecheck', ['--version']);
if (!hasKnot) skipOrFail('kzonecheck not found (Debian: knot-dnssecutils): no whole-process parse comparison');
const programs = new Map<string, string>();
for (const [name, tree] of trees) programs.set(name, await parseProgram(tree, name));

const samples = new Map<string, number[]>();
const add = (key: string, v: number): void => void (samples.get(key) ?? samples.set(key, []).get(key)!).push(v);
for (let i = 0; i < rounds; i++) {
  const steps: [string, () => void][] = [];
  for (const [name, tree] of trees) {
    steps.push([`${name} import`, () => {
      const r = importRun(tree, small);
      add(`${name} import CPU`, r.importCpu);
      add(`${name} import RSS`, r.rss);
      add(`${name} import held`, r.held);
    }]);
    steps.push([`${name} import, warm`, () => {
      add(`${name} warm import CPU`, importRun(tree, small, 'import-warm').importCpu);
    }]);
    steps.push([`${name} parse process`, () => {
      const r = wholeProcess(process.execPath, [programs.get(name)!, large]);
      add(`${name} parse process CPU`, r.cpu);
      add(`${name} parse process wall`, r.wall);
    }]);
    steps.push([`${name} import's parse alone`, () => {
      add(`${name} import parse CPU`, Number(node(['--import', LOADER, '--input-type=module', '-e', PARSE_ONLY, tree, small])));
    }]);
    steps.push([`${name} in process`, () => {
      const r = inProcess(tree, large);
      add(`${name} split÷parse wall`, r.splitWall / r.parseWall);
      add(`${name} parse in-process CPU`, r.parseCpu);
    }]);
  }
  steps.push(['read+split as a process', () => {
    add('split process CPU', wholeProcess(process.execPath, ['-e', SPLIT_ONLY, large]).cpu);
  }]);
  if (hasDnspython) {
    steps.push(['dnspython', () => {
      const r = JSON.parse(execFileSync(PYTHON, ['-c', DNSPYTHON, small, 'example.com.'], { encoding: 'utf8' })) as { cpu: number; tokenizerCpu: number };
      add('dnspython CPU', r.cpu);
      add('dnspython tokenizer CPU', r.tokenizerCpu);
    }]);
  }
  if (hasKnot) {
    steps.push(['kzonecheck', () => {
      const r = wholeProcess('kzonecheck', ['-o', 'example.com.', large]);
      add('kzonecheck CPU', r.cpu);
      add('kzonecheck wall', r.wall);
    }]);
  }
  for (const [label, step] of i % 2 === 0 ? steps : steps.reverse()) {
    step();
    log(`round ${i} ${label} done`);
  }
}

const med = (key: string): number => {
  const a = [...(samples.get(key) ?? [])].sort((x, y) => x - y);
  return a.length === 0 ? Number.NaN : a.length % 2 === 1 ? a[(a.length - 1) / 2]! : (a[a.length / 2 - 1]! + a[a.length / 2]!) / 2;
};
const range = (key: string, digits = 3): string => {
  const a = samples.get(key) ?? [];
  return `${med(key).toFixed(digits)} (${Math.min(...a).toFixed(digits)}–${Math.max(...a).toFixed(digits)})`;
};
console.log(`Rounds: ${rounds}, sides alternated; load average at the end ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}. Medians (range).\n`);
console.log('| measure | ' + trees.map(([n]) => n).join(' | ') + ' |');
console.log('| --- | ' + trees.map(() => '---:').join(' | ') + ' |');
const row = (label: string, f: (name: string) => string): void => console.log(`| ${label} | ${trees.map(([n]) => f(n)).join(' | ')} |`);
row('import 100k, CPU s', (n) => range(`${n} import CPU`));
row('import 100k, peak RSS MiB', (n) => range(`${n} import RSS`, 0));
row('import 100k, heap the zone holds after it (file dropped) MiB', (n) => range(`${n} import held`, 1));
row('import 100k after three of it (warm), CPU s', (n) => range(`${n} warm import CPU`));
row("the import's parse alone (its columns), 100k, CPU s", (n) => range(`${n} import parse CPU`));
if (hasDnspython) {
  row(`dnspython from_text 100k, CPU s: ${range('dnspython CPU')}; × import`, (n) => (med('dnspython CPU') / med(`${n} import CPU`)).toFixed(1));
  row('× import after three imports of the file (a warm service)', (n) => (med('dnspython CPU') / med(`${n} warm import CPU`)).toFixed(1));
  row(`dnspython's tokenizer alone over the file, CPU s: ${range('dnspython tokenizer CPU')}; from_text × parse alone`, (n) => (med('dnspython CPU') / med(`${n} import parse CPU`)).toFixed(1));
}
row('parse 1M as a process, CPU s', (n) => range(`${n} parse process CPU`));
if (hasKnot) row(`kzonecheck 1M, CPU s: ${range('kzonecheck CPU')}; × parse process`, (n) => (med('kzonecheck CPU') / med(`${n} parse process CPU`)).toFixed(2));
if (hasKnot) row(`kzonecheck 1M, wall s: ${range('kzonecheck wall')}; × parse process (wall)`, (n) => (med('kzonecheck wall') / med(`${n} parse process wall`)).toFixed(2));
row(`read+split 1M as a process (the floor), CPU s: ${range('split process CPU')}; kzonecheck × that`, () => (med('kzonecheck CPU') / med('split process CPU')).toFixed(2));
row('parse 1M in process, CPU s', (n) => range(`${n} parse in-process CPU`));
row('read+split ÷ parse, wall (in process)', (n) => range(`${n} split÷parse wall`, 2));
