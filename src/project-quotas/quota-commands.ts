import { err, ok, ResultAsync, type Result } from 'neverthrow';
import type { ApiError } from '../kernel/api-error.js';
import { command, CorruptValue, corruptValue, readBody, storageFailure, type CommandEnv } from '../kernel/command.js';
import { requireProject } from '../kernel/context.js';
import { isProjectId } from '../kernel/project-id.js';
import { effectiveLimit, exceedsQuota } from '../kernel/quota-engine.js';
import { normalisePage, pageLinks } from './paging.js';
import { parseProjectQuotas } from './parse-project-quotas.js';
import { invalidEnforceArguments, invalidProjectId, projectQuotasNotFound, quotaExceeded } from './quota-errors.js';
import { authorizeQuota } from './quota-policy.js';
import { quotaRecordRepository as store } from './quota-store.js';
import { isQuotaKind, perKind, type ConfiguredQuotas, type ProjectQuotasRecord, type QuotaKind, type QuotaValues } from './quota-values.js';

/**
 * The secrets service's quota commands (`/v1/quotas`, `/v1/project-quotas`, and the check its
 * create endpoints run), one function each over the service's {@link QuotaDeps}, as the DNS
 * concepts' commands are; `service.ts` assembles them.
 * @module
 */

/**
 * The body of `GET /v1/quotas`.
 *
 * @category Quotas
 */
export interface EffectiveQuotasBody {
  /** The caller's effective quotas: configured values, the defaults where none is configured. */
  readonly quotas: QuotaValues;
}

/**
 * The body of `GET /v1/project-quotas/{id}`.
 *
 * @category Quotas
 */
export interface ProjectQuotasBody {
  /** The project's configured values; `null` where the default applies. */
  readonly project_quotas: ConfiguredQuotas;
}

/**
 * A page of configured records (`GET /v1/project-quotas`), keys in the real service's order.
 *
 * @category Quotas
 */
export interface ProjectQuotasPage {
  /** The records of this page, in first-creation order. */
  readonly project_quotas: readonly ProjectQuotasRecord[];
  /** Link to the previous page; only when the offset is above 0. */
  readonly previous?: string;
  /** Link to the next page; only when `total` exceeds offset + limit. */
  readonly next?: string;
  /** How many records are configured in all. */
  readonly total: number;
}

/**
 * Paging parameters of `projectQuotas.list`: raw query values (text, as a server receives them)
 * or numbers; anything unparsable falls back to the defaults, as in the real service.
 *
 * @category Quotas
 */
export interface ProjectQuotasQuery {
  /** Index of the first record (from 0). @defaultValue 0 */
  readonly offset?: unknown;
  /** Most records on the page, clamped to 1..`paging.maxLimit`. @defaultValue `paging.defaultLimit` */
  readonly limit?: unknown;
}

/**
 * Usage figures for {@link QuotaService.enforce}.
 *
 * @category Quotas
 */
export interface EnforceRequest {
  /** How many of the kind the project holds now (a non-negative integer). */
  readonly inUse: number;
  /** How many it is about to create; 0 asks whether it is within its quota now. @defaultValue 1 */
  readonly requested?: number;
}

/**
 * What the quota commands run with: the command pipeline's environment (storage, the restore
 * every command waits for, refusal status) and the service's checked options.
 * @internal
 */
export interface QuotaDeps extends CommandEnv {
  /** Base of the list links, without a trailing `/`. */
  readonly baseUrl: string;
  /** Page size of a list without a usable `limit`. */
  readonly defaultLimit: number;
  /** Largest page of a list. */
  readonly maxLimit: number;
  /** The quota of each kind a project has not configured. */
  readonly defaults: QuotaValues;
}

type ProjectQuotasRule = 'project_quotas:get' | 'project_quotas:delete';

/** The path's project id, once the rule (checked first, as the real service does) lets the caller through. */
const projectAfter = (deps: QuotaDeps, rule: ProjectQuotasRule, caller: Parameters<typeof authorizeQuota>[2], projectId: unknown): Result<string, ApiError> =>
  authorizeQuota(rule, deps.forbiddenStatus, caller).andThen(() => (isProjectId(projectId) ? ok(projectId) : err(invalidProjectId())));

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/**
 * The caller's effective quotas (`GET /v1/quotas`): its configured values, the defaults where none.
 * @internal
 */
export function effectiveQuotas(deps: QuotaDeps, ctx: unknown): ResultAsync<EffectiveQuotasBody, ApiError> {
  return command(deps, ctx, {
    parse: (caller) => authorizeQuota('quotas:get', deps.forbiddenStatus, caller).andThen(() => requireProject(caller, 'quota')),
    transaction: async ({ tx }, _caller, project) => {
      const configured = (await store.get(tx, project))?.project_quotas;
      return ok({ quotas: perKind((kind) => effectiveLimit(configured?.[kind], deps.defaults[kind])) });
    },
  });
}

