import { ApiError } from '../../kernel/api-error.js';

/**
 * Every refusal of an import command (reference §8). What goes wrong while the file is processed
 * is not a refusal: it is the import's `ERROR` status and message (see `convert.ts`).
 * @module
 */

/** The import does not exist or belongs to another project. @internal */
export const importNotFound = (): ApiError => new ApiError(404, 'zone_import_not_found', 'Could not find ZoneImport');

/** A Content-Type other than `text/dns`. @internal */
export const unsupportedContentType = (): ApiError => new ApiError(415, 'unsupported_content_type', 'Content-type must be text/dns');

/** Bytes that are not UTF-8. @internal */
export const fileNotUtf8 = (): ApiError => new ApiError(400, 'bad_request', 'The zone file is not valid UTF-8.');

/** A body that is neither text nor bytes. @internal */
export const fileNotText = (): ApiError => new ApiError(400, 'bad_request', 'The zone file must be text.');

/** Text the storage could not hold faithfully. @internal */
export const fileNotClean = (): ApiError =>
  new ApiError(400, 'bad_request', 'The zone file must be UTF-8 text without NUL characters or lone surrogates.');

/** A file above `limits.maxZoneFileBytes`. @internal */
export const fileTooLarge = (bytes: number, max: number): ApiError =>
  new ApiError(413, 'request_too_large', `The zone file is ${bytes} bytes, more than the ${max} bytes this service accepts.`);

/**
 * The outcome message of a failed import, carried out of the creating transaction (which it
 * rolls back) to be written as the import's `ERROR` message; never answered to a caller.
 * @internal
 */
export const importFailed = (message: string): ApiError => new ApiError(422, 'import_failed', message);
