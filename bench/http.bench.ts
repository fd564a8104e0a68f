/**
 * zoneward/http: what the handler and its node:http adapter cost.
 *
 * zoneward is this checkout's built package when it has one (`npx tsup` first; bench/http-tree.ts).
 *
 * In process: `GET /v2/zones/{id}` through `createHttpHandler` (a Request built, the Response
 * body read, as a caller in process does) against the floor of any `Request → Response`
 * function (the same Request built, its URL read, a Response of the same JSON made and read)
 * and the least a handler does (the Request built, the command, its JSON written); `POST
 * /v2/zones` against the command called directly. Rounds alternate; medians of wall and CPU
 * µs. Target: the handler's own time over the floor ≤ 10 µs for the GET.
 *
 * Over node:http: autocannon (10 connections, 3 s per round, sides alternated) against a bare
 * node:http server answering the same JSON, zoneward through `toNodeListener`, and fastify
 * routing to the commands by hand; each server in its own process (bench/http-target.ts), the
 * load generator in this one. Targets: GET ≥ 50 %, POST ≥ 35 % of the bare server.
 * `HTTP_BENCH_WIRE_ROUNDS=0` measures in process only.
 */
import { load } from './http-load.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { LOADER } from './loader-url.js';
import { loadTree } from './http-tree.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env['HTTP_BENCH_ROUNDS'] ?? 5);
const OPS = Number(process.env['HTTP_BENCH_OPS'] ?? 20_000);
const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const { createDnsService, createHttpHandler, trustedHeaders, manualClock, sequentialIds, from } = await loadTree();
const ctx = { projectId: 'p1', roles: ['member'] };
const headers = { 'X-Auth-Project-ID': 'p1', 'X-Roles': 'member' };
const dns = createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), tasks: 'inline', quotas: { zones: -1 } });
const handle = createHttpHandler({ dns, authenticate: trustedHeaders() });
const zone = (await dns.zones.create(ctx, { name: 'probe.example.com.', email: 'hostmaster@example.com' }))._unsafeUnwrap();
const url = `http://127.0.0.1:9001/v2/zones/${zone.id}`;
let n = 0;
const body = () => ({ name: `z${n++}.example.com.`, email: 'hostmaster@example.com' });

const cases: Record<string, { direct: () => Promise<void>; handler: () => Promise<void> }> = {
  'GET /v2/zones/{id}': {
    direct: async () => {
      (await dns.zones.get(ctx, zone.id))._unsafeUnwrap();
    },
    handler: async () => {
      const r = await handle(new Request(url, { headers }));
      if (r.status !== 200) throw new Error(`GET ${r.status}`);
      await r.arrayBuffer();
    },
  },
  'POST /v2/zones': {
    direct: async () => {
      (await dns.zones.create(ctx, body()))._unsafeUnwrap();
    },
    handler: async () => {
      const r = await handle(
        new Request('http://127.0.0.1:9001/v2/zones', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body()) }),
      );
      if (r.status !== 201) throw new Error(`POST ${r.status}`);
      await r.arrayBuffer();
    },
  },
};

/** µs a call, wall and CPU (`process.cpuUsage`: the machine is shared, a busy neighbour shows in wall time only). */
async function micros(op: () => Promise<void>, count: number): Promise<{ wall: number; cpu: number }> {
  const c = process.cpuUsage();
  const t = performance.now();
  for (let i = 0; i < count; i++) await op();
  const used = process.cpuUsage(c);
  return { wall: ((performance.now() - t) * 1000) / count, cpu: (used.user + used.system) / count };
}

// What any `Request -> Response` function pays on this Node, the handler's yardsticks:
// the floor is the same Request built, its URL read, and a Response of the zone's JSON made
// and read; the least also finds the zone through the command, as no handler avoids.
const floor = async (): Promise<void> => {
  const request = new Request(url, { headers });
  if (!request.url.endsWith(zone.id)) throw new Error('unreachable');
  const r = new Response(JSON.stringify(zone), { status: 200, headers: { 'content-type': 'application/json' } });
  await r.arrayBuffer();
};
const least = async (): Promise<void> => {
  const request = new Request(url, { headers });
  if (!request.url.endsWith(zone.id)) throw new Error('unreachable');
  JSON.stringify((await dns.zones.get(ctx, zone.id))._unsafeUnwrap());
};
const sides = { floor, least, direct: cases['GET /v2/zones/{id}']!.direct, handler: cases['GET /v2/zones/{id}']!.handler };
type Side = keyof typeof sides;
const getTimes: Record<Side, { wall: number[]; cpu: number[] }> = { floor: { wall: [], cpu: [] }, least: { wall: [], cpu: [] }, direct: { wall: [], cpu: [] }, handler: { wall: [], cpu: [] } };
for (const op of Object.values(sides)) await micros(op, OPS / 4);
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.keys(sides) as Side[];
  if (round % 2 === 1) order.reverse();
  for (const k of order) {
    const m = await micros(sides[k], OPS);
    getTimes[k].wall.push(m.wall);
    getTimes[k].cpu.push(m.cpu);
  }
}
const get = Object.fromEntries(Object.entries(getTimes).map(([k, v]) => [k, { wall: median(v.wall), cpu: median(v.cpu) }])) as Record<Side, { wall: number; cpu: number }>;
log(`GET in process (µs wall/cpu): ${Object.entries(get).map(([k, v]) => `${k} ${v.wall.toFixed(1)}/${v.cpu.toFixed(1)}`).join(', ')}`);

