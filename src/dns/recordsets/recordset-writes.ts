import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import { zonePool, type DnsDeps } from '../kernel/deps.js';
import { listCaller } from '../../kernel/list-command.js';
import { checkZoneQuota, readZoneQuotas } from '../kernel/zone-quotas.js';
import type { StorageTransaction } from '../../ports/storage.js';
import { ApiError } from '../../kernel/api-error.js';
import { command, type UnitOfWork } from '../../kernel/command.js';
import { invalidUuid } from '../../kernel/errors.js';
import type { Caller } from '../../kernel/context.js';
import { listArray, parseListQuery, type ListSpec } from '../../kernel/list-query.js';
import { formatTimestamp, toMicros } from '../kernel/time.js';
import { isUuidLike } from '../../kernel/uuid.js';
import { checkTtlFloor } from '../kernel/zone-rules.js';
import { saveAndPush, visibleZone, zoneIdParam } from '../kernel/zone-operations.js';
import { updated } from '../kernel/zone-lifecycle.js';
import { canSee } from '../kernel/zone-policy.js';
import type { Zone } from '../kernel/zone.js';
import { zoneRepository } from '../kernel/zone-store.js';
import { parseRecordsetBody, type RecordsetInput } from './recordset-input.js';
import { packTypes, type RecordsetBlock, type RecordsetMeta } from '../kernel/recordset.js';
import { managedCount, managedRecordsets, presentRecordset, RECORDSET_FILTERS, type RecordsetBody } from '../kernel/recordset-body.js';
import { typesAtName } from '../kernel/owner-index.js';
import { findRecordset, putWritten, removeRecordset, rowAt, type PlacedBlock, type RecordsetRow } from '../kernel/recordset-store.js';
import { countedPage, zoneRecordsets } from './recordset-commands.js';
import { allPage } from '../kernel/recordset-pages.js';
import { recordsetNotFound } from './recordset-errors.js';

const badRequest = (message: string): ApiError => new ApiError(400, 'bad_request', message);
const badLocation = (message: string): ApiError => new ApiError(400, 'invalid_recordset_location', message);
const MAX_RECORDSET_NAME = 255;

/** The body of one stored recordset, from its row, as the zone now stands. */
function present(deps: DnsDeps, zone: Zone, row: RecordsetRow): RecordsetBody {
  const block: RecordsetBlock = {
    zoneId: zone.id,
    projectId: zone.projectId,
    createdAt: zone.createdAt,
    ids: [row.id],
    idWidth: 0,
    names: [row.name],
    ...packTypes([row.type]),
    ttls: [row.ttl],
    ends: [row.records.length],
    data: row.records,
    meta: [row.meta],
  };
  return presentRecordset(block, 0, zone, deps.baseUrl);
}

/** Announces a recordset change once the write has committed. */
function emitRecordset(deps: DnsDeps, uow: UnitOfWork, verb: 'create' | 'update' | 'delete', body: RecordsetBody): void {
  if (!deps.events.listening) return;
  uow.afterCommit(() => deps.events.emit(`dns.recordset.${verb}`, body));
}

/**
 * The zone a recordset URL (`/v2/zones/{zone_id}/recordsets/{id}`) names, when the caller may see
 * it; else `recordset_not_found`, whether the zone is unknown, deleted or another project's: the
 * real service looks the recordset up first, so such a URL never tells whether the zone exists.
 * @internal
 */
export async function targetZone(tx: StorageTransaction, caller: Caller, zoneId: string): Promise<Result<Zone, ApiError>> {
  const zone = await zoneRepository.byId(tx, zoneId);
  return zone === undefined || !canSee(caller, zone.projectId) ? err(recordsetNotFound()) : ok(zone);
}

/**
 * The placement rules of the real service, in its order: TTL floor, the name (inside the zone,
 * compared as stored), CNAME alone at its name and never at the apex, not inside a subzone, one
 * record per CNAME.
 */
