import { tupleKey } from '../shared/keys.js';
import { formatTimestamp } from '../shared/time.js';
import type { PoolConfig } from '../dns/deps.js';
import type { SelfLink, Zone } from '../zones/zone.js';
import { RECORDSETS_BY_ZONE } from '../zones/zone-commands.js';

/**
 * A recordset as the API answers it (`GET /v2/zones/{zone_id}/recordsets/{id}`).
 *
 * @category Recordsets
 */
export interface RecordsetBody {
  /** The recordset's UUID. */
  readonly id: string;
  /** The zone it belongs to. */
  readonly zone_id: string;
  /** The zone's owner. */
  readonly project_id: string;
  /** Owner name, absolute. */
  readonly name: string;
  /** The zone's name. */
  readonly zone_name: string;
  /** Record type mnemonic (`A`, `MX`, `SOA` …). */
  readonly type: string;
  /** Record data in presentation form, one string per record. */
  readonly records: readonly string[];
  /** The recordset's TTL; null = the zone's. */
  readonly ttl: number | null;
  /** Follows the zone: `ACTIVE` once pushed, else `PENDING` or `ERROR`. */
  readonly status: string;
  /** `CREATE`, `UPDATE`, `DELETE` or `NONE`, following the zone. */
  readonly action: string;
  /** Starts at 1. */
  readonly version: number;
  /** Free text, or null. */
  readonly description: string | null;
  /** `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC. */
  readonly created_at: string;
  /** Null until first changed. */
  readonly updated_at: string | null;
  /** `self`: the recordset's absolute URL. */
  readonly links: SelfLink;
}

/**
 * A stored (non-managed) recordset. The managed SOA and NS recordsets are not stored: they are
 * derived from their zone and its pool, so they can never disagree with them and cost no memory.
 * @internal
 */
export interface StoredRecordset {
  readonly id: string;
  readonly zoneId: string;
  /** Creation order within the zone (recordsets created together share a timestamp). */
  readonly seq: number;
  readonly name: string;
  readonly type: string;
  readonly ttl: number | null;
  readonly records: readonly string[];
  readonly description: string | null;
  readonly createdAt: number;
  readonly updatedAt: number | null;
  readonly version: number;
}

/** Index keys of a stored recordset. @internal */
export const recordsetKeys = (r: StoredRecordset): Record<string, string> => ({
  [RECORDSETS_BY_ZONE]: tupleKey(r.zoneId, r.seq),
});

/** The SOA record of a zone, built from the pool's first nameserver and the zone's fields. @internal */
export function soaRecord(zone: Zone, pool: PoolConfig): string {
  const mname = pool.nameservers[0]?.hostname ?? '.';
  const rname = `${zone.email.replace('@', '.')}.`;
  return `${mname} ${rname} ${zone.serial} ${zone.refresh} ${zone.retry} ${zone.expire} ${zone.minimum}`;
}

const status = (zone: Zone): { status: string; action: string } => ({
  status: zone.status === 'DELETED' ? 'DELETED' : zone.status,
  action: zone.action,
});

/** The managed recordsets of a PRIMARY zone: SOA first, then NS, as the real service creates them. @internal */
export function managedRecordsets(zone: Zone, pool: PoolConfig, baseUrl: string): RecordsetBody[] {
  if (zone.soaRecordsetId === null || zone.nsRecordsetId === null) return [];
  const common = {
    zone_id: zone.id,
    project_id: zone.projectId,
    name: zone.name,
    zone_name: zone.name,
    ttl: null,
    ...status(zone),
    description: null,
    created_at: formatTimestamp(zone.createdAt),
  };
  return [
    {
      id: zone.soaRecordsetId,
      ...common,
      type: 'SOA',
      records: [soaRecord(zone, pool)],
      version: zone.version,
      updated_at: zone.updatedAt === null ? null : formatTimestamp(zone.updatedAt),
      links: { self: `${baseUrl}/v2/zones/${zone.id}/recordsets/${zone.soaRecordsetId}` },
    },
    {
      id: zone.nsRecordsetId,
      ...common,
      type: 'NS',
      records: pool.nameservers.map((ns) => ns.hostname),
      version: 1,
      updated_at: null,
      links: { self: `${baseUrl}/v2/zones/${zone.id}/recordsets/${zone.nsRecordsetId}` },
    },
  ].map((r) => reorder(r));
}

/** The API body of a stored recordset. @internal */
export function presentRecordset(r: StoredRecordset, zone: Zone, baseUrl: string): RecordsetBody {
  return reorder({
    id: r.id,
    zone_id: zone.id,
    project_id: zone.projectId,
    name: r.name,
    zone_name: zone.name,
    type: r.type,
    records: [...r.records],
    ttl: r.ttl,
    ...status(zone),
    version: r.version,
    description: r.description,
    created_at: formatTimestamp(r.createdAt),
    updated_at: r.updatedAt === null ? null : formatTimestamp(r.updatedAt),
    links: { self: `${baseUrl}/v2/zones/${zone.id}/recordsets/${r.id}` },
  });
}

/** Key order of the real service's recordset body. */
function reorder(r: RecordsetBody): RecordsetBody {
  return {
    id: r.id,
    zone_id: r.zone_id,
    project_id: r.project_id,
    name: r.name,
    zone_name: r.zone_name,
    type: r.type,
    records: r.records,
    ttl: r.ttl,
    status: r.status,
    action: r.action,
    version: r.version,
    description: r.description,
    created_at: r.created_at,
    updated_at: r.updated_at,
    links: r.links,
  };
}
