import type { ListSpec } from '../../kernel/list-query.js';
import { formatTimestamp } from './time.js';
import type { PoolConfig } from './deps.js';
import { idAt, typeAt, type RecordsetBlock } from './recordset.js';
import { createdWithZone, soaState, writtenState } from './recordset-status.js';
import type { SelfLink, Zone } from './zone.js';

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

/** The API body of the `i`-th recordset of a block. @internal */
export function presentRecordset(b: RecordsetBlock, i: number, zone: Zone, baseUrl: string): RecordsetBody {
  const id = idAt(b, i);
  const m = b.meta?.[i] ?? null;
  const state = m === null ? createdWithZone(zone) : writtenState(m, zone);
  return {
    id,
    zone_id: zone.id,
    project_id: zone.projectId,
    name: b.names[i]!,
    zone_name: zone.name,
    type: typeAt(b, i),
    records: b.data.slice(i === 0 ? 0 : b.ends[i - 1]!, b.ends[i]),
    ttl: b.ttls[i]!,
    ...state,
    version: m === null ? 1 : m.version,
    description: m === null ? null : m.description,
    created_at: formatTimestamp(m === null ? b.createdAt : m.createdAt),
    updated_at: m === null || m.updatedAt === null ? null : formatTimestamp(m.updatedAt),
    links: { self: `${baseUrl}/v2/zones/${zone.id}/recordsets/${id}` },
  };
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

/**
 * The filters of both recordset lists (the per-zone one and `GET /v2/recordsets`); `data`
 * matches one record and lists the whole recordset.
 * @internal
 */
export const RECORDSET_FILTERS: ListSpec<RecordsetBody>['filters'] = {
  name: (r) => r.name,
  type: (r) => r.type,
  ttl: (r) => r.ttl,
  data: (r) => r.records,
  status: (r) => r.status,
  description: (r) => r.description,
};

/** The SOA record of a zone, built from the pool's first nameserver and the zone's fields. @internal */
export function soaRecord(zone: Zone, pool: PoolConfig): string {
  const mname = pool.nameservers[0]?.hostname ?? '.';
  const rname = `${zone.email.replace('@', '.')}.`;
  return `${mname} ${rname} ${zone.serial} ${zone.refresh} ${zone.retry} ${zone.expire} ${zone.minimum}`;
}

/** How many managed recordsets a zone has: SOA and NS (PRIMARY), SOA only (SECONDARY before its first transfer). @internal */
export const managedCount = (zone: Zone): number => (zone.soaRecordsetId === null ? 0 : 1) + (zone.nsRecordsetId === null ? 0 : 1);

/**
 * The managed recordsets of a zone: SOA first, then NS, as the real service creates them. A
 * SECONDARY zone has the SOA alone until a transfer brings the master's (its real NS come from there).
 * @internal
 */
export function managedRecordsets(zone: Zone, pool: PoolConfig, baseUrl: string): RecordsetBody[] {
  if (zone.soaRecordsetId === null) return [];
  const common = {
    zone_id: zone.id,
    project_id: zone.projectId,
    name: zone.name,
    zone_name: zone.name,
    ttl: null,
    description: null,
    created_at: formatTimestamp(zone.createdAt),
  };
  const soa: RecordsetBody = {
    id: zone.soaRecordsetId,
    ...common,
    ...soaState(zone),
    type: 'SOA',
    records: [soaRecord(zone, pool)],
    version: zone.soaVersion ?? 1,
    updated_at: zone.soaUpdatedAt === undefined ? null : formatTimestamp(zone.soaUpdatedAt),
    links: { self: `${baseUrl}/v2/zones/${zone.id}/recordsets/${zone.soaRecordsetId}` },
  };
  if (zone.nsRecordsetId === null) return [reorder(soa)];
  const w = zone.nsWrite;
  const ns: RecordsetBody = {
    id: zone.nsRecordsetId,
    ...common,
    ...(w === undefined ? createdWithZone(zone) : writtenState({ createdAt: zone.createdAt, updatedAt: w.updatedAt, version: w.version, description: null, action: 'UPDATE', serial: w.serial }, zone)),
    type: 'NS',
    records: pool.nameservers.map((ns) => ns.hostname),
    version: w?.version ?? 1,
    updated_at: w === undefined ? null : formatTimestamp(w.updatedAt),
    links: { self: `${baseUrl}/v2/zones/${zone.id}/recordsets/${zone.nsRecordsetId}` },
  };
  return [reorder(soa), reorder(ns)];
}