// POST: the handler against the command called directly, alternated.
const post = cases['POST /v2/zones']!;
await micros(post.direct, OPS / 4);
await micros(post.handler, OPS / 4);
const postTimes = { direct: [] as number[], handler: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const k of round % 2 === 0 ? (['direct', 'handler'] as const) : (['handler', 'direct'] as const)) postTimes[k].push((await micros(post[k], OPS)).cpu);
}
log(`POST in process (µs cpu): direct ${median(postTimes.direct).toFixed(1)}, handler ${median(postTimes.handler).toFixed(1)}`);

const SECONDS = Number(process.env['HTTP_BENCH_SECONDS'] ?? 3);

type Kind = 'bare' | 'zoneward' | 'fastify';
interface Target {
  readonly child: ChildProcess;
  readonly port: number;
  readonly path: string;
  readonly headers: Record<string, string>;
}

async function start(kind: Kind): Promise<Target> {
  const child = spawn(process.execPath, ['--import', LOADER, join(here, 'http-target.ts'), kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
  return { child, ...(JSON.parse(line) as { port: number; path: string; headers: Record<string, string> }) };
}


const WIRE_ROUNDS = Number(process.env['HTTP_BENCH_WIRE_ROUNDS'] ?? 3);
const kinds: Kind[] = WIRE_ROUNDS > 0 ? ['bare', 'zoneward', 'fastify'] : [];
const targets = {} as Record<Kind, Target>;
for (const kind of kinds) targets[kind] = await start(kind);
const wire: Record<'GET' | 'POST', Record<Kind, number[]>> = {
  GET: { bare: [], zoneward: [], fastify: [] },
  POST: { bare: [], zoneward: [], fastify: [] },
};
try {
  for (const method of WIRE_ROUNDS > 0 ? (['GET', 'POST'] as const) : []) {
    for (const kind of kinds) await load(targets[kind], method, SECONDS); // warm-up
    for (let round = 0; round < WIRE_ROUNDS; round++) {
      // The order turns each round, so no side always runs after the same one.
      for (let i = 0; i < kinds.length; i++) {
        const kind = kinds[(i + round) % kinds.length]!;
        wire[method][kind].push(await load(targets[kind], method, SECONDS));
      }
    }
    log(`${method}: ${kinds.map((k) => `${k} ${median(wire[method][k]).toFixed(0)}/s`).join(', ')}`);
  }
} finally {
  for (const kind of kinds) targets[kind].child.kill();
}

const row = (method: 'GET' | 'POST', target: number): string[] => {
  const bare = median(wire[method].bare);
  return kinds.map((kind) => {
    const rate = median(wire[method][kind]);
    const ratio = rate / bare;
    const verdict = kind === 'zoneward' ? (ratio >= target ? 'met' : 'NOT met') : '—';
    const name = { bare: 'bare node:http, same JSON', zoneward: 'zoneward/http, toNodeListener', fastify: 'fastify 5, routes calling the commands' }[kind];
    return `| \`${method} /v2/zones${method === 'GET' ? '/{id}' : ''}\` | ${name} | ${Math.round(rate).toLocaleString('en')} | ${(ratio * 100).toFixed(0)} % | ${verdict} (≥ ${target * 100} %) |`;
  });
};
const [load1, load5, load15] = loadavg();

process.stdout.write(
  [
    '## HTTP handler (`zoneward/http`)',
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; load average at the end ${load1!.toFixed(1)} / ${load5!.toFixed(1)} / ${load15!.toFixed(1)} (shared machine).`,
    '',
    `zoneward from ${from}. In process, \`GET /v2/zones/{id}\`: ${ROUNDS} rounds of ${OPS.toLocaleString('en')} sequential calls per side, the`,
    'order turning each round; medians of µs a call (wall, and CPU time by `process.cpuUsage()`). Each request builds a `Request`',
    'and reads the `Response` body, as a caller in process does.',
    '',
    '| side | µs a call (wall) | µs a call (CPU) |',
    '| --- | ---: | ---: |',
    `| floor: \`Request\` built, URL read, \`new Response(JSON.stringify(zone))\` made and read | ${get.floor.wall.toFixed(1)} | ${get.floor.cpu.toFixed(1)} |`,
    `| least: \`Request\` built, URL read, \`zones.get\`, its JSON written | ${get.least.wall.toFixed(1)} | ${get.least.cpu.toFixed(1)} |`,
    `| \`zones.get\` alone | ${get.direct.wall.toFixed(1)} | ${get.direct.cpu.toFixed(1)} |`,
    `| the handler, its \`Response\` read | ${get.handler.wall.toFixed(1)} | ${get.handler.cpu.toFixed(1)} |`,
    '',
    `The handler's own time over the floor (CPU): **${(get.handler.cpu - get.floor.cpu).toFixed(1)} µs** (target ≤ 10 µs: ${get.handler.cpu - get.floor.cpu <= 10 ? 'met' : 'NOT met'}); over the least: ${(get.handler.cpu - get.least.cpu).toFixed(1)} µs.`,
    `\`POST /v2/zones\` (a new zone each call, quotas unlimited): the command alone ${median(postTimes.direct).toFixed(1)} µs CPU, through the handler ${median(postTimes.handler).toFixed(1)} µs.`,
    ...(WIRE_ROUNDS > 0
      ? [
          '',
          `Over node:http: autocannon (10 connections, ${SECONDS} s per round, ${WIRE_ROUNDS} rounds per side after a warm-up, the order turning each round,`,
          "median of the rounds' average requests/s); each server in its own process, the load generator in a third.",
          '',
          '| request | server | requests/s | of bare | target |',
          '| --- | --- | ---: | ---: | --- |',
          ...row('GET', 0.5),
          ...row('POST', 0.35),
        ]
      : []),
  ].join('\n') + '\n',
);
