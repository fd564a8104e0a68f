import type { StorageTransaction, StoredRow } from '../ports/storage.js';
import { tupleKey } from '../kernel/keys.js';
import type { CollectionKeys } from '../kernel/snapshot.js';
import { checked, isInteger, isString, optional, orNull, shapeCheck, type Collection, type Shape } from '../kernel/stored.js';
import { QUOTA_KINDS, perKind, type ProjectQuotasRecord } from './quota-values.js';

/**
 * The quota service's repository: the only code that knows where project quota records are
 * stored, and the one door through which they come back, checked.
 * @module
 */

/** A stored record: the list item plus its creation sequence number, which is also its index key. @internal */
export interface StoredRecord extends ProjectQuotasRecord {
  readonly sequence: number;
}

const RECORDS = 'quotas.project_quotas';
const BY_CREATION = 'created';

// A kind left out reads as null (not configured), as the service writes every kind.
const CONFIGURED_SHAPE: Shape = Object.fromEntries(QUOTA_KINDS.map((kind) => [kind, optional(orNull(isInteger))]));

const configuredProblem = shapeCheck(CONFIGURED_SHAPE);

const collection: Collection<StoredRecord> = {
  name: RECORDS,
  problem: shapeCheck({
    project_id: isString,
    sequence: isInteger,
    project_quotas: (q) => configuredProblem(q) === undefined,
  }),
  idOf: (r) => r.project_id,
  keys: (r) => ({ [BY_CREATION]: tupleKey(r.sequence) }),
};

/** A record read back under `id`, checked, every kind present. */
function read(id: string, raw: unknown): StoredRecord {
  const r = checked(collection, id, raw);
  return { project_id: r.project_id, project_quotas: perKind((kind) => r.project_quotas[kind] ?? null), sequence: r.sequence };
}

/** The quota service's one collection and how its index keys derive from a record, for snapshots. @internal */
export const QUOTA_COLLECTIONS: CollectionKeys = { [RECORDS]: (r: StoredRecord) => collection.keys(r) };

/** The stored project quota records, read (checked) and written only through here. @internal */
export const quotaRecordRepository = {
  /** Every record of a snapshot's rows, checked, in creation order (the list order). */
  fromRows: (rows: Readonly<Record<string, readonly StoredRow[]>>): StoredRecord[] =>
    (rows[RECORDS] ?? []).map((row) => read(row.id, row.value)).sort((a, b) => a.sequence - b.sequence),
  /** The rows that store `records`, numbered in the order given. */
  toRows: (records: readonly ProjectQuotasRecord[]): Record<string, StoredRow[]> => ({
    [RECORDS]: records.map((r, sequence) => ({ id: r.project_id, value: { project_id: r.project_id, project_quotas: r.project_quotas, sequence } })),
  }),
  /** The record of `projectId`, or undefined. */
  get: async (tx: StorageTransaction, projectId: string): Promise<StoredRecord | undefined> => {
    const raw = await tx.get(RECORDS, projectId);
    return raw === undefined ? undefined : read(projectId, raw);
  },
  /** Stores a record under its project id. */
  put: (tx: StorageTransaction, record: StoredRecord): Promise<void> =>
    tx.put(RECORDS, record.project_id, Object.freeze({ ...record, project_quotas: Object.freeze({ ...record.project_quotas }) }), collection.keys(record)),
  /** Removes the record of `projectId`; false when there was none. */
  delete: (tx: StorageTransaction, projectId: string): Promise<boolean> => tx.delete(RECORDS, projectId),
  /** How many records there are. O(log n). */
  count: (tx: StorageTransaction): Promise<number> => tx.count(RECORDS, BY_CREATION),
  /** Records in creation order, `limit` of them from `offset`. */
  page: async (tx: StorageTransaction, offset: number, limit: number): Promise<StoredRecord[]> =>
    (await tx.range(RECORDS, BY_CREATION, { offset, limit })).map((e) => read(e.id, e.value)),
  /** Next creation number: one above the newest, so a re-created record moves to the end. O(log n). */
  nextSequence: async (tx: StorageTransaction): Promise<number> => {
    const [last] = await tx.range(RECORDS, BY_CREATION, { direction: 'desc', limit: 1 });
    return last === undefined ? 0 : read(last.id, last.value).sequence + 1;
  },
};
