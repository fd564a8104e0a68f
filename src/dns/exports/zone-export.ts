import { isInteger, isString, oneOf, orNull, ownedRepository } from '../../kernel/stored.js';
import { formatTimestamp } from '../kernel/time.js';

/**
 * Status of a zone export: `PENDING` until the task ran, then `COMPLETE` or `ERROR`.
 *
 * @category Exports
 */
export type ZoneExportStatus = 'PENDING' | 'COMPLETE' | 'ERROR';

/**
 * A zone export as the API answers it (`GET /v2/zones/tasks/exports/{id}`), keys in the real
 * service's order.
 *
 * @category Exports
 */
export interface ZoneExportBody {
  /** The export's UUID. */
  readonly id: string;
  /** `PENDING` while queued, then `COMPLETE` (the file can be fetched) or `ERROR`. */
  readonly status: ZoneExportStatus;
  /** Null unless `ERROR`, where it says why (e.g. `Zone is too large to export`). */
  readonly message: string | null;
  /** `designate://v2/zones/tasks/exports/<id>/export` once `COMPLETE`; null before and on `ERROR`. */
  readonly location: string | null;
  /** The exported zone. */
  readonly zone_id: string;
  /** The project that asked for the export (not necessarily the zone's owner). */
  readonly project_id: string;
  /** `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC. */
  readonly created_at: string;
  /** When the outcome was written; null while `PENDING`. */
  readonly updated_at: string | null;
  /** 1 at creation, 2 once the outcome is written. */
  readonly version: number;
  /**
   * `self`: the export's absolute URL; `export`: where the file is fetched
   * (`<base>/v2/zones/tasks/exports/<id>/export`), present only once `location` is set.
   */
  readonly links: ZoneExportLinks;
}

/** A zone export as stored. @internal */
export interface StoredExport {
  readonly id: string;
  readonly projectId: string;
  readonly zoneId: string;
  readonly status: ZoneExportStatus;
  readonly message: string | null;
  readonly location: string | null;
  readonly createdAt: number;
  readonly updatedAt: number | null;
  readonly version: number;
}

/** The exports collection. @internal */
export const EXPORTS = 'dns.exports';

/** The stored exports, read (checked) and written only through here. @internal */
export const exportRepository = ownedRepository<StoredExport>(EXPORTS, {
  id: isString,
  projectId: isString,
  zoneId: isString,
  status: oneOf('PENDING', 'COMPLETE', 'ERROR'),
  message: orNull(isString),
  location: orNull(isString),
  createdAt: isInteger,
  updatedAt: orNull(isInteger),
  version: isInteger,
});

/** The API body of a stored export. @internal */
export function presentExport(e: StoredExport, baseUrl: string): ZoneExportBody {
  const self = `${baseUrl}/v2/zones/tasks/exports/${e.id}`;
  const links: { self: string; export?: string } = { self };
  if (e.location !== null && e.location.startsWith('designate://')) links.export = `${self}/export`;
  return {
    id: e.id,
    status: e.status,
    message: e.message,
    location: e.location,
    zone_id: e.zoneId,
    project_id: e.projectId,
    created_at: formatTimestamp(e.createdAt),
    updated_at: e.updatedAt === null ? null : formatTimestamp(e.updatedAt),
    version: e.version,
    links,
  };
}

/**
 * The links of an export.
 *
 * @category Exports
 */
export interface ZoneExportLinks {
  /** The export's own URL, to poll. */
  readonly self: string;
  /** The zone file's URL, once the export is COMPLETE. */
  readonly export?: string;
}