async function checkPlacement(
  deps: DnsDeps,
  tx: StorageTransaction,
  caller: Caller,
  zone: Zone,
  input: { name: string | null | undefined; type: string; ttl: number | null | undefined; records: readonly string[] },
  checkName: boolean,
): Promise<Result<void, ApiError>> {
  if (input.ttl !== undefined && input.ttl !== null) {
    const floor = checkTtlFloor(input.ttl, deps.limits, caller.isAdmin);
    if (floor.isErr()) return err(floor.error);
  }
  if (checkName) {
    const name = input.name;
    // The real service raises its schema error bare here: no message in the body.
    if (name === null || name === undefined) {
      return err(new ApiError(400, 'invalid_object', 'A recordset needs a name.', { showMessage: false }));
    }
    if (name.length > MAX_RECORDSET_NAME) return err(new ApiError(400, 'invalid_recordset_name', 'Name too long'));
    if (name !== zone.name && !name.endsWith(`.${zone.name}`)) return err(badLocation("RecordSet is not contained within it's parent zone"));
    if (input.type === 'CNAME' && name === zone.name) return err(badLocation('CNAME recordsets may not be created at the zone apex'));
    const here = await typesAtName(tx, zone, name);
    const managedHere = name !== zone.name ? [] : [...(zone.soaRecordsetId === null ? [] : ['SOA']), ...(zone.nsRecordsetId === null ? [] : ['NS'])];
    const types = [...here, ...managedHere];
    if (input.type === 'CNAME' ? types.length > 0 : types.includes('CNAME')) {
      return err(badLocation('CNAME recordsets may not share a name with any other records'));
    }
    if (name !== zone.name) {
      for (const child of await zoneRepository.subzones(tx, zone.id)) {
        if (name === child.name || name.endsWith(`.${child.name}`)) return err(badLocation(`RecordSet belongs in a child zone: ${child.name}`));
      }
    }
    if (types.includes(input.type)) return err(new ApiError(409, 'duplicate_recordset', 'Duplicate RecordSet'));
  }
  if (input.type === 'CNAME' && input.records.length > 1) return err(badRequest('CNAME recordsets may not have more than 1 record'));
  return ok(undefined);
}

/** The `zone_records` and `recordset_records` quotas for a recordset about to hold `records` (replacing `previous`). */
async function checkRecordQuota(deps: DnsDeps, tx: StorageTransaction, zone: Zone, records: number, previous: number): Promise<Result<void, ApiError>> {
  const quotas = await readZoneQuotas(tx, zone.projectId, deps.quotaDefaults);
  const zq = checkZoneQuota(quotas, 'zone_records', zone.recordCount - previous + records);
  if (zq.isErr()) return err(zq.error);
  return checkZoneQuota(quotas, 'recordset_records', records);
}

/**
 * Stores the zone a recordset write changed and hands it to the pool targets, as the real
 * service does after every write, even one of no records that left the serial alone (its report
 * then only adds one to the zone's version). The zone's events come once it is served, not with
 * the write (which announces its recordset alone), as in the real service. Returns the zone as it
 * now stands.
 */
async function storeZone(deps: DnsDeps, uow: UnitOfWork, zone: Zone): Promise<Zone> {
  return (await saveAndPush(deps, uow, zone, null, 'UPDATE')).zone;
}

