import { err, ok, type Result } from 'neverthrow';
import { memoryStorage } from '../adapters/memory/memory-storage.js';
import { DEFAULT_ZONE_QUOTAS, getDnsQuotas, resetDnsQuotas, setDnsQuotas, type ZoneQuotaLimits } from './quotas/index.js';
import type { Storage } from '../ports/storage.js';
import { findRecordsetAnywhere, getRecordset, listRecordsets } from './recordsets/recordset-commands.js';
import { ownerRowKeys, RECORDSET_OWNERS, type OwnerRow } from './kernel/owner-index.js';
import { createRecordset, deleteRecordset, listAllRecordsets, updateRecordset } from './recordsets/recordset-writes.js';
import { blockKeys, importedZoneKeys, checkedBlock, isCurrentLayout, RECORDSET_ZONES, RECORDSETS, type ImportedZone, type RecordsetBlock } from './kernel/recordset.js';
import type { ApiError } from '../kernel/api-error.js';
import { resolveCaller, type RequestContext } from '../kernel/context.js';
import { EventBus } from './kernel/events.js';
import { taskCollection, TaskRunner, TASKS, type TaskHandler } from './kernel/tasks.js';
import { isUuidLike, pooledFill, uniformSource, uuidV4Source } from '../kernel/uuid.js';
import { abort, invalidIdSource, restoreFailed } from '../kernel/command.js';
import { abandonZone, createZone, deleteZone, getZone, listZones, updateZone, zoneNameservers } from './zones/zone-commands.js';
import { ZONE_PUSH } from './kernel/zone-operations.js';
import { DEFAULT_ZONE_LIMITS, type ZoneLimits } from './kernel/zone-rules.js';
import { zonePushHandler } from './zones/zone-push.js';
import type { Zone } from './kernel/zone.js';
import { ZONES, zoneKeys } from './kernel/zone-store.js';
import {
  createTransferAcceptCommands,
  createTransferRequestCommands,
  TRANSFER_COLLECTIONS,
  type TransferAcceptCommands,
  type TransferRequestCommands,
} from './transfers/index.js';
import {
  createExportCommands,
  EXPORT_COLLECTIONS,
  exportTaskHandler,
  ZONE_EXPORT_TASK,
  type ZoneExportCommands,
} from './exports/index.js';
import {
  createImportCommands,
  IMPORT_COLLECTIONS,
  importTaskHandler,
  ZONE_IMPORT_TASK,
  type ZoneImportCommands,
} from './imports/index.js';
import { DEFAULT_DNS_BASE_URL, type DnsDeps, type PoolConfig, type PoolTargetPort } from './kernel/deps.js';
import { linkBase } from '../kernel/list-query.js';
import type { MasterPort, TransferLimits } from '../ports/master.js';
import type { DnsEventFeed, DnsQuotaCommands, DnsTaskQueue, RecordsetCommands, ZoneCommands } from './service-groups.js';
import { DEFAULT_TRANSFER_LIMITS, xfrZone, ZONE_XFR_TASK, zoneXfrHandler } from './secondary/xfr.js';
// The admin resources of the v2 API (tsigkeys, pools, service statuses, limits, reverse).
import { createTsigkeyCommands, TSIGKEY_COLLECTIONS, type TsigkeyCommands } from './tsigkeys/index.js';
import { createPoolCommands, POOL_COLLECTIONS, type PoolCommands } from './pools/index.js';
import { createServiceStatusCommands, type ServiceStatusCommands } from './service-statuses/index.js';
import { createLimitsCommands, type LimitsCommands } from './limits/index.js';
import { createFloatingIpCommands, type FloatingIpCommands } from './reverse/index.js';
import { createTldCommands, type TldCommands } from './tlds/index.js';
import { createBlacklistCommands, type BlacklistCommands } from './blacklists/index.js';
import { BLACKLISTS, blacklistRepository, namePolicyCache, rulesWithoutToken, TLDS, tldRepository, type StoredBlacklist, type StoredTld } from './kernel/name-policy.js';
import { clearCollections, restoreSnapshot, takeSnapshot, type CollectionKeys, type ServiceSnapshot } from '../kernel/snapshot.js';

/**
 * Options of {@link createDnsService}. Every one has a default; tests usually inject `clock`,
 * `ids` and `random` for byte-stable answers.
 *
 * @category Zones
 */
