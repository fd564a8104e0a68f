import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import { memoryStorage } from '../adapters/memory/memory-storage.js';
import type { Storage } from '../ports/storage.js';
import type { ApiError } from '../kernel/api-error.js';
import { CorruptValue, corruptValue, storageFailure } from '../kernel/command.js';
import type { RequestContext } from '../kernel/context.js';
import { linkBase } from '../kernel/list-query.js';
import {
  deleteProjectQuotas,
  effectiveQuotas,
  enforceQuota,
  getProjectQuotas,
  listProjectQuotas,
  setProjectQuotas,
  type EffectiveQuotasBody,
  type EnforceRequest,
  type ProjectQuotasBody,
  type ProjectQuotasPage,
  type ProjectQuotasQuery,
  type QuotaDeps,
} from './quota-commands.js';
import { clearQuotas, quotaSnapshotRows, restoreQuotaRows, takeQuotaSnapshot, type QuotaSnapshot } from './quota-snapshot.js';
import { perKind, type QuotaKind, type QuotaValues } from './quota-values.js';

/**
 * Options of {@link createQuotaService}.
 *
 * @category Quotas
 */
export interface QuotaServiceOptions {
  /** Where configured quotas live; one store may serve the DNS service too. @defaultValue memoryStorage() */
  readonly storage?: Storage;
  /**
   * Base of the list's `next`/`previous` links, which are `${baseUrl}/v1/project-quotas?limit=..&offset=..`
   * (the spec's path; the real service writes an unroutable `project_quotas`). A trailing `/` is dropped.
   * @defaultValue 'http://localhost:9311'
   */
  readonly baseUrl?: string;
  /** Page sizes of `projectQuotas.list`, as the real service's `default_limit_paging`/`max_limit_paging`. */
  readonly paging?: {
    /** Page size when `limit` is absent, empty or unparsable. @defaultValue 10 */
    readonly defaultLimit?: number;
    /** Largest page; larger limits are clamped to it. @defaultValue 100 */
    readonly maxLimit?: number;
  };
  /** Status of a policy refusal: 401 as the spec says, 403 as the real service. @defaultValue 401 */
  readonly forbiddenStatus?: 401 | 403;
  /** Quota of a kind a project has not configured (`quota_secrets` ...). @defaultValue -1 for each kind */
  readonly defaults?: Partial<QuotaValues>;
  /** State to start from, as returned by {@link QuotaService.snapshot}; it replaces what the storage held. */
  readonly from?: QuotaSnapshot;
}

/**
 * The `quotas.projectQuotas` command group: configured per-project quotas
 * (`/v1/project-quotas`); every call needs the role `key-manager:service-admin`.
 *
 * @category Quotas
 */
export interface ProjectQuotaCommands {
  /**
   * A page of configured records in first-creation order (`GET /v1/project-quotas`).
   *
   * @param ctx - the caller
   * @param query - `offset` and `limit`, normalised as the real service does
   * @returns the page; 401/403 `forbidden`, 500 `unknown` for a repeated parameter (an array), 500 `storage_failure`
   * @errors `unknown` 500 (a repeated parameter)
   */
  list(ctx: RequestContext, query?: ProjectQuotasQuery): ResultAsync<ProjectQuotasPage, ApiError>;
  /**
   * One project's configured quotas (`GET /v1/project-quotas/{id}`).
   *
   * @param ctx - the caller
   * @param projectId - any project id (not checked for UUID form, as in the real service)
   * @returns `{ project_quotas: {...} }` with `null` for kinds not configured; 404 `not_found`,
   *   400 `invalid_project_id`, 401/403 `forbidden`, 500 `storage_failure`
   * @errors `invalid_project_id` 400, `not_found` 404
   */
  get(ctx: RequestContext, projectId: unknown): ResultAsync<ProjectQuotasBody, ApiError>;
  /**
   * Configures a project's quotas (`PUT /v1/project-quotas/{id}`): kinds in the body replace
   * what was configured, kinds left out keep it (never configured: `null`).
   *
   * @param ctx - the caller
   * @param projectId - the project to configure
   * @param body - `{ project_quotas: { secrets?, orders?, containers?, consumers?, cas? } }`, integers
   * @returns nothing (the spec's 204); 400 `empty_request_body` / `invalid_object` /
   *   `invalid_project_id`, 401/403 `forbidden`, 500 `storage_failure`
   * @errors `empty_request_body` 400, `invalid_object` 400, `invalid_project_id` 400
   */
  set(ctx: RequestContext, projectId: unknown, body: unknown): ResultAsync<void, ApiError>;
  /**
   * Removes a project's configuration, so the defaults apply (`DELETE /v1/project-quotas/{id}`).
   *
   * @param ctx - the caller
   * @param projectId - the project to reset
   * @returns nothing (204); 404 `not_found`, 400 `invalid_project_id`, 401/403 `forbidden`, 500 `storage_failure`
   * @errors `invalid_project_id` 400, `not_found` 404
   */
  delete(ctx: RequestContext, projectId: unknown): ResultAsync<void, ApiError>;
}

