import { err, ok, safeTry, type Result, type ResultAsync } from 'neverthrow';
import type { DnsDeps, NameserversBody } from './deps.js';
import { listOwned, type ListEnvelope } from '../shared/list-command.js';
import { checkZoneQuota, readZoneQuotas, type ZoneQuotaLimits } from './zone-quotas.js';
import type { StorageTransaction } from '../ports/storage.js';
import type { ApiError } from '../shared/api-error.js';
import { command, type UnitOfWork } from '../shared/command.js';
import { requireProject, type Caller } from '../shared/context.js';
import { uuidParam } from '../shared/errors.js';
import { emptyRequestBody } from '../shared/validation.js';
import type { ListSpec } from '../shared/list-query.js';
import { enqueueTask, type StoredTask } from '../shared/tasks.js';
import { toMicros, unixSeconds } from '../shared/time.js';
import {
  duplicateZone,
  noServersConfigured,
  movingZone,
  renamingZone,
  updatingDeletingZone,
  zoneHasSubzone,
  zoneNotFound,
} from './zone-errors.js';
import { authorizeZone, canSee, nameAcrossProjects } from './zone-policy.js';
import { presentZone, type Zone, type ZoneAction, type ZoneBody } from './zone.js';
import { zoneRepository as zones, type NameNeighbourhood } from './zone-store.js';
import { checkTtlFloor, checkZoneName, nullTtl, parseZoneBody, validateZone, type ZoneInput } from './zone-input.js';
import { applyReport, markedForDeletion, softDeleted, updated } from './zone-lifecycle.js';

// Shared by every zone that has none: a million zones need not hold a million empty objects.
const NO_MASTERS: readonly string[] = Object.freeze([]);
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/** Task kind of a push to the pool targets. @internal */
export const ZONE_PUSH = 'zone.push';

/** Reads a zone the caller may see, or 404. @internal */
export async function visibleZone(tx: StorageTransaction, caller: Caller, id: string): Promise<Result<Zone, ApiError>> {
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
 * default targets in auto mode they accept at once, so their report is applied before the
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
      await removeZone(deps, uow.tx, zone);
      emitZoneEvent(deps, uow, 'update', softDeleted(zone));
      return { zone, task: undefined };
    }
    await store(uow.tx, next);
    emitZoneEvent(deps, uow, 'update', next);
    return { zone: next, task: undefined };
  }
  await store(uow.tx, zone);
  const task = await enqueueTask(uow.tx, deps.ids(), ZONE_PUSH, zone.id, { action, serial: zone.serial });
  uow.afterCommit(() => deps.tasks.queued());
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
  /** Stored recordsets the caller will add in the same transaction (for the quota check). */
  readonly extraRecordsets?: number;
}

/**
 * Creates a zone inside a transaction with every rule of the real service, in its order: zone
 * quota, name rules, TTL floor, ownership conflicts across projects and pools, pool, then the
 * insert, its push task and the re-parenting of existing subzones. Shared by create and import.
 * @internal
 */
