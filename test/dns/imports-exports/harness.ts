/**
 * The DNS service's dependencies (built by the service's own `createDnsDeps`) with the import,
 * export, zone and recordset commands these tests use, and the events they emit.
 */
import type { ZoneQuotaLimits } from '../../../src/dns/quotas/index.js';
import { generateZone } from '../../support/zone-generator.js';
import { createDnsDeps } from '../../../src/dns/service.js';
import { createExportCommands } from '../../../src/dns/exports/index.js';
import { createImportCommands, type ZoneImportOptions } from '../../../src/dns/imports/index.js';
import type { Storage } from '../../../src/ports/storage.js';
import { getRecordset, listRecordsets } from '../../../src/dns/recordsets/recordset-commands.js';
import type { DnsEvent } from '../../../src/dns/kernel/events.js';
import { manualClock, sequentialIds } from '../../../src/testing/index.js';
import { createZone, deleteZone, getZone } from '../../../src/dns/zones/zone-commands.js';
import type { ZoneLimits } from '../../../src/dns/kernel/zone-rules.js';


/** A realistic zone `example.com.` of `records` records (deterministic for a seed), without DS records unless `ds`. */
export const generatedZone = (records: number, seed: number, ds = false): string => generateZone({ records, seed, ds });

export interface HarnessOptions {
  readonly storage?: Storage;
  readonly quotas?: Partial<ZoneQuotaLimits>;
  readonly limits?: Partial<ZoneLimits>;
  readonly imports?: ZoneImportOptions;
  readonly mode?: 'auto' | 'manual';
  readonly clock?: () => Date;
}

export function harness(options: HarnessOptions = {}) {
  const deps = createDnsDeps({
    ...(options.storage === undefined ? {} : { storage: options.storage }),
    ...(options.quotas === undefined ? {} : { quotas: options.quotas }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.imports?.recordTypes === undefined ? {} : { importRecordTypes: options.imports.recordTypes }),
    tasks: options.mode ?? 'auto',
    clock: options.clock ?? manualClock('2026-01-02T03:04:05.000Z'),
    ids: sequentialIds(),
    random: () => 0.5,
  });
  const tasks = deps.tasks;
  const events: DnsEvent[] = [];
  deps.events.subscribe((e) => events.push(e));
  return {
    deps,
    events,
    tasks,
    imports: createImportCommands(deps),
    exports: createExportCommands(deps),
    zones: {
      create: (ctx: unknown, body: unknown) => createZone(deps, ctx, body),
      get: (ctx: unknown, id: string) => getZone(deps, ctx, id),
      delete: (ctx: unknown, id: string) => deleteZone(deps, ctx, id),
    },
    recordsets: {
      list: (ctx: unknown, zoneId: string, query?: unknown) => listRecordsets(deps, ctx, zoneId, query),
      get: (ctx: unknown, zoneId: string, id: string) => getRecordset(deps, ctx, zoneId, id),
    },
  };
}

export type Harness = ReturnType<typeof harness>;

export const alice = { projectId: 'alice', roles: ['member'] };
export const bob = { projectId: 'bob', roles: ['member'] };
export const admin = { projectId: 'ops', roles: ['admin'] };

/** Imports a file and waits for the outcome. */
export async function importAndSettle(h: Harness, text: string, ctx: object = alice) {
  const created = await h.imports.create(ctx, text, 'text/dns');
  if (created.isErr()) throw created.error;
  await h.tasks.settle();
  const got = await h.imports.get(ctx, created.value.id);
  if (got.isErr()) throw got.error;
  return got.value;
}

/** Exports a zone, waits, and fetches the file. */
export async function exportText(h: Harness, zoneId: string, ctx: object = alice): Promise<string> {
  const created = await h.exports.create(ctx, zoneId);
  if (created.isErr()) throw created.error;
  await h.tasks.settle();
  const file = await h.exports.file(ctx, created.value.id);
  if (file.isErr()) throw file.error;
  return file.value;
}

/** The reference fixture of §9.3 (the file the real service's probe imported). */
export const FIXTURE = `$ORIGIN example.com.
$TTL 300
example.com. 600 IN SOA ns1.example.com. nsadmin.example.com. 2013091101 7200 3600 2419200 10800
example.com. IN NS ns1.example.com.
example.com. 10800 IN MX 5 192.0.0.2
example.com. 10800 IN MX 10 192.0.0.3
example.com. 10800 IN TXT "abc" "def"
example.com. 10800 IN SPF "v=spf1 mx a"
ipv4 300 IN A 192.0.0.1
ipv6 10800 IN AAAA fd00::1
cname 10800 IN CNAME example.com.
_http._tcp 10800 IN SRV 10 0 80 192.0.0.4
_http._tcp 10800 IN SRV 10 5 80 192.0.0.5
delegation 10800 IN NS ns1.example.com.
`;
