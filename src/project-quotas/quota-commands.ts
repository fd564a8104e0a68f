import { err, ok, ResultAsync, type Result } from 'neverthrow';
import type { Storage, StorageTransaction } from '../ports/storage.js';
import type { ApiError } from '../kernel/api-error.js';
import { command as runCommand, CorruptValue, corruptValue, readBody, runInTransaction, storageFailure, type CommandEnv, type CommandSteps } from '../kernel/command.js';
import { requireProject, type RequestContext } from '../kernel/context.js';
import { linkBase } from '../kernel/list-query.js';
import { isProjectId } from '../kernel/project-id.js';
import { effectiveLimit, exceedsQuota } from '../kernel/quota-engine.js';
import { normalisePage, pageLinks } from './paging.js';
import { parseProjectQuotas } from './parse-project-quotas.js';
import { invalidEnforceArguments, invalidProjectId, projectQuotasNotFound, quotaExceeded } from './quota-errors.js';
import { authorizeQuota } from './quota-policy.js';
import { quotaRecordRepository as store, type StoredRecord } from './quota-store.js';
import { isQuotaKind, perKind, type ConfiguredQuotas, type ProjectQuotasRecord, type QuotaKind, type QuotaValues } from './quota-values.js';

/**
 * All state of a quota service: the configured records in list order. Frozen plain data that
 * survives `JSON.stringify`/`JSON.parse`.
 *
 * @category Quotas
 */
export interface QuotaSnapshot {
  /** Format version, for later changes of this shape. */
  readonly version: 1;
  /** Every configured record, in first-creation order (the list order). */
  readonly projectQuotas: readonly ProjectQuotasRecord[];
}

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
   *   refusal); 400 `bad_request` for an unknown kind or counts that are not non-negative
   *   integers; 500 `storage_failure`
   * @errors `bad_request` 400, `quota_exceeded` 403
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

const BATCH = 1000;

const listItem = (r: StoredRecord): ProjectQuotasRecord => ({ project_id: r.project_id, project_quotas: r.project_quotas });

/**
 * What the quota commands run with: the wiring's storage and checked options, and the restore
 * every command waits for first.
 * @internal
 */
export interface QuotaCommandsEnv {
  readonly storage: Storage;
  /** Settles once the state to start from is restored (at once when there is none). */
  readonly ready: Promise<Result<void, ApiError>>;
  /** Base of the list links, without a trailing `/`. */
  readonly baseUrl: string;
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly forbiddenStatus: 401 | 403;
  readonly defaults: QuotaValues;
}

/**
 * The quota service's commands over a storage: every call of {@link QuotaService}, each
 * authorised by the policy, parsed, and run in one transaction once the restore is done.
 * @internal
 */
