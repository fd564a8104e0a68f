/**
 * SECONDARY zones: a 100,000-record zone transferred from a real master (NSD on 127.0.0.1,
 * `axfrMasters()`), against the import of the same file, in the same process, alternated. Both
 * end with the same recordsets stored in blocks; the transfer also crosses TCP, decodes the wire
 * and writes every record as a line the import's parser reads. Prints one Markdown section.
 */
import { axfrMasters } from '../src/adapters/axfr/index.js';
import { createDnsService } from '../src/dns/service.js';
import { nsdAvailable, startNsd } from '../test/dns/secondary/nsd.js';
import { generateZone } from '../test/support/zone-generator.js';

const ctx = { projectId: 'bench', roles: ['member'] };
const log = (s: string): void => void process.stderr.write(`axfr.bench: ${s}\n`);
const RECORDS = 100_000;
const ROUNDS = 3;

const zoneText = (records: number): string => generateZone({ records, seed: 1 });

const service = (port?: number) =>
  createDnsService({
    limits: { maxZoneFileBytes: 1 << 30 },
    quotas: { zone_recordsets: -1, zone_records: -1, recordset_records: -1, api_export_size: -1 },
    ...(port === undefined ? {} : { masters: axfrMasters({ timeoutMs: 120_000 }) }),
  });

async function importSeconds(text: string): Promise<number> {
  const dns = service();
  const t0 = performance.now();
  const created = (await dns.imports.create(ctx, text, 'text/dns'))._unsafeUnwrap();
  await dns.tasks.settle();
  const seconds = (performance.now() - t0) / 1000;
  const done = (await dns.imports.get(ctx, created.id))._unsafeUnwrap();
  if (done.status !== 'COMPLETE') throw new Error(`import: ${done.status} ${String(done.message)}`);
  return seconds;
}

async function transferSeconds(port: number, serial: number): Promise<number> {
  const dns = service(port);
  const t0 = performance.now();
  const zone = (await dns.zones.create(ctx, { name: 'example.com.', type: 'SECONDARY', masters: [`127.0.0.1:${port}`] }))._unsafeUnwrap();
  await dns.tasks.settle();
  const seconds = (performance.now() - t0) / 1000;
  const got = (await dns.zones.get(ctx, zone.id))._unsafeUnwrap();
  if (got.serial !== serial) throw new Error(`transfer did not happen (serial ${got.serial})`);
  return seconds;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (!nsdAvailable) {
  process.stdout.write('## SECONDARY zone transfer (axfr)\n\nSKIPPED: nsd is not installed.\n');
} else {
  log(`generating ${RECORDS} records`);
  const text = zoneText(RECORDS);
  const serial = Number(/(\d+)\s*; serial/.exec(text)?.[1]);
  const warm = zoneText(2000);
  const nsd = await startNsd('example.com.', text);
  try {
    // Warm both paths up (code compiled, NSD's answer cached) before anything is timed.
    await importSeconds(warm);
    await transferSeconds(nsd.port, serial);
    const imports: number[] = [];
    const transfers: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      log(`round ${round + 1}`);
      imports.push(await importSeconds(text));
      transfers.push(await transferSeconds(nsd.port, serial));
    }
    const imp = median(imports);
    const xfr = median(transfers);
    const rate = (s: number) => Math.round(RECORDS / s).toLocaleString('en-US');
    process.stdout.write(
      [
        '## SECONDARY zone transfer (axfr)',
        '',
        `A ${RECORDS.toLocaleString('en-US')}-record zone from \`generateZone({ records, seed: 1 })\` (test/support/zone-generator.ts, no DS): transferred from NSD on 127.0.0.1 with`,
        '`axfrMasters()` (zone create → `tasks.settle()`), and imported from the same file (`imports.create` →',
        `\`tasks.settle()\`), alternated, ${ROUNDS} rounds each after a warm-up; medians.`,
        '',
        '| path | seconds | records/s |',
        '| --- | ---: | ---: |',
        `| import | ${imp.toFixed(2)} | ${rate(imp)} |`,
        `| transfer (AXFR) | ${xfr.toFixed(2)} | ${rate(xfr)} |`,
        '',
        `Transfer / import time: ${(xfr / imp).toFixed(2)}×. Rounds (s): import ${imports.map((s) => s.toFixed(2)).join(', ')}; transfer ${transfers.map((s) => s.toFixed(2)).join(', ')}.`,
      ].join('\n') + '\n',
    );
  } finally {
    await nsd.stop();
  }
}
