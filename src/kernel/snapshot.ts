import type { IndexKeys, Storage, StoredRow } from '../ports/storage.js';

/**
 * How a stored collection's index keys are derived from its values, so a snapshot holds only
 * values and a restore rebuilds every index.
 * @internal
 */
export type CollectionKeys = Readonly<Record<string, (value: never) => IndexKeys>>;

/**
 * A frozen, JSON-serialisable copy of a service's whole state.
 *
 * @category Testing
 */
export interface ServiceSnapshot {
  /** Format version, for restores across library versions. */
  readonly format: 1;
  /** Which service took it. */
  readonly service: 'dns' | 'quota';
  /** Every stored value by collection, in id order. */
  readonly collections: Readonly<Record<string, readonly StoredRow[]>>;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The rows of every collection of `keys`, read in one transaction (a consistent copy), each
 * collection in id order. What every service's snapshot is made of. Values are copied through
 * JSON unless `shared`: then they are handed over as stored (frozen), for a caller that builds
 * its own plain copies from them anyway, which spares a second copy of every row.
 * @internal
 */
export async function readCollections(storage: Storage, keys: CollectionKeys, shared = false): Promise<Record<string, StoredRow[]>> {
  const collections: Record<string, { id: string; value: unknown }[]> = {};
  await storage.transaction(async (tx) => {
    for (const name of Object.keys(keys)) {
      const rows: { id: string; value: unknown }[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await tx.scan(name, after, 1024);
        for (const row of page) rows.push({ id: row.id, value: shared ? row.value : (JSON.parse(JSON.stringify(row.value)) as unknown) });
        const last = page[page.length - 1];
        if (last === undefined || page.length < 1024) break;
        after = last.id;
      }
      collections[name] = rows;
    }
  });
  return collections;
}

/** Reads every collection in one transaction (a consistent copy), frozen. @internal */
export async function takeSnapshot(storage: Storage, service: 'dns' | 'quota', keys: CollectionKeys): Promise<ServiceSnapshot> {
  return deepFreeze({ format: 1, service, collections: await readCollections(storage, keys) });
}

/** Empties every collection of the service, in one transaction. @internal */
export async function clearCollections(storage: Storage, keys: CollectionKeys): Promise<void> {
  await storage.transaction(async (tx) => {
    for (const name of Object.keys(keys)) {
      for (;;) {
        const page = await tx.scan(name, undefined, 1024);
        if (page.length === 0) break;
        for (const row of page) await tx.delete(name, row.id);
      }
    }
  });
}

/**
 * Replaces what the collections of `keys` hold with `collections` (rows by collection), rebuilding
 * every index from the values; a collection `keys` does not name is skipped. The one restore of
 * every service. Values are cloned (a caller's snapshot stays its own) unless `owned`: values the
 * caller built for this write alone, which are only frozen.
 * @internal
 */
export async function writeCollections(
  storage: Storage,
  collections: Readonly<Record<string, readonly StoredRow[]>>,
  keys: CollectionKeys,
  owned = false,
): Promise<void> {
  // Every row is read, copied and its index keys made before anything is cleared: rows that are
  // not this service's fail here, with the storage as it was, not after the clear with nothing restored.
  const writes: (readonly [name: string, id: string, value: unknown, keys: IndexKeys])[] = [];
  for (const [name, rows] of Object.entries(collections)) {
    const keysOf = keys[name] as ((value: unknown) => IndexKeys) | undefined;
    if (keysOf === undefined) continue;
    if (!Array.isArray(rows)) throw new TypeError(`the snapshot's ${name} is not a list of rows`);
    for (const row of rows as unknown[]) {
      const { id, value } = (row ?? {}) as Partial<StoredRow>;
      if (typeof id !== 'string') throw new TypeError(`a row of the snapshot's ${name} has no string id`);
      const indexKeys = keysOf(value);
      let kept: unknown;
      try {
        kept = deepFreeze(owned ? value : structuredClone(value));
      } catch (cause) {
        // Nested deeper than the stack goes (no value of ours is), or not cloneable.
        throw new TypeError(`the row ${id} of the snapshot's ${name} cannot be stored (${cause instanceof Error ? cause.message : String(cause)})`);
      }
      writes.push([name, id, kept, indexKeys]);
    }
  }
  await clearCollections(storage, keys);
  await storage.transaction(async (tx) => {
    for (const [name, id, value, indexKeys] of writes) await tx.put(name, id, value, indexKeys);
  });
}

/** Writes a snapshot into storage (replacing what the service held), rebuilding indexes. @internal */
export const restoreSnapshot = (storage: Storage, snapshot: ServiceSnapshot, keys: CollectionKeys): Promise<void> =>
  writeCollections(storage, snapshot.collections, keys);
