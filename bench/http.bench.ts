/**
 * zoneward/http: what the handler costs.
 *
 * In process: `GET /v2/zones/{id}` and `POST /v2/zones` through `createHttpHandler` (a Request
 * built, the Response body read, as a server does) against the same commands called directly;
 * rounds alternate between the two, and the rate is the median of the rounds. Target: the
 * handler keeps ≥ 50 % of the direct rate.
 *
 * Over node:http: autocannon (10 connections, 3 s per round, rounds alternated) against the
 * handler mounted with examples/http-server.ts and against a bare node:http server answering the
 * same zone's JSON, fixed; each server in its own process. Target: ≥ 50 % of the bare server's
 * requests/s.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createDnsService } from '../src/index.js';
import { createHttpHandler, trustedHeaders } from '../src/adapters/http/index.js';
import { manualClock, sequentialIds } from '../src/testing/index.js';

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
  if (name.startsWith('GET')) directGet = median(direct);
  log(`${name}: direct ${median(direct).toFixed(0)}/s, handler ${median(handler).toFixed(0)}/s`);
  inProcess.push(
    `| \`${name}\` | ${Math.round(median(direct)).toLocaleString('en')} | ${Math.round(median(handler)).toLocaleString('en')} | ${(ratio * 100).toFixed(0)} % | ${ratio >= 0.5 ? 'met' : 'NOT met'} |`,
  );
}

interface Target {
  readonly child: ChildProcess;
  readonly port: number;
  readonly path: string;
  readonly headers: Record<string, string>;
}

async function start(kind: 'zoneward' | 'bare'): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'http-target.ts'), kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
  return { child, ...(JSON.parse(line) as { port: number; path: string; headers: Record<string, string> }) };
}

async function load(t: Target): Promise<number> {
  const result = await autocannon({ url: `http://127.0.0.1:${t.port}${t.path}`, headers: t.headers, connections: 10, duration: 3 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const bare = await start('bare');
const ours = await start('zoneward');
const wire: { bare: number[]; ours: number[] } = { bare: [], ours: [] };
try {
  await load(bare); // warm-up
  await load(ours);
  for (let round = 0; round < 3; round++) {
    wire.bare.push(await load(bare));
    wire.ours.push(await load(ours));
  }
} finally {
  bare.child.kill();
  ours.child.kill();
}
const wireRatio = median(wire.ours) / median(wire.bare);
log(`node:http: bare ${median(wire.bare)}/s, zoneward ${median(wire.ours)}/s`);

process.stdout.write(
  [
    '## HTTP handler (`zoneward/http`)',
    '',
    `In process: each request builds a \`Request\` and reads the \`Response\` body, as a server does; the direct side calls the`,
    `command with the same context and body. ${ROUNDS} rounds of ${OPS.toLocaleString('en')} sequential calls per side, alternated; median rate.`,
    'POST creates a new zone each call (quotas unlimited), so both sides see the same growing store.',
    '',
    '| request | direct command /s | through the handler /s | handler / direct | target ≥ 50 % |',
    '| --- | ---: | ---: | ---: | --- |',
    ...inProcess,
    '',
    `The floor: building the same \`Request\` and making and reading a \`Response\` of the same zone JSON, with nothing in`,
    `between, runs at ${Math.round(median(floorRates)).toLocaleString('en')}/s here (${Math.round(1e6 / median(floorRates))} µs a call), ` +
      `${((median(floorRates) / directGet) * 100).toFixed(0)} % of the direct \`zones.get\` rate: the most any Request → Response function can keep here.`,
    '',
    'Over node:http: `autocannon` (10 connections, 3 s per round, 3 rounds per side alternated after a warm-up, median of the',
    "rounds' average requests/s) against `GET /v2/zones/{id}` on the handler mounted with examples/http-server.ts, and against a",
    'bare node:http server answering the same JSON body, fixed; each server in its own process, the load generator in a third.',
    '',
    '| server | requests/s | ratio | target ≥ 50 % |',
    '| --- | ---: | ---: | --- |',
    `| bare node:http, fixed JSON | ${Math.round(median(wire.bare)).toLocaleString('en')} | 100 % | — |`,
    `| zoneward/http on node:http | ${Math.round(median(wire.ours)).toLocaleString('en')} | ${(wireRatio * 100).toFixed(0)} % | ${wireRatio >= 0.5 ? 'met' : 'NOT met'} |`,
  ].join('\n') + '\n',
);