/** `POST /v2/zones/{zone_id}/recordsets`. @internal */
export function createRecordset(deps: DnsDeps, ctx: unknown, zoneId: unknown, body: unknown): ResultAsync<RecordsetBody, ApiError> {
  return command(deps, ctx, {
    body,
    ids: () => zoneIdParam(zoneId),
    // The whole body is read before the zone is looked up, as the real service does.
    parse: () =>
      zoneIdParam(zoneId).andThen((id) =>
        parseRecordsetBody(body, undefined).andThen((input: RecordsetInput) =>
          input.type === 'SOA' ? err(badRequest('Creating a SOA recordset is not allowed')) : ok({ id, input }),
        ),
      ),
    transaction: async (uow, caller, { id: zoneId, input }): Promise<Result<RecordsetBody, ApiError>> => {
      const type = input.type!;
      const records = input.records ?? [];
      const { tx } = uow;
      const found = await visibleZone(tx, caller, zoneId);
      if (found.isErr()) return err(found.error);
      const zone = found.value;
      if (zone.action === 'DELETE') return err(badRequest('Can not update a deleting zone'));
      const quotas = await readZoneQuotas(tx, zone.projectId, deps.quotaDefaults);
      const rq = checkZoneQuota(quotas, 'zone_recordsets', managedCount(zone) + zone.recordsetCount + 1);
      if (rq.isErr()) return err(rq.error);
      const placed = await checkPlacement(deps, tx, caller, zone, { name: input.name, type, ttl: input.ttl, records }, true);
      if (placed.isErr()) return err(placed.error);
      if (records.length > 0) {
        const quota = await checkRecordQuota(deps, tx, zone, records.length, 0);
        if (quota.isErr()) return err(quota.error);
      }
      const now = deps.clock();
      const counts = { recordsetCount: zone.recordsetCount + 1, recordCount: zone.recordCount + records.length };
      const written = records.length > 0 ? updated(zone, now, counts) : Object.freeze({ ...zone, ...counts });
      const meta: RecordsetMeta = Object.freeze({
        createdAt: toMicros(now),
        updatedAt: null,
        version: 1,
        description: input.description ?? null,
        action: records.length > 0 ? 'CREATE' : 'NONE',
        serial: written.serial,
      });
      const row = { id: deps.ids(), name: input.name!, type, ttl: input.ttl ?? null, records: Object.freeze(records), meta };
      await putWritten(tx, zone, row);
      emitRecordset(deps, uow, 'create', present(deps, written, row));
      return ok(present(deps, await storeZone(deps, uow, written), row));
    },
  });
}

/** A recordset an update or delete names: managed (SOA/NS, derived from the zone) or stored. */
type Named =
  | { readonly managed: true; readonly body: RecordsetBody }
  | { readonly managed: false; readonly body: RecordsetBody; readonly row: RecordsetRow; readonly placed: PlacedBlock; readonly i: number };

async function namedRecordset(deps: DnsDeps, tx: StorageTransaction, zone: Zone, id: string): Promise<Named | undefined> {
  if (id === zone.soaRecordsetId || id === zone.nsRecordsetId) {
    const pool = zonePool(deps, zone);
    const body = managedRecordsets(zone, pool, deps.baseUrl).find((r) => r.id === id);
    return body === undefined ? undefined : { managed: true, body };
  }
  const at = await findRecordset(tx, zone.id, id);
  if (at === undefined) return undefined;
  const row = rowAt(at.placed.block, at.i);
  return { managed: false, body: present(deps, zone, row), row, placed: at.placed, i: at.i };
}

/** Reads the zone and the recordset of an update or delete, with the real service's 404s. */
async function zoneAndRecordset(
  deps: DnsDeps,
  tx: StorageTransaction,
  caller: Caller,
  zoneId: string,
  id: string,
): Promise<Result<{ zone: Zone; named: Named }, ApiError>> {
  const found = await targetZone(tx, caller, zoneId);
  if (found.isErr()) return err(found.error);
  const named = await namedRecordset(deps, tx, found.value, id);
  if (named === undefined) return err(recordsetNotFound());
  return ok({ zone: found.value, named });
}

/**
 * The frame of an update or delete: the ids checked, then, in one transaction, the zone and the
 * recordset they name read with the real service's 404s, then `work`.
 */
