/**
 * Recordset writes in imported zones of 1,000 and 100,000 recordsets: the per-operation cost of
 * create, update and delete of one recordset in each, measured alternately in one process so the
 * ratio (large ÷ small) is compared within one run, and the first create in freshly imported
 * zones. Issue 19's target: O(log n + block), ratio ≤ 1.5, the first write included. Then list
 * pages in the same zones (every sort key), and the cross-zone list over many zones.
 */
import { createDnsService, type DnsService } from '../src/index.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const SIZES = [1000, 100_000];
const ROUNDS = Number(process.env['RECORDSETS_BENCH_ROUNDS'] ?? '300');
const alice = { projectId: 'alice', roles: ['member'] };

function zoneFile(origin: string, n: number): string {
  const lines = [`$ORIGIN ${origin}`, '$TTL 300', `@ IN SOA ns1.example.org. h.${origin} 1 3600 600 86400 300`, '@ IN NS ns1.example.org.'];
  for (let i = 0; i < n; i++) lines.push(`h${i} IN A 192.0.${(i >> 8) & 255}.${i & 255}`);
  return `${lines.join('\n')}\n`;
}

async function importedZone(dns: DnsService, origin: string, n: number): Promise<string> {
  const imp = (await dns.imports.create(alice, zoneFile(origin, n), 'text/dns'))._unsafeUnwrap();
  await dns.tasks.settle();
  const done = (await dns.imports.get(alice, imp.id))._unsafeUnwrap();
  if (done.zone_id === null) throw new Error(`import failed: ${done.message ?? ''}`);
  return done.zone_id;
}

const dns = createDnsService({ tasks: 'inline', quotas: { zone_recordsets: -1, zone_records: -1, zones: -1 } });

// The first create in freshly imported zones (it built a directory of the zone's names until
// issue 19's owner index): at an imported owner name, so the rules read its block. Each size
// FIRST_ZONES times, alternated, after one zone of each to warm the code up.
const FIRST_ZONES = Number(process.env['RECORDSETS_BENCH_FIRST_ZONES'] ?? '7');
const firsts = SIZES.map(() => [] as number[]);
for (let k = -1; k < FIRST_ZONES; k++) {
  for (let s = 0; s < SIZES.length; s++) {
    const origin = `f${k + 1}s${s}.example.com.`;
    const zoneId = await importedZone(dns, origin, SIZES[s]!);
    gc();
    const t = performance.now();
    (await dns.recordsets.create(alice, zoneId, { name: `h${SIZES[s]! >> 1}.${origin}`, type: 'TXT', records: ['"x"'] }))._unsafeUnwrap();
    if (k >= 0) firsts[s]!.push(performance.now() - t);
    (await dns.zones.delete(alice, zoneId))._unsafeUnwrap();
    await dns.tasks.settle();
  }
}

const zones = await Promise.all(SIZES.map((n, i) => importedZone(dns, `z${i}.example.com.`, n)));
const origins = SIZES.map((_, i) => `z${i}.example.com.`);
const samples = SIZES.map(() => ({ create: [] as number[], update: [] as number[], delete: [] as number[] }));

// Warm the code up on both zones first, then alternate: small, large, small, large …
for (let round = -20; round < ROUNDS; round++) {
  for (let s = 0; s < SIZES.length; s++) {
    const z = zones[s]!;
    let t = performance.now();
    // At an imported owner name (its A is there), spread over the zone: the rules read its block.
    const owner = `h${((round + 20) * 7919) % SIZES[s]!}.${origins[s]!}`;
    const created = (await dns.recordsets.create(alice, z, { name: owner, type: 'TXT', records: ['"x"'] }))._unsafeUnwrap();
    const c = performance.now() - t;
    t = performance.now();
    (await dns.recordsets.update(alice, z, created.id, { records: ['"y"'] }))._unsafeUnwrap();
    const u = performance.now() - t;
    t = performance.now();
    (await dns.recordsets.delete(alice, z, created.id))._unsafeUnwrap();
    const d = performance.now() - t;
    if (round >= 0) {
      samples[s]!.create.push(c);
      samples[s]!.update.push(u);
      samples[s]!.delete.push(d);
    }
  }
}
gc();