/**
 * A page of configured records in first-creation order (`GET /v1/project-quotas`); an offset
 * past the end (it may be up to 2^63 − 1) reads nothing.
 * @internal
 */
export function listProjectQuotas(deps: QuotaDeps, ctx: unknown, query: ProjectQuotasQuery | undefined): ResultAsync<ProjectQuotasPage, ApiError> {
  return command(deps, ctx, {
    parse: (caller) =>
      authorizeQuota('project_quotas:get', deps.forbiddenStatus, caller).andThen(() => normalisePage(query, deps.defaultLimit, deps.maxLimit)),
    transaction: async ({ tx }, _caller, page) => {
      const { offset, limit } = page;
      const total = await store.count(tx);
      const records = offset < BigInt(total) ? await store.page(tx, Number(offset), Number(limit)) : [];
      const items = records.map((r): ProjectQuotasRecord => ({ project_id: r.project_id, project_quotas: r.project_quotas }));
      return ok({ project_quotas: items, ...pageLinks(deps.baseUrl, page, total), total });
    },
  });
}

/** One project's configured quotas (`GET /v1/project-quotas/{id}`). @internal */
export function getProjectQuotas(deps: QuotaDeps, ctx: unknown, projectId: unknown): ResultAsync<ProjectQuotasBody, ApiError> {
  return command(deps, ctx, {
    parse: (caller) => projectAfter(deps, 'project_quotas:get', caller, projectId),
    transaction: async ({ tx }, _caller, id) => {
      const record = await store.get(tx, id);
      return record === undefined ? err(projectQuotasNotFound()) : ok({ project_quotas: record.project_quotas });
    },
  });
}

/**
 * Configures a project's quotas (`PUT /v1/project-quotas/{id}`): kinds in the body replace what
 * was configured, kinds left out keep it; a new record goes to the end of the list order.
 * @internal
 */
export function setProjectQuotas(deps: QuotaDeps, ctx: unknown, projectId: unknown, body: unknown): ResultAsync<void, ApiError> {
  return command(deps, ctx, {
    parse: (caller) =>
      // The real service refuses a caller by policy before it reads the body, and reads the body before the path.
      authorizeQuota('project_quotas:put', deps.forbiddenStatus, caller)
        .andThen(() => readBody(body))
        .andThen(() => (isProjectId(projectId) ? ok(projectId) : err(invalidProjectId())))
        .andThen((id) => parseProjectQuotas(body).map((patch) => ({ id, patch }))),
    transaction: async ({ tx }, _caller, { id, patch }) => {
      const before = await store.get(tx, id);
      await store.put(tx, {
        project_id: id,
        project_quotas: perKind((kind) => patch[kind] ?? before?.project_quotas[kind] ?? null),
        sequence: before?.sequence ?? (await store.nextSequence(tx)),
      });
      return ok(undefined);
    },
  });
}

/** Removes a project's configuration, so the defaults apply (`DELETE /v1/project-quotas/{id}`). @internal */
export function deleteProjectQuotas(deps: QuotaDeps, ctx: unknown, projectId: unknown): ResultAsync<void, ApiError> {
  return command(deps, ctx, {
    parse: (caller) => projectAfter(deps, 'project_quotas:delete', caller, projectId),
    transaction: async ({ tx }, _caller, id) => ((await store.delete(tx, id)) ? ok(undefined) : err(projectQuotasNotFound())),
  });
}

/**
 * Whether a project may create `requested` more of a kind given `inUse`. One read and no caller:
 * the hot path a server takes on every create, so it runs outside the command pipeline.
 * @internal
 */
export function enforceQuota(deps: QuotaDeps, projectId: string, kind: QuotaKind, usage: EnforceRequest): ResultAsync<void, ApiError> {
  const check = async (): Promise<Result<void, ApiError>> => {
    let inUse: unknown;
    let requested: unknown;
    try {
      inUse = usage?.inUse;
      requested = usage?.requested ?? 1;
    } catch {
      return err(invalidEnforceArguments('inUse and requested as non-negative integers')); // a throwing getter
    }
    if (!isQuotaKind(kind)) return err(invalidEnforceArguments('a quota kind: secrets, orders, containers, consumers or cas'));
    if (!isCount(inUse) || !isCount(requested)) return err(invalidEnforceArguments('inUse and requested as non-negative integers'));
    if (!isProjectId(projectId)) return err(invalidProjectId());
    const restored = await deps.restored;
    if (restored.isErr()) return restored;
    try {
      const record = await deps.storage.transaction((tx) => store.get(tx, projectId));
      const limit = effectiveLimit(record?.project_quotas[kind], deps.defaults[kind]);
      return exceedsQuota(limit, inUse, requested) ? err(quotaExceeded(kind)) : ok(undefined);
    } catch (cause) {
      return err(cause instanceof CorruptValue ? corruptValue(cause, 'quota') : storageFailure(cause, 'quota'));
    }
  };
  return new ResultAsync(check());
}