export function quotaCommands({ storage, ready, baseUrl, defaultLimit, maxLimit, forbiddenStatus, defaults }: QuotaCommandsEnv): QuotaService {
  /** Storage work of the service itself (snapshot, reset): after the restore, no caller. */
  const whenReady = async <T>(work: (tx: StorageTransaction) => Promise<Result<T, ApiError>>): Promise<Result<T, ApiError>> => {
    const restored = await ready;
    return restored.isErr() ? err(restored.error) : runInTransaction(storage, ({ tx }) => work(tx), 'quota');
  };
  const env: CommandEnv = { storage, restored: ready, forbiddenStatus, dialect: 'quota' };
  const command = <I, T>(ctx: unknown, steps: CommandSteps<I, T>): ResultAsync<T, ApiError> => runCommand(env, ctx, steps);
  /** A project-quotas call: the rule (checked first, as the real service does), then the path's project id. */
  const projectQuotas = <T>(
    ctx: unknown,
    rule: 'project_quotas:get' | 'project_quotas:delete',
    projectId: unknown,
    work: (tx: StorageTransaction, id: string) => Promise<Result<T, ApiError>>,
  ): ResultAsync<T, ApiError> =>
    command(ctx, {
      parse: (caller) => authorizeQuota(rule, forbiddenStatus, caller).andThen(() => (isProjectId(projectId) ? ok(projectId) : err(invalidProjectId()))),
      transaction: ({ tx }, _caller, id) => work(tx, id),
    });

  const readRecord = (tx: StorageTransaction, projectId: string): Promise<StoredRecord | undefined> => store.get(tx, projectId);

  const effectiveOf = (configured: ConfiguredQuotas | undefined): QuotaValues =>
    perKind((kind) => effectiveLimit(configured?.[kind], defaults[kind]));

  const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

  const listAt =
    (linkBase: string): QuotaService['projectQuotas']['list'] =>
    (ctx, query) =>
      command(ctx, {
        parse: (caller) => authorizeQuota('project_quotas:get', forbiddenStatus, caller).andThen(() => normalisePage(query, defaultLimit, maxLimit)),
        transaction: async ({ tx }, _caller, page) => {
          const { offset, limit } = page;
          const total = await store.count(tx);
          // An offset past the end (it may be up to 2^63 - 1) needs no read at all.
          const items = (offset < BigInt(total) ? await store.page(tx, Number(offset), Number(limit)) : []).map(listItem);
          return ok({ project_quotas: items, ...pageLinks(linkBase, page, total), total });
        },
      });

  const service: QuotaService = {
    effective: (ctx) =>
      command(ctx, {
        parse: (caller) => authorizeQuota('quotas:get', forbiddenStatus, caller).andThen(() => requireProject(caller, 'quota')),
        transaction: async ({ tx }, _caller, project) => ok({ quotas: effectiveOf((await readRecord(tx, project))?.project_quotas) }),
      }),

    projectQuotas: {
      list: listAt(baseUrl),

      get: (ctx, projectId) =>
        projectQuotas(ctx, 'project_quotas:get', projectId, async (tx, id) => {
          const record = await readRecord(tx, id);
          return record === undefined ? err(projectQuotasNotFound()) : ok({ project_quotas: record.project_quotas });
        }),

      set: (ctx, projectId, body) =>
        command(ctx, {
          parse: (caller) =>
            // The real service refuses a caller by policy before it reads the body, and reads the body before the path.
            authorizeQuota('project_quotas:put', forbiddenStatus, caller)
              .andThen(() => readBody(body))
              .andThen(() => (isProjectId(projectId) ? ok(projectId) : err(invalidProjectId())))
              .andThen((id) => parseProjectQuotas(body).map((patch) => ({ id, patch }))),
          transaction: async ({ tx }, _caller, { id, patch }) => {
            const before = await readRecord(tx, id);
            await store.put(tx, {
              project_id: id,
              project_quotas: perKind((kind) => patch[kind] ?? before?.project_quotas[kind] ?? null),
              sequence: before?.sequence ?? (await store.nextSequence(tx)),
            });
            return ok(undefined);
          },
        }),

      delete: (ctx, projectId) =>
        projectQuotas(ctx, 'project_quotas:delete', projectId, async (tx, id) =>
          (await store.delete(tx, id)) ? ok(undefined) : err(projectQuotasNotFound()),
        ),
    },

    enforce: (projectId, kind, usage) => {
      // One read, no guarded transaction: the hot path a server takes on every create.
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
        const restored = await ready;
        if (restored.isErr()) return restored;
        try {
          const record = await storage.transaction((tx) => store.get(tx, projectId));
          const limit = effectiveLimit(record?.project_quotas[kind], defaults[kind]);
          return exceedsQuota(limit, inUse, requested) ? err(quotaExceeded(kind)) : ok(undefined);
        } catch (cause) {
          return err(cause instanceof CorruptValue ? corruptValue(cause, 'quota') : storageFailure(cause, 'quota'));
        }
      };
      return new ResultAsync(check());
    },

    snapshot: async () => {
      const result = await whenReady(async (tx) => {
        const all: ProjectQuotasRecord[] = [];
        for (let offset = 0; ; offset += BATCH) {
          const batch = await store.page(tx, offset, BATCH);
          for (const record of batch) all.push(Object.freeze({ ...listItem(record), project_quotas: Object.freeze(record.project_quotas) }));
          if (batch.length < BATCH) break;
        }
        return ok(Object.freeze({ version: 1 as const, projectQuotas: Object.freeze(all) }));
      });
      if (result.isErr()) throw result.error;
      return result.value;
    },

    reset: async () => {
      const result = await whenReady(async (tx) => {
        await store.clear(tx);
        return ok(undefined);
      });
      if (result.isErr()) throw result.error;
    },

    withBaseUrl: (base) => ({ ...service, projectQuotas: { ...service.projectQuotas, list: listAt(linkBase(base)) } }),
  };
  return service;
}
