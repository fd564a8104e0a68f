import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { forbidden, type Caller, type ForbiddenStatus } from '../../kernel/context.js';
import { adminOrOwner } from '../kernel/zone-policy.js';
import type { StoredTransferRequest } from './transfer-request.js';

/**
 * The transfer rules of the real service's policy file in legacy mode (reference §11), named as
 * there, and the storage scoping of request lists and deletes (§11.1).
 * @module
 */

const isCreator = (caller: Caller, r: StoredTransferRequest): boolean => caller.projectId !== null && caller.projectId === r.projectId;

/** Whether the caller is the project a request is targeted at. @internal */
export const isTarget = (caller: Caller, r: StoredTransferRequest): boolean =>
  caller.projectId !== null && caller.projectId === r.targetProjectId;

/** The storage scoping of request lists and deletes: creator or target, unless all-projects. @internal */
export const inScope = (caller: Caller, r: StoredTransferRequest): boolean => caller.allProjects || isCreator(caller, r) || isTarget(caller, r);

/** The transfer rules, by their names in the real service's policy file; the target is the request's project. @internal */
export const TRANSFER_RULES = {
  create_zone_transfer_request: (caller: Caller, zoneProject: string) => adminOrOwner(caller, zoneProject),
  /** Admin, creator, target, or anyone when untargeted. */
  get_zone_transfer_request: (caller: Caller, r: StoredTransferRequest) =>
    caller.isAdmin || isCreator(caller, r) || isTarget(caller, r) || r.targetProjectId === null,
  update_zone_transfer_request: (caller: Caller, r: StoredTransferRequest) => adminOrOwner(caller, r.projectId),
  delete_zone_transfer_request: (caller: Caller, r: StoredTransferRequest) => adminOrOwner(caller, r.projectId),
  /** Unlike reading, the request's creator is not enough: admin, target, or anyone when untargeted. */
  create_zone_transfer_accept: (caller: Caller, r: StoredTransferRequest) =>
    caller.isAdmin || r.targetProjectId === null || isTarget(caller, r),
  get_zone_transfer_accept: (caller: Caller, acceptProject: string) => adminOrOwner(caller, acceptProject),
  find_zone_transfer_accepts: (caller: Caller) => caller.isAdmin,
} as const;

type Rules = typeof TRANSFER_RULES;

/** Applies one transfer rule: 401/403 `forbidden` naming it when it refuses. @internal */
export function authorizeTransfer<R extends keyof Rules>(
  rule: R,
  status: ForbiddenStatus,
  caller: Caller,
  target: Parameters<Rules[R]>[1],
): Result<void, ApiError> {
  const allowed = (TRANSFER_RULES[rule] as (c: Caller, t: Parameters<Rules[R]>[1]) => boolean)(caller, target);
  return allowed ? ok(undefined) : err(forbidden(status, rule));
}
