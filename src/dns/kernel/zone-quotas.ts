import { err, ok, type Result } from 'neverthrow';
import type { StorageTransaction } from '../../ports/storage.js';
import { ApiError } from '../../kernel/api-error.js';
import { CorruptValue } from '../../kernel/command.js';
import { isInteger, optional, shapeCheck } from '../../kernel/stored.js';
import { exceedsQuota } from '../../kernel/quota-engine.js';

/**
 * The DNS service's per-project quotas: how many zones a project may own, and the size limits
 * that apply inside each of its zones, recordsets and exports.
 *
 * Mirrors Designate's quota resources (reference §10). Every value is -1 (unlimited) or a limit
 * between 0 and 2147483647.
 *
 * @category Quotas
 */
export interface ZoneQuotaLimits {
  /** Zones the project may own (pending deletes included). */
  zones: number;
  /** Recordsets in one zone, SOA and NS included. */
  zone_recordsets: number;
  /** Records in one zone, managed SOA/NS records excluded. */
  zone_records: number;
  /** Records in one recordset. */
  recordset_records: number;
  /** Recordsets a zone may hold and still be exported. */
  api_export_size: number;
}

/**
 * One DNS quota resource name.
 *
 * @category Quotas
 */
export type ZoneQuotaResource = keyof ZoneQuotaLimits;

/**
 * The real service's defaults (`quota_zones` 10, `quota_zone_recordsets` 500, `quota_zone_records`
 * 500, `quota_recordset_records` 20, `quota_api_export_size` 1000), in its output order.
 *
 * @category Quotas
 */
export const DEFAULT_ZONE_QUOTAS: ZoneQuotaLimits = Object.freeze({
  zones: 10,
  zone_recordsets: 500,
  zone_records: 500,
  recordset_records: 20,
  api_export_size: 1000,
});

/** The resources in the real service's output order. @internal */
export const ZONE_QUOTA_RESOURCES: readonly ZoneQuotaResource[] = Object.freeze([
  'zones',
  'zone_recordsets',
  'zone_records',
  'recordset_records',
  'api_export_size',
]);

/** The storage collection of per-project overrides (id = project id, value = the overridden resources only). @internal */
export const DNS_QUOTAS_COLLECTION = 'dns.quotas';

// Keys other than the five are not looked at (a later version may store more resources).
const overridesProblem = shapeCheck({
  zones: optional(isInteger),
  zone_recordsets: optional(isInteger),
  zone_records: optional(isInteger),
  recordset_records: optional(isInteger),
  api_export_size: optional(isInteger),
});

/** The largest value the real service's `hard_limit` field takes. @internal */
export const MAX_HARD_LIMIT = 2147483647;

/** Whether `value` is one of the five resource names (own names only, so `__proto__` is not). @internal */
export const isZoneQuotaResource = (value: string): value is ZoneQuotaResource =>
  (ZONE_QUOTA_RESOURCES as readonly string[]).includes(value);

/**
 * A project's stored override row as the resources it overrides; a {@link CorruptValue} when the
 * row is not an object or a resource is not an integer (read as the default, it would answer a
 * limit nobody set).
 * @internal
 */
export function storedOverrides(projectId: string, raw: unknown): Partial<ZoneQuotaLimits> {
  const out: Partial<ZoneQuotaLimits> = {};
  if (raw === undefined) return out;
  const problem = overridesProblem(raw);
  if (problem !== undefined) throw new CorruptValue(DNS_QUOTAS_COLLECTION, projectId, problem);
  const row = raw as Readonly<Partial<Record<ZoneQuotaResource, number>>>;
  for (const resource of ZONE_QUOTA_RESOURCES) {
    const value = Object.hasOwn(row, resource) ? row[resource] : undefined;
    if (value !== undefined) out[resource] = value;
  }
  return out;
}

/** The stored overrides, read (checked) and written only through here. @internal */
export const dnsQuotaRepository = {
  /** The resources `projectId` overrides (none: `{}`). */
  overrides: async (tx: StorageTransaction, projectId: string): Promise<Partial<ZoneQuotaLimits>> =>
    storedOverrides(projectId, await tx.get(DNS_QUOTAS_COLLECTION, projectId)),
  /** Replaces the overrides of `projectId`. */
  put: (tx: StorageTransaction, projectId: string, overrides: Partial<ZoneQuotaLimits>): Promise<void> =>
    tx.put(DNS_QUOTAS_COLLECTION, projectId, Object.freeze({ ...overrides }), {}),
  /** Removes them: the defaults apply again. */
  remove: (tx: StorageTransaction, projectId: string): Promise<boolean> => tx.delete(DNS_QUOTAS_COLLECTION, projectId),
};

/**
 * Effective limits of a project: defaults overlaid with its stored overrides (collection
 * `'dns.quotas'`, id = project id).
 *
 * Called inside the command's own transaction so that a zone create counts and checks against
 * the same state it writes to.
 *
 * @param tx - the running command's transaction
 * @param projectId - the project whose limits apply (the zone's owner)
 * @param defaults - the service's configured defaults
 * @returns the five effective limits; the promise rejects only when storage does
 * @category Quotas
 */
export async function readZoneQuotas(
  tx: StorageTransaction,
  projectId: string,
  defaults: ZoneQuotaLimits,
): Promise<ZoneQuotaLimits> {
  return effectiveZoneQuotas(defaults, await dnsQuotaRepository.overrides(tx, projectId));
}

/** Defaults overlaid with overrides, built in the real service's key order. @internal */
export function effectiveZoneQuotas(defaults: ZoneQuotaLimits, overrides: Partial<ZoneQuotaLimits>): ZoneQuotaLimits {
  return {
    zones: overrides.zones ?? defaults.zones,
    zone_recordsets: overrides.zone_recordsets ?? defaults.zone_recordsets,
    zone_records: overrides.zone_records ?? defaults.zone_records,
    recordset_records: overrides.recordset_records ?? defaults.recordset_records,
    api_export_size: overrides.api_export_size ?? defaults.api_export_size,
  };
}

/**
 * The project went over one or more quotas: 413 `over_quota`, naming the resources sorted by
 * length as the real service does (`Quota exceeded for zones.`).
 *
 * @param resources - the resources that are over
 * @returns the error to answer with
 * @category Quotas
 */
export const zoneOverQuota = (resources: readonly ZoneQuotaResource[]): ApiError =>
  new ApiError(413, 'over_quota', `Quota exceeded for ${[...resources].sort((a, b) => a.length - b.length).join(', ')}.`);

/**
 * Checks one prospective value against a project's limit.
 *
 * The prospective value is what the count would be after the change (zones of the project + 1
 * for a create, recordsets in the zone after an import, ...), so this is the shared engine's
 * check with nothing more requested.
 *
 * @param limits - the project's effective limits ({@link readZoneQuotas})
 * @param resource - which limit applies
 * @param prospective - the count after the change
 * @returns Ok, or 413 `over_quota` `Quota exceeded for <resource>.` when `prospective` is above
 *   the limit (-1, or any negative, is unlimited)
 * @category Quotas
 */
export function checkZoneQuota(
  limits: ZoneQuotaLimits,
  resource: ZoneQuotaResource,
  prospective: number,
): Result<void, ApiError> {
  return exceedsQuota(limits[resource], prospective, 0) ? err(zoneOverQuota([resource])) : ok(undefined);
}
