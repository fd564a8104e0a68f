import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import type { DnsDeps, NameserversBody } from '../dns/deps.js';
import { dnsCommand, listOwned } from '../dns/command.js';
import { checkZoneQuota, readZoneQuotas } from '../dns-quotas/index.js';
import type { StorageTransaction } from '../ports/storage.js';
import { BLOCKS_BY_ZONE } from '../recordsets/recordset.js';
import { ApiError } from '../shared/api-error.js';
import { runInTransaction, type UnitOfWork } from '../shared/command.js';
import { forbidden, requireProject, type Caller } from '../shared/context.js';
import { tupleKey } from '../shared/keys.js';
import type { ListSpec } from '../shared/list-query.js';
import { enqueueTask, type StoredTask } from '../shared/tasks.js';
import { toMicros, unixSeconds } from '../shared/time.js';
import { isUuidLike } from '../shared/uuid.js';
import {
  BY_CREATED,
  BY_NAME,
  BY_PARENT,
  BY_PROJECT,
  nameKey,
  nextSerial,
  presentZone,
  ZONES,
  zoneKeys,
  type Zone,
  type ZoneAction,
  type ZoneBody,
} from './zone.js';
import { checkTtlFloor, checkZoneName, nullTtl, parseZoneBody, validateZone } from './zone-input.js';
import { applyReport } from './zone-status.js';

/** The zone does not exist or the caller may not see it. @internal */
export const zoneNotFound = (): ApiError => new ApiError(404, 'zone_not_found', 'Could not find Zone');
/** @internal */
export const invalidUuid = (param: string, value: unknown): ApiError =>
  new ApiError(400, 'invalid_uuid', `Invalid UUID ${param}: ${typeof value === 'string' ? value.slice(0, 100) : String(value)}`);

// Shared by every zone that has none: a million zones need not hold a million empty objects.
const NO_MASTERS: readonly string[] = Object.freeze([]);
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/** Task kind of a push to the pool targets. @internal */
export const ZONE_PUSH = 'zone.push';

/** Whether the caller sees a project's resources: its own, or all of them with all-projects. @internal */
export const canSee = (caller: Caller, projectId: string): boolean => caller.allProjects || caller.projectId === projectId;

/** The admin-or-owner rule of the real service's legacy policies. @internal */
export const adminOrOwner = (caller: Caller, projectId: string | null): boolean =>
  caller.isAdmin || (caller.projectId !== null && caller.projectId === projectId);

/** Reads a zone the caller may see, or 404. @internal */
export async function visibleZone(tx: StorageTransaction, caller: Caller, id: string): Promise<Result<Zone, ApiError>> {
  const zone = (await tx.get(ZONES, id)) as Zone | undefined;
  if (zone === undefined || !canSee(caller, zone.projectId)) return err(zoneNotFound());
  return ok(zone);
}

/** Stores a zone with its index keys. @internal */
export const putZone = (tx: StorageTransaction, zone: Zone): Promise<void> => tx.put(ZONES, zone.id, zone, zoneKeys(zone));

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
 * it now stands, and the task if one was queued.
 * @internal
 */
export async function saveAndPush(
  deps: DnsDeps,
  uow: UnitOfWork,
  zone: Zone,
  verb: 'create' | 'update' | 'delete',
  action: ZoneAction,
): Promise<{ zone: Zone; task: StoredTask | undefined }> {
  emitZoneEvent(deps, uow, verb, zone);
  if (deps.inlinePush) {
    const next = applyReport(zone, { action, outcome: 'SUCCESS', serial: zone.serial }, deps.clock());
    if (next === 'gone') {
      await removeZone(uow.tx, zone);
      emitZoneEvent(deps, uow, 'update', Object.freeze({ ...zone, action: 'NONE', status: 'DELETED', version: zone.version + 1 }));
      return { zone, task: undefined };
    }
    await putZone(uow.tx, next);
    emitZoneEvent(deps, uow, 'update', next);
    return { zone: next, task: undefined };
  }
  await putZone(uow.tx, zone);
  const task = await enqueueTask(uow.tx, deps.ids(), ZONE_PUSH, zone.id, { action, serial: zone.serial });
  uow.afterCommit(() => deps.tasks.queued());
  return { zone, task };
}

