import type { Storage, StoredRow } from '../ports/storage.js';
import { clearCollections, readCollections, writeCollections } from '../kernel/snapshot.js';
import { isProjectId } from '../kernel/project-id.js';
import { QUOTA_COLLECTIONS, quotaRecordRepository as store } from './quota-store.js';
import { QUOTA_KINDS, perKind, type ConfiguredQuotas, type ProjectQuotasRecord } from './quota-values.js';

/**
 * The quota service's snapshots over the one mechanism of both services (`kernel/snapshot.ts`:
 * every collection read in one transaction, restored with its indexes rebuilt); only the shape
 * a caller holds is the quota service's own: its records in list order.
 * @module
 */

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

const configuredOf = (raw: Record<string, unknown>): ConfiguredQuotas =>
  perKind((kind) => {
    const v = raw[kind];
    return typeof v === 'number' && Number.isSafeInteger(v) ? v : null;
  });

/**
 * The rows a snapshot restores to, validated up front: restoring half of one would be worse
 * than refusing it.
 * @throws TypeError - for anything that is not a quota snapshot, or holds a malformed or duplicate record
 * @internal
 */
export function quotaSnapshotRows(snapshot: unknown): Record<string, StoredRow[]> {
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
  return store.toRows(records);
}

/** A frozen copy of every configured record, in list order. @internal */
export async function takeQuotaSnapshot(storage: Storage): Promise<QuotaSnapshot> {
  // Each record is rebuilt (and checked) from what is stored, so the rows need no copy of their own.
  const records = store.fromRows(await readCollections(storage, QUOTA_COLLECTIONS, true));
  const projectQuotas = records.map((r) => Object.freeze({ project_id: r.project_id, project_quotas: Object.freeze(r.project_quotas) }));
  return Object.freeze({ version: 1 as const, projectQuotas: Object.freeze(projectQuotas) });
}

/** Replaces the service's state with a snapshot's rows (from {@link quotaSnapshotRows}, built for this write alone). @internal */
export const restoreQuotaRows = (storage: Storage, rows: Record<string, StoredRow[]>): Promise<void> => writeCollections(storage, rows, QUOTA_COLLECTIONS, true);

/** Removes every configured record. @internal */
export const clearQuotas = (storage: Storage): Promise<void> => clearCollections(storage, QUOTA_COLLECTIONS);
