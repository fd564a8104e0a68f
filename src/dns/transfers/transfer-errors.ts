import { ApiError } from '../../kernel/api-error.js';
import type { ForbiddenStatus } from '../../kernel/context.js';

/**
 * Every refusal of a zone transfer command, with the real service's type and wording
 * (reference §7).
 * @module
 */

/** The request does not exist, or (DELETE) is outside the caller's scope. @internal */
export const requestNotFound = (): ApiError =>
  new ApiError(404, 'zone_transfer_request_not_found', 'Could not find ZoneTransferRequest');

/** The accept does not exist or belongs to another project. @internal */
export const acceptNotFound = (): ApiError => new ApiError(404, 'zone_transfer_accept_not_found', 'Could not find ZoneTransferAccept');

/** Offering or accepting a zone that is being deleted. @internal */
export const transferringDeletingZone = (): ApiError => new ApiError(400, 'bad_request', 'Can not transfer a deleting zone');

/** An ACTIVE request for the zone already exists in the caller's scope (answered bare, as the real service). @internal */
export const duplicateTransferRequest = (): ApiError =>
  new ApiError(409, 'duplicate_zone_transfer_request', 'Duplicate Zone Transfer Request', { showMessage: false });

/** PATCH of a request that sends `zone_id`. @internal */
export const zoneCannotChange = (): ApiError => new ApiError(400, 'invalid_operation', 'Zone cannot be changed');

/** Accepting a request that was already accepted. @internal */
export const requestUsed = (): ApiError => new ApiError(400, 'invalid_zone_transfer_request', 'Zone Transfer Request has been used');

/** Accepting a request that is neither ACTIVE nor COMPLETE. @internal */
export const requestInvalid = (): ApiError => new ApiError(400, 'invalid_zone_transfer_request', 'Zone Transfer Request Invalid');

/** Accepting with another key than the request's. @internal */
export const keyMismatch = (status: ForbiddenStatus): ApiError =>
  new ApiError(status, 'invalid_key', 'Key does not match stored key for request');
