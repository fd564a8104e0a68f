import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../kernel/api-error.js';
import type { Caller, ForbiddenStatus } from '../kernel/context.js';
import { quotaForbidden, type QuotaOperation } from './quota-errors.js';

/**
 * The quota rules of the real service's policy file in legacy mode (quota reference §7), named
 * as there. They look at roles only: whoever passes `project_quotas:*` may read or change any
 * project's configuration, and the real service checks them before anything else.
 * @module
 */

const SERVICE_ADMIN = 'key-manager:service-admin';

/** The roles each rule accepts (any one of them). @internal */
export const QUOTA_RULES: Readonly<Record<'quotas:get' | 'project_quotas:get' | 'project_quotas:put' | 'project_quotas:delete', readonly string[]>> = {
  'quotas:get': ['reader', 'member', 'admin', 'observer', 'creator', 'audit', SERVICE_ADMIN],
  'project_quotas:get': [SERVICE_ADMIN],
  'project_quotas:put': [SERVICE_ADMIN],
  'project_quotas:delete': [SERVICE_ADMIN],
};

/** Applies one quota rule: 401/403 `forbidden` with the real service's text when it refuses. @internal */
export function authorizeQuota(rule: keyof typeof QUOTA_RULES, status: ForbiddenStatus, caller: Caller): Result<void, ApiError> {
  const operation: QuotaOperation = rule === 'quotas:get' ? 'Quotas' : 'Project Quotas';
  return caller.roles.some((r) => QUOTA_RULES[rule].includes(r)) ? ok(undefined) : err(quotaForbidden(status, operation));
}
