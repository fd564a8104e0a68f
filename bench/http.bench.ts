/**
 * zoneward/http: what the handler and its node:http adapter cost.
 *
 * In process: `GET /v2/zones/{id}` and `POST /v2/zones` through `createHttpHandler` (a Request
 * built, the Response body read, as a server does) against the same commands called directly,
 * and the floor of any `Request → Response` function (the same Request built, a Response of the
 * same JSON made and read); rounds alternate, rates are medians. Target: the handler's own time
 * over the floor ≤ 10 µs for the GET.
 *
 * Over node:http: autocannon (10 connections, 3 s per round, sides alternated) against a bare
 * node:http server answering the same JSON, zoneward through `toNodeListener`, and fastify
 * routing to the commands by hand; each server in its own process (bench/http-target.ts), the
 * load generator in this one. Targets: GET ≥ 50 %, POST ≥ 35 % of the bare server.
 */
import { load } from './http-load.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createDnsService } from '../src/index.js';
import { createHttpHandler, trustedHeaders } from '../src/adapters/http/index.js';
import { manualClock, sequentialIds } from '../src/testing/index.js';
import { LOADER } from './loader-url.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env['HTTP_BENCH_ROUNDS'] ?? 5);
const OPS = Number(process.env['HTTP_BENCH_OPS'] ?? 20_000);
const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

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

async function rate(op: () => Promise<void>, count: number): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < count; i++) await op();
  return count / ((performance.now() - t) / 1000);
}

// The floor of any Request -> Response function on this Node: the same Request built and a
// Response of the same JSON made and read, with nothing in between.
const fixed = JSON.stringify(zone);
const floor = async (): Promise<void> => {
  const request = new Request(url, { headers });
  const r = new Response(fixed, { status: 200, headers: { 'content-type': 'application/json' } });
  if (request.method !== 'GET') throw new Error('unreachable');
  await r.arrayBuffer();
};
await rate(floor, OPS / 4);
const floorRates: number[] = [];
for (let round = 0; round < ROUNDS; round++) floorRates.push(await rate(floor, OPS));
log(`floor: ${median(floorRates).toFixed(0)}/s`);

const inProcess: string[] = [];
let directGet = 0;
let handlerGet = 0;
for (const [name, c] of Object.entries(cases)) {
  await rate(c.direct, OPS / 4); // warm-up, both paths
  await rate(c.handler, OPS / 4);
  const direct: number[] = [];
  const handler: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    direct.push(await rate(c.direct, OPS));
    handler.push(await rate(c.handler, OPS));
  }
  const ratio = median(handler) / median(direct);
  if (name.startsWith('GET')) {
    directGet = median(direct);
    handlerGet = median(handler);
  }
  log(`${name}: direct ${median(direct).toFixed(0)}/s, handler ${median(handler).toFixed(0)}/s`);
  inProcess.push(
    `| \`${name}\` | ${Math.round(median(direct)).toLocaleString('en')} | ${Math.round(median(handler)).toLocaleString('en')} | ${(ratio * 100).toFixed(0)} % |`,
  );
}

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


const kinds: Kind[] = ['bare', 'zoneward', 'fastify'];
const targets = {} as Record<Kind, Target>;
for (const kind of kinds) targets[kind] = await start(kind);
const wire: Record<'GET' | 'POST', Record<Kind, number[]>> = {
  GET: { bare: [], zoneward: [], fastify: [] },
  POST: { bare: [], zoneward: [], fastify: [] },
};
const WIRE_ROUNDS = Number(process.env['HTTP_BENCH_WIRE_ROUNDS'] ?? 3);
try {
  for (const method of ['GET', 'POST'] as const) {
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

const floorRate = median(floorRates);
const overFloor = 1e6 / handlerGet - 1e6 / floorRate;
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
    `In process: each request builds a \`Request\` and reads the \`Response\` body, as a server does; the direct side calls the`,
    `command with the same context and body. ${ROUNDS} rounds of ${OPS.toLocaleString('en')} sequential calls per side, alternated; median rate.`,
    'POST creates a new zone each call (quotas unlimited), so both sides see the same growing store.',
    '',
    '| request | direct command /s | through the handler /s | handler / direct |',
    '| --- | ---: | ---: | ---: |',
    ...inProcess,
    '',
    `The floor (the same \`Request\` built, a \`Response\` of the same zone JSON made and read, nothing in between): ` +
      `${Math.round(floorRate).toLocaleString('en')}/s (${(1e6 / floorRate).toFixed(1)} µs a call). The handler's own time for ` +
      `\`GET /v2/zones/{id}\` over that floor: **${overFloor.toFixed(1)} µs** (the direct \`zones.get\` included: ${(1e6 / directGet).toFixed(1)} µs of it); target ≤ 10 µs: ${overFloor <= 10 ? 'met' : 'NOT met'}.`,
    '',
    `Over node:http: autocannon (10 connections, 3 s per round, ${WIRE_ROUNDS} rounds per side after a warm-up, the order turning each round,`,
    "median of the rounds' average requests/s); each server in its own process, the load generator in a third.",
    '',
    '| request | server | requests/s | of bare | target |',
    '| --- | --- | ---: | ---: | --- |',
    ...row('GET', 0.5),
    ...row('POST', 0.35),
  ].join('\n') + '\n',
);