export interface DnsServiceOptions {
  /** Where state lives. @defaultValue memoryStorage() */
  readonly storage?: Storage;
  /** Links are `${baseUrl}/v2/...`. @defaultValue 'http://localhost:9001' */
  readonly baseUrl?: string;
  /** Pools; the first is the default pool every zone goes to. @defaultValue one pool `794ccc2c-d751-44fe-b57f-8894c9f5c842` with `ns1.example.org.` */
  readonly pools?: readonly PoolConfig[];
  /** The time source. @defaultValue real time */
  readonly clock?: () => Date;
  /**
   * The id source; must give UUID-shaped strings, distinct for the life of the storage.
   * @defaultValue random version-4 UUIDs from `crypto.getRandomValues`, built as flat strings
   * (`crypto.randomUUID`'s are trees of about 450 bytes until read: an import that draws
   * hundreds of thousands of ids at once pays for that)
   */
  readonly ids?: () => string;
  /** A [0, 1) source for transfer keys and SOA refresh values. @defaultValue crypto-backed */
  readonly random?: () => number;
  /**
   * When asynchronous work runs. `'auto'`: the real service's timing: zone creates, updates and
   * deletes and recordset writes answer `PENDING` (HTTP 202) and their push runs by itself right
   * after the command (`await dns.tasks.settle()` waits for it). `'inline'`: with the default
   * pool targets that push is done inside the command, which answers `ACTIVE` (HTTP 201, the
   * spec's example); imports, exports and pushes to a `poolTargets` port still run as in
   * `'auto'`. `'manual'`: nothing runs until `dns.tasks.runNext()` or `settle()`.
   * @defaultValue 'auto'
   */
  readonly tasks?: 'auto' | 'inline' | 'manual';
  /** Default per-project quotas. @defaultValue zones 10, zone_recordsets 500, zone_records 500, recordset_records 20, api_export_size 1000 */
  readonly quotas?: Partial<ZoneQuotaLimits>;
  /** Limits and name rules. @defaultValue see {@link ZoneLimits} */
  readonly limits?: Partial<ZoneLimits>;
  /** Where zones are pushed. @defaultValue in-memory targets that always succeed */
  readonly poolTargets?: PoolTargetPort;
  /** Status of a policy refusal: 401 as the spec says, or 403 as the real service. @defaultValue 401 */
  readonly forbiddenStatus?: 401 | 403;
  /** A snapshot to start from (see {@link DnsService.snapshot}). */
  readonly from?: ServiceSnapshot;
  /**
   * Record types an import may store. The real service stores only its fixed list and fails an
   * import with any other type; widen the list to keep more of a file.
   * @defaultValue A, AAAA, CNAME, MX, SRV, TXT, SPF, NS, PTR, SSHFP, SOA, NAPTR, CAA, CERT
   */
  readonly importRecordTypes?: readonly string[];
  /**
   * How SECONDARY zones reach their masters: `axfrMasters()` from `zoneward/axfr` (DNS zone
   * transfer over TCP) or `scriptedMaster()` from `zoneward/testing`. Transferred records obey
   * the import's rules (`importRecordTypes`) but no project quota (the real service applies
   * none); `transferLimits` is their ceiling.
   * @defaultValue none: SECONDARY zones are never transferred, as when no master answers
   */
  readonly masters?: MasterPort;
  /**
   * The most one transfer from a master may bring, against hostile masters: records, and bytes
   * of record text (the zone file they make). A transfer past either is refused, as a master
   * that fails (nothing changes). Positive integers.
   * @defaultValue `{ maxRecords: 1_000_000, maxBytes: 134_217_728 }` (128 MiB): far above real zones
   */
  readonly transferLimits?: Partial<TransferLimits>;
}

/**
 * A DNS zone service (the v2 zone API) held in one object: every command takes the caller's
 * {@link RequestContext} first and answers a `ResultAsync` that never rejects.
 *
 * Its groups other than `zones`, `tasks` and `events` are built on first use, by getters its
 * prototype holds (a test that makes a service per case pays only for what it calls). So, as
 * with any class instance, `{ ...dns }` copies only the groups already used: to change one group,
 * wrap the service (`Object.create(dns, …)`, or an object that forwards) rather than spread it.
 *
 * @category Zones
 */
