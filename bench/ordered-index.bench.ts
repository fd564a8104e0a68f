/**
 * Ordered index (src/adapters/memory/ordered-index.ts): throughput of the operations the
 * in-memory adapter issues per query, and heap per entry, at a million entries.
 *
 * Heap figures are the structure alone: the key and id strings are created (and kept alive)
 * before the index is built, as they would be by the records that own them. Run with
 * `--expose-gc` (bench/run.ts does); without it the heap column says n/a.
 */
import { OrderedIndex } from '../src/adapters/memory/ordered-index.js';

const N = 1_000_000;
const QUERIES = 200_000;

const gc = (globalThis as { gc?: () => void }).gc;

function heapUsed(): number | undefined {
  if (gc === undefined) return undefined;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Deterministic PRNG (mulberry32) so runs are comparable. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(7);
const randomWord = (length: number): string => {
  let s = '';
  for (let n = 0; n < length; n++) s += String.fromCharCode(97 + Math.floor(random() * 26));
  return s;
};

interface Row {
  readonly what: string;
  readonly ops: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly bytesPerEntry?: number | undefined;
}
const rows: Row[] = [];

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Result sink, so the optimiser cannot drop the measured work. */
let sink = 0;

/**
 * Times `body`, which performs `ops` operations. CPU time is reported beside wall time because
 * benchmarks run on shared machines, where wall time mostly measures the neighbours.
 */
function time(what: string, ops: number, body: () => number, bytesPerEntry?: () => number | undefined): void {
  const wall = performance.now();
  const cpu = cpuMs();
  sink += body();
  rows.push({ what, ops, wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu, bytesPerEntry: bytesPerEntry?.() });
}

function perEntry(base: number | undefined, entries: number): number | undefined {
  const now = heapUsed();
  return base === undefined || now === undefined ? undefined : (now - base) / entries;
}

function shuffled(n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

// Index keys shaped like encoded tuples, and record ids. Built with join() so they are flat
// strings: the index flattens concatenated keys in place, which would otherwise show up as
// (negative) heap in the index's column.
const randomKeys: string[] = [];
const ids: string[] = [];
for (let n = 0; n < N; n++) {
  randomKeys.push([randomWord(3), randomWord(8), ''].join('\u0000'));
  ids.push(['rec-', n.toString(36).padStart(8, '0')].join(''));
}

/** Random inserts, the queries the adapter issues, then half deleted in random order. */
function randomScenario(): void {
  const base = heapUsed();
  const index = new OrderedIndex();
  time(
    `insert ${N.toLocaleString('en')} random pairs`,
    N,
    () => {
      let inserted = 0;
      for (let n = 0; n < N; n++) if (index.insert(randomKeys[n]!, ids[n]!)) inserted++;
      return inserted;
    },
    () => perEntry(base, index.size),
  );
  const probes = Array.from({ length: QUERIES }, () => Math.floor(random() * N));
  time('lowerBound (random present pair)', QUERIES, () => {
    let s = 0;
    for (const p of probes) s += index.lowerBound(randomKeys[p]!, ids[p]!);
    return s;
  });
  const prefixes = probes.map((p) => randomKeys[p]!.slice(0, 1 + (p % 3)));
  time('prefixBounds (1-3 character prefix), i.e. a prefix count', QUERIES, () => {
    let s = 0;
    for (const p of prefixes) {
      const { start, end } = index.prefixBounds(p);
      s += end - start;
    }
    return s;
  });
  time('at(random rank)', QUERIES, () => {
    let s = 0;
    for (const p of probes) s += index.at(p)?.id.length ?? 0;
    return s;
  });
  const pages = QUERIES / 4;
  time('forEach: page of 20 from a random rank, asc and desc (per page)', pages, () => {
    let s = 0;
    for (let q = 0; q < pages; q++) {
      const start = probes[q]!;
      index.forEach(start, start + 20, q % 2 === 0 ? 'asc' : 'desc', (k) => {
        s += k.length;
      });
    }
    return s;
  });
  time('forEach: full scan (per entry)', N, () => {
    let s = 0;
    index.forEach(0, index.size, 'asc', (k) => {
      s += k.length;
    });
    return s;
  });
  const order = shuffled(N);
  const half = N / 2;
  time(
    `delete ${half.toLocaleString('en')} of them in random order`,
    half,
    () => {
      let deleted = 0;
      for (let n = 0; n < half; n++) if (index.delete(randomKeys[order[n]!]!, ids[order[n]!]!)) deleted++;
      return deleted;
    },
    () => perEntry(base, index.size),
  );
}

/** Ascending inserts (ids and timestamps arrive in order), then the older half expired. */
function ascendingScenario(): void {
  const keys: string[] = [];
  for (let n = 0; n < N; n++) keys.push(['t', n.toString(16).padStart(14, '0'), ''].join('\u0000'));
  const base = heapUsed();
  const index = new OrderedIndex();
  time(
    `insert ${N.toLocaleString('en')} ascending pairs`,
    N,
    () => {
      for (let n = 0; n < N; n++) index.insert(keys[n]!, ids[n]!);
      return index.size;
    },
    () => perEntry(base, index.size),
  );
  const half = N / 2;
  time(
    `delete the lowest ${half.toLocaleString('en')} in ascending order`,
    half,
    () => {
      let deleted = 0;
      for (let n = 0; n < half; n++) if (index.delete(keys[n]!, ids[n]!)) deleted++;
      return deleted;
    },
    () => perEntry(base, index.size),
  );
}

/**
 * A low-cardinality index (a status field): 100 keys, each insert with a fresh copy of the key
 * string that nothing else keeps, so the heap figure includes the keys held by the index.
 */
function lowCardinalityScenario(): void {
  const base = heapUsed();
  const index = new OrderedIndex();
  time(
    `insert ${N.toLocaleString('en')} pairs over 100 keys (fresh key strings)`,
    N,
    () => {
      for (let n = 0; n < N; n++) index.insert(`status-${(n * 7919) % 100}`, ids[n]!);
      return index.size;
    },
    () => perEntry(base, index.size),
  );
}

randomScenario();
ascendingScenario();
lowCardinalityScenario();

const fmt = (x: number): string => Math.round(x).toLocaleString('en');
const lines = [
  '## Ordered index',
  '',
  'In-memory order-statistic B+tree (`src/adapters/memory/ordered-index.ts`; 64 entries per leaf, 64 children per branch), one million entries.',
  'Keys are 13- and 17-character flat strings shaped like encoded tuples, ids 12 characters. "ops/CPU-s" divides by the process CPU time, which a busy machine disturbs far less than wall time.',
  'Heap per entry is measured after `gc()` and covers the tree alone: the strings already exist (records own them), except in the 100-key row,',
  'which builds a fresh key string per insert and so includes the keys the index keeps (equal keys share one string).',
  '',
  '| Operation | ops/s (wall) | ops/CPU-s | wall ms | heap bytes / entry |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows.map((r) => {
    const heap = r.bytesPerEntry === undefined ? (gc === undefined ? 'n/a' : '') : r.bytesPerEntry.toFixed(1);
    return `| ${r.what} | ${fmt((r.ops / r.wallMs) * 1000)} | ${fmt((r.ops / r.cpuMs) * 1000)} | ${fmt(r.wallMs)} | ${heap} |`;
  }),
];
process.stdout.write(`${lines.join('\n')}\n`);
if (sink === -1) process.stderr.write('unreachable\n');