/**
 * The secrets service's quota interface (Barbican v1 `/v1/quotas`, `/v1/project-quotas`) plus the
 * check its create endpoints run. Every command returns a `ResultAsync` that never rejects.
 *
 * @category Quotas
 */
export interface QuotaService {
  /**
   * The caller's effective quotas (`GET /v1/quotas`).
   *
   * @param ctx - the caller; needs one of the roles reader, member, admin, observer, creator,
   *   audit, key-manager:service-admin, and a project
   * @returns `{ quotas: { secrets, orders, containers, consumers, cas } }`; 401
   *   `authentication_required` / `missing_project_id`, 401/403 `forbidden`, 500 `storage_failure`
   * @errors none of its own
   */
  effective(ctx: RequestContext): ResultAsync<EffectiveQuotasBody, ApiError>;
  /** Configured per-project quotas; every call needs the role `key-manager:service-admin`. */
  readonly projectQuotas: ProjectQuotaCommands;
  /**
   * Whether a project may create `requested` more of a kind, given `inUse`: what a server calls
   * before it creates a secret, order, container, consumer or CA.
   *
   * @param projectId - the creating project (checked at run time like every input)
   * @param kind - the kind created (checked at run time too: a server may pass what it parsed)
   * @param usage - current use and the amount requested
   * @returns Ok, or 403 `quota_exceeded` (always 403, as the real service: it is not a policy
   *   refusal); 400 `invalid_project_id` for a project id that is not one, 400 `bad_request` for
   *   an unknown kind or counts that are not non-negative integers; 500 `storage_failure`
   * @errors `invalid_project_id` 400, `bad_request` 400, `quota_exceeded` 403
   */
  enforce(projectId: string, kind: QuotaKind, usage: EnforceRequest): ResultAsync<void, ApiError>;
  /** A frozen, JSON-serialisable copy of all state; rejects only when the storage does. */
  snapshot(): Promise<QuotaSnapshot>;
  /** Removes every configured record (the options are kept); rejects only when the storage does. */
  reset(): Promise<void>;
  /**
   * The same service (same state and options) whose list links start with `baseUrl` instead of
   * the configured one: what an HTTP front uses to link to the origin a client called.
   *
   * @param baseUrl - scheme, host and any mount prefix, e.g. `http://127.0.0.1:8080/keys`
   */
  withBaseUrl(baseUrl: string): QuotaService;
}