export interface DnsService {
  /** Zones: `/v2/zones`. */
  readonly zones: ZoneCommands;
  /** Zone transfer requests: `/v2/zones/tasks/transfer_requests` (created on `/v2/zones/{id}/tasks/transfer_requests`). */
  readonly transferRequests: TransferRequestCommands;
  /** Zone transfer accepts: `/v2/zones/tasks/transfer_accepts`. */
  readonly transferAccepts: TransferAcceptCommands;
  /** Zone-file imports: `/v2/zones/tasks/imports`, processed as tasks. */
  readonly imports: ZoneImportCommands;
  /** Zone-file exports: `/v2/zones/{id}/tasks/export` and `/v2/zones/tasks/exports`, processed as tasks. */
  readonly exports: ZoneExportCommands;
  /** Recordsets: the managed SOA and NS, imported ones, and those written through the API. */
  readonly recordsets: RecordsetCommands;
  /** The DNS service's per-project quotas: `/v2/quotas/{project}`. */
  readonly quotas: DnsQuotaCommands;
  /** TSIG keys: `/v2/tsigkeys`, admin only. */
  readonly tsigkeys: TsigkeyCommands;
  /** Pools: `/v2/pools`, admin only; the configured pools and those made through the API. */
  readonly pools: PoolCommands;
  /** What the deployment's services report: `/v2/service_statuses`, admin only. */
  readonly serviceStatuses: ServiceStatusCommands;
  /** `GET /v2/limits`. */
  readonly limits: LimitsCommands;
  /** PTR records of floating IPs: `/v2/reverse/floatingips`, answered as without a network service. */
  readonly floatingIps: FloatingIpCommands;
  /** TLDs: `/v2/tlds`, admin only; once any exists, zone names must end in one. */
  readonly tlds: TldCommands;
  /** Blacklisted zone-name patterns: `/v2/blacklists`, admin only. */
  readonly blacklists: BlacklistCommands;
  /** The asynchronous work queue. */
  readonly tasks: DnsTaskQueue;
  /** Notifications after successful changes. */
  readonly events: DnsEventFeed;
  /** A frozen, JSON-serialisable copy of all state, pending tasks and quota overrides included. */
  snapshot(): Promise<ServiceSnapshot>;
  /** Back to empty; configuration is kept. */
  reset(): Promise<void>;
  /**
   * Checks a caller as every command does first: credentials, then the admin-only elevations
   * (`allProjects`, `sudoProjectId`). The real service refuses those in its middleware, before
   * it routes or reads a request; an HTTP front calls this first to answer in the same order.
   *
   * @returns Ok, or the error any command would answer for this caller (401, or 401/403 `forbidden`)
   */
  authorize(ctx: RequestContext): Result<void, ApiError>;
  /**
   * The same service (same state, tasks, events and options) whose answers' links start with
   * `baseUrl` instead of the configured one: what an HTTP front uses to link to the origin a
   * client called (the real service links to the host of each request).
   *
   * @param baseUrl - scheme, host and any mount prefix, e.g. `http://127.0.0.1:8080/dns`
   */
  withBaseUrl(baseUrl: string): DnsService;
}

const DEFAULT_POOL: PoolConfig = Object.freeze({
  id: '794ccc2c-d751-44fe-b57f-8894c9f5c842',
  name: 'default',
  nameservers: Object.freeze([Object.freeze({ hostname: 'ns1.example.org.', priority: 1 })]),
});

const alwaysSucceeds: PoolTargetPort = Object.freeze({
  createZone: () => Promise.resolve(),
  updateZone: () => Promise.resolve(),
  deleteZone: () => Promise.resolve(),
});

// Captured at load so a host test that stubs globals cannot change what the defaults use.
const realClock = (): Date => new Date();
const getRandomValues = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
/**
 * The default id and random sources, one of each per process: random whichever service asks, and
 * a service made per test builds no pools (dear typed arrays) of its own.
 */
const randomFill = pooledFill(getRandomValues);
const defaultIds = uuidV4Source(randomFill);
const defaultRandom = uniformSource(randomFill);

/** The DNS service's collections and how each one's index keys derive from its values. @internal */
export const DNS_COLLECTIONS: CollectionKeys = {
  [ZONES]: (z: Zone) => zoneKeys(z),
  [RECORDSETS]: (b: RecordsetBlock) => blockKeys(b),
  [RECORDSET_ZONES]: (r: ImportedZone) => importedZoneKeys(r),
  [RECORDSET_OWNERS]: (r: OwnerRow) => ownerRowKeys(r),
  [TASKS]: taskCollection.keys,
  'dns.meta': () => ({}),
  'dns.quotas': () => ({}),
  ...TRANSFER_COLLECTIONS,
  ...IMPORT_COLLECTIONS,
  ...EXPORT_COLLECTIONS,
  ...TSIGKEY_COLLECTIONS,
  ...POOL_COLLECTIONS,
  [TLDS]: (t: StoredTld) => tldRepository.collection.keys(t),
  [BLACKLISTS]: (b: StoredBlacklist) => blacklistRepository.collection.keys(b),
};

