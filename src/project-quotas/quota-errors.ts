import { ApiError } from '../kernel/api-error.js';
import type { QuotaKind } from './quota-values.js';

/** Which part of the real service answers: its error texts name it. @internal */
export type QuotaOperation = 'Quotas' | 'Project Quotas';

/**
 * A policy refusal, with the real service's text; the status is the `forbiddenStatus` option.
 * @internal
 */
export const quotaForbidden = (status: 401 | 403, operation: QuotaOperation): ApiError =>
  new ApiError(status, 'forbidden', `${operation} attempt not allowed - please review your user/project privileges`, {
    dialect: 'quota',
  });

/** The project has no configured record (get, delete). @internal */
export const projectQuotasNotFound = (): ApiError =>
  new ApiError(404, 'not_found', 'Project quotas not found.', { dialect: 'quota' });

/** `set` without a body; the doubled dot is the real service's. @internal */
export const noDataSupplied = (): ApiError =>
  new ApiError(400, 'empty_request_body', 'Project Quotas issue seen - No data supplied to process..', { dialect: 'quota' });

/** A schema violation in a `set` body, in the real service's words. @internal */
export const invalidProjectQuotas = (reason: string, property: 'None' | 'project_quotas'): ApiError =>
  new ApiError(
    400,
    'invalid_object',
    `Provided object does not match schema 'Project Quota': ${reason}. Invalid property: '${property}'`,
    { dialect: 'quota' },
  );

/** A project id no record could be stored under (the real service would fail in its database). @internal */
export const invalidProjectId = (): ApiError =>
  new ApiError(
    400,
    'invalid_project_id',
    'Project Quotas issue seen - a project ID must be 1 to 255 characters of text without control characters.',
    { dialect: 'quota' },
  );

/** A paging parameter given more than once: the real service fails with this 500. @internal */
export const repeatedPagingParameter = (): ApiError =>
  new ApiError(500, 'unknown', 'Project Quotas failure seen - please contact site administrator.', { dialect: 'quota' });

/** `enforce` called with arguments a server should never pass. @internal */
export const invalidEnforceArguments = (what: string): ApiError =>
  new ApiError(400, 'bad_request', `Quota enforcement needs ${what}.`, { dialect: 'quota' });

const CREATE_OPERATION: Readonly<Record<QuotaKind, string>> = {
  secrets: 'Secret creation',
  orders: 'Order creation',
  containers: 'Container creation',
  consumers: 'ContainerConsumer creation',
  cas: 'CA creation',
};

/**
 * A creation would take the project over its quota: 403 `quota_exceeded` with the real service's
 * text for the create endpoint of that kind.
 *
 * @param kind - the kind whose quota was reached
 * @returns the error `enforce` answers with
 * @category Quotas
 */
export const quotaExceeded = (kind: QuotaKind): ApiError =>
  new ApiError(403, 'quota_exceeded', `${CREATE_OPERATION[kind]} issue seen - Creation not allowed because a quota has been reached.`, {
    dialect: 'quota',
  });
