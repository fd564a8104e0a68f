import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { forbidden, type Caller, type ForbiddenStatus } from '../../kernel/context.js';
import type { Zone } from './zone.js';
import { illegalChild, illegalParent, zoneOwnedElsewhere } from './zone-errors.js';

/**
 * The zone rules of the real service's policy file in legacy mode (reference §11), named as
 * there. Visibility (which zones a caller can see at all) is scoping, not policy: another
 * project's zone is 404 before any rule is asked.
 * @module
 */

/** Whether the caller sees a project's resources: its own, or all of them with all-projects. @internal */
export const canSee = (caller: Caller, projectId: string): boolean => caller.allProjects || caller.projectId === projectId;

/** The admin-or-owner rule of the real service's legacy policies. @internal */
export const adminOrOwner = (caller: Caller, projectId: string | null): boolean =>
  caller.isAdmin || (caller.projectId !== null && caller.projectId === projectId);

/** The zone rules, by their names in the real service's policy file. @internal */
export const ZONE_RULES = {
  update_zone: adminOrOwner,
  delete_zone: adminOrOwner,
  xfr_zone: adminOrOwner,
  abandon_zone: (caller: Caller): boolean => caller.isAdmin,
} as const;

/** Applies one zone rule: 401/403 `forbidden` naming it when it refuses. @internal */
export function authorizeZone(
  rule: keyof typeof ZONE_RULES,
  status: ForbiddenStatus,
  caller: Caller,
  projectId: string | null,
): Result<void, ApiError> {
  return ZONE_RULES[rule](caller, projectId) ? ok(undefined) : err(forbidden(status, rule));
}

/**
 * The cross-project rules of a zone name (reference §4.4), in the real service's order: a name
 * another project holds (in any pool) is 409 `duplicate_zone`; a zone under another project's
 * nearest existing parent is `illegal_child`; above another project's subzone, `illegal_parent`.
 * Admins are bound too: these are ownership rules, not policy.
 *
 * @param projectId - the project the new zone would belong to
 * @param zones - the zones bearing the name, the nearest existing ancestors, the zones below it
 * @internal
 */
export function nameAcrossProjects(
  projectId: string,
  zones: { readonly same: readonly Zone[]; readonly ancestors: readonly Zone[]; readonly below: readonly Zone[] },
  status: ForbiddenStatus,
): Result<void, ApiError> {
  const foreign = (z: Zone): boolean => z.projectId !== projectId;
  if (zones.same.some(foreign)) return err(zoneOwnedElsewhere());
  if (zones.ancestors.some(foreign)) return err(illegalChild(status));
  if (zones.below.some(foreign)) return err(illegalParent(status));
  return ok(undefined);
}
