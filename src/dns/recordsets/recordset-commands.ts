import { err, ok, safeTry, type Result, type ResultAsync } from 'neverthrow';
import { zonePool, type DnsDeps } from '../kernel/deps.js';
import type { ListEnvelope } from '../../kernel/list-command.js';
import type { StorageTransaction } from '../../ports/storage.js';
import type { ApiError } from '../../kernel/api-error.js';
import { command } from '../../kernel/command.js';
import { uuidParam } from '../../kernel/errors.js';
import { listArray, parseListQuery, type ListSpec } from '../../kernel/list-query.js';
import { visibleZone } from '../kernel/zone-operations.js';
import type { Zone } from '../kernel/zone.js';
import { managedCount, managedRecordsets, presentRecordset, RECORDSET_FILTERS, type RecordsetBody } from '../kernel/recordset-body.js';
import { mixedStatuses } from '../kernel/recordset-status.js';
import { zoneBlocks } from '../kernel/recordset-store.js';
import { findRecordset } from '../kernel/recordset-store.js';
import { recordsetInScope, zonePage } from '../kernel/recordset-pages.js';
import { targetZone } from './recordset-writes.js';
import { recordsetNotFound } from './recordset-errors.js';

/** Every recordset of a zone, managed ones first, then stored ones in creation order. @internal */
export async function zoneRecordsets(deps: DnsDeps, tx: StorageTransaction, zone: Zone): Promise<RecordsetBody[]> {
  const pool = zonePool(deps, zone);
  const out = managedRecordsets(zone, pool, deps.baseUrl);
  for await (const { block: b } of zoneBlocks(tx, zone.id)) {
    for (let i = 0; i < b.names.length; i++) out.push(presentRecordset(b, i, zone, deps.baseUrl));
  }
  return out;
}

const spec = (zoneId: string): ListSpec<RecordsetBody> => ({
  path: `/v2/zones/${zoneId}/recordsets`,
  envelope: 'recordsets',
  metadata: true,
  filters: RECORDSET_FILTERS,
  sortKeys: {
    created_at: (r) => r.created_at,
    id: (r) => r.id,
    updated_at: (r) => r.updated_at,
    name: (r) => r.name,
    type: (r) => r.type,
    ttl: (r) => r.ttl,
    status: (r) => r.status,
  },
  present: (r) => r,
});

/**
 * One page of a zone's recordsets (`GET /v2/zones/{zone_id}/recordsets`).
 *
 * @category Recordsets
 */
export type RecordsetList = ListEnvelope<'recordsets', RecordsetBody>;

/**
 * A recordset page as the real service counts it: its storage answers a page with no rows (past
 * the last marker, or nothing matched) with `total_count: 0`, whatever the zone holds.
 * @internal
 */
export function countedPage<L extends { readonly recordsets: readonly unknown[]; readonly metadata: { readonly total_count: number } }>(list: L): L {
  return list.recordsets.length === 0 && list.metadata.total_count !== 0 ? { ...list, metadata: { total_count: 0 } } : list;
}

/**
 * `GET /v2/zones/{zone_id}/recordsets`. Without filters a page reads only what it may show
 * (see `zonePage`), in every sort key; filters read the whole zone, as they must to count what
 * matches. A marker must be a recordset of the zone.
 * @internal
 */
export function listRecordsets(deps: DnsDeps, ctx: unknown, zoneId: unknown, query: unknown): ResultAsync<RecordsetList, ApiError> {
  return command(deps, ctx, {
    parse: (caller) =>
      uuidParam('zone_id', zoneId).andThen((id) => {
        const s = spec(id);
        return parseListQuery(s, query, caller.allProjects).map((q) => ({ id, s, q }));
      }),
    transaction: ({ tx }, caller, { id, s, q }) =>
      safeTry(async function* () {
        const z = yield* await visibleZone(tx, caller, id);
        // A status page of a zone whose served and pending writes are both there is sorted whole (rare: a PRIMARY zone waiting for the pool).
        if (q.filters.length === 0 && !(q.sortKey === 'status' && mixedStatuses(z))) {
          const rows = yield* await zonePage(deps, tx, z, q, s);
          // The page is already cut; the envelope adds links, and the count comes from the zone.
          const body = yield* listArray({ ...s, metadata: false }, rows, { ...q, marker: undefined }, true, undefined, deps.baseUrl);
          return ok(countedPage({ ...body, metadata: { total_count: managedCount(z) + z.recordsetCount } } as RecordsetList));
        }
        const all = await zoneRecordsets(deps, tx, z);
        const markerEntity = q.marker === undefined ? undefined : all.find((r) => r.id === q.marker);
        return (listArray(s, all, q, q.marker === undefined || markerEntity !== undefined, markerEntity, deps.baseUrl) as Result<RecordsetList, ApiError>).map(
          countedPage,
        );
      }),
  });
}

/** `GET /v2/zones/{zone_id}/recordsets/{id}`. @internal */
export function getRecordset(deps: DnsDeps, ctx: unknown, zoneId: unknown, id: unknown): ResultAsync<RecordsetBody, ApiError> {
  return command(deps, ctx, {
    parse: () => uuidParam('zone_id', zoneId).andThen((zid) => uuidParam('recordset_id', id).map((rid) => ({ zid, rid }))),
    transaction: ({ tx }, caller, { zid, rid }) =>
      safeTry(async function* () {
        const z = yield* await targetZone(tx, caller, zid);
        if (rid === z.soaRecordsetId || rid === z.nsRecordsetId) {
          const pool = zonePool(deps, z);
          const found = managedRecordsets(z, pool, deps.baseUrl).find((r) => r.id === rid);
          return found === undefined ? err(recordsetNotFound()) : ok(found);
        }
        const at = await findRecordset(tx, z.id, rid);
        if (at === undefined) return err(recordsetNotFound());
        return ok(presentRecordset(at.placed.block, at.i, z, deps.baseUrl));
      }),
  });
}

/**
 * `GET /v2/recordsets/{id}`: the recordset wherever it is among the zones the caller may see (the
 * caller's project's, every project's with all-projects); an HTTP front answers it with a 301 to
 * its canonical URL, `/v2/zones/{zone_id}/recordsets/{id}`, as the real service does. A written
 * recordset is one index look-up; an imported or managed one is looked for zone by zone.
 * @internal
 */
export function findRecordsetAnywhere(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<RecordsetBody, ApiError> {
  return command(deps, ctx, {
    parse: () => uuidParam('recordset_id', id),
    transaction: async ({ tx }, caller, rid) => {
      if (!caller.allProjects && caller.projectId === null) return err(recordsetNotFound());
      const found = await recordsetInScope(deps, tx, caller.allProjects ? { project: null } : { project: caller.projectId! }, rid);
      return found === undefined ? err(recordsetNotFound()) : ok(found);
    },
  });
}
