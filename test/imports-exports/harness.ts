/**
 * A DNS service wired the way src/dns/dns-service.ts wires it, plus the import and export groups
 * (the lead wires them into createDnsService later).
 */
import { memoryStorage } from '../../src/adapters/memory/memory-storage.js';
import { DEFAULT_ZONE_QUOTAS, type ZoneQuotaLimits } from '../../src/dns-quotas/index.js';
import type { DnsDeps, PoolConfig } from '../../src/dns/deps.js';
import { createExportCommands, exportTaskHandler, ZONE_EXPORT_TASK } from '../../src/exports/index.js';
import { createImportCommands, importTaskHandler, ZONE_IMPORT_TASK, type ZoneImportOptions } from '../../src/imports/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { getRecordset, listRecordsets } from '../../src/recordsets/recordset-commands.js';
import { EventBus, type DnsEvent } from '../../src/shared/events.js';
import { TaskRunner } from '../../src/shared/tasks.js';
import { manualClock, sequentialIds } from '../../src/testing/index.js';
import { createZone, deleteZone, getZone, ZONE_PUSH } from '../../src/zones/zone-commands.js';
import { DEFAULT_ZONE_LIMITS, type ZoneLimits } from '../../src/zones/zone-input.js';
import { zonePushHandler } from '../../src/zones/zone-push.js';

export const POOL: PoolConfig = {
  id: '794ccc2c-d751-44fe-b57f-8894c9f5c842',
  name: 'default',
  nameservers: [{ hostname: 'ns1.example.org.', priority: 1 }],
};

export interface HarnessOptions {
  readonly storage?: Storage;
  readonly quotas?: Partial<ZoneQuotaLimits>;
  readonly limits?: Partial<ZoneLimits>;
  readonly imports?: ZoneImportOptions;
  readonly mode?: 'auto' | 'manual';
  readonly clock?: () => Date;
}

export function harness(options: HarnessOptions = {}) {
  const storage = options.storage ?? memoryStorage();
  const mode = options.mode ?? 'auto';
  const tasks = new TaskRunner(storage, mode);
  const clock = options.clock ?? manualClock('2026-01-02T03:04:05.000Z');
  const deps: DnsDeps = {
    storage,
    baseUrl: 'http://localhost:9001',
    clock,
    ids: sequentialIds(),
    random: () => 0.5,
    forbiddenStatus: 401,
    limits: { ...DEFAULT_ZONE_LIMITS, ...options.limits },
    quotaDefaults: { ...DEFAULT_ZONE_QUOTAS, ...options.quotas },
    pools: [POOL],
    defaultPool: POOL,
    events: new EventBus(),
    tasks,
    poolTargets: { createZone: () => Promise.resolve(), updateZone: () => Promise.resolve(), deleteZone: () => Promise.resolve() },
    inlinePush: mode === 'auto',
    ready: Promise.resolve(),
  };
  tasks.register(ZONE_PUSH, zonePushHandler(deps));
  tasks.register(ZONE_IMPORT_TASK, importTaskHandler(deps, options.imports));
  tasks.register(ZONE_EXPORT_TASK, exportTaskHandler(deps));
  const events: DnsEvent[] = [];
  deps.events.subscribe((e) => events.push(e));
  return {
    deps,
    events,
    tasks,
    imports: createImportCommands(deps, options.imports),
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