function onRecordset(
  deps: DnsDeps,
  ctx: unknown,
  zoneId: unknown,
  id: unknown,
  work: (uow: UnitOfWork, caller: Caller, zone: Zone, named: Named) => Promise<Result<RecordsetBody, ApiError>>,
  body?: unknown,
): ResultAsync<RecordsetBody, ApiError> {
  const ids = (): Result<{ zid: string; id: string }, ApiError> =>
    zoneIdParam(zoneId).andThen((zid) => (isUuidLike(id) ? ok({ zid, id }) : err(invalidUuid('recordset_id', id))));
  return command(deps, ctx, {
    body,
    ids,
    parse: ids,
    transaction: async (uow, caller, ids): Promise<Result<RecordsetBody, ApiError>> => {
      const target = await zoneAndRecordset(deps, uow.tx, caller, ids.zid, ids.id);
      if (target.isErr()) return err(target.error);
      return work(uow, caller, target.value.zone, target.value.named);
    },
  });
}

/** `PUT /v2/zones/{zone_id}/recordsets/{id}`. @internal */
export function updateRecordset(deps: DnsDeps, ctx: unknown, zoneId: unknown, id: unknown, body: unknown): ResultAsync<RecordsetBody, ApiError> {
  return onRecordset(deps, ctx, zoneId, id, async (uow, caller, zone, named): Promise<Result<RecordsetBody, ApiError>> => {
    const { tx } = uow;
    // Checked before the body is read, as the real service does.
    if (named.managed && caller.editManagedRecords !== true) return err(badRequest('Managed records may not be updated'));
    if (named.body.type === 'SOA') return err(badRequest('Updating SOA recordsets is not allowed'));
    if (named.body.type === 'NS' && named.body.name === zone.name) return err(badRequest('Updating a root zone NS record is not allowed'));
    if (named.managed) return err(recordsetNotFound());
    const parsed = parseRecordsetBody(body, named.body);
    if (parsed.isErr()) return err(parsed.error);
    const input = parsed.value;
    if (zone.action === 'DELETE') return err(badRequest('Can not update a deleting zone'));
    const old = named.row;
    const records = input.records ?? old.records;
    const ttl = input.ttl === undefined ? old.ttl : input.ttl;
    const changedTtl = input.ttl !== undefined && input.ttl !== old.ttl ? input.ttl : undefined;
    const placed = await checkPlacement(deps, tx, caller, zone, { name: old.name, type: old.type, ttl: changedTtl, records }, false);
    if (placed.isErr()) return err(placed.error);
    const now = deps.clock();
    const written = updated(zone, now, { recordCount: zone.recordCount - old.records.length + records.length });
    if (records.length > 0) {
      const quota = await checkRecordQuota(deps, tx, zone, records.length, old.records.length);
      if (quota.isErr()) return err(quota.error);
    }
    const meta: RecordsetMeta = Object.freeze({
      createdAt: old.meta?.createdAt ?? named.placed.block.createdAt,
      updatedAt: toMicros(now),
      version: (old.meta?.version ?? 1) + 1,
      description: input.description === undefined ? (old.meta?.description ?? null) : input.description,
      action: records.length > 0 ? 'UPDATE' : 'NONE',
      serial: written.serial,
    });
    const row = { ...old, ttl, records: Object.freeze([...records]), meta };
    // An imported recordset leaves its block: changed, it is a written one.
    if (old.meta === null) await removeRecordset(tx, named.placed, named.i);
    await putWritten(tx, zone, row);
    emitRecordset(deps, uow, 'update', present(deps, written, row));
    return ok(present(deps, await storeZone(deps, uow, written), row));
  }, body);
}

