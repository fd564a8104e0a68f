import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { command, type CommandEnv } from '../../kernel/command.js';
import { forbidden, type Caller } from '../../kernel/context.js';
import { emptyRequestBody, intField, nullRefusedByStore, ownEntries } from '../../kernel/validation.js';
import { invalidProjectId, invalidQuota, patchNeedsAllProjects } from './dns-quota-errors.js';
import { isProjectId } from '../../kernel/project-id.js';
import {
  MAX_HARD_LIMIT,
  ZONE_QUOTA_RESOURCES,
  dnsQuotaRepository,
  effectiveZoneQuotas,
  isZoneQuotaResource,
  readZoneQuotas,
  type ZoneQuotaLimits,
} from '../kernel/zone-quotas.js';

/**
 * What the DNS quota commands need from the DNS service.
 *
 * @category Quotas
 */
export interface DnsQuotaDeps extends CommandEnv {
  /** The limits of a project without overrides. */
  readonly defaults: ZoneQuotaLimits;
}

/**
 * Legacy-mode policy (reference §11): `get_quotas` is admin or owner, `set_quota` and
 * `reset_quotas` admin only; then, for reads and changes, another project than the caller's
 * (after sudo) needs all-projects, because the real service's central checks that after the
 * policy. A reset has no such check there: an admin resets any project's quotas (observed on the
 * wire: `DELETE /v2/quotas/{other}` without all-projects answers 204 and the defaults apply).
 */
function authorize(
  caller: Caller,
  rule: 'get_quotas' | 'set_quota' | 'reset_quotas',
  projectId: string,
  status: 401 | 403,
): Result<void, ApiError> {
  const owner = caller.projectId === projectId;
  const allowed = rule === 'get_quotas' ? caller.isAdmin || owner : caller.isAdmin;
  if (!allowed || (!owner && !caller.allProjects && rule !== 'reset_quotas')) return err(forbidden(status, rule));
  return ok(undefined);
}

const projectParam = (projectId: unknown): Result<string, ApiError> => (isProjectId(projectId) ? ok(projectId) : err(invalidProjectId()));

/**
 * Parses the flat PATCH body as the real service does: every key a resource, every value through
 * Python's `int()` (so `"5"`, `true` and `5.9` are limits) and then the -1..2147483647 range check.
 * A null passes those checks and fails later, in the real service's store: after every other field.
 */
function parseQuotaPatch(body: unknown): Result<Partial<ZoneQuotaLimits>, ApiError> {
  if (body === undefined || body === null) return err(emptyRequestBody());
  return ownEntries(body).andThen((fields) => {
    const patch: Partial<ZoneQuotaLimits> = {};
    let hasNull = false;
    for (const [key, value] of Object.entries(fields)) {
      if (!isZoneQuotaResource(key)) return err(invalidQuota(`Field value ${key} is invalid`));
      if (value === null) {
        hasNull = true;
        continue;
      }
      const limit = intField(value, 'hard_limit', -1, MAX_HARD_LIMIT);
      if (limit.isErr()) return err(limit.error);
      patch[key] = limit.value;
    }
    // The real service has then already stored the fields before the null one; nothing is here.
    return hasNull ? err(nullRefusedByStore('hard_limit', 'quota')) : ok(patch);
  });
}

/**
 * Reads a project's effective DNS quotas (`GET /v2/quotas/{project}`).
 *
 * @param deps - storage, refusal status and defaults of the DNS service
 * @param ctx - the caller (a `RequestContext`)
 * @param projectId - the project to read; the caller's own, or any with admin + all-projects (or sudo)
 * @returns the full effective map `{ zones, zone_recordsets, zone_records, recordset_records,
 *   api_export_size }`; 401 `authentication_required`, 401/403 `forbidden`, 400 `invalid_object`
 *   for an unusable project id, 500 `storage_failure`
 * @category Quotas
 */
export function getDnsQuotas(deps: DnsQuotaDeps, ctx: unknown, projectId: unknown): ResultAsync<ZoneQuotaLimits, ApiError> {
  return command(deps, ctx, {
    parse: () => projectParam(projectId),
    transaction: async ({ tx }, caller, project) =>
      authorize(caller, 'get_quotas', project, deps.forbiddenStatus).asyncMap(() => readZoneQuotas(tx, project, deps.defaults)),
  });
}

/**
 * Changes some of a project's DNS quotas (`PATCH /v2/quotas/{project}`); resources left out keep
 * their current value.
 *
 * @param deps - storage, refusal status and defaults of the DNS service
 * @param ctx - the caller; must be admin, and use all-projects (or sudo) for another project
 * @param projectId - the project to change
 * @param body - flat `{ zones?: n, zone_recordsets?: n, ... }`, each an integer from -1 to 2147483647
 * @returns the full effective map after the change; 400 `empty_request_body` / `invalid_object`,
 *   401 `missing_project_id` for a project-less token without all-projects, 401/403 `forbidden`,
 *   500 `storage_failure`
 * @category Quotas
 */
export function setDnsQuotas(
  deps: DnsQuotaDeps,
  ctx: unknown,
  projectId: unknown,
  body: unknown,
): ResultAsync<ZoneQuotaLimits, ApiError> {
  return command(deps, ctx, {
    // The real service parses the body before it looks at the token's project or the policy.
    body,
    parse: () => projectParam(projectId).andThen((project) => parseQuotaPatch(body).map((patch) => ({ project, patch }))),
    authorize: (caller, { project }) =>
      caller.projectId === null && !caller.allProjects
        ? err(patchNeedsAllProjects())
        : authorize(caller, 'set_quota', project, deps.forbiddenStatus),
    transaction: async ({ tx }, _caller, { project, patch }) => {
      const before = await dnsQuotaRepository.overrides(tx, project);
      const merged: Partial<ZoneQuotaLimits> = {};
      for (const resource of ZONE_QUOTA_RESOURCES) {
        const value = patch[resource] ?? before[resource];
        if (value !== undefined) merged[resource] = value;
      }
      await dnsQuotaRepository.put(tx, project, merged);
      return ok(effectiveZoneQuotas(deps.defaults, merged));
    },
  });
}

/**
 * Removes a project's DNS quota overrides (`DELETE /v2/quotas/{project}`), so the defaults apply
 * again; succeeds also when there were none, as the real service does.
 *
 * @param deps - storage, refusal status and defaults of the DNS service
 * @param ctx - the caller; must be admin, and use all-projects (or sudo) for another project
 * @param projectId - the project to reset
 * @returns nothing (the real service's 204); 401 `authentication_required`, 401/403 `forbidden`,
 *   400 `invalid_object` for an unusable project id, 500 `storage_failure`
 * @category Quotas
 */
export function resetDnsQuotas(deps: DnsQuotaDeps, ctx: unknown, projectId: unknown): ResultAsync<void, ApiError> {
  return command(deps, ctx, {
    parse: () => projectParam(projectId),
    transaction: async ({ tx }, caller, project) =>
      authorize(caller, 'reset_quotas', project, deps.forbiddenStatus).asyncMap(async () => {
        await dnsQuotaRepository.remove(tx, project);
      }),
  });
}
