/**
 * zoneward/http old against new, alternated in one run: `node --import ./bench/loader.mjs bench/ab/http-ab.ts <old root>`
 * (old root: `git worktree add <dir> <commit>` with a `node_modules` link and `npx tsup` run
 * there, the tree to compare with; new: this checkout, built the same way). Each side is its
 * tree's built package when it has one (bench/http-tree.ts).
 *
 * In process: `GET /v2/zones/{id}` through each side's handler (an undici `Request` built, the
 * `Response` body read, as a caller in process does), the floor (the same `Request` built, a
 * `Response` of the same JSON made and read) and the least a handler does (the `Request` built,
 * `zones.get`, its JSON written); sides in ABBA order each round, medians of µs a call.
 * Over node:http: bare node:http, a node:http doing the least this API needs, old and new zoneward through `toNodeListener`, fastify routing
 * to the commands by hand, each in its own process (bench/http-target.ts); autocannon, the order
 * turning each round; median requests/s, and the median of each server's own CPU time a request (its
 * process's user + system time from /proc over the round: what a loaded machine inflates less than
 * the rate, since the load generator starving for CPU lowers every rate alike). `HTTP_AB_WIRE_ROUNDS=0`
 * compares in process only.
 */
import { load } from '../http-load.js';
import { readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadTree } from '../http-tree.js';
import { LOADER } from '../loader-url.js';

const here = dirname(fileURLToPath(import.meta.url));
const oldRoot = resolve(process.argv[2] ?? '/tmp/wire-old');
const ROUNDS = Number(process.env['HTTP_AB_ROUNDS'] ?? 6);
const OPS = Number(process.env['HTTP_AB_OPS'] ?? 5_000);
const SECONDS = Number(process.env['HTTP_AB_SECONDS'] ?? 2);
const WIRE_ROUNDS = Number(process.env['HTTP_AB_WIRE_ROUNDS'] ?? 3);
const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const headers = { 'X-Auth-Project-ID': 'p1', 'X-Roles': 'member' };

/** One side in process: its own service and handler, from its own tree. */
async function side(root: string): Promise<{ get: () => Promise<void>; least: () => Promise<void>; url: string; zone: object; from: string }> {
  const { createDnsService, createHttpHandler, trustedHeaders, manualClock, sequentialIds, from } = await loadTree(root);
  const dns = createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), tasks: 'inline' });
  const handle = createHttpHandler({ dns, authenticate: trustedHeaders() });
  const zone = (await dns.zones.create({ projectId: 'p1', roles: ['member'] }, { name: 'probe.example.com.', email: 'hostmaster@example.com' }))._unsafeUnwrap();
  const url = `http://127.0.0.1:9001/v2/zones/${zone.id}`;
  const ctx = { projectId: 'p1', roles: ['member'] };
  return {
    url,
    from,
    zone,
    // What no handler avoids: the Request a caller builds, the command, the answer's JSON.
    least: async () => {
      const request = new Request(url, { headers });
      if (request.method !== 'GET') throw new Error('unreachable');
      JSON.stringify((await dns.zones.get(ctx, zone.id))._unsafeUnwrap());
    },
    get: async () => {
      const r = await handle(new Request(url, { headers }));
      if (r.status !== 200) throw new Error(`GET ${r.status}`);
      await r.arrayBuffer();
    },
  };
}

/** µs a call, by the wall clock and in CPU time (`process.cpuUsage`: what a busy neighbour does not inflate as much). */
async function micros(op: () => Promise<void>, count: number): Promise<{ wall: number; cpu: number }> {
  const c = process.cpuUsage();
  const t = performance.now();
  for (let i = 0; i < count; i++) await op();
  const used = process.cpuUsage(c);
  return { wall: ((performance.now() - t) * 1000) / count, cpu: (used.user + used.system) / count };
}

const before = await side(oldRoot);
const after = await side(join(here, '../..'));
// The floor of any Request -> Response function: the Request built, its URL read, a Response
// of the same JSON made and read.
const floor = async (): Promise<void> => {
  const request = new Request(after.url, { headers });
  if (!request.url.startsWith('http')) throw new Error('unreachable');
  const r = new Response(JSON.stringify(after.zone), { status: 200, headers: { 'content-type': 'application/json' } });
  await r.arrayBuffer();
};
const ops = { old: before.get, new: after.get, floor, least: after.least };
type Op = keyof typeof ops;
const wall: Record<Op, number[]> = { old: [], new: [], floor: [], least: [] };
const cpu: Record<Op, number[]> = { old: [], new: [], floor: [], least: [] };
for (const op of Object.values(ops)) await micros(op, OPS / 2);
for (let round = 0; round < ROUNDS; round++) {
  const order: Op[] = round % 2 === 0 ? ['old', 'new', 'floor', 'least'] : ['least', 'floor', 'new', 'old'];
  for (const k of order) {
    const m = await micros(ops[k], OPS);
    wall[k].push(m.wall);
    cpu[k].push(m.cpu);
  }
}
const us = { old: median(cpu.old), new: median(cpu.new), floor: median(cpu.floor), least: median(cpu.least) };
const wallUs = { old: median(wall.old), new: median(wall.new), floor: median(wall.floor), least: median(wall.least) };
// Rounds pair old and new a few milliseconds apart: their ratio drifts less than either side.
const newOverOld = median(cpu.new.map((v, i) => v / cpu.old[i]!));
log(`in process (CPU µs): old ${us.old.toFixed(1)}, new ${us.new.toFixed(1)}, floor ${us.floor.toFixed(1)}, least ${us.least.toFixed(1)}; new/old ${newOverOld.toFixed(2)}`);

