import type { Nameserver } from './deps.js';
import { formatTimestamp } from './time.js';

/**
 * A zone's type: PRIMARY zones are served from the service's own data; SECONDARY zones are
 * transferred from their masters.
 * @category Zones
 */
export type ZoneType = 'PRIMARY' | 'SECONDARY';

/** Zone statuses the service shows. @category Zones */
export type ZoneStatus = 'ACTIVE' | 'PENDING' | 'ERROR' | 'DELETED';

/** What the service is doing to a zone: the other half of its state. @category Zones */
export type ZoneAction = 'CREATE' | 'UPDATE' | 'DELETE' | 'NONE';

/**
 * A zone as the API answers it (`GET /v2/zones/{id}`), keys in the real service's order.
 *
 * @category Zones
 */
export interface ZoneBody {
  /** The zone's UUID. */
  readonly id: string;
  /** The pool the zone is served from. */
  readonly pool_id: string;
  /** The owning project. */
  readonly project_id: string;
  /** The zone name, fully qualified with its trailing dot, case as created. */
  readonly name: string;
  /** The zone's contact; null for SECONDARY zones (the spec). */
  readonly email: string | null;
  /** Free text, or null. */
  readonly description: string | null;
  /** The default TTL; null for SECONDARY zones (the spec). */
  readonly ttl: number | null;
  /** The SOA serial: Unix time at creation, raised on every change. */
  readonly serial: number;
  /** `ACTIVE`, `PENDING`, `ERROR` or `DELETED`. */
  readonly status: ZoneStatus;
  /** `CREATE`, `UPDATE`, `DELETE` or `NONE`. */
  readonly action: ZoneAction;
  /** Starts at 1; +1 on every write of the zone. */
  readonly version: number;
  /** Scheduler hints, string to string. */
  readonly attributes: Readonly<Record<string, string>>;
  /** `PRIMARY` or `SECONDARY`. */
  readonly type: ZoneType;
  /** Masters of a SECONDARY zone (`host` or `host:port`); `[]` for PRIMARY. */
  readonly masters: readonly string[];
  /** `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC. */
  readonly created_at: string;
  /** Null until the first update. */
  readonly updated_at: string | null;
  /** When a SECONDARY zone was last transferred from its masters; null otherwise. */
  readonly transferred_at: string | null;
  /** `self`: the zone's absolute URL. */
  readonly links: SelfLink;
}

/**
 * The `links` object of a resource that has only its own URL.
 *
 * @category Zones
 */
export interface SelfLink {
  /** The resource's absolute URL. */
  readonly self: string;
}

/** A zone as stored: compact (timestamps as epoch microseconds), internal fields included. @internal */
export interface Zone extends Pick<ZoneBody, 'id' | 'name' | 'description' | 'serial' | 'status' | 'action' | 'version' | 'attributes' | 'type' | 'masters'> {
  readonly poolId: string;
  readonly projectId: string;
  readonly email: string;
  readonly ttl: number;
  readonly createdAt: number;
  readonly updatedAt: number | null;
  readonly transferredAt: number | null;
  readonly refresh: number;
  readonly retry: number;
  readonly expire: number;
  readonly minimum: number;
  readonly parentZoneId: string | null;
  /** Ids of the managed SOA and NS recordsets (their content is derived from the zone and pool). */
  readonly soaRecordsetId: string | null;
  readonly nsRecordsetId: string | null;
  /** The managed SOA recordset's version: 1, plus one per serial raise (absent = 1). */
  readonly soaVersion?: number;
  /** When the managed SOA recordset was last rewritten (a serial raise); absent while never. */
  readonly soaUpdatedAt?: number;
  /**
   * The pool's NS records as last written into this zone: set when the zone was created after,
   * or was in its pool during, a change of the pool's `ns_records` through the API; absent, the
   * configured pool's.
   */
  readonly nameservers?: readonly Nameserver[];
  /**
   * The last rewrite of the managed NS recordset by a change of its pool's nameservers: its
   * version (1, plus one per nameserver added or removed), when, and the serial that rewrite
   * made (served once the zone is); absent while never rewritten.
   */
  readonly nsWrite?: { readonly version: number; readonly updatedAt: number; readonly serial: number };
  /**
   * The serial the pool targets last reported served (absent before the first success): a
   * recordset written at or below it stays served while a later change waits, as the real
   * service marks its rows.
   */
  readonly servedSerial?: number;
  /** Number of stored (non-managed) recordsets, kept so quotas need no count query. */
  readonly recordsetCount: number;
  /** Number of stored (non-managed) records, for the `zone_records` quota. */
  readonly recordCount: number;
}

/** The API body of a stored zone. @internal */
export function presentZone(z: Zone, baseUrl: string): ZoneBody {
  const secondary = z.type === 'SECONDARY';
  return {
    id: z.id,
    pool_id: z.poolId,
    project_id: z.projectId,
    name: z.name,
    email: secondary ? null : z.email,
    description: z.description,
    ttl: secondary ? null : z.ttl,
    serial: z.serial,
    status: z.status,
    action: z.action,
    version: z.version,
    attributes: { ...z.attributes },
    type: z.type,
    masters: [...z.masters],
    created_at: formatTimestamp(z.createdAt),
    updated_at: z.updatedAt === null ? null : formatTimestamp(z.updatedAt),
    transferred_at: z.transferredAt === null ? null : formatTimestamp(z.transferredAt),
    links: { self: `${baseUrl}/v2/zones/${z.id}` },
  };
}

/**
 * The next serial, as the real service raises it: the current Unix time when that is larger,
 * else one more; wraps within 32 bits like an SOA serial.
 * @internal
 */
export function nextSerial(serial: number, nowSeconds: number): number {
  return nowSeconds > serial ? nowSeconds : (serial + 1) % 4294967296;
}