function checkInteger(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new TypeError(`createQuotaService: ${name} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}


/** A storage failure of the service's own work (restore, snapshot, reset), in the quota service's words. */
const asApiError = (cause: unknown): ApiError => (cause instanceof CorruptValue ? corruptValue(cause, 'quota') : storageFailure(cause, 'quota'));

/**
 * Builds what every quota command needs from the service options, with a restore of
 * `options.from` under way (`restored`). The one place where defaults are applied.
 * @throws TypeError - for invalid options or a malformed `from` snapshot
 * @internal
 */
export function createQuotaDeps(options: QuotaServiceOptions = {}): QuotaDeps {
  const storage = options.storage ?? memoryStorage();
  const defaultLimit = checkInteger('paging.defaultLimit', options.paging?.defaultLimit ?? 10, 1);
  const maxLimit = checkInteger('paging.maxLimit', options.paging?.maxLimit ?? 100, 1);
  const forbiddenStatus = options.forbiddenStatus ?? 401;
  if (forbiddenStatus !== 401 && forbiddenStatus !== 403) throw new TypeError('createQuotaService: forbiddenStatus must be 401 or 403');
  const defaults: QuotaValues = Object.freeze(
    perKind((kind) => checkInteger(`defaults.${kind}`, options.defaults?.[kind] ?? -1, -Number.MAX_SAFE_INTEGER)),
  );
  // Checked before anything is written; restoring is asynchronous but the factory is not, so
  // every command waits for it first.
  const rows = options.from === undefined ? undefined : quotaSnapshotRows(options.from);
  const restored: Promise<Result<void, ApiError>> =
    rows === undefined
      ? Promise.resolve(ok(undefined))
      : restoreQuotaRows(storage, rows).then(
          () => ok(undefined),
          (cause: unknown) => err(asApiError(cause)),
        );
  return { storage, restored, dialect: 'quota', forbiddenStatus, baseUrl: linkBase(options.baseUrl ?? 'http://localhost:9311'), defaultLimit, maxLimit, defaults };
}

/**
 * Creates the secrets service's quota interface over a storage port.
 *
 * Mirrors Barbican 15's `/v1/quotas` and `/v1/project-quotas` (see the quota reference): exact
 * bodies and key order, paging normalisation, validation messages, merge-on-set, first-creation
 * list order, and the legacy policies. A page costs O(log n + limit) whatever the number of
 * configured projects.
 *
 * @param options - storage, link base, paging, refusal status, defaults, state to restore
 * @returns the service
 * @throws TypeError - only for invalid options (a programming error): non-integer defaults or
 *   paging sizes, or a malformed `from` snapshot
 * @example
 * ```ts
 * const quotas = createQuotaService({ defaults: { secrets: 100 } });
 * const admin = { projectId: 'ops', roles: ['key-manager:service-admin'] };
 * await quotas.projectQuotas.set(admin, 'p1', { project_quotas: { secrets: 2 } });
 * (await quotas.enforce('p1', 'secrets', { inUse: 2 })).isErr(); // true: 403 quota_exceeded
 * const page = await quotas.projectQuotas.list(admin, { limit: '10' });
 * ```
 * @category Quotas
 */
export function createQuotaService(options: QuotaServiceOptions = {}): QuotaService {
  return serviceOver(createQuotaDeps(options));
}

/** The service's own storage work (snapshot, reset): after the restore, its failures as the service's errors. */
async function afterRestore<T>(deps: QuotaDeps, work: () => Promise<T>): Promise<T> {
  const restored = await deps.restored;
  if (restored.isErr()) throw restored.error;
  try {
    return await work();
  } catch (cause) {
    throw asApiError(cause);
  }
}

/** The commands over one set of deps; views from `withBaseUrl` share everything but the link base. */
function serviceOver(deps: QuotaDeps): QuotaService {
  return {
    effective: (ctx) => effectiveQuotas(deps, ctx),
    projectQuotas: {
      list: (ctx, query) => listProjectQuotas(deps, ctx, query),
      get: (ctx, projectId) => getProjectQuotas(deps, ctx, projectId),
      set: (ctx, projectId, body) => setProjectQuotas(deps, ctx, projectId, body),
      delete: (ctx, projectId) => deleteProjectQuotas(deps, ctx, projectId),
    },
    enforce: (projectId, kind, usage) => enforceQuota(deps, projectId, kind, usage),
    snapshot: () => afterRestore(deps, () => takeQuotaSnapshot(deps.storage)),
    reset: () => afterRestore(deps, () => clearQuotas(deps.storage)),
    withBaseUrl: (baseUrl) => serviceOver({ ...deps, baseUrl: linkBase(baseUrl) }),
  };
}
