import { ok, type ResultAsync } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { command } from '../../kernel/command.js';
import type { RequestContext } from '../../kernel/context.js';
import { MAX_LIMIT } from '../../kernel/list-query.js';
import type { DnsDeps } from '../kernel/deps.js';
import { readZoneQuotas } from '../kernel/zone-quotas.js';

/**
 * The body of `GET /v2/limits`, keys in the real service's order.
 *
 * @category Limits
 */
export interface LimitsBody {
  /** Zones the caller's project may own (its quota, overrides included). */
  readonly max_zones: number;
  /** Recordsets a zone of the caller's project may hold. */
  readonly max_zone_recordsets: number;
  /** Records a zone of the caller's project may hold. */
  readonly max_zone_records: number;
  /** Records one recordset may hold. */
  readonly max_recordset_records: number;
  /** The TTL floor (`limits.minTtl`), null when there is none. */
  readonly min_ttl: number | null;
  /** The longest zone name (`limits.maxZoneNameLength`). */
  readonly max_zone_name_length: number;
  /** The longest recordset name. */
  readonly max_recordset_name_length: number;
  /** The largest `limit` a list answers. */
  readonly max_page_limit: number;
}

/**
 * `dns.limits`: what the service allows the caller (`GET /v2/limits`). No policy guards it in
 * the real service; any authenticated caller reads it.
 *
 * @category Limits
 */
export interface LimitsCommands {
  /**
   * `GET /v2/limits`: the caller's project's quotas and the service's field and page limits.
   * @errors none of its own
   */
  get(ctx: RequestContext): ResultAsync<LimitsBody, ApiError>;
}

/** The longest recordset name the service stores (the real service's `max_recordset_name_len`). */
const MAX_RECORDSET_NAME_LENGTH = 255;

/**
 * Builds the limits command over the service's dependencies.
 *
 * @param deps - the DNS service's injected dependencies
 * @returns `get`, answering a `ResultAsync` that never rejects
 * @category Limits
 * @internal
 */
export function createLimitsCommands(deps: DnsDeps): LimitsCommands {
  return {
    get: (ctx) =>
      command(deps, ctx, {
        transaction: async ({ tx }, caller) => {
          // A caller without a project reads the defaults, as the real service's quota lookup of None does.
          const quotas = caller.projectId === null ? deps.quotaDefaults : await readZoneQuotas(tx, caller.projectId, deps.quotaDefaults);
          return ok({
            max_zones: quotas.zones,
            max_zone_recordsets: quotas.zone_recordsets,
            max_zone_records: quotas.zone_records,
            max_recordset_records: quotas.recordset_records,
            min_ttl: deps.limits.minTtl,
            max_zone_name_length: deps.limits.maxZoneNameLength,
            max_recordset_name_length: MAX_RECORDSET_NAME_LENGTH,
            max_page_limit: MAX_LIMIT,
          });
        },
      }),
  };
}
