/**
 * The floor under a zone create: how many creates per second this machine allows before any
 * command logic runs. A create is one transaction with five storage calls (the quota row, the
 * name's subtree, two ancestor reads, the put with three index keys) over keys built as the
 * command builds them. Three stores take that exact call sequence, one million times:
 *
 * - `Map only`: one Map, no index at all, ranges answer nothing: less than any store the port
 *   allows (it must answer ranges in order), so no create can be faster;
 * - `memoryStorage()`: the default adapter, with its ordered indexes;
 * - `zones.create`: the real command, for comparison.
 *
 * Each runs in its own child process (a fresh heap). Prints one Markdown section.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createDnsService, memoryStorage, type Storage, type StorageTransaction } from '../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../src/testing/index.js';
import { LOADER } from './loader-url.js';

const N = Number(process.env['FLOOR_BENCH_CREATES'] ?? 1_000_000);
const WARM = Math.min(20_000, N / 10);
const PROJECTS = 1000;
const END = '\u0000';
const hex = (n: number): string => n.toString(16).padStart(14, '0') + END;

/** A store with the port's shape and nothing behind it but one Map: no index, no order. */
function mapOnly(): Storage {
  const rows = new Map<string, unknown>();
  let tail: Promise<unknown> = Promise.resolve();
  const tx = {
    get: (_c: string, id: string) => Promise.resolve(rows.get(id)),
    put: (_c: string, id: string, value: unknown) => {
      rows.set(id, value);
      return Promise.resolve();
    },
    range: () => Promise.resolve([]),
  } as unknown as StorageTransaction;
  return {
    transaction<T>(work: (t: StorageTransaction) => Promise<T>): Promise<T> {
      const result = tail.then(() => work(tx));
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
  };
}

/** The storage calls of one create, in its order, with its keys. */
async function rawCreate(storage: Storage, n: number, ids: () => string, micros: number): Promise<void> {
  const project = `project-${n % PROJECTS}`;
  const name = `${'com' + END}${'example' + END}zone-${n}${END}`;
  const id = ids();
  await storage.transaction(async (tx) => {
    await tx.get('dns.quotas', project);
    await tx.range('dns.zones', 'name', { prefix: name });
    await tx.range('dns.zones', 'name', { prefix: `com${END}example${END}`, limit: 2 });
    await tx.range('dns.zones', 'name', { prefix: `com${END}`, limit: 2 });
    await tx.put('dns.zones', id, Object.freeze({ id, project, name, micros }), {
      project: project + END + hex(micros),
      created: hex(micros),
      name,
    });
  });
}

async function child(kind: string): Promise<void> {
  const ids = sequentialIds();
  let micros = 1_767_225_600_000_000;
  let run: (n: number) => Promise<unknown>;
  if (kind === 'command') {
    const clock = manualClock('2026-01-01T00:00:00Z');
    const dns = createDnsService({ clock, ids, random: seededRandom(1), tasks: 'inline', quotas: { zones: -1 } });
    const ctxs = Array.from({ length: PROJECTS }, (_, i) => ({ projectId: `project-${i}`, roles: ['member'] }));
    run = async (n) => {
      if (n % 16 === 0) clock.advance(1);
      const r = await dns.zones.create(ctxs[n % PROJECTS]!, { name: `zone-${n}.example.com.`, email: 'hostmaster@example.com' });
      if (r.isErr()) throw r.error;
    };
  } else {
    const storage = kind === 'map' ? mapOnly() : memoryStorage();
    run = (n) => {
      if (n % 16 === 0) micros += 1000;
      return rawCreate(storage, n, ids, micros);
    };
  }
  let started = 0;
  let cpu = process.cpuUsage();
  for (let n = 0; n < N; n++) {
    if (n === WARM) {
      started = performance.now();
      cpu = process.cpuUsage();
    }
    await run(n);
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({ wall: (N - WARM) / seconds, cpu: (N - WARM) / ((used.user + used.system) / 1e6) }));
}

const kind = process.argv[2];
if (kind !== undefined) {
  await child(kind);
} else {
  const self = fileURLToPath(import.meta.url);
  const measure = (k: string): { wall: number; cpu: number } =>
    JSON.parse(execFileSync(process.execPath, ['--import', LOADER, self, k], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })) as {
      wall: number;
      cpu: number;
    };
  const rows: string[] = [];
  const f = (x: number) => Math.round(x).toLocaleString('en');
  for (const [kind, label] of [
    ['map', 'Map only (no index; the least any store can do)'],
    ['memory', '`memoryStorage()` (ordered indexes)'],
    ['command', '`zones.create` (the command)'],
  ] as const) {
    process.stderr.write(`create-floor: ${kind}\n`);
    const m = measure(kind);
    rows.push(`| ${label} | ${f(m.wall)} | ${f(m.cpu)} |`);
  }
  console.log(`## The floor under a create

Method: one transaction with a create's five storage calls (quota row, the name's subtree, two ancestor reads, a put with
three index keys), keys built as the command builds them, ${N.toLocaleString('en')} times over ${PROJECTS} projects, each store in a fresh
process; the first ${WARM.toLocaleString('en')} are warm-up. "Map only" answers every range with nothing and keeps no index, so it does less
than the storage port allows: no create, however cheap its logic, can beat it on this machine. Issue 2's target is
100,000 creates/s at 1M zones.

| store | creates/s (wall) | creates per CPU-s |
| --- | ---: | ---: |
${rows.join('\n')}`);
}
