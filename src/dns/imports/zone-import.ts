import { isInteger, isString, oneOf, orNull, ownedRepository } from '../../kernel/stored.js';
import { formatTimestamp } from '../kernel/time.js';

/**
 * Status of a zone import: `PENDING` until the task ran, then `COMPLETE` or `ERROR`.
 *
 * @category Imports
 */
export type ZoneImportStatus = 'PENDING' | 'COMPLETE' | 'ERROR';

/**
 * A zone import as the API answers it (`GET /v2/zones/tasks/imports/{id}`), keys in the real
 * service's order.
 *
 * @category Imports
 */
export interface ZoneImportBody {
  /** The import's UUID. */
  readonly id: string;
  /** `PENDING` while the file waits to be processed, then `COMPLETE` or `ERROR`. */
  readonly status: ZoneImportStatus;
  /** Null while `PENDING`; `<zone name> imported` when `COMPLETE`; why it failed when `ERROR`. */
  readonly message: string | null;
  /** The zone the import created; null until it is `COMPLETE`. */
  readonly zone_id: string | null;
  /** The project that asked for the import (and owns the zone it creates). */
  readonly project_id: string;
  /** `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC. */
  readonly created_at: string;
  /** When the outcome was written; null while `PENDING`. */
  readonly updated_at: string | null;
  /** 1 at creation, 2 once the outcome is written. */
  readonly version: number;
  /**
   * `self`: the import's absolute URL; `href`: the created zone's URL, present only once
   * `zone_id` is set (the spec's name; the real service calls it `zone`).
   */
  readonly links: ZoneImportLinks;
}

/** A zone import as stored. @internal */
export interface StoredImport {
  readonly id: string;
  readonly projectId: string;
  readonly status: ZoneImportStatus;
  readonly message: string | null;
  readonly zoneId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number | null;
  readonly version: number;
}

/** The imports collection. @internal */
export const IMPORTS = 'dns.imports';

/** The stored imports, read (checked) and written only through here. @internal */
export const importRepository = ownedRepository<StoredImport>(IMPORTS, {
  id: isString,
  projectId: isString,
  status: oneOf('PENDING', 'COMPLETE', 'ERROR'),
  message: orNull(isString),
  zoneId: orNull(isString),
  createdAt: isInteger,
  updatedAt: orNull(isInteger),
  version: isInteger,
});

/** The API body of a stored import. @internal */
export function presentImport(i: StoredImport, baseUrl: string): ZoneImportBody {
  const links: { self: string; href?: string } = { self: `${baseUrl}/v2/zones/tasks/imports/${i.id}` };
  if (i.zoneId !== null) links.href = `${baseUrl}/v2/zones/${i.zoneId}`;
  return {
    id: i.id,
    status: i.status,
    message: i.message,
    zone_id: i.zoneId,
    project_id: i.projectId,
    created_at: formatTimestamp(i.createdAt),
    updated_at: i.updatedAt === null ? null : formatTimestamp(i.updatedAt),
    version: i.version,
    links,
  };
}

/**
 * The links of an import.
 *
 * @category Imports
 */
export interface ZoneImportLinks {
  /** The import's own URL, to poll. */
  readonly self: string;
  /** The created zone's URL, once the import is COMPLETE. */
  readonly href?: string;
}
