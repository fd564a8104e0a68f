/**
 * `npm run bench`: runs every benchmark module in its own process (so one module's heap does not
 * colour another's memory figures) and records each module's section in docs/benchmarks.md.
 *
 * A benchmark module is `bench/<area>.bench.ts`; it prints one Markdown section (starting with
 * `## `) on stdout and nothing else there. `npm run bench -- zones quotas` runs only the named
 * areas.
 *
 * docs/benchmarks.md also holds the team's hand-written measurements (old against new, floors,
 * the issues' targets), so a run never rewrites the file: each module's output replaces only its
 * own block, between `<!-- bench:<area> -->` and `<!-- /bench:<area> -->`, stamped with the date,
 * the machine and the load average it ran at; a module without a block gets one at the end.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOADER } from './loader-url.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const target = join(root, 'docs', 'benchmarks.md');
const only = process.argv.slice(2);
const modules = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.bench\.ts$/, '')))
  .sort();

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${platform()} ${release()}, Node ${process.version}`;
const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' / ');

/** A module's section one heading level down, so that it sits under the file's "Latest runs". */
const demoted = (section: string): string => section.replace(/^(#{2,5}) /gm, '#$1 ');

/** `text` with `area`'s block replaced by `block`, or `block` appended when it has none yet. */
function withBlock(text: string, area: string, block: string): string {
  const open = `<!-- bench:${area} -->`;
  const close = `<!-- /bench:${area} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  const wrapped = `${open}\n${block}\n${close}`;
  if (start >= 0 && end > start) return `${text.slice(0, start)}${wrapped}${text.slice(end + close.length)}`;
  const heading = '## Latest `npm run bench` runs';
  const withHeading = text.includes(`\n${heading}\n`) ? text : `${text.trimEnd()}\n\n${heading}\n\nEach block below is the last run of one module (\`npm run bench -- <area>\`), replaced by the next.\n`;
  return `${withHeading.trimEnd()}\n\n${wrapped}\n`;
}

let doc = existsSync(target) ? readFileSync(target, 'utf8') : '# Benchmarks\n';
for (const file of modules) {
  const area = file.replace(/\.bench\.ts$/, '');
  process.stderr.write(`bench: ${file}\n`);
  const started = performance.now();
  const loadBefore = load();
  let section: string;
  try {
    section = execFileSync(process.execPath, ['--expose-gc', '--import', LOADER, join(here, file)], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
  } catch (error) {
    section = `## ${file}\n\nFAILED: ${(error as Error).message.split('\n')[0] ?? ''}`;
    process.exitCode = 1;
  }
  const stamp = `_\`npm run bench -- ${area}\`, ${new Date().toISOString()}, ${machine}; load average ${loadBefore} before, ${load()} after._`;
  const [heading = '', ...rest] = demoted(section).split('\n');
  doc = withBlock(doc, area, [heading, '', stamp, ...rest].join('\n'));
  // Written after every module, so that a run stopped half-way keeps what it measured.
  writeFileSync(target, doc);
  process.stderr.write(`bench: ${file} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
process.stderr.write(`bench: updated ${target}\n`);
