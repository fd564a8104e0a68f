import { ApiError } from '../../kernel/api-error.js';

/**
 * Every refusal of an export command, with the real service's type and wording (reference §9).
 * @module
 */

/** The export does not exist or belongs to another project. @internal */
export const exportNotFound = (): ApiError => new ApiError(404, 'zone_export_not_found', 'Could not find ZoneExport');

/** An Accept header that allows neither `text/dns` nor `*\/*`. @internal */
export const unsupportedAccept = (): ApiError =>
  new ApiError(406, 'unsupported_accept', 'The zone file is served as text/dns: accept text/dns or */*.');

/** The file of an export that has not completed (or points elsewhere than this service). @internal */
export const notExportedYet = (): ApiError => new ApiError(400, 'bad_request', 'Zone can not be exported synchronously');
