/**
 * What any JavaScript parser that returns one object per record pays at least, against issue 29's
 * parse targets: `node --import ./bench/loader.mjs bench/ab/zonefile-floor.ts <rounds> <1M file>`.
 *
 * In fresh processes, alternated with `kzonecheck` on the same file: reading the file and
 * splitting it into lines (the yardstick of the in-process target), then making for each record
 * line the least a parse result holds, an object with an owner and a data string cut from the
 * line (no field read, no rule checked: a lower bound, not a parser). Prints Markdown: CPU
 * seconds of each step in process, whole processes' user + system CPU (bash `times`), medians and
 * ranges, and what they bound: split ÷ (split + objects) caps the in-process ratio any such parse
 * can reach, and kzonecheck ÷ that process caps the whole-process one.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';

const [roundsArg, file] = process.argv.slice(2) as [string, string];
const rounds = Number(roundsArg);

// The steps in one fresh process: CPU of the read and split, then of the objects.
const STEPS = `
const { readFileSync } = require('node:fs');
const cpu = (c) => (c.user + c.system) / 1e6;
let c0 = process.cpuUsage();
const lines = readFileSync(process.argv[1], 'utf8').split('\\n');
const split = cpu(process.cpuUsage(c0));
class Rec { constructor(name, rdata) { this.name = name; this.ttl = 3600; this.class = 'IN'; this.type = 'A'; this.rdata = rdata; } }
c0 = process.cpuUsage();
const out = [];
for (const l of lines) {
  if (l.length === 0 || l.charCodeAt(0) === 59) continue;
  const sp = l.indexOf('\\t');
  out.push(new Rec(l.slice(0, sp), l.slice(sp + 1)));
}
const objects = cpu(process.cpuUsage(c0));
if (process.argv[2] === 'json') process.stdout.write(JSON.stringify({ split, objects, records: out.length }));
`;

function times(cmd: string[]): number {
  const quoted = cmd.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const out = execFileSync('bash', ['-c', `${quoted} >/dev/null || exit 1; times`], { encoding: 'utf8' });
  const [user, sys] = out.trim().split('\n').pop()!.split(/\s+/);
  const secs = (t: string): number => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t)!;
    return Number(m[1]) * 60 + Number(m[2]);
  };
  return secs(user!) + secs(sys!);
}

const samples: Record<string, number[]> = { split: [], objects: [], process: [], kzonecheck: [] };
for (let i = 0; i < rounds; i++) {
  const steps: [string, () => void][] = [
    ['in process', () => {
      const r = JSON.parse(execFileSync(process.execPath, ['-e', STEPS, file, 'json'], { encoding: 'utf8' })) as { split: number; objects: number };
      samples.split!.push(r.split);
      samples.objects!.push(r.objects);
    }],
    ['process', () => void samples.process!.push(times([process.execPath, '-e', STEPS, file]))],
    ['kzonecheck', () => void samples.kzonecheck!.push(times(['kzonecheck', '-o', 'example.com.', file]))],
  ];
  for (const [label, step] of i % 2 === 0 ? steps : steps.reverse()) {
    step();
    process.stderr.write(`zonefile-floor: round ${i} ${label}\n`);
  }
}
const med = (a: number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const cell = (k: string): string => `${med(samples[k]!).toFixed(3)} (${Math.min(...samples[k]!).toFixed(3)}–${Math.max(...samples[k]!).toFixed(3)})`;
console.log(`Rounds: ${rounds}, alternated; load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}. Medians (range).\n`);
console.log('| measure | CPU s |');
console.log('| --- | ---: |');
console.log(`| read + split, in process | ${cell('split')} |`);
console.log(`| one object a record line (owner and data cut from the line), in process | ${cell('objects')} |`);
console.log(`| **split ÷ (split + objects)**: the most any such parse reaches of the in-process target | **${(med(samples.split!) / (med(samples.split!) + med(samples.objects!))).toFixed(2)}** |`);
console.log(`| Node started, read + split + objects, as a process | ${cell('process')} |`);
console.log(`| kzonecheck | ${cell('kzonecheck')} |`);
console.log(`| **kzonecheck ÷ that process**: the most any such parse reaches of the whole-process target | **${(med(samples.kzonecheck!) / med(samples.process!)).toFixed(2)}** |`);
