import { err, ok, type Result } from 'neverthrow';
import { ApiError, type ErrorDialect } from './api-error.js';
import { isCleanText } from './validation.js';

/**
 * A project id we can store and index: 1 to 255 characters of text (Keystone's ids are 32 hex
 * digits; the real service's column holds 36). A longer one would not fit a database index key.
 */
const MAX_PROJECT_ID = 255;
const usableProjectId = (id: string): boolean => id.length > 0 && id.length <= MAX_PROJECT_ID && isCleanText(id);

/**
 * Who is calling: the first argument of every command.
 *
 * A server builds it from its authentication layer (Keystone token, headers); a test builds it
 * by hand. Nothing in it is trusted beyond what the policies allow: `allProjects` and
 * `sudoProjectId` are refused unless the caller is an admin.
 *
 * @example
 * ```ts
 * const alice: RequestContext = { projectId: 'p-alice', roles: ['member'] };
 * const operator: RequestContext = { projectId: 'p-ops', roles: ['admin'], allProjects: true };
 * ```
 * @category Context
 */
export interface RequestContext {
  /** The caller's project; absent or null means not authenticated for project-scoped commands (401). */
  readonly projectId?: string | null;
  /** Roles of the caller, e.g. `['member']` or `['admin']`; `'admin'` is what the policies call admin. */
  readonly roles?: readonly string[];
  /** Like the header `X-Auth-All-Projects`: see every project's resources. Admin only. */
  readonly allProjects?: boolean;
  /** Like the header `X-Auth-Sudo-Project-ID`: act as that project. Admin only. */
  readonly sudoProjectId?: string;
  /**
   * Like the header `X-Designate-Edit-Managed-Records`: lets an admin delete a zone's managed NS
   * recordset (policy `edit_managed_records`). Refused for anyone else, on every command.
   */
  readonly editManagedRecords?: boolean;
}

/**
 * Set (to `true`) by an adapter on a context whose `allProjects` was asked for at one step of
 * the request and turned off at a later one (the header, then the query string): the real
 * service checks each step, so a non-admin who asked at any step is refused.
 * @internal
 */
export const ALL_PROJECTS_ASKED: unique symbol = Symbol('zoneward.allProjectsAsked');

/**
 * The caller after authentication and elevation checks: what policies and scoping look at.
 * @internal
 */
export interface Caller {
  /** The effective project (after sudo), or null for a project-less token. */
  readonly projectId: string | null;
  /** The project of the token, before sudo. */
  readonly originalProjectId: string | null;
  readonly roles: readonly string[];
  readonly isAdmin: boolean;
  readonly allProjects: boolean;
  /** An admin asked to edit managed records. */
  readonly editManagedRecords?: boolean;
}

/** The status a policy refusal is answered with; see the `forbiddenStatus` option. @internal */
export type ForbiddenStatus = 401 | 403;

/** A policy refusal, in the real services' bare form (no message key in the DNS body). @internal */
export const forbidden = (status: ForbiddenStatus, rule: string, dialect: ErrorDialect = 'dns'): ApiError =>
  new ApiError(status, 'forbidden', `Policy does not allow ${rule} to be performed.`, { showMessage: false, dialect });

/** No usable credentials at all. @internal */
export const authenticationRequired = (dialect: ErrorDialect = 'dns'): ApiError =>
  new ApiError(
    401,
    'authentication_required',
    'Authentication is required: the request carries no usable project (1 to 255 characters of text) and no roles.',
    { dialect },
  );

/** A project-scoped command called with a project-less token. @internal */
export const missingProjectId = (dialect: ErrorDialect = 'dns'): ApiError =>
  new ApiError(401, 'missing_project_id', 'A project ID must be specified when not using a project scoped token.', { dialect });

const isStringArray = (value: unknown): value is readonly string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/**
 * Authenticates a context and applies the admin-only elevations (`allProjects`, `sudoProjectId`).
 *
 * Reads the context defensively: a server may pass anything, and a malformed context is refused
 * as unauthenticated rather than trusted in part.
 * @internal
 */
export function resolveCaller(
  ctx: unknown,
  forbiddenStatus: ForbiddenStatus,
  dialect: ErrorDialect = 'dns',
): Result<Caller, ApiError> {
  if (ctx === null || typeof ctx !== 'object') return err(authenticationRequired(dialect));
  const c = ctx as Record<string, unknown>;
  const rawProject = c['projectId'];
  const rawRoles = c['roles'] ?? [];
  if (rawProject !== undefined && rawProject !== null && (typeof rawProject !== 'string' || !usableProjectId(rawProject))) {
    return err(authenticationRequired(dialect));
  }
  if (!isStringArray(rawRoles)) return err(authenticationRequired(dialect));
  const projectId = typeof rawProject === 'string' ? rawProject : null;
  if (projectId === null && rawRoles.length === 0) return err(authenticationRequired(dialect));
  const roles = Object.freeze([...rawRoles]);
  const isAdmin = roles.includes('admin');
  const allProjects = c['allProjects'] === true;
  const sudo = c['sudoProjectId'];
  if ((allProjects || (c as { [ALL_PROJECTS_ASKED]?: unknown })[ALL_PROJECTS_ASKED] === true) && !isAdmin) return err(forbidden(forbiddenStatus, 'all_tenants', dialect));
  const editManagedRecords = c['editManagedRecords'] === true;
  if (editManagedRecords && !isAdmin) return err(forbidden(forbiddenStatus, 'edit_managed_records', dialect));
  let acting = projectId;
  if (sudo !== undefined && sudo !== null) {
    if (typeof sudo !== 'string' || !usableProjectId(sudo)) return err(authenticationRequired(dialect));
    if (!isAdmin) return err(forbidden(forbiddenStatus, 'use_sudo', dialect));
    acting = sudo;
  }
  // Literals rather than a spread of the elevations: every command resolves its caller.
  return ok(
    editManagedRecords
      ? { projectId: acting, originalProjectId: projectId, roles, isAdmin, allProjects, editManagedRecords }
      : { projectId: acting, originalProjectId: projectId, roles, isAdmin, allProjects },
  );
}

/** The caller's project for commands that need one (401 `missing_project_id` otherwise). @internal */
export function requireProject(caller: Caller, dialect: ErrorDialect = 'dns'): Result<string, ApiError> {
  return caller.projectId === null ? err(missingProjectId(dialect)) : ok(caller.projectId);
}