function checkSnapshot(from: ServiceSnapshot): void {
  if (from === null || typeof from !== 'object' || from.format !== 1 || from.service !== 'dns' || typeof from.collections !== 'object') {
    throw new TypeError('createDnsService: `from` is not a DNS service snapshot (take one with dns.snapshot()).');
  }
  // A collection this version does not store (e.g. `dns.recordsets`, which the recordset blocks
  // replaced) would otherwise be dropped without a word: refuse rather than lose data.
  const unknown = Object.keys(from.collections).filter((name) => !Object.hasOwn(DNS_COLLECTIONS, name));
  if (unknown.length > 0) {
    throw new TypeError(
      `createDnsService: the snapshot holds collections this version of zoneward does not know (${unknown.join(', ')}); it was taken by another version.`,
    );
  }
  // Zone creates would not see the rules until the next write of one.
  if (rulesWithoutToken(from.collections)) {
    throw new TypeError('createDnsService: the snapshot holds TLDs or blacklist patterns without the dns.meta row that announces them; it was not taken by dns.snapshot().');
  }
  // Written recordsets inside imported blocks (an earlier layout) would be restored without the
  // indexes their lists read.
  const otherVersion = () =>
    new TypeError('createDnsService: the snapshot stores recordsets in a layout this version of zoneward does not read; it was taken by another version.');
  // Imported blocks without their owner index (an earlier layout) would be invisible to the
  // name rules of recordset writes.
  for (const row of from.collections[RECORDSET_ZONES] ?? []) {
    const value: unknown = row.value;
    if (value !== null && typeof value === 'object' && !('ownerBits' in value)) throw otherVersion();
  }
  for (const row of from.collections[RECORDSETS] ?? []) {
    // Blocks of the earlier layouts name no project, or keep an array of types, which the block
    // check would report as a corrupt field: say which version problem it is instead.
    const value: unknown = row.value;
    if (value !== null && typeof value === 'object' && (!('projectId' in value) || !('typeCodes' in value))) throw otherVersion();
    let block: RecordsetBlock;
    try {
      block = checkedBlock(row.id, value);
    } catch (cause) {
      throw new TypeError(`createDnsService: the snapshot holds a recordset block that is not one (${cause instanceof Error ? cause.message : String(cause)}).`);
    }
    if (!isCurrentLayout(block)) throw otherVersion();
  }
}

/**
 * A caller's id source, checked at every draw: an id that is not UUID-shaped would create what
 * no path can ever name again, so the command drawing it fails instead (500 `invalid_id_source`).
 * Ids are drawn only inside a command's transaction, where {@link abort} rolls it back.
 */
const checkedIds =
  (source: () => string): (() => string) =>
  () => {
    const id = source();
    return isUuidLike(id) ? id : abort(invalidIdSource(id));
  };

/** Throws what the restore failed with, for the service methods that are plain promises. */
async function whenRestored(restored: Promise<Result<void, ApiError>>): Promise<void> {
  const r = await restored;
  if (r.isErr()) throw r.error;
}

/**
 * Builds what every DNS command needs from the service options, with the task handlers
 * registered and a restore of `options.from` under way (`deps.ready`). The one place where
 * defaults are applied, shared by {@link createDnsService} and tests of single command groups.
 * @internal
 */
