import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import type { DnsDeps } from '../dns/deps.js';
import { dnsCommand } from '../dns/command.js';
import type { StorageTransaction } from '../ports/storage.js';
import { ApiError } from '../shared/api-error.js';
import { runInTransaction } from '../shared/command.js';
import { tupleKey } from '../shared/keys.js';
import { listArray, parseListQuery, type ListSpec } from '../shared/list-query.js';
import { isUuidLike } from '../shared/uuid.js';
import { invalidUuid, RECORDSETS, RECORDSETS_BY_ZONE, visibleZone } from '../zones/zone-commands.js';
import type { Zone } from '../zones/zone.js';
import { managedRecordsets, presentRecordset, type RecordsetBody, type StoredRecordset } from './recordset.js';

const recordsetNotFound = (): ApiError => new ApiError(404, 'recordset_not_found', 'Could not find RecordSet');

/** Every recordset of a zone, managed ones first, then stored ones in creation order. @internal */
export async function zoneRecordsets(deps: DnsDeps, tx: StorageTransaction, zone: Zone): Promise<RecordsetBody[]> {
  const pool = deps.pools.find((p) => p.id === zone.poolId) ?? deps.defaultPool;
  const out = managedRecordsets(zone, pool, deps.baseUrl);
  const stored = await tx.range(RECORDSETS, RECORDSETS_BY_ZONE, { prefix: tupleKey(zone.id) });
  for (const e of stored) out.push(presentRecordset(e.value as StoredRecordset, zone, deps.baseUrl));
  return out;
}

const spec = (zoneId: string): ListSpec<RecordsetBody> => ({
  collection: RECORDSETS,
  path: `/v2/zones/${zoneId}/recordsets`,
  envelope: 'recordsets',
  metadata: true,
  filters: {
    name: (r) => r.name,
    type: (r) => r.type,
    ttl: (r) => r.ttl,
    data: (r) => r.records.join(' '),
    status: (r) => r.status,
    description: (r) => r.description,
  },
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

/** `GET /v2/zones/{zone_id}/recordsets`. @internal */
export function listRecordsets(deps: DnsDeps, ctx: unknown, zoneId: unknown, query: unknown): ResultAsync<object, ApiError> {
  return dnsCommand(deps, ctx, async (caller): Promise<Result<object, ApiError>> => {
    if (!isUuidLike(zoneId)) return err(invalidUuid('zone_id', zoneId));
    const s = spec(zoneId);
    const parsed = parseListQuery(s, query, caller.allProjects);
    if (parsed.isErr()) return err(parsed.error);
    return runInTransaction(deps.storage, async ({ tx }) => {
      const zone = await visibleZone(tx, caller, zoneId);
      if (zone.isErr()) return err(zone.error);
      const all = await zoneRecordsets(deps, tx, zone.value);
      const marker = parsed.value.marker;
      const markerEntity = marker === undefined ? undefined : all.find((r) => r.id === marker);
      const exists = marker === undefined || markerEntity !== undefined || (await tx.get(RECORDSETS, marker)) !== undefined;
      return listArray(s, all, parsed.value, exists, markerEntity, deps.baseUrl);
    });
  });
}

/** `GET /v2/zones/{zone_id}/recordsets/{id}`. @internal */
export function getRecordset(deps: DnsDeps, ctx: unknown, zoneId: unknown, id: unknown): ResultAsync<RecordsetBody, ApiError> {
  return dnsCommand(deps, ctx, async (caller): Promise<Result<RecordsetBody, ApiError>> => {
    if (!isUuidLike(zoneId)) return err(invalidUuid('zone_id', zoneId));
    if (!isUuidLike(id)) return err(invalidUuid('recordset_id', id));
    return runInTransaction(deps.storage, async ({ tx }): Promise<Result<RecordsetBody, ApiError>> => {
      const zone = await visibleZone(tx, caller, zoneId);
      if (zone.isErr()) return err(zone.error);
      const z = zone.value;
      if (id === z.soaRecordsetId || id === z.nsRecordsetId) {
        const pool = deps.pools.find((p) => p.id === z.poolId) ?? deps.defaultPool;
        const found = managedRecordsets(z, pool, deps.baseUrl).find((r) => r.id === id);
        return found === undefined ? err(recordsetNotFound()) : ok(found);
      }
      const stored = (await tx.get(RECORDSETS, id)) as StoredRecordset | undefined;
      if (stored === undefined || stored.zoneId !== z.id) return err(recordsetNotFound());
      return ok(presentRecordset(stored, z, deps.baseUrl));
    });
  });
}