export async function insertZone(
  deps: DnsDeps,
  uow: UnitOfWork,
  caller: Caller,
  input: NewZone,
): Promise<Result<{ zone: Zone; task: StoredTask | undefined }, ApiError>> {
  const { tx } = uow;
  // Over a database (an adapter with locks) the reads go at once, in one round trip, the count
  // too although only a quota needs it; the memory adapter reads one after another, and the count
  // only when needed, which is cheaper there. Checked in the real service's order either way.
  let quotas: ZoneQuotaLimits;
  let counted: number | undefined;
  let around: NameNeighbourhood;
  if (tx.lock !== undefined) {
    await zones.lockName(tx, input.name, [input.projectId]);
    [quotas, counted, around] = await Promise.all([
      readZoneQuotas(tx, input.projectId, deps.quotaDefaults),
      zones.countOfProject(tx, input.projectId),
      zones.neighbourhood(tx, input.name),
    ]);
  } else {
    quotas = await readZoneQuotas(tx, input.projectId, deps.quotaDefaults);
    around = await zones.neighbourhood(tx, input.name);
  }
  const { same, below, ancestors } = around;
  if (quotas.zones >= 0) {
    const owned = counted ?? (await zones.countOfProject(tx, input.projectId));
    const zq = checkZoneQuota(quotas, 'zones', owned + 1);
    if (zq.isErr()) return err(zq.error);
  }
  const named = checkZoneName(input.name, deps.limits, caller.isAdmin);
  if (named.isErr()) return err(named.error);
  if (input.type === 'PRIMARY' && input.ttl !== null) {
    const ttl = checkTtlFloor(input.ttl, deps.limits, caller.isAdmin);
    if (ttl.isErr()) return err(ttl.error);
  }

  const pool = deps.defaultPool;
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
  const zone: Zone = Object.freeze({
    id: deps.ids(),
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
    refresh: 3500 + Math.floor(deps.random() * 100),
    retry: input.retry ?? 600,
    expire: input.expire ?? 86400,
    minimum: 3600,
    parentZoneId: ancestors.find((z) => z.poolId === pool.id)?.id ?? null,
    // A SECONDARY zone too gets the service's own SOA until its first transfer (the real one does).
    soaRecordsetId: deps.ids(),
    nsRecordsetId: primary ? deps.ids() : null,
    recordsetCount: 0,
    recordCount: 0,
  });
  const pushed = await saveAndPush(deps, uow, zone, 'create', 'CREATE', true);

  for (const child of below) {
    if (child.poolId !== pool.id) continue;
    await saveAndPush(deps, uow, updated(child, now, { parentZoneId: zone.id }), 'update', 'UPDATE');
  }
  return ok(pushed);
}

/** The zone body a command answers: as it stands now (ACTIVE when the push already happened). */
const answer = (deps: DnsDeps, pushed: { zone: Zone }): ZoneBody => presentZone(pushed.zone, deps.baseUrl);

/** A path's zone id, or 400 `invalid_uuid`. @internal */
export const zoneIdParam = (id: unknown): Result<string, ApiError> => uuidParam('zone_id', id);

/** A create body, parsed and checked as the real service's schema and object do. */
function parseCreate(body: unknown, deps: DnsDeps): Result<ZoneInput & { name: string; type: 'PRIMARY' | 'SECONDARY' }, ApiError> {
  if (body === undefined || body === null) return err(emptyRequestBody());
  return parseZoneBody(body, undefined, deps.limits).andThen((input) => {
    const type = input.type ?? 'PRIMARY';
    return validateZone({ type, email: input.email, masters: input.masters ?? [], name: input.name }, input).map(() => ({
      ...input,
      name: input.name!,
      type,
    }));
  });
}

/** `POST /v2/zones`. @internal */
export function createZone(deps: DnsDeps, ctx: unknown, body: unknown): ResultAsync<ZoneBody, ApiError> {
  return command(deps, ctx, {
    parse: () => parseCreate(body, deps),
    // create_zone: admin or owner, the owner being the caller's own project, which it must have.
    authorize: (caller) => requireProject(caller),
    transaction: async (uow, caller, input) => {
      // Before any read, and covering: what a create reads is guarded by these locks, so an
      // adapter may leave out its own read tracking (docs/postgres.md).
      if (uow.tx.lock !== undefined) await zones.lockName(uow.tx, input.name, [caller.projectId!], true);
      const inserted = await insertZone(deps, uow, caller, {
        projectId: caller.projectId!,
        name: input.name,
        email: input.type === 'PRIMARY' ? input.email! : deps.limits.managedResourceEmail,
        description: input.description ?? null,
        ttl: input.ttl === undefined ? 3600 : input.ttl,
        type: input.type,
        masters: input.masters ?? NO_MASTERS,
        attributes: input.attributes ?? NO_ATTRIBUTES,
      });
      // The real service asks its worker for a transfer of every new SECONDARY zone.
      if (inserted.isOk() && input.type === 'SECONDARY') await requestTransfer(deps, uow, inserted.value.zone.id, false);
      return inserted.map((pushed) => answer(deps, pushed));
    },
  });
}