export function createDnsDeps(options: DnsServiceOptions = {}): DnsDeps {
  const storage = options.storage ?? memoryStorage();
  const pools = options.pools !== undefined && options.pools.length > 0 ? options.pools : [DEFAULT_POOL];
  const mode = options.tasks ?? 'auto';
  const from = options.from;
  const tasks = new TaskRunner(storage, mode === 'manual' ? 'manual' : 'auto');
  const restored: Promise<Result<void, ApiError>> =
    from === undefined
      ? Promise.resolve(ok(undefined))
      : restoreSnapshot(storage, from, DNS_COLLECTIONS)
          .then(() => tasks.recount())
          .then(
            () => ok(undefined),
            (cause: unknown) => err(restoreFailed(cause)),
          );
  tasks.waitFor(restored, from?.collections[TASKS]?.length ?? 0);
  const deps: DnsDeps = {
    storage,
    restored,
    dialect: 'dns',
    baseUrl: linkBase(options.baseUrl ?? DEFAULT_DNS_BASE_URL),
    clock: options.clock ?? realClock,
    ids: options.ids === undefined ? defaultIds : checkedIds(options.ids),
    random: options.random ?? defaultRandom,
    forbiddenStatus: options.forbiddenStatus ?? 401,
    limits: options.limits === undefined ? DEFAULT_ZONE_LIMITS : { ...DEFAULT_ZONE_LIMITS, ...options.limits },
    quotaDefaults: options.quotas === undefined ? DEFAULT_ZONE_QUOTAS : { ...DEFAULT_ZONE_QUOTAS, ...options.quotas },
    pools,
    defaultPool: pools[0]!,
    events: new EventBus(),
    tasks,
    poolTargets: options.poolTargets ?? alwaysSucceeds,
    masters: options.masters,
    inlinePush: mode === 'inline' && options.poolTargets === undefined,
    instantTargets: options.poolTargets === undefined,
    namePolicy: namePolicyCache(),
  };
  const importOptions = options.importRecordTypes === undefined ? {} : { recordTypes: importRecordTypes(options.importRecordTypes) };
  const xfrLimits = transferLimits(options.transferLimits);
  tasks.register(ZONE_PUSH, onFirstTask(() => zonePushHandler(deps)));
  tasks.register(ZONE_IMPORT_TASK, onFirstTask(() => importTaskHandler(deps, importOptions)));
  tasks.register(ZONE_EXPORT_TASK, onFirstTask(() => exportTaskHandler(deps)));
  // Concurrent: a transfer waits on a master, and a slow master must not hold every other zone's tasks.
  tasks.register(ZONE_XFR_TASK, onFirstTask(() => zoneXfrHandler(deps, importOptions, xfrLimits)), true);
  return deps;
}

/**
 * A task handler built when the first task of its kind runs: a service made for one test runs
 * pushes at most, and each handler is a set of closures over the deps.
 */
function onFirstTask(make: () => TaskHandler): TaskHandler {
  let handler: TaskHandler | undefined;
  return (task) => (handler ??= make())(task);
}

/**
 * The import's record types of the options, checked here: the handlers that read them are built
 * on the first task, and a programming error must surface at construction, as for `from`.
 */
function importRecordTypes(given: unknown): readonly string[] {
  if (!Array.isArray(given) || !given.every((t) => typeof t === 'string' && t !== '')) {
    throw new TypeError(`createDnsService: importRecordTypes must be an array of record type names, not ${JSON.stringify(given) ?? String(given)}`);
  }
  return Object.freeze([...(given as string[])]);
}

/** The transfer ceiling of the options, checked (a programming error is a TypeError, as for `from`). */
function transferLimits(given: Partial<TransferLimits> | undefined): TransferLimits {
  if (given === undefined) return DEFAULT_TRANSFER_LIMITS;
  const limits = { ...DEFAULT_TRANSFER_LIMITS, ...given };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`createDnsService: transferLimits.${key} must be a positive integer, not ${String(value)}`);
  }
  return limits;
}

/**
 * Creates a DNS zone service.
 *
 * @param options - storage, clock, ids, pools, quotas, limits, task mode; all optional
 * @returns the service: `zones`, `recordsets`, `quotas`, `tasks`, `events`, `snapshot`, `reset`
 * @throws TypeError only for a malformed `from` snapshot or `transferLimits` (a programming error, not a request)
 * @example
 * ```ts
 * import { createDnsService } from 'zoneward';
 *
 * const dns = createDnsService();
 * const alice = { projectId: 'alice', roles: ['member'] };
 * const zone = await dns.zones.create(alice, { name: 'example.com.', email: 'admin@example.com' });
 * if (zone.isOk()) console.log(zone.value.status); // 'PENDING', as the real service answers
 * await dns.tasks.settle();
 * const served = await dns.zones.get(alice, zone._unsafeUnwrap().id);
 * if (served.isOk()) console.log(served.value.status); // 'ACTIVE'
 * ```
 * @category Zones
 */
export function createDnsService(options: DnsServiceOptions = {}): DnsService {
  if (options.from !== undefined) checkSnapshot(options.from);
  return serviceOver(createDnsDeps(options));
}

