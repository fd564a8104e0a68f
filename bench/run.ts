/**
 * `npm run bench`: runs every benchmark module in its own process (so one
 * module's heap does not colour another's memory figures) and writes
 * docs/benchmarks.md with the machine and the date.
 *
 * A benchmark module is `bench/<area>.bench.ts`; it prints one Markdown
 * section (starting with `## `) on stdout and nothing else there.
 * `npm run bench -- zones quotas` runs only the named areas.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, totalmem, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const only = process.argv.slice(2);
const modules = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.bench\.ts$/, '')))
  .sort();

const sections: string[] = [];
for (const file of modules) {
  process.stderr.write(`bench: ${file}\n`);
  const started = performance.now();
  try {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(here, file)], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    sections.push(out.trim());
  } catch (error) {
    sections.push(`## ${file}\n\nFAILED: ${(error as Error).message.split('\n')[0] ?? ''}`);
    process.exitCode = 1;
  }
  process.stderr.write(`bench: ${file} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const header = [
  '# Benchmarks',
  '',
  'Written by `npm run bench` (bench/run.ts); every module runs in its own Node process with `--expose-gc`.',
  'Figures are from one run on a shared machine: compare ratios within a run, not absolute numbers across runs.',
  '',
  `- Date: ${new Date().toISOString()}`,
  `- Machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${platform()} ${release()}`,
  `- Node: ${process.version}`,
  '',
].join('\n');
mkdirSync(join(root, 'docs'), { recursive: true });
const target = join(root, 'docs', only.length ? `benchmarks-${only.join('-')}.md` : 'benchmarks.md');
writeFileSync(target, `${header}\n${sections.join('\n\n')}\n`);
process.stderr.write(`bench: wrote ${target}\n`);
