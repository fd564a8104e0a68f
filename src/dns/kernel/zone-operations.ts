import { err, ok, type Result } from 'neverthrow';
import type { DnsDeps } from './deps.js';
import { checkZoneQuota, readZoneQuotas } from './zone-quotas.js';
import { removeRecordsets } from './recordset-store.js';
import type { CompleteTransaction } from '../../ports/storage.js';
import type { ApiError } from '../../kernel/api-error.js';
import type { UnitOfWork } from '../../kernel/command.js';
import type { Caller } from '../../kernel/context.js';
import { uuidParam } from '../../kernel/errors.js';
import { enqueueTask, type StoredTask } from './tasks.js';
import { toMicros, unixSeconds } from './time.js';
import { duplicateZone, noServersConfigured, zoneNotFound } from './zone-errors.js';
import { canSee, nameAcrossProjects } from './zone-policy.js';
import { presentZone, type Zone, type ZoneAction } from './zone.js';
import { zoneRepository as zones } from './zone-store.js';
import { checkTtlFloor, checkZoneName, nullTtl } from './zone-rules.js';
import { readNamePolicy } from './name-policy.js';
import { applyReport, softDeleted, updated } from './zone-lifecycle.js';

/**
 * What every DNS concept does to a zone, whichever command it serves: find one the caller may
 * see, store a change and hand it to the pool targets, create one (the API's create and an
 * import share this path), remove one with what it holds, ask for a SECONDARY zone's transfer.
 * The zone commands themselves are in zones/zone-commands.ts.
 * @module
 */

/** Task kind of a push to the pool targets. @internal */
export const ZONE_PUSH = 'zone.push';

/** Reads a zone the caller may see, or 404. @internal */
export async function visibleZone(tx: CompleteTransaction, caller: Caller, id: string): Promise<Result<Zone, ApiError>> {
  const zone = await zones.byId(tx, id);
  if (zone === undefined || !canSee(caller, zone.projectId)) return err(zoneNotFound());
  return ok(zone);
}

/** Emits the legacy and current event names of one zone change, as the real service does. @internal */
export function emitZoneEvent(deps: DnsDeps, uow: UnitOfWork, verb: 'create' | 'update' | 'delete', zone: Zone): void {
  if (!deps.events.listening) return;
  const body = presentZone(zone, deps.baseUrl);
  uow.afterCommit(() => {
    deps.events.emit(`dns.domain.${verb}`, body);
    deps.events.emit(`dns.zone.${verb}`, body);
  });
}

/**
 * Stores a changed zone, announces the change, and hands it to the pool targets. With the
 * default targets in `'inline'` mode they accept at once, so their report is applied before the
 * write: the row is written once, already ACTIVE (or removed), with no task and no second
 * commit. Otherwise the zone is stored as it is and a push task is queued. Returns the zone as
 * it now stands, and the task if one was queued. `verb` null announces nothing until the zone
 * is served: a recordset write announces only its recordset, as the real service does.
 * @internal
 */
export async function saveAndPush(
  deps: DnsDeps,
  uow: UnitOfWork,
  zone: Zone,
  verb: 'create' | 'update' | 'delete' | null,
  action: ZoneAction,
  isNew = false,
): Promise<{ zone: Zone; task: StoredTask | undefined }> {
  const store = isNew ? zones.insert : zones.put;
  if (verb !== null) emitZoneEvent(deps, uow, verb, zone);
  if (deps.inlinePush) {
    const next = applyReport(zone, { action, outcome: 'SUCCESS', serial: zone.serial }, deps.clock());
    if (next === 'gone') {
      await removeZone(uow.tx, zone);
      emitZoneEvent(deps, uow, 'update', softDeleted(zone));
      return { zone, task: undefined };
    }
    await store(uow.tx, next);
    emitZoneEvent(deps, uow, 'update', next);
    return { zone: next, task: undefined };
  }
  await store(uow.tx, zone);
  const task = await enqueueTask(uow.tx, deps.ids(), ZONE_PUSH, zone.id, { action, serial: zone.serial });
  uow.afterCommit(() => deps.tasks.queued(task));
  return { zone, task };
}

/** Input of {@link insertZone}: a validated zone about to be created. @internal */
export interface NewZone {
  readonly projectId: string;
  readonly name: string;
  readonly email: string;
  readonly description: string | null;
  /** Null only from a create body that sent `ttl: null`, which fails where the real service's insert does. */
  readonly ttl: number | null;
  readonly type: 'PRIMARY' | 'SECONDARY';
  readonly masters: readonly string[];
  readonly attributes: Readonly<Record<string, string>>;
  /** The serial to start with (imports keep the file's); default: now. */
  readonly serial?: number;
  readonly retry?: number;
  readonly expire?: number;
  /** The SOA refresh, when the caller drew it earlier (an import, when it was queued); default: drawn now. */
  readonly refresh?: number;
  /** Stored recordsets the caller will add in the same transaction (for the quota check). */
  readonly extraRecordsets?: number;
}

/**
 * Creates a zone inside a transaction with every rule of the real service, in its order: zone
 * quota, name rules, TTL floor, ownership conflicts across projects and pools, pool, then the
 * insert, its push task and the re-parenting of existing subzones. Shared by create and import.
 * `covering`: the caller's transaction has read nothing yet, and this is all it decides on (a
 * create; see the storage port's `lock`).
 * @internal
 */
