import { ok, type Result } from 'neverthrow';
import { memoryStorage } from '../adapters/memory/memory-storage.js';
import type { Storage } from '../ports/storage.js';
import type { ApiError } from '../kernel/api-error.js';
import { runInTransaction } from '../kernel/command.js';
import { linkBase } from '../kernel/list-query.js';
import { isProjectId } from '../kernel/project-id.js';
import { quotaCommands, type QuotaService, type QuotaSnapshot } from './quota-commands.js';
import { quotaRecordRepository as store } from './quota-store.js';
import { QUOTA_KINDS, perKind, type ConfiguredQuotas, type ProjectQuotasRecord, type QuotaValues } from './quota-values.js';

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

const configuredOf = (raw: Record<string, unknown>): ConfiguredQuotas =>
  perKind((kind) => {
    const v = raw[kind];
    return typeof v === 'number' && Number.isSafeInteger(v) ? v : null;
  });

function checkInteger(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new TypeError(`createQuotaService: ${name} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

/** Validates a snapshot up front: restoring half of one would be worse than refusing it. */
function checkSnapshot(snapshot: unknown): readonly ProjectQuotasRecord[] {
  const s = snapshot as Record<string, unknown> | null;
  const items: unknown = s?.['projectQuotas'];
  if (s === null || typeof s !== 'object' || s['version'] !== 1 || !Array.isArray(items)) {
    throw new TypeError('createQuotaService: `from` is not a quota snapshot (version 1)');
  }
  const seen = new Set<string>();
  const records: ProjectQuotasRecord[] = [];
  for (const item of items as readonly unknown[]) {
    const r = item as Record<string, unknown> | null;
    const id = r?.['project_id'];
    const q = r?.['project_quotas'] as Record<string, unknown> | null | undefined;
    const valid =
      isProjectId(id) &&
      !seen.has(id) &&
      q !== null &&
      typeof q === 'object' &&
      QUOTA_KINDS.every((k) => q[k] === null || (typeof q[k] === 'number' && Number.isSafeInteger(q[k])));
    if (!valid) throw new TypeError('createQuotaService: `from` holds a malformed or duplicate project quota record');
    seen.add(id);
    records.push({ project_id: id, project_quotas: configuredOf(q) });
  }
  return records;
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
  const storage = options.storage ?? memoryStorage();
  const baseUrl = linkBase(options.baseUrl ?? 'http://localhost:9311');
  const defaultLimit = checkInteger('paging.defaultLimit', options.paging?.defaultLimit ?? 10, 1);
  const maxLimit = checkInteger('paging.maxLimit', options.paging?.maxLimit ?? 100, 1);
  const forbiddenStatus = options.forbiddenStatus ?? 401;
  if (forbiddenStatus !== 401 && forbiddenStatus !== 403) throw new TypeError('createQuotaService: forbiddenStatus must be 401 or 403');
  const defaults: QuotaValues = Object.freeze(
    perKind((kind) => checkInteger(`defaults.${kind}`, options.defaults?.[kind] ?? -1, -Number.MAX_SAFE_INTEGER)),
  );

  // Restoring is asynchronous but the factory is not: every call waits for it first.
  let ready: Promise<Result<void, ApiError>> = Promise.resolve(ok(undefined));
  if (options.from !== undefined) {
    const records = checkSnapshot(options.from);
    const restoring = runInTransaction(
      storage,
      async ({ tx }) => {
        await store.clear(tx);
        let sequence = 0;
        for (const r of records) {
          await store.put(tx, { ...r, sequence: sequence++ });
        }
        return ok(undefined);
      },
      'quota',
    );
    ready = (async () => await restoring)();
  }
  return quotaCommands({ storage, ready, baseUrl, defaultLimit, maxLimit, forbiddenStatus, defaults });
}