/** The commands over one set of deps; views from `withBaseUrl` share everything but the link base. */
function serviceOver(deps: DnsDeps): DnsService {
  const { storage, tasks, restored } = deps;
  const service = {
    __proto__: LAZY_GROUP_GETTERS,
    [DEPS]: deps,
    zones: {
      create: (ctx, body) => createZone(deps, ctx, body),
      get: (ctx, id) => getZone(deps, ctx, id),
      list: (ctx, query) => listZones(deps, ctx, query),
      update: (ctx, id, body) => updateZone(deps, ctx, id, body),
      delete: (ctx, id) => deleteZone(deps, ctx, id),
      abandon: (ctx, id) => abandonZone(deps, ctx, id),
      nameservers: (ctx, id) => zoneNameservers(deps, ctx, id),
      xfr: (ctx, id) => xfrZone(deps, ctx, id),
    },
    tasks: {
      settle: () => tasks.settle(),
      pending: () => tasks.pending(),
      runNext: () => tasks.runNext(),
    },
    events: { subscribe: (listener) => deps.events.subscribe(listener) },
    snapshot: async () => {
      await whenRestored(restored);
      return takeSnapshot(storage, 'dns', DNS_COLLECTIONS);
    },
    reset: async () => {
      await whenRestored(restored);
      await clearCollections(storage, DNS_COLLECTIONS);
      tasks.cleared();
    },
    authorize: (ctx) => resolveCaller(ctx, deps.forbiddenStatus).map(() => undefined),
    withBaseUrl: (baseUrl) => serviceOver({ ...deps, baseUrl: linkBase(baseUrl) }),
  } as Pick<DnsService, 'zones' | 'tasks' | 'events' | 'snapshot' | 'reset' | 'authorize' | 'withBaseUrl'> as DnsService;
  return service;
}

/** Where a service keeps its deps for the groups built on first use. */
const DEPS = Symbol('deps');

/** The groups of a service built on first use, and how. */
const LAZY_GROUPS: readonly (readonly [keyof DnsService, (deps: DnsDeps) => unknown])[] = [
  ['transferRequests', createTransferRequestCommands],
  ['transferAccepts', createTransferAcceptCommands],
  ['imports', createImportCommands],
  ['exports', createExportCommands],
  [
    'recordsets',
    (deps): RecordsetCommands => ({
      list: (ctx, zoneId, query) => listRecordsets(deps, ctx, zoneId, query),
      get: (ctx, zoneId, id) => getRecordset(deps, ctx, zoneId, id),
      create: (ctx, zoneId, body) => createRecordset(deps, ctx, zoneId, body),
      update: (ctx, zoneId, id, body) => updateRecordset(deps, ctx, zoneId, id, body),
      delete: (ctx, zoneId, id) => deleteRecordset(deps, ctx, zoneId, id),
      listAll: (ctx, query) => listAllRecordsets(deps, ctx, query),
      find: (ctx, id) => findRecordsetAnywhere(deps, ctx, id),
    }),
  ],
  [
    'quotas',
    (deps): DnsQuotaCommands => {
      const quotaDeps = { ...deps, defaults: deps.quotaDefaults };
      return {
        get: (ctx, projectId) => getDnsQuotas(quotaDeps, ctx, projectId),
        set: (ctx, projectId, body) => setDnsQuotas(quotaDeps, ctx, projectId, body),
        reset: (ctx, projectId) => resetDnsQuotas(quotaDeps, ctx, projectId),
      };
    },
  ],
  ['tsigkeys', createTsigkeyCommands],
  ['pools', createPoolCommands],
  ['serviceStatuses', createServiceStatusCommands],
  ['limits', createLimitsCommands],
  ['floatingIps', createFloatingIpCommands],
  ['tlds', createTldCommands],
  ['blacklists', createBlacklistCommands],
];

/**
 * Every service's prototype: a test makes a service and uses two or three of its groups, so the
 * others are built on first use, once per service (each is a set of closures over the deps), and
 * then kept on the service itself. Getters on one shared prototype, not accessors defined per
 * service, which cost more than the test's zone create.
 */
const LAZY_GROUP_GETTERS: object = Object.freeze(
  Object.defineProperties(
    {},
    Object.fromEntries(
      LAZY_GROUPS.map(([name, make]) => [
        name,
        {
          enumerable: true,
          get(this: { readonly [DEPS]: DnsDeps }): unknown {
            const group = make(this[DEPS]);
            Object.defineProperty(this, name, { value: group, enumerable: true });
            return group;
          },
        },
      ]),
    ),
  ),
);
