import { ApiError } from './api-error.js';

/**
 * Errors of the shared kernel that any concept answers with: path ids, empty bodies, list
 * markers. Each concept's own refusals live in its `*-errors.ts`.
 * @module
 */

/** A path id that is not UUID-shaped (reference §13): 400 `invalid_uuid` naming the parameter. @internal */
export const invalidUuid = (param: string, value: unknown): ApiError =>
  new ApiError(400, 'invalid_uuid', `Invalid UUID ${param}: ${typeof value === 'string' ? value.slice(0, 100) : String(value)}`);

/** A write whose body is missing or JSON `null`: the real controller's 400 before any other check. @internal */
export const emptyRequestBody = (): ApiError => new ApiError(400, 'empty_request_body', 'Request Body is empty');

/**
 * A list `marker` that names nothing in the caller's scope. The real service formats the
 * marker's id into its message as `None` (it looks it up after dropping it), so every list
 * answers the same text.
 * @internal
 */
export const markerNotFound = (): ApiError => new ApiError(400, 'marker_not_found', 'Marker None could not be found');
