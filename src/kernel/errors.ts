import { err, ok, type Result } from 'neverthrow';
import { ApiError } from './api-error.js';
import { isUuidLike } from './uuid.js';

/**
 * Errors of the shared kernel that any concept answers with: path ids and list parameters (an
 * empty body is `emptyRequestBody` in `validation.ts`, with the other body checks). Each
 * concept's own refusals live in its `*-errors.ts`.
 * @module
 */

/** A path id that is not UUID-shaped (reference §13): 400 `invalid_uuid` naming the parameter. @internal */
export const invalidUuid = (param: string, value: unknown): ApiError =>
  new ApiError(400, 'invalid_uuid', `Invalid UUID ${param}: ${typeof value === 'string' ? value.slice(0, 100) : String(value)}`);

/** A path id, or 400 `invalid_uuid` naming the parameter. @internal */
export const uuidParam = (param: string, id: unknown): Result<string, ApiError> => (isUuidLike(id) ? ok(id) : err(invalidUuid(param, id)));

/**
 * A list `marker` that names nothing in the caller's scope. The real service formats the
 * marker's id into its message as `None` (it looks it up after dropping it), so every list
 * answers the same text.
 * @internal
 */
export const markerNotFound = (): ApiError => new ApiError(400, 'marker_not_found', 'Marker None could not be found');

/** List parameters that are not an object of query-string values. @internal */
export const listParametersNotAnObject = (): ApiError =>
  new ApiError(400, 'bad_request', 'List parameters must be an object of query-string values.');

/** A list parameter that is neither text nor a number. @internal */
export const listParameterNotText = (name: string): ApiError =>
  new ApiError(400, 'bad_request', `Query parameter ${name.slice(0, 100)} must be a string.`);

/** A list parameter the storage could not hold faithfully. @internal */
export const listParameterNotClean = (): ApiError =>
  new ApiError(400, 'bad_request', 'Query parameters must be UTF-8 text without NUL characters or lone surrogates.');

/** A `marker` that is not UUID-shaped (answered bare, as the real service). @internal */
export const invalidMarker = (): ApiError => new ApiError(400, 'invalid_marker', 'The marker is not a UUID.', { showMessage: false });

/** A `limit` that is not an integer from 1 to `max` (nor `max`). @internal */
export const invalidLimit = (max: number): ApiError => new ApiError(400, 'invalid_limit', `limit should be an integer between 1 and ${max}`);

/** A `sort_key` the resource does not sort by. @internal */
export const invalidSortKey = (keys: readonly string[]): ApiError =>
  new ApiError(400, 'invalid_sort_key', `sort key must be one of [${keys.map((k) => `'${k}'`).join(', ')}]`);

/** A `sort_dir` other than `asc` or `desc`. @internal */
export const invalidSortDir = (): ApiError => new ApiError(400, 'invalid_sort_dir', "Unknown sort direction, must be 'desc' or 'asc'");

/** Filters the resource does not know. @internal */
export const invalidFilters = (names: readonly string[]): ApiError => new ApiError(400, 'bad_request', `Invalid filters ${names.join(', ')}`);