/** `GET /v2/zones/{id}`. @internal */
export function getZone(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<ZoneBody, ApiError> {
  return command(deps, ctx, {
    parse: () => zoneIdParam(id),
    transaction: async ({ tx }, caller, zoneId) => (await visibleZone(tx, caller, zoneId)).map((z) => presentZone(z, deps.baseUrl)),
  });
}

/** `GET /v2/zones/{id}/nameservers`. @internal */
export function zoneNameservers(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<NameserversBody, ApiError> {
  return command(deps, ctx, {
    parse: () => zoneIdParam(id),
    transaction: async ({ tx }, caller, zoneId) =>
      (await visibleZone(tx, caller, zoneId)).map((z) => {
        const pool = deps.pools.find((p) => p.id === z.poolId) ?? deps.defaultPool;
        return { nameservers: pool.nameservers.map((ns) => ({ hostname: ns.hostname, priority: ns.priority })) };
      }),
  });
}

/** How zones are listed. @internal */
export const zoneListSpec = (baseUrl: string): ListSpec<Zone> => ({
  path: '/v2/zones',
  envelope: 'zones',
  metadata: true,
  filters: {
    name: (z) => z.name,
    type: (z) => z.type,
    email: (z) => (z.type === 'SECONDARY' ? null : z.email),
    status: (z) => z.status,
    description: (z) => z.description,
    ttl: (z) => (z.type === 'SECONDARY' ? null : z.ttl),
  },
  sortKeys: {
    created_at: (z) => z.createdAt,
    id: (z) => z.id,
    updated_at: (z) => z.updatedAt,
    name: (z) => z.name,
    tenant_id: (z) => z.projectId,
    serial: (z) => z.serial,
    ttl: (z) => z.ttl,
    status: (z) => z.status,
  },
  present: (z) => presentZone(z, baseUrl),
});

/**
 * One page of zones (`GET /v2/zones`).
 *
 * @category Zones
 */
export type ZoneList = ListEnvelope<'zones', ZoneBody>;

/** `GET /v2/zones`. @internal */
export function listZones(deps: DnsDeps, ctx: unknown, query: unknown): ResultAsync<ZoneList, ApiError> {
  return listOwned<ZoneList, Zone>(deps, ctx, query, zoneListSpec(deps.baseUrl), zones.listScope);
}

/** `PATCH /v2/zones/{id}`. @internal */
export function updateZone(deps: DnsDeps, ctx: unknown, id: unknown, body: unknown): ResultAsync<ZoneBody, ApiError> {
  return command(deps, ctx, {
    parse: () => zoneIdParam(id).andThen((zoneId) => (body === undefined || body === null ? err(emptyRequestBody()) : ok(zoneId))),
    transaction: (uow, caller, zoneId) =>
      safeTry(async function* () {
        const zone = yield* await visibleZone(uow.tx, caller, zoneId);
        if (zone.action === 'DELETE') return err(updatingDeletingZone());
        // The body is read against the stored zone: `name` and `type` may be resent unchanged.
        const input = yield* parseZoneBody(body, zone, deps.limits);
        yield* validateZone(
          { type: zone.type, email: input.email ?? zone.email, masters: input.masters ?? zone.masters, name: zone.name },
          input,
        );
        yield* authorizeZone('update_zone', deps.forbiddenStatus, caller, zone.projectId);
        if (input.projectId !== undefined) return err(movingZone());
        if (input.name !== undefined) return err(renamingZone());
        if (input.ttl !== undefined && input.ttl !== null && input.ttl !== zone.ttl) {
          yield* checkTtlFloor(input.ttl, deps.limits, caller.isAdmin);
        }
        if (input.ttl === null) return err(nullTtl());
        const changes: { -readonly [K in keyof Zone]?: Zone[K] } = {};
        if (input.email !== undefined) changes.email = input.email;
        if (input.description !== undefined) changes.description = input.description;
        if (input.ttl !== undefined) changes.ttl = input.ttl;
        if (input.masters !== undefined) changes.masters = input.masters;
        if (input.attributes !== undefined) {
          changes.attributes = input.attributes;
          changes.transferredAt = null;
        }
        const saved = await saveAndPush(deps, uow, updated(zone, deps.clock(), changes), 'update', 'UPDATE');
        // Masters sent at all count as changed, as any assignment does there; a transfer follows.
        if (zone.type === 'SECONDARY' && input.masters !== undefined) await requestTransfer(deps, uow, zone.id, false);
        return ok(answer(deps, saved));
      }),
  });
}

/** `DELETE /v2/zones/{id}`: answered `DELETE/PENDING`; the zone goes once the targets removed it. @internal */
export function deleteZone(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<ZoneBody, ApiError> {
  return command(deps, ctx, {
    parse: () => zoneIdParam(id),
    transaction: (uow, caller, zoneId) =>
      safeTry(async function* () {
        const zone = yield* await visibleZone(uow.tx, caller, zoneId);
        yield* authorizeZone('delete_zone', deps.forbiddenStatus, caller, zone.projectId);
        await zones.lockName(uow.tx, zone.name, []);
        if (await zones.hasSubzones(uow.tx, zone.id)) return err(zoneHasSubzone());
        const next = markedForDeletion(zone, deps.clock());
        await saveAndPush(deps, uow, next, 'delete', 'DELETE');
        return ok(presentZone(next, deps.baseUrl));
      }),
  });
}

/** `POST /v2/zones/{id}/tasks/abandon`: admin only; gone at once, targets untouched. @internal */
export function abandonZone(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<void, ApiError> {
  return command(deps, ctx, {
    // The real service's route checks the id before central checks abandon_zone (observed on the
    // wire: a member's POST /v2/zones/abc/tasks/abandon is a 400 invalid_uuid).
    parse: (caller) => zoneIdParam(id).andThen((zoneId) => authorizeZone('abandon_zone', deps.forbiddenStatus, caller, null).map(() => zoneId)),
    transaction: (uow, caller, zoneId) =>
      safeTry(async function* () {
        const zone = yield* await visibleZone(uow.tx, caller, zoneId);
        await zones.lockName(uow.tx, zone.name, []);
        if (await zones.hasSubzones(uow.tx, zone.id)) return err(zoneHasSubzone());
        await removeZone(deps, uow.tx, zone);
        emitZoneEvent(deps, uow, 'delete', softDeleted(zone));
        return ok(undefined);
      }),
  });
}

/**
 * Removes a zone and everything stored under it, through the removers the wiring lists in
 * `deps.zoneChildren` (recordset blocks, the recordset name directory), so this layer needs to
 * know none of them.
 * @internal
 */
export async function removeZone(deps: DnsDeps, tx: StorageTransaction, zone: Zone): Promise<void> {
  await zones.lockName(tx, zone.name, []);
  for (const remove of deps.zoneChildren) await remove(tx, zone.id);
  await zones.remove(tx, zone.id);
}

/** Task kind of a zone transfer from the masters (SECONDARY zones), run by `secondary/`. @internal */
export const ZONE_XFR_TASK = 'zone.xfr';

/**
 * Queues a transfer of a SECONDARY zone from its masters, inside the caller's transaction; a
 * service without a master port has none to run. Here rather than in `secondary/` so that zones,
 * which ask for it on create and update, import nothing above them.
 * @internal
 */
export async function requestTransfer(deps: DnsDeps, uow: UnitOfWork, zoneId: string, ifNewer: boolean): Promise<void> {
  if (deps.masters === undefined) return;
  await enqueueTask(uow.tx, deps.ids(), ZONE_XFR_TASK, zoneId, { ifNewer: ifNewer ? 1 : 0 });
  uow.afterCommit(() => deps.tasks.queued());
}
