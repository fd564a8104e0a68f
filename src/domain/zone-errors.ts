import { ApiError } from '../shared/api-error.js';
import type { ForbiddenStatus } from '../shared/context.js';

/**
 * Every refusal of a zone command, with the real service's type and wording (reference §4).
 * @module
 */

/** The zone does not exist or the caller may not see it (another project's zone is 404, never 403). @internal */
export const zoneNotFound = (): ApiError => new ApiError(404, 'zone_not_found', 'Could not find Zone');

/** The name is taken by another project's zone, in any pool. @internal */
export const zoneOwnedElsewhere = (): ApiError => new ApiError(409, 'duplicate_zone', 'Zone already exists, owned by a different tenant');

/** The name is taken in the pool the zone would go to. @internal */
export const duplicateZone = (): ApiError => new ApiError(409, 'duplicate_zone', 'Duplicate Zone');

/** The nearest existing parent zone belongs to another project. @internal */
export const illegalChild = (status: ForbiddenStatus): ApiError =>
  new ApiError(status, 'illegal_child', 'Unable to create subzone in another tenants zone');

/** Another project owns a zone below the new one. @internal */
export const illegalParent = (status: ForbiddenStatus): ApiError =>
  new ApiError(status, 'illegal_parent', 'Unable to create zone because another tenant owns a subzone of the zone');

/** The pool has no nameservers to write the SOA and NS from (a configuration error). @internal */
export const noServersConfigured = (): ApiError =>
  new ApiError(500, 'no_servers_configured', 'The pool has no nameservers.', { showMessage: false });

/** PATCH of a zone being deleted. @internal */
export const updatingDeletingZone = (): ApiError => new ApiError(400, 'bad_request', 'Can not update a deleting zone');

/** PATCH that sends another `name`. @internal */
export const renamingZone = (): ApiError => new ApiError(400, 'bad_request', 'Renaming a zone is not allowed');

/** DELETE or abandon of a zone that still has subzones. @internal */
export const zoneHasSubzone = (): ApiError =>
  new ApiError(400, 'zone_has_sub_zone', 'Please delete any subzones before deleting this zone');

/** One of the central service's name rules (length, label count, TLD list, blacklist). @internal */
export const invalidZoneName = (reason: 'Name too long' | 'More than one label is required' | 'Invalid TLD' | 'Zone name cannot be the same as a TLD' | 'Blacklisted zone name'): ApiError =>
  new ApiError(400, 'invalid_zone_name', reason);

/** A TTL below `limits.minTtl` from a caller who is not an admin. @internal */
export const ttlBelowMinimum = (minTtl: number): ApiError => new ApiError(400, 'invalid_ttl', `TTL is below the minimum: ${minTtl}`);

/** `zones.xfr` of a zone that is not SECONDARY (the real service's exact message). @internal */
export const xfrOfPrimary = (): ApiError => new ApiError(400, 'bad_request', "Can't XFR a non Secondary zone.");

/** PATCH that sends `project_id` (even the zone's own): zones move only by transfer. @internal */
export const movingZone = (): ApiError => new ApiError(400, 'bad_request', 'Moving a zone between tenants is not allowed');