export async function insertZone(
  deps: DnsDeps,
  uow: UnitOfWork,
  caller: Caller,
  input: NewZone,
  covering = false,
): Promise<Result<{ zone: Zone; task: StoredTask | undefined }, ApiError>> {
  const { tx } = uow;
  // All at once, in one round trip over a database; the name's locks are asked for first.
  const [{ owned: counted, same, below, ancestors }, quotas] = await Promise.all([
    zones.aroundNewZone(tx, input.name, input.projectId, covering),
    readZoneQuotas(tx, input.projectId, deps.quotaDefaults),
  ]);
  if (quotas.zones >= 0) {
    const zq = checkZoneQuota(quotas, 'zones', counted + 1);
    if (zq.isErr()) return err(zq.error);
  }
  const policy = await readNamePolicy(tx, deps.namePolicy, deps.limits);
  const named = checkZoneName(input.name, deps.limits, caller.isAdmin, policy);
  if (named.isErr()) return err(named.error);
  if (input.type === 'PRIMARY' && input.ttl !== null) {
    const ttl = checkTtlFloor(input.ttl, deps.limits, caller.isAdmin);
    if (ttl.isErr()) return err(ttl.error);
  }

  // A pool whose nameservers were changed through the API gives a new zone those.
  const nameservers = policy.nameservers.get(deps.defaultPool.id);
  const pool = nameservers === undefined ? deps.defaultPool : { ...deps.defaultPool, nameservers };
  const owned = nameAcrossProjects(input.projectId, { same, ancestors, below }, deps.forbiddenStatus);
  if (owned.isErr()) return err(owned.error);
  if (same.some((z) => z.poolId === pool.id)) return err(duplicateZone());
  if (pool.nameservers.length === 0) return err(noServersConfigured());
  if (input.type === 'PRIMARY') {
    const rq = checkZoneQuota(quotas, 'zone_recordsets', 2 + (input.extraRecordsets ?? 0));
    if (rq.isErr()) return err(rq.error);
  }
  if (input.ttl === null) return err(nullTtl());

  const now = deps.clock();
  const micros = toMicros(now);
  const primary = input.type === 'PRIMARY';
  const id = deps.ids();
  // The SOA and NS recordsets' ids; the real service creates the SOA first, so the default list
  // (created_at, then id) shows it first; both share the zone's created_at here, so the SOA takes
  // the smaller of the two ids drawn. A SECONDARY zone too gets the service's own SOA until its
  // first transfer (the real one does), and no NS recordset.
  const a = deps.ids();
  const b = primary ? deps.ids() : null;
  // One object literal, no spreads: a create is the hottest write of a test suite.
  const fields: Zone = {
    id,
    poolId: pool.id,
    projectId: input.projectId,
    name: input.name,
    email: input.email,
    description: input.description,
    ttl: input.ttl,
    serial: input.serial ?? (primary ? unixSeconds(micros) : 1),
    status: 'PENDING',
    action: 'CREATE',
    version: 1,
    attributes: input.attributes,
    type: input.type,
    masters: input.masters,
    createdAt: micros,
    updatedAt: null,
    transferredAt: null,
    refresh: input.refresh ?? drawRefresh(deps),
    retry: input.retry ?? 600,
    expire: input.expire ?? 86400,
    minimum: 3600,
    parentZoneId: ancestors.find((z) => z.poolId === pool.id)?.id ?? null,
    soaRecordsetId: b === null || a < b ? a : b,
    nsRecordsetId: b === null ? null : a < b ? b : a,
    recordsetCount: 0,
    recordCount: 0,
  };
  const zone: Zone = Object.freeze(nameservers === undefined ? fields : withNameservers(fields, nameservers));
  const pushed = await saveAndPush(deps, uow, zone, 'create', 'CREATE', true);

  for (const child of below) {
    if (child.poolId !== pool.id) continue;
    await saveAndPush(deps, uow, updated(child, now, { parentZoneId: zone.id }), 'update', 'UPDATE');
  }
  return ok(pushed);
}

/**
 * A new zone's SOA refresh: 3500 to 3599 seconds, from the service's random source.
 * @internal
 */
export const drawRefresh = (deps: Pick<DnsDeps, 'random'>): number => 3500 + Math.floor(deps.random() * 100);

/** A new zone given its pool's changed name servers, its fields in the order every zone keeps them. */
function withNameservers(fields: Zone, nameservers: NonNullable<Zone['nameservers']>): Zone {
  const { recordsetCount, recordCount, ...rest } = fields;
  return { ...rest, nameservers, recordsetCount, recordCount };
}

/** A path's zone id, or 400 `invalid_uuid`. @internal */
export const zoneIdParam = (id: unknown): Result<string, ApiError> => uuidParam('zone_id', id);

/**
 * Removes a zone and everything stored under it (its recordset blocks and their owner index).
 * The row goes first: its removal takes the name's lock, which must come before the reads of
 * what the zone holds.
 * @internal
 */
export async function removeZone(tx: CompleteTransaction, zone: Zone): Promise<void> {
  await zones.remove(tx, zone);
  await removeRecordsets(tx, zone.id);
}

/** Task kind of a zone transfer from the masters (SECONDARY zones), run by `secondary/`. @internal */
export const ZONE_XFR_TASK = 'zone.xfr';

/**
 * Queues a transfer of a SECONDARY zone from its masters, inside the caller's transaction; a
 * service without a master port has none to run. In the kernel rather than in `secondary/`, which
 * runs the transfer, because zones ask for one on create and update and import no other concept.
 * @internal
 */
export async function requestTransfer(deps: DnsDeps, uow: UnitOfWork, zoneId: string, ifNewer: boolean): Promise<void> {
  if (deps.masters === undefined) return;
  await enqueueTask(uow.tx, deps.ids(), ZONE_XFR_TASK, zoneId, { ifNewer: ifNewer ? 1 : 0 });
  uow.afterCommit(() => deps.tasks.queued());
}
