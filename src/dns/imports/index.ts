/**
 * Zone imports (`/v2/zones/tasks/imports`): a master file in, a zone with its recordsets out, as
 * an asynchronous task.
 *
 * @packageDocumentation
 */
import type { ResultAsync } from 'neverthrow';
import type { DnsDeps } from '../kernel/deps.js';
import type { CollectionKeys } from '../../kernel/snapshot.js';
import type { ApiError } from '../../kernel/api-error.js';
import type { RequestContext } from '../../kernel/context.js';
import type { ListQuery } from '../../kernel/list-query.js';
import { createImport, deleteImport, getImport, listImports, type ZoneImportList } from './import-commands.js';
import { IMPORTS, importRepository, type StoredImport, type ZoneImportBody } from './zone-import.js';

export { DEFAULT_IMPORT_RECORD_TYPES, type ZoneImportOptions } from '../kernel/import-plan.js';
export { importTaskHandler, ZONE_IMPORT_TASK } from './import-commands.js';
export type { ZoneImportList } from './import-commands.js';
export { IMPORTS, type ZoneImportBody, type ZoneImportStatus, type ZoneImportLinks } from './zone-import.js';

/**
 * The `dns.imports` command group.
 *
 * @category Imports
 */
export interface ZoneImportCommands {
  /**
   * `POST /v2/zones/tasks/imports`: answered `PENDING` at once (version 1, `zone_id` and `message`
   * null); the file is processed by a task. 415 for a content type other than `text/dns`, 400
   * `empty_request_body` for an empty file, 413 `request_too_large` above `limits.maxZoneFileBytes`.
   *
   * @errors `empty_request_body` 400, `bad_request` 400 (text that is not UTF-8), `request_too_large` 413, `unsupported_content_type` 415
   */
  create(ctx: RequestContext, zoneFileText: string | Uint8Array, contentType: string): ResultAsync<ZoneImportBody, ApiError>;
  /**
   * `GET /v2/zones/tasks/imports/{id}`: 404 `zone_import_not_found` for another project's import.
   *
   * @errors `invalid_uuid` 400, `zone_import_not_found` 404
   */
  get(ctx: RequestContext, id: string): ResultAsync<ZoneImportBody, ApiError>;
  /**
   * `GET /v2/zones/tasks/imports`: `{ imports, links, metadata }`; filters `status`, `message`, `zone_id`.
   *
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  list(ctx: RequestContext, query?: ListQuery): ResultAsync<ZoneImportList, ApiError>;
  /**
   * `DELETE /v2/zones/tasks/imports/{id}`: removes the import record; the zone it created stays.
   *
   * @errors `invalid_uuid` 400, `zone_import_not_found` 404
   */
  delete(ctx: RequestContext, id: string): ResultAsync<void, ApiError>;
}

/**
 * Builds the `dns.imports` commands over the service's dependencies. The processing itself is
 * {@link importTaskHandler}, to be registered under {@link ZONE_IMPORT_TASK}.
 *
 * @param deps - the service's dependencies (the record types an import may hold are the task's)
 * @returns the command group
 * @category Imports
 */
export function createImportCommands(deps: DnsDeps): ZoneImportCommands {
  return {
    create: (ctx, text, contentType) => createImport(deps, ctx, text, contentType),
    get: (ctx, id) => getImport(deps, ctx, id),
    list: (ctx, query) => listImports(deps, ctx, query),
    delete: (ctx, id) => deleteImport(deps, ctx, id),
  };
}

/** The imports collection and its index keys, for snapshots and restores. @internal */
export const IMPORT_COLLECTIONS: CollectionKeys = {
  [IMPORTS]: (i: StoredImport) => importRepository.collection.keys(i),
};
