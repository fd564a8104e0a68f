/**
 * The DNS service's dependencies (built by the service's own `createDnsDeps`) with the commands
 * the transfer tests use, and the events they emit.
 */
import { setDnsQuotas, type ZoneQuotaLimits } from '../../../src/dns/quotas/index.js';
import { createDnsDeps } from '../../../src/dns/service.js';
import type { Storage } from '../../../src/ports/storage.js';
import type { RequestContext } from '../../../src/kernel/context.js';
import type { DnsEvent } from '../../../src/dns/kernel/events.js';
import { manualClock, seededRandom, sequentialIds } from '../../../src/testing/index.js';
import { createTransferAcceptCommands, createTransferRequestCommands } from '../../../src/dns/transfers/index.js';
import { createZone, deleteZone, getZone, listZones } from '../../../src/dns/zones/zone-commands.js';

export interface HarnessOptions {
  storage?: Storage;
  forbiddenStatus?: 401 | 403;
  quotas?: Partial<ZoneQuotaLimits>;
  tasks?: 'auto' | 'inline' | 'manual';
  seed?: number;
}


export function harness(options: HarnessOptions = {}) {
  const clock = manualClock('2026-01-01T00:00:00.000Z');
  const deps = createDnsDeps({
    ...(options.storage === undefined ? {} : { storage: options.storage }),
    ...(options.quotas === undefined ? {} : { quotas: options.quotas }),
    tasks: options.tasks ?? 'inline',
    clock,
    ids: sequentialIds(),
    random: seededRandom(options.seed ?? 42),
    forbiddenStatus: options.forbiddenStatus ?? 403,
  });
  const tasks = deps.tasks;
  const events: DnsEvent[] = [];
  deps.events.subscribe((e) => events.push(e));
  const quotaDeps = { ...deps, defaults: deps.quotaDefaults };
  return {
    deps,
    clock,
    events,
    tasks,
    zones: {
      create: (ctx: RequestContext, body: unknown) => createZone(deps, ctx, body),
      get: (ctx: RequestContext, id: string) => getZone(deps, ctx, id),
      list: (ctx: RequestContext, query?: Record<string, string>) => listZones(deps, ctx, query),
      delete: (ctx: RequestContext, id: string) => deleteZone(deps, ctx, id),
    },
    quotas: { set: (ctx: RequestContext, project: string, body: unknown) => setDnsQuotas(quotaDeps, ctx, project, body) },
    transferRequests: createTransferRequestCommands(deps),
    transferAccepts: createTransferAcceptCommands(deps),
  };
}

export type Harness = ReturnType<typeof harness>;

export const ctx = (projectId: string, roles: string[] = ['member']): RequestContext => ({ projectId, roles });
export const ADMIN: RequestContext = { projectId: 'p-admin', roles: ['admin'] };
export const ADMIN_ALL: RequestContext = { projectId: 'p-admin', roles: ['admin'], allProjects: true };

/** Creates a zone and returns its id (throws on failure: a test setup error). */
export async function zoneOf(h: Harness, owner: RequestContext, name: string): Promise<string> {
  const z = await h.zones.create(owner, { name, email: 'admin@example.com' });
  if (z.isErr()) throw new Error(`zone create failed: ${JSON.stringify(z.error.toJSON())}`);
  return z.value.id;
}
