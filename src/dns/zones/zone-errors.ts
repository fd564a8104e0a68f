import { ApiError } from '../../kernel/api-error.js';

/**
 * The refusals of the zone commands alone (update, delete, abandon), with the real service's type
 * and wording (reference §4); those of the rules every concept applies are in domain/zone-errors.ts.
 * @module
 */

/** PATCH of a zone being deleted. @internal */
export const updatingDeletingZone = (): ApiError => new ApiError(400, 'bad_request', 'Can not update a deleting zone');

/** PATCH that sends another `name`. @internal */
export const renamingZone = (): ApiError => new ApiError(400, 'bad_request', 'Renaming a zone is not allowed');

/** DELETE or abandon of a zone that still has subzones. @internal */
export const zoneHasSubzone = (): ApiError =>
  new ApiError(400, 'zone_has_sub_zone', 'Please delete any subzones before deleting this zone');

/** PATCH that sends `project_id` (even the zone's own): zones move only by transfer. @internal */
export const movingZone = (): ApiError => new ApiError(400, 'bad_request', 'Moving a zone between tenants is not allowed');