type Kind = 'bare' | 'floor' | 'old' | 'new' | 'fastify';
const kinds: Kind[] = WIRE_ROUNDS > 0 ? ['bare', 'floor', 'old', 'new', 'fastify'] : [];
interface Target {
  readonly child: ChildProcess;
  readonly port: number;
  readonly path: string;
  readonly headers: Record<string, string>;
}
async function start(kind: Kind): Promise<Target> {
  const args = kind === 'old' ? ['zoneward', oldRoot] : [kind === 'new' ? 'zoneward' : kind];
  const child = spawn(process.execPath, ['--import', LOADER, join(here, '../http-target.ts'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout }).once('line', ok);
    child.once('exit', (code) => fail(new Error(`${kind} server exited (${code})`)));
  });
  return { child, ...(JSON.parse(line) as { port: number; path: string; headers: Record<string, string> }) };
}
/** A process's CPU time so far in µs (Linux), or NaN where /proc is not there. */
function cpuOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return Number.NaN;
  }
}
const targets = {} as Record<Kind, Target>;
for (const kind of kinds) targets[kind] = await start(kind);
const wire = { GET: { bare: [], floor: [], old: [], new: [], fastify: [] }, POST: { bare: [], floor: [], old: [], new: [], fastify: [] } } as Record<'GET' | 'POST', Record<Kind, number[]>>;
const cpuPer = { GET: { bare: [], floor: [], old: [], new: [], fastify: [] }, POST: { bare: [], floor: [], old: [], new: [], fastify: [] } } as Record<'GET' | 'POST', Record<Kind, number[]>>;
try {
  for (const method of WIRE_ROUNDS > 0 ? (['GET', 'POST'] as const) : []) {
    for (const kind of kinds) await load(targets[kind], method, 1);
    for (let round = 0; round < WIRE_ROUNDS; round++) {
      for (let i = 0; i < kinds.length; i++) {
        const kind = kinds[(i + round) % kinds.length]!;
        const before = cpuOf(targets[kind].child.pid);
        const rate = await load(targets[kind], method, SECONDS);
        wire[method][kind].push(rate);
        cpuPer[method][kind].push((cpuOf(targets[kind].child.pid) - before) / (rate * SECONDS));
      }
    }
    log(`${method}: ${kinds.map((k) => `${k} ${median(wire[method][k]).toFixed(0)}/s`).join(', ')}`);
  }
} finally {
  for (const kind of kinds) targets[kind].child.kill();
}

const [l1, l5, l15] = loadavg();
const name = { bare: 'bare node:http, same JSON', floor: 'node:http, Map lookup + JSON.stringify + request id', old: 'zoneward/http, main before', new: 'zoneward/http, this tree', fastify: 'fastify 5, routes calling the commands' };
const rows = (['GET', 'POST'] as const).flatMap((method) =>
  kinds.map((k) => {
    const rate = median(wire[method][k]);
    const cpu = median(cpuPer[method][k]);
    return `| \`${method} /v2/zones${method === 'GET' ? '/{id}' : ''}\` | ${name[k]} | ${Math.round(rate).toLocaleString('en')} | ${((100 * rate) / median(wire[method].bare)).toFixed(0)} % | ${Number.isNaN(cpu) ? '—' : cpu.toFixed(1)} |`;
  }),
);
process.stdout.write(
  [
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z; load average at the end ${l1!.toFixed(1)} / ${l5!.toFixed(1)} / ${l15!.toFixed(1)}; zoneward from ${before.from} (old) and ${after.from} (new).`,
    '',
    `In process, \`GET /v2/zones/{id}\`, ${ROUNDS} rounds of ${OPS.toLocaleString('en')} calls per side, the order turning each round; medians`,
    `of CPU µs a call (wall µs beside); new/old, the median of each round's ratio: **${newOverOld.toFixed(2)}**.`,
    '',
    '| side | CPU µs a call | wall µs | over the floor (CPU) | over the least (CPU) |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| floor: \`Request\` built, URL read, \`Response\` of \`JSON.stringify(zone)\` made and read | ${us.floor.toFixed(1)} | ${wallUs.floor.toFixed(1)} | — | — |`,
    `| least: \`Request\` built, \`zones.get\`, its JSON written | ${us.least.toFixed(1)} | ${wallUs.least.toFixed(1)} | — | — |`,
    `| handler, main before | ${us.old.toFixed(1)} | ${wallUs.old.toFixed(1)} | ${(us.old - us.floor).toFixed(1)} | ${(us.old - us.least).toFixed(1)} |`,
    `| handler, this tree | ${us.new.toFixed(1)} | ${wallUs.new.toFixed(1)} | ${(us.new - us.floor).toFixed(1)} | ${(us.new - us.least).toFixed(1)} |`,
    ...(WIRE_ROUNDS > 0
      ? [
          '',
          `Over node:http (autocannon, 10 connections, ${SECONDS} s a round, ${WIRE_ROUNDS} rounds, the order turning each round; median requests/s, and of the server's own CPU µs a request):`,
          '',
          '| request | server | requests/s | of bare | server CPU µs a request |',
          '| --- | --- | ---: | ---: | ---: |',
          ...rows,
        ]
      : []),
  ].join('\n') + '\n',
);
