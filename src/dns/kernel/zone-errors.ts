import { ApiError } from '../../kernel/api-error.js';
import type { ForbiddenStatus } from '../../kernel/context.js';

/**
 * The refusals of the zone rules every DNS concept applies (visibility, the create path, names,
 * the TTL floor, ownership across projects), with the real service's type and wording
 * (reference §4). A command's own refusals are in its concept's folder.
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

/** One of the central service's name rules (length, label count, TLD list, blacklist). @internal */
export const invalidZoneName = (reason: 'Name too long' | 'More than one label is required' | 'Invalid TLD' | 'Zone name cannot be the same as a TLD' | 'Blacklisted zone name'): ApiError =>
  new ApiError(400, 'invalid_zone_name', reason);

/** A TTL below `limits.minTtl` from a caller who is not an admin. @internal */
export const ttlBelowMinimum = (minTtl: number): ApiError => new ApiError(400, 'invalid_ttl', `TTL is below the minimum: ${minTtl}`);