/** Zones whose name key is exactly `key`, in every pool and project. */
async function zonesWithKey(tx: StorageTransaction, key: string): Promise<Zone[]> {
  const out: Zone[] = [];
  // The prefix also covers every zone below the name, so read a few at a time: usually the
  // first entry already tells (no zone of that name, or one followed by its subzones).
  let limit = 2;
  let after: { key: string; id: string } | undefined;
  for (;;) {
    const batch = await tx.range(ZONES, BY_NAME, { prefix: key, limit, ...(after ? { after } : {}) });
    for (const e of batch) {
      if (e.key !== key) return out;
      out.push(e.value as Zone);
    }
    const last = batch[batch.length - 1];
    if (last === undefined || batch.length < limit) return out;
    after = { key: last.key, id: last.id };
    limit = 16;
  }
}

/** The zones bearing a name key and every zone below it, apart. */
async function nameTree(tx: StorageTransaction, key: string): Promise<{ same: Zone[]; below: Zone[] }> {
  const same: Zone[] = [];
  const below: Zone[] = [];
  for (const e of await tx.range(ZONES, BY_NAME, { prefix: key })) (e.key === key ? same : below).push(e.value as Zone);
  return { same, below };
}

/**
 * The nearest existing ancestor zones (all zones bearing that name), walking up label by label.
 * A name key is its labels root first, each ended by U+0000 (which never occurs inside an
 * encoded label), so the ancestors' keys are its prefixes ending at a terminator.
 */
async function nearestAncestors(tx: StorageTransaction, key: string): Promise<Zone[]> {
  for (let end = key.length - 2; end > 0; end--) {
    if (key.charCodeAt(end) !== 0) continue;
    const found = await zonesWithKey(tx, key.slice(0, end + 1));
    if (found.length > 0) return found;
  }
  return [];
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
  const quotas = await readZoneQuotas(tx, input.projectId, deps.quotaDefaults);
  // An unlimited quota needs no count of what the project owns.
  if (quotas.zones >= 0) {
    const owned = await tx.count(ZONES, BY_PROJECT, tupleKey(input.projectId));
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
  const key = nameKey(input.name);
  const { same, below } = await nameTree(tx, key);
  if (same.some((z) => z.projectId !== input.projectId)) {
    return err(new ApiError(409, 'duplicate_zone', 'Zone already exists, owned by a different tenant'));
  }
  const ancestors = await nearestAncestors(tx, key);
  if (ancestors.some((z) => z.projectId !== input.projectId)) {
    return err(new ApiError(deps.forbiddenStatus, 'illegal_child', 'Unable to create subzone in another tenants zone'));
  }
  if (below.some((z) => z.projectId !== input.projectId)) {
    return err(new ApiError(deps.forbiddenStatus, 'illegal_parent', 'Unable to create zone because another tenant owns a subzone of the zone'));
  }
  if (same.some((z) => z.poolId === pool.id)) return err(new ApiError(409, 'duplicate_zone', 'Duplicate Zone'));
  if (pool.nameservers.length === 0) {
    return err(new ApiError(500, 'no_servers_configured', 'The pool has no nameservers.', { showMessage: false }));
  }
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
    soaRecordsetId: primary ? deps.ids() : null,
    nsRecordsetId: primary ? deps.ids() : null,
    recordsetCount: 0,
    recordCount: 0,
  });
  const pushed = await saveAndPush(deps, uow, zone, 'create', 'CREATE');

  for (const child of below) {
    if (child.poolId !== pool.id) continue;
    await saveAndPush(deps, uow, bumpZone(child, now, { parentZoneId: zone.id }), 'update', 'UPDATE');
  }
  return ok(pushed);
}

/** A write that changes the zone's data: UPDATE/PENDING, serial raised (PRIMARY), version +1. @internal */
export function bumpZone(zone: Zone, now: Date, changes: Partial<Zone>): Zone {
  const micros = toMicros(now);
  return Object.freeze({
    ...zone,
    ...changes,
    action: 'UPDATE',
    status: 'PENDING',
    serial: zone.type === 'PRIMARY' ? nextSerial(zone.serial, unixSeconds(micros)) : zone.serial,
    version: zone.version + 1,
    updatedAt: micros,
  });
}

