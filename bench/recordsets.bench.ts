/**
 * Recordset writes in imported zones of 1,000 and 100,000 recordsets: the per-operation cost of
 * create, update and delete of one recordset in each, measured alternately in one process so the
 * ratio (large ÷ small) is compared within one run. Issue 19's target: O(block), ratio ≤ 1.5.
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

const dns = createDnsService({ quotas: { zone_recordsets: -1, zone_records: -1, zones: -1 } });
const zones = await Promise.all(SIZES.map((n, i) => importedZone(dns, `z${i}.example.com.`, n)));
const origins = SIZES.map((_, i) => `z${i}.example.com.`);
const samples = SIZES.map(() => ({ create: [] as number[], update: [] as number[], delete: [] as number[] }));

// The first create in an imported zone builds its name directory from the blocks (once, O(zone)).
const first: number[] = [];
for (let s = 0; s < SIZES.length; s++) {
  const t = performance.now();
  (await dns.recordsets.create(alice, zones[s]!, { name: `first.${origins[s]!}`, type: 'TXT', records: ['"x"'] }))._unsafeUnwrap();
  first.push(performance.now() - t);
}

// Warm the code up on both zones first, then alternate: small, large, small, large …
for (let round = -20; round < ROUNDS; round++) {
  for (let s = 0; s < SIZES.length; s++) {
    const z = zones[s]!;
    let t = performance.now();
    const created = (await dns.recordsets.create(alice, z, { name: `w${round + 20}.${origins[s]!}`, type: 'TXT', records: ['"x"'] }))._unsafeUnwrap();
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
const rows = (['create', 'update', 'delete'] as const).map((op) => {
  const small = median(samples[0]![op]);
  const large = median(samples[1]![op]);
  return `| ${op} | ${us(small)} | ${us(large)} | ${(large / small).toFixed(2)} |`;
});
process.stdout.write(
  [
    '## Recordset writes (bench/recordsets.bench.ts)',
    '',
    `One recordset created, updated and deleted in a zone imported with 1,000 and with 100,000 A recordsets, ${ROUNDS} rounds alternating between the zones after the first create and 20 warm-up rounds; in-memory storage, tasks auto. Target (issue 19): ratio ≤ 1.5 (O(block), not O(zone)).`,
    '',
    '| operation | median µs/op, 1,000 | median µs/op, 100,000 | ratio |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
    '',
    `First create in each zone (builds the zone's name directory once): ${first.map((ms) => `${ms.toFixed(1)} ms`).join(' at 1,000, ')} at 100,000.`,
    '',
  ].join('\n'),
);