// Medians: on a shared machine a few operations that wait for another process's time slice or a
// full GC would otherwise decide the mean.
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const us = (ms: number): string => (ms * 1000).toFixed(1);
const row = (label: string, small: number[], large: number[]): string =>
  `| ${label} | ${us(median(small))} | ${us(median(large))} | ${(median(large) / median(small)).toFixed(2)} |`;
const rows = [
  row(`first create in a fresh zone (${FIRST_ZONES} zones each)`, firsts[0]!, firsts[1]!),
  ...(['create', 'update', 'delete'] as const).map((op) => row(op, samples[0]![op], samples[1]![op])),
];
// List pages: the same zones, now holding written recordsets too (the writes above left none, so
// add some, and change a few imported ones, which makes them written).
for (let s = 0; s < SIZES.length; s++) {
  for (let i = 0; i < 50; i++) (await dns.recordsets.create(alice, zones[s]!, { name: `l${i}.${origins[s]!}`, type: 'TXT', records: ['"l"'] }))._unsafeUnwrap();
  const firstPage = (await dns.recordsets.list(alice, zones[s]!, { limit: '10' }))._unsafeUnwrap();
  for (const r of firstPage.recordsets.slice(2, 7)) (await dns.recordsets.update(alice, zones[s]!, r.id, { ttl: 60 }))._unsafeUnwrap();
}
/** A marker in the middle of each zone (an imported recordset), so a page seeks rather than starts. */
const markers: string[] = [];
for (let s = 0; s < SIZES.length; s++) {
  const page = (await dns.recordsets.list(alice, zones[s]!, { limit: '1000' }))._unsafeUnwrap();
  markers.push(page.recordsets[page.recordsets.length >> 1]!.id);
}
const LIST_KEYS = ['created_at', 'id', 'updated_at', 'status', 'name', 'type', 'ttl'] as const;
const LIST_ROUNDS = Number(process.env['RECORDSETS_BENCH_LIST_ROUNDS'] ?? '60');
const pages = SIZES.map(() => new Map<string, number[]>(LIST_KEYS.map((k) => [k, []])));
for (let round = -5; round < LIST_ROUNDS; round++) {
  for (const key of LIST_KEYS) {
    for (let s = 0; s < SIZES.length; s++) {
      const t = performance.now();
      (await dns.recordsets.list(alice, zones[s]!, { sort_key: key, marker: markers[s]! }))._unsafeUnwrap();
      if (round >= 0) pages[s]!.get(key)!.push(performance.now() - t);
    }
  }
}