/** The zone body a command answers: as it stands now (ACTIVE when the push already happened). */
const answer = (deps: DnsDeps, pushed: { zone: Zone }): ZoneBody => presentZone(pushed.zone, deps.baseUrl);

/** `POST /v2/zones`. @internal */
export function createZone(deps: DnsDeps, ctx: unknown, body: unknown): ResultAsync<ZoneBody, ApiError> {
  return dnsCommand(deps, ctx, async (caller): Promise<Result<ZoneBody, ApiError>> => {
    const parsed = parseZoneBody(body, undefined, deps.limits);
    if (parsed.isErr()) return err(parsed.error);
    const input = parsed.value;
    const type = input.type ?? 'PRIMARY';
    const valid = validateZone({ type, email: input.email, masters: input.masters ?? [], name: input.name }, input);
    if (valid.isErr()) return err(valid.error);
    const project = requireProject(caller);
    if (project.isErr()) return err(project.error);
    const created = await runInTransaction(deps.storage, (uow) =>
      insertZone(deps, uow, caller, {
        projectId: project.value,
        name: input.name!,
        email: type === 'PRIMARY' ? input.email! : deps.limits.managedResourceEmail,
        description: input.description ?? null,
        ttl: input.ttl === undefined ? 3600 : input.ttl,
        type,
        masters: input.masters ?? NO_MASTERS,
        attributes: input.attributes ?? NO_ATTRIBUTES,
      }),
    );
    if (created.isErr()) return err(created.error);
    return ok(answer(deps, created.value));
  });
}