/** `DELETE /v2/zones/{zone_id}/recordsets/{id}`: answered DELETE/PENDING, gone at once. @internal */
export function deleteRecordset(deps: DnsDeps, ctx: unknown, zoneId: unknown, id: unknown): ResultAsync<RecordsetBody, ApiError> {
  return onRecordset(deps, ctx, zoneId, id, async (uow, caller, zone, named): Promise<Result<RecordsetBody, ApiError>> => {
    const { tx } = uow;
    if (named.body.type === 'SOA') return err(badRequest('Deleting a SOA recordset is not allowed'));
    if (zone.action === 'DELETE') return err(badRequest('Can not update a deleting zone'));
    if (named.managed && caller.editManagedRecords !== true) return err(badRequest('Managed records may not be deleted'));
    const now = deps.clock();
    let written: Zone;
    if (named.managed) {
      written = updated(zone, now, { nsRecordsetId: null });
    } else {
      written = updated(zone, now, { recordsetCount: zone.recordsetCount - 1, recordCount: zone.recordCount - named.row.records.length });
      await removeRecordset(tx, named.placed, named.i);
    }
    const pending = named.body.records.length > 0;
    const answer: RecordsetBody = {
      ...named.body,
      status: pending ? 'PENDING' : 'ACTIVE',
      action: pending ? 'DELETE' : 'NONE',
      version: named.body.version + 1,
      updated_at: formatTimestamp(toMicros(now)),
    };
    emitRecordset(deps, uow, 'delete', answer);
    await storeZone(deps, uow, written);
    return ok(answer);
  });
}

/** How `GET /v2/recordsets` lists: its own filters and sort keys, not the per-zone list's. */
const allSpec: ListSpec<RecordsetBody> = {
  path: '/v2/recordsets',
  envelope: 'recordsets',
  metadata: true,
  filters: RECORDSET_FILTERS,
  sortKeys: {
    created_at: (r) => r.created_at,
    updated_at: (r) => r.updated_at,
    zone_id: (r) => r.zone_id,
    tenant_id: (r) => r.project_id,
    name: (r) => r.name,
    type: (r) => r.type,
    ttl: (r) => r.ttl,
  },
  present: (r) => r,
};

/** A page of recordsets as the list envelope holds it. */
type RecordsetPage = { readonly recordsets: readonly unknown[]; readonly metadata: { readonly total_count: number } };

/**
 * `GET /v2/recordsets`: the recordsets of every zone the caller's project owns (every project's
 * with all-projects). In created_at order without filters a page reads what it shows (see
 * `allPage`); filters and the other sort keys read every recordset of the scope.
 * @internal
 */
export function listAllRecordsets(deps: DnsDeps, ctx: unknown, query: unknown): ResultAsync<object, ApiError> {
  return command(deps, ctx, {
    parse: (resolved) =>
      listCaller(deps, resolved, query).andThen((caller) => parseListQuery(allSpec, query, caller.allProjects).map((q) => ({ caller, q }))),
    transaction: async ({ tx }, _resolved, { caller, q }): Promise<Result<object, ApiError>> => {
      if (q.filters.length === 0 && q.sortKey === 'created_at' && (caller.allProjects || caller.projectId !== null)) {
        const page = await allPage(deps, tx, caller.allProjects ? { project: null } : { project: caller.projectId! }, q, allSpec);
        if (page.isErr()) return err(page.error);
        // The page is already cut; the envelope adds links, and the count comes from the zones.
        const body = listArray({ ...allSpec, metadata: false }, page.value.rows, { ...q, marker: undefined }, true, undefined, deps.baseUrl);
        return body.map((b) => countedPage({ ...(b as RecordsetPage), metadata: { total_count: page.value.total } }));
      }
      const all: RecordsetBody[] = [];
      if (caller.allProjects || caller.projectId !== null) {
        for (const zone of await zoneRepository.owned(tx, caller.allProjects ? null : caller.projectId)) all.push(...(await zoneRecordsets(deps, tx, zone)));
      }
      const marker = q.marker === undefined ? undefined : all.find((r) => r.id === q.marker);
      return listArray(allSpec, all, q, q.marker === undefined || marker !== undefined, marker, deps.baseUrl).map((b) => countedPage(b as RecordsetPage));
    },
  });
}
