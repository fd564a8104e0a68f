/**
 * Zone exports (`/v2/zones/{id}/tasks/export`, `/v2/zones/tasks/exports`): a zone out as a master
 * file, through an asynchronous task.
 *
 * @packageDocumentation
 */
import type { ResultAsync } from 'neverthrow';
import type { DnsDeps } from '../kernel/deps.js';
import type { CollectionKeys } from '../../kernel/snapshot.js';
import type { ApiError } from '../../kernel/api-error.js';
import type { RequestContext } from '../../kernel/context.js';
import type { ListQuery } from '../../kernel/list-query.js';
import { createExport, deleteExport, exportFile, getExport, listExports, type ZoneExportList } from './export-commands.js';
import { EXPORTS, exportRepository, type StoredExport, type ZoneExportBody } from './zone-export.js';

export { exportTaskHandler, renderZoneFile, ZONE_EXPORT_TASK } from './export-commands.js';
export type { ZoneExportList } from './export-commands.js';
export { EXPORTS, type ZoneExportBody, type ZoneExportStatus, type ZoneExportLinks } from './zone-export.js';

/**
 * The `dns.exports` command group.
 *
 * @category Exports
 */
export interface ZoneExportCommands {
  /**
   * `POST /v2/zones/{zone_id}/tasks/export`: answered `PENDING`; a task completes it. 404 `zone_not_found` for a zone the caller cannot see.
   *
   * @errors `invalid_uuid` 400, `zone_not_found` 404
   */
  create(ctx: RequestContext, zoneId: string): ResultAsync<ZoneExportBody, ApiError>;
  /**
   * `GET /v2/zones/tasks/exports/{id}`: 404 `zone_export_not_found` for another project's export.
   *
   * @errors `invalid_uuid` 400, `zone_export_not_found` 404
   */
  get(ctx: RequestContext, id: string): ResultAsync<ZoneExportBody, ApiError>;
  /**
   * `GET /v2/zones/tasks/exports`: `{ exports, links, metadata }`; filters `status`, `message`, `zone_id`.
   *
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  list(ctx: RequestContext, query?: ListQuery): ResultAsync<ZoneExportList, ApiError>;
  /**
   * `DELETE /v2/zones/tasks/exports/{id}`: the export and its file link go; the zone stays.
   *
   * @errors `invalid_uuid` 400, `zone_export_not_found` 404
   */
  delete(ctx: RequestContext, id: string): ResultAsync<void, ApiError>;
  /**
   * `GET /v2/zones/tasks/exports/{id}/export`: the master file, rendered at call time from the zone's
   * current data. `accept` `text/dns` (default) or `*\/*`, else 406 `unsupported_accept`; 400
   * `Zone can not be exported synchronously` while `PENDING` or after `ERROR`; 404 when the zone has gone.
   *
   * @errors `invalid_uuid` 400, `bad_request` 400 (not exported yet), `zone_export_not_found` 404, `zone_not_found` 404, `unsupported_accept` 406
   */
  file(ctx: RequestContext, id: string, accept?: string): ResultAsync<string, ApiError>;
}

/**
 * Builds the `dns.exports` commands over the service's dependencies. The processing itself is
 * {@link exportTaskHandler}, to be registered under {@link ZONE_EXPORT_TASK}.
 *
 * @param deps - the service's dependencies
 * @returns the command group
 * @category Exports
 */
export function createExportCommands(deps: DnsDeps): ZoneExportCommands {
  return {
    create: (ctx, zoneId) => createExport(deps, ctx, zoneId),
    get: (ctx, id) => getExport(deps, ctx, id),
    list: (ctx, query) => listExports(deps, ctx, query),
    delete: (ctx, id) => deleteExport(deps, ctx, id),
    file: (ctx, id, accept) => exportFile(deps, ctx, id, accept),
  };
}

/** The exports collection and its index keys, for snapshots and restores. @internal */
export const EXPORT_COLLECTIONS: CollectionKeys = {
  [EXPORTS]: (e: StoredExport) => exportRepository.collection.keys(e),
};