/** `GET /v2/zones/{id}`. @internal */
export function getZone(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<ZoneBody, ApiError> {
  return dnsCommand(deps, ctx, async (caller): Promise<Result<ZoneBody, ApiError>> => {
    if (!isUuidLike(id)) return err(invalidUuid('zone_id', id));
    return runInTransaction(deps.storage, async ({ tx }) =>
      (await visibleZone(tx, caller, id)).map((z) => presentZone(z, deps.baseUrl)),
    );
  });
}

/** `GET /v2/zones/{id}/nameservers`. @internal */
export function zoneNameservers(
  deps: DnsDeps,
  ctx: unknown,
  id: unknown,
): ResultAsync<NameserversBody, ApiError> {
  return dnsCommand(deps, ctx, async (caller): Promise<Result<NameserversBody, ApiError>> => {
    if (!isUuidLike(id)) return err(invalidUuid('zone_id', id));
    return runInTransaction(deps.storage, async ({ tx }) =>
      (await visibleZone(tx, caller, id)).map((z) => {
        const pool = deps.pools.find((p) => p.id === z.poolId) ?? deps.defaultPool;
        return { nameservers: pool.nameservers.map((ns) => ({ hostname: ns.hostname, priority: ns.priority })) };
      }),
    );
  });
}

/** How zones are listed. @internal */
export const zoneListSpec = (baseUrl: string): ListSpec<Zone> => ({
  collection: ZONES,
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

/** `GET /v2/zones`. @internal */
export function listZones(deps: DnsDeps, ctx: unknown, query: unknown): ResultAsync<object, ApiError> {
  return listOwned(deps, ctx, query, zoneListSpec(deps.baseUrl), { byProject: BY_PROJECT, byCreated: BY_CREATED });
}

/** `PATCH /v2/zones/{id}`. @internal */
export function updateZone(deps: DnsDeps, ctx: unknown, id: unknown, body: unknown): ResultAsync<ZoneBody, ApiError> {
  return dnsCommand(deps, ctx, async (caller): Promise<Result<ZoneBody, ApiError>> => {
    if (!isUuidLike(id)) return err(invalidUuid('zone_id', id));
    const updated = await runInTransaction(deps.storage, async (uow): Promise<Result<{ zone: Zone }, ApiError>> => {
      const found = await visibleZone(uow.tx, caller, id);
      if (found.isErr()) return err(found.error);
      const zone = found.value;
      if (zone.action === 'DELETE') return err(new ApiError(400, 'bad_request', 'Can not update a deleting zone'));
      const parsed = parseZoneBody(body, zone, deps.limits);
      if (parsed.isErr()) return err(parsed.error);
      const input = parsed.value;
      const valid = validateZone(
        { type: zone.type, email: input.email ?? zone.email, masters: input.masters ?? zone.masters, name: zone.name },
        input,
      );
      if (valid.isErr()) return err(valid.error);
      if (!adminOrOwner(caller, zone.projectId)) return err(forbidden(deps.forbiddenStatus, 'update_zone'));
      if (input.projectId !== undefined) return err(new ApiError(400, 'bad_request', 'Moving a zone between tenants is not allowed'));
      if (input.name !== undefined) return err(new ApiError(400, 'bad_request', 'Renaming a zone is not allowed'));
      if (input.ttl !== undefined && input.ttl !== null && input.ttl !== zone.ttl) {
        const floor = checkTtlFloor(input.ttl, deps.limits, caller.isAdmin);
        if (floor.isErr()) return err(floor.error);
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
      return ok(await saveAndPush(deps, uow, bumpZone(zone, deps.clock(), changes), 'update', 'UPDATE'));
    });
    if (updated.isErr()) return err(updated.error);
    return ok(answer(deps, updated.value));
  });
}

/** The "has subzones" rule of delete and abandon. */
async function hasSubzones(tx: StorageTransaction, zone: Zone): Promise<boolean> {
  return (await tx.count(ZONES, BY_PARENT, tupleKey(zone.id))) > 0;
}

const hasSubzone = (): ApiError => new ApiError(400, 'zone_has_sub_zone', 'Please delete any subzones before deleting this zone');

/** `DELETE /v2/zones/{id}`: answered `DELETE/PENDING`; the zone goes once the targets removed it. @internal */
export function deleteZone(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<ZoneBody, ApiError> {
  return dnsCommand(deps, ctx, async (caller): Promise<Result<ZoneBody, ApiError>> => {
    if (!isUuidLike(id)) return err(invalidUuid('zone_id', id));
    const marked = await runInTransaction(deps.storage, async (uow): Promise<Result<Zone, ApiError>> => {
      const found = await visibleZone(uow.tx, caller, id);
      if (found.isErr()) return err(found.error);
      const zone = found.value;
      if (!adminOrOwner(caller, zone.projectId)) return err(forbidden(deps.forbiddenStatus, 'delete_zone'));
      if (await hasSubzones(uow.tx, zone)) return err(hasSubzone());
      const next: Zone = Object.freeze({
        ...zone,
        action: 'DELETE',
        status: 'PENDING',
        version: zone.version + 1,
        updatedAt: toMicros(deps.clock()),
      });
      await saveAndPush(deps, uow, next, 'delete', 'DELETE');
      return ok(next);
    });
    if (marked.isErr()) return err(marked.error);
    return ok(presentZone(marked.value, deps.baseUrl));
  });
}

/** `POST /v2/zones/{id}/tasks/abandon`: admin only; gone at once, targets untouched. @internal */
export function abandonZone(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<void, ApiError> {
  return dnsCommand(deps, ctx, async (caller): Promise<Result<void, ApiError>> => {
    if (!caller.isAdmin) return err(forbidden(deps.forbiddenStatus, 'abandon_zone'));
    if (!isUuidLike(id)) return err(invalidUuid('zone_id', id));
    return runInTransaction(deps.storage, async (uow): Promise<Result<void, ApiError>> => {
      const found = await visibleZone(uow.tx, caller, id);
      if (found.isErr()) return err(found.error);
      const zone = found.value;
      if (await hasSubzones(uow.tx, zone)) return err(hasSubzone());
      await removeZone(uow.tx, zone);
      const gone: Zone = Object.freeze({ ...zone, action: 'NONE', status: 'DELETED', version: zone.version + 1 });
      emitZoneEvent(deps, uow, 'delete', gone);
      return ok(undefined);
    });
  });
}

/** Stored recordsets of zones, in blocks (see `RecordsetBlock`), written by imports. @internal */
export const RECORDSETS = 'dns.recordset_blocks';

/** Removes a zone and everything stored under it. @internal */
export async function removeZone(tx: StorageTransaction, zone: Zone): Promise<void> {
  for (;;) {
    const batch = await tx.range(RECORDSETS, BLOCKS_BY_ZONE, { prefix: tupleKey(zone.id), limit: 512 });
    if (batch.length === 0) break;
    for (const e of batch) await tx.delete(RECORDSETS, e.id);
  }
  await tx.delete(ZONES, zone.id);
}
