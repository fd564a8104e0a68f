/**
 * Builds DnsDeps the way src/dns/dns-service.ts does, so the transfer commands can be tested
 * before the lead wires them into createDnsService.
 */
import { memoryStorage } from '../../src/adapters/memory/memory-storage.js';
import { DEFAULT_ZONE_QUOTAS, setDnsQuotas, type ZoneQuotaLimits } from '../../src/dns-quotas/index.js';
import type { DnsDeps, PoolConfig } from '../../src/dns/deps.js';
import type { Storage } from '../../src/ports/storage.js';
import type { RequestContext } from '../../src/shared/context.js';
import { EventBus, type DnsEvent } from '../../src/shared/events.js';
import { TaskRunner } from '../../src/shared/tasks.js';
import { createTransferAcceptCommands, createTransferRequestCommands } from '../../src/transfers/index.js';
import { createZone, deleteZone, getZone, listZones, ZONE_PUSH } from '../../src/zones/zone-commands.js';
import { DEFAULT_ZONE_LIMITS } from '../../src/zones/zone-input.js';
import { zonePushHandler } from '../../src/zones/zone-push.js';

export interface HarnessOptions {
  storage?: Storage;
  forbiddenStatus?: 401 | 403;
  quotas?: Partial<ZoneQuotaLimits>;
  tasks?: 'auto' | 'manual';
  seed?: number;
}

const POOL: PoolConfig = {
  id: '794ccc2c-d751-44fe-b57f-8894c9f5c842',
  name: 'default',
  nameservers: [{ hostname: 'ns1.example.org.', priority: 1 }],
};

/** mulberry32: a small deterministic [0, 1) source. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sequentialIds(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
}

export function manualClock(start = '2026-01-01T00:00:00.000Z'): (() => Date) & { advance(ms: number): void } {
  let now = new Date(start).getTime();
  return Object.assign(() => new Date(now), {
    advance(ms: number) {
      now += ms;
    },
  });
}

export function harness(options: HarnessOptions = {}) {
  const storage = options.storage ?? memoryStorage();
  const mode = options.tasks ?? 'auto';
  const tasks = new TaskRunner(storage, mode);
  const clock = manualClock();
  const deps: DnsDeps = {
    storage,
    baseUrl: 'http://localhost:9001',
    clock,
    ids: sequentialIds(),
    random: seeded(options.seed ?? 42),
    forbiddenStatus: options.forbiddenStatus ?? 403,
    limits: { ...DEFAULT_ZONE_LIMITS },
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
  const events: DnsEvent[] = [];
  deps.events.subscribe((e) => events.push(e));
  const quotaDeps = { storage, forbiddenStatus: deps.forbiddenStatus, defaults: deps.quotaDefaults };
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
