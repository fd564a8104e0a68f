import { ApiError } from '../../kernel/api-error.js';

/**
 * Every refusal of a pool command that is the pool's own, with the real service's type and
 * wording.
 * @module
 */

/** No pool with that id. @internal */
export const poolNotFound = (): ApiError => new ApiError(404, 'pool_not_found', 'Could not find Pool');

/** Another pool already has the name. @internal */
export const duplicatePool = (): ApiError => new ApiError(409, 'duplicate_pool', 'Duplicate Pool');

/** Deleting a pool that zones are in. @internal */
export const poolHasZones = (): ApiError => new ApiError(400, 'invalid_operation', 'pool must not contain zones');

/** A pool update that would leave the pool, and so its zones, without a nameserver. @internal */
export const lastServerDeleteNotAllowed = (): ApiError => new ApiError(400, 'last_server_delete_not_allowed', 'Not allowed to delete last of servers');
