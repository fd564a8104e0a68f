import { err, ok, safeTry, type Result, type ResultAsync } from 'neverthrow';
import type { DnsDeps } from '../zones/deps.js';
import type { ListEnvelope } from '../shared/list-command.js';
import type { IndexPosition, StorageTransaction } from '../ports/storage.js';
import type { ApiError } from '../shared/api-error.js';
import { command } from '../shared/command.js';
import { markerNotFound, uuidParam } from '../shared/errors.js';
import { tupleKey } from '../shared/keys.js';
import { listArray, parseListQuery, type ListSpec, type ParsedListQuery } from '../shared/list-query.js';
import { visibleZone } from '../zones/zone-commands.js';
import type { Zone } from '../zones/zone.js';
import { BLOCKS_BY_ZONE, RECORDSETS, findId, managedCount, managedRecordsets, presentRecordset, RECORDSET_FILTERS, type RecordsetBlock, type RecordsetBody } from './recordset.js';
import { blockAt } from './recordset-store.js';
import { targetZone } from './recordset-writes.js';
import { recordsetNotFound } from './recordset-errors.js';

/** Every recordset of a zone, managed ones first, then stored ones in creation order. @internal */
export async function zoneRecordsets(deps: DnsDeps, tx: StorageTransaction, zone: Zone): Promise<RecordsetBody[]> {
  const pool = deps.pools.find((p) => p.id === zone.poolId) ?? deps.defaultPool;
  const out = managedRecordsets(zone, pool, deps.baseUrl);
  const stored = await tx.range(RECORDSETS, BLOCKS_BY_ZONE, { prefix: tupleKey(zone.id) });
  for (const e of stored) {
    const b = e.value as RecordsetBlock;
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

/** Blocks read per range call while filling a page (a block may hold a single recordset). */
const BLOCKS_PER_READ = 4;

/**
 * One page in (created_at, id) order without filters, read from the blocks around the marker
 * only. Every recordset of a zone has the zone's created_at, so that order is id order, which is
 * the order of the blocks and of the ids inside each; the two managed recordsets are merged in.
 * `undefined` when a block says otherwise (its created_at is not the zone's): the caller then
 * sorts the whole zone.
 */
async function idOrderPage(
  deps: DnsDeps,
  tx: StorageTransaction,
  zone: Zone,
  query: ParsedListQuery,
): Promise<Result<RecordsetBody[], ApiError> | undefined> {
  const pool = deps.pools.find((p) => p.id === zone.poolId) ?? deps.defaultPool;
  const managed = managedRecordsets(zone, pool, deps.baseUrl);
  const asc = query.sortDir === 'asc';
  const marker = query.marker;
  const prefix = tupleKey(zone.id);
  const beyond = (id: string): boolean => marker === undefined || (asc ? id > marker : id < marker);

  const picked: { block: RecordsetBlock; i: number }[] = [];
  let next: IndexPosition | undefined;
  let more = true;
  const take = (b: RecordsetBlock, from: number): void => {
    if (asc) for (let i = from; i < b.names.length && picked.length < query.limit; i++) picked.push({ block: b, i });
    else for (let i = from; i >= 0 && picked.length < query.limit; i--) picked.push({ block: b, i });
  };
  if (marker !== undefined) {
    const inManaged = managed.some((r) => r.id === marker);
    const at = await blockAt(tx, zone.id, marker);
    const pos = at === undefined ? -1 : findId(at.block, marker);
    if (!inManaged && pos < 0) return err(markerNotFound());
    if (at === undefined) {
      // Every stored id is below the marker.
      more = !asc;
    } else {
      if (at.block.createdAt !== zone.createdAt || at.block.meta !== undefined) return undefined;
      const first = pos >= 0 ? (asc ? pos + 1 : pos - 1) : asc ? -pos - 1 : -pos - 2;
      take(at.block, first);
      next = at.at;
    }
  }
  while (more && picked.length < query.limit) {
    const batch = await tx.range(RECORDSETS, BLOCKS_BY_ZONE, {
      prefix,
      direction: query.sortDir,
      limit: BLOCKS_PER_READ,
      ...(next === undefined ? {} : { after: next }),
    });
    for (const e of batch) {
      const b = e.value as RecordsetBlock;
      if (b.createdAt !== zone.createdAt || b.meta !== undefined) return undefined;
      take(b, asc ? 0 : b.names.length - 1);
    }
    const last = batch[batch.length - 1];
    if (last === undefined || batch.length < BLOCKS_PER_READ) more = false;
    else next = { key: last.key, id: last.id };
  }
  // The first `limit` stored recordsets past the marker, and the managed ones past it, hold the page.
  const page: RecordsetBody[] = picked.map((p) => presentRecordset(p.block, p.i, zone, deps.baseUrl));
  for (const r of managed) if (beyond(r.id)) page.push(r);
  page.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * (asc ? 1 : -1));
  return ok(page.slice(0, query.limit));
}

/**
 * One page of a zone's recordsets (`GET /v2/zones/{zone_id}/recordsets`).
 *
 * @category Recordsets
 */
export type RecordsetList = ListEnvelope<'recordsets', RecordsetBody>;

/**
 * `GET /v2/zones/{zone_id}/recordsets`. The default order (and `id`) pages from the blocks
 * around the marker; filters and other sort keys read the whole zone, as they must to count and
 * sort what matches. A marker must be a recordset of the zone.
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
        if (q.filters.length === 0 && (q.sortKey === 'created_at' || q.sortKey === 'id')) {
          const page = await idOrderPage(deps, tx, z, q);
          if (page !== undefined) {
            const rows = yield* page;
            // The page is already cut; the envelope adds links, and the count comes from the zone.
            const body = yield* listArray({ ...s, metadata: false }, rows, { ...q, marker: undefined }, true, undefined, deps.baseUrl);
            return ok({ ...body, metadata: { total_count: managedCount(z) + z.recordsetCount } } as RecordsetList);
          }
        }
        const all = await zoneRecordsets(deps, tx, z);
        const markerEntity = q.marker === undefined ? undefined : all.find((r) => r.id === q.marker);
        return listArray(s, all, q, q.marker === undefined || markerEntity !== undefined, markerEntity, deps.baseUrl) as Result<
          RecordsetList,
          ApiError
        >;
      }),
  });
}

/** `GET /v2/zones/{zone_id}/recordsets/{id}`. @internal */
export function getRecordset(deps: DnsDeps, ctx: unknown, zoneId: unknown, id: unknown): ResultAsync<RecordsetBody, ApiError> {
  return command(deps, ctx, {
    parse: () => uuidParam('zone_id', zoneId).andThen((zid) => uuidParam('recordset_id', id).map((rid) => ({ zid, rid }))),
    transaction: ({ tx }, caller, { zid, rid }) =>
      safeTry(async function* () {
        const z = yield* await targetZone(tx, caller, zid, recordsetNotFound);
        if (rid === z.soaRecordsetId || rid === z.nsRecordsetId) {
          const pool = deps.pools.find((p) => p.id === z.poolId) ?? deps.defaultPool;
          const found = managedRecordsets(z, pool, deps.baseUrl).find((r) => r.id === rid);
          return found === undefined ? err(recordsetNotFound()) : ok(found);
        }
        const at = await blockAt(tx, z.id, rid);
        const i = at === undefined ? -1 : findId(at.block, rid);
        if (at === undefined || i < 0) return err(recordsetNotFound());
        return ok(presentRecordset(at.block, i, z, deps.baseUrl));
      }),
  });
}