// GET /v2/recordsets for a project of many zones (each imported with 20 recordsets, 2 written),
// against another project of a tenth as many, alternated; and the whole-scope path (a filter
// that matches everything) in the larger one, for scale.
const ZONE_COUNTS = [100, 1000];
const owners = ZONE_COUNTS.map((_, i) => ({ projectId: `many${i}`, roles: ['member'] }));
for (let p = 0; p < ZONE_COUNTS.length; p++) {
  for (let z = 0; z < ZONE_COUNTS[p]!; z++) {
    const origin = `m${z}.p${p}.example.net.`;
    const lines = [`$ORIGIN ${origin}`, '$TTL 300', `@ IN SOA ns1.example.org. h.${origin} 1 3600 600 86400 300`, '@ IN NS ns1.example.org.'];
    for (let i = 0; i < 20; i++) lines.push(`h${i} IN A 192.0.2.${i}`);
    const imp = (await dns.imports.create(owners[p]!, `${lines.join('\n')}\n`, 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    const zid = (await dns.imports.get(owners[p]!, imp.id))._unsafeUnwrap().zone_id!;
    for (let i = 0; i < 2; i++) (await dns.recordsets.create(owners[p]!, zid, { name: `w${i}.${origin}`, type: 'TXT', records: ['"w"'] }))._unsafeUnwrap();
  }
}
const allMarkers: string[] = [];
for (let p = 0; p < ZONE_COUNTS.length; p++) {
  const page = (await dns.recordsets.listAll(owners[p]!, { limit: '1000' }))._unsafeUnwrap() as { recordsets: { id: string }[] };
  allMarkers.push(page.recordsets[page.recordsets.length >> 1]!.id);
}
const allPages = ZONE_COUNTS.map(() => ({ fresh: [] as number[], marked: [] as number[], scan: [] as number[] }));
for (let round = -3; round < 30; round++) {
  for (let p = 0; p < ZONE_COUNTS.length; p++) {
    let t = performance.now();
    (await dns.recordsets.listAll(owners[p]!, {}))._unsafeUnwrap();
    const fresh = performance.now() - t;
    t = performance.now();
    (await dns.recordsets.listAll(owners[p]!, { marker: allMarkers[p]! }))._unsafeUnwrap();
    const marked = performance.now() - t;
    t = performance.now();
    if (round < 10) (await dns.recordsets.listAll(owners[p]!, { name: '*' }))._unsafeUnwrap();
    const scan = performance.now() - t;
    if (round >= 0) {
      allPages[p]!.fresh.push(fresh);
      allPages[p]!.marked.push(marked);
      if (round < 10) allPages[p]!.scan.push(scan);
    }
  }
}

process.stdout.write(
  [
    '## Recordset writes (bench/recordsets.bench.ts)',
    '',
    `One TXT recordset created at an imported owner name (whose A recordset is there), updated and deleted, in a zone imported with 1,000 and with 100,000 A recordsets, ${ROUNDS} rounds alternating between the zones after 20 warm-up rounds; before them, the first create in each of ${FIRST_ZONES} freshly imported zones of each size (alternated, after one of each to warm up). In-memory storage, tasks inline. Target (issue 19): ratio ≤ 1.5 for every operation, the first create included (O(log n + block), never O(zone)).`,
    '',
    '| operation | median µs/op, 1,000 | median µs/op, 100,000 | ratio |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
    '',
    '### Recordset list pages',
    '',
    `A page (20, the default) of \`GET /v2/zones/{id}/recordsets\` after a marker in the middle of the zone, in the same two zones now holding 50 written recordsets and 5 changed imported ones besides the imported ones; ${LIST_ROUNDS} rounds alternating the zones, medians. Target (issue 19): O(log n + page) for every sort key; name, type and ttl scan the imported recordsets' columns (no index orders imported recordsets by them: see recordset-pages.ts), so their ratio follows the zone.`,
    '',
    '| sort key | median µs/page, 1,000 | median µs/page, 100,000 | ratio |',
    '| --- | ---: | ---: | ---: |',
    ...LIST_KEYS.map((k) => {
      const small = median(pages[0]!.get(k)!);
      const large = median(pages[1]!.get(k)!);
      return `| ${k} | ${us(small)} | ${us(large)} | ${(large / small).toFixed(2)} |`;
    }),
    '',
    `\`GET /v2/recordsets\` (created_at, 20 a page) for a project of ${ZONE_COUNTS[0]} and of ${ZONE_COUNTS[1]} zones, each imported with 20 recordsets and given 2 written ones; 30 rounds alternated, medians. The whole-scope path (\`name=*\`, which reads and sorts every recordset of the scope, as every page did before) for scale, 10 rounds.`,
    '',
    '| zones in the project | first page µs | page after a marker µs | whole-scope path µs |',
    '| ---: | ---: | ---: | ---: |',
    ...ZONE_COUNTS.map((n, p) => `| ${n.toLocaleString('en-US')} | ${us(median(allPages[p]!.fresh))} | ${us(median(allPages[p]!.marked))} | ${us(median(allPages[p]!.scan))} |`),
    '',
    'The cross-zone page still reads the scope\'s zones (not their recordsets) for total_count, and zone by zone for a marker that is an imported recordset or an SOA/NS.',
    '',
  ].join('\n'),
);
