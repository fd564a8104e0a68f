/**
 * The storage port: the one seam between the pure core and where state lives.
 *
 * It is a small transactional document store. A collection holds JSON-serialisable values by
 * id; each value may sit in any number of named secondary indexes under a string key given at
 * `put` time. Indexes are ordered by `(key, id)` in plain string order, which is all the core
 * needs for marker paging, prefix counts and subtree searches; keys come from the core already
 * encoded, so an adapter never interprets them.
 *
 * Every command runs inside one {@link Storage.transaction}: its writes land together or not at
 * all, and concurrent transactions behave as if run one after another (serializable). An adapter
 * for a real database keeps those two promises with its own transactions, retrying
 * serialization failures.
 *
 * @category Ports
 */
export interface Storage {
  /**
   * Runs `work` in a transaction. When the promise `work` returns resolves, its writes are
   * committed; when it rejects, none of them is, and the rejection is passed on.
   */
  transaction<T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T>;
}

/**
 * Where an index entry sits: its key and the id of its value.
 *
 * @category Storage internals
 */
export interface IndexPosition {
  /** The index key. */
  readonly key: string;
  /** The id of the value, which breaks ties between equal keys. */
  readonly id: string;
}

/**
 * An entry returned by {@link StorageTransaction.range}.
 *
 * @category Storage internals
 */
export interface StoredEntry extends IndexPosition {
  /** The stored value, as it was put. */
  readonly value: unknown;
}

/**
 * Which entries of an index {@link StorageTransaction.range} returns.
 *
 * @category Storage internals
 */
export interface RangeQuery {
  /** Only entries whose key starts with this string. @defaultValue '' (all) */
  readonly prefix?: string;
  /**
   * Only entries whose key is `prefix` itself, not the longer keys that start with it: a lookup
   * by exact key that reads nothing of what sorts below it. @defaultValue false
   */
  readonly exact?: boolean;
  /** Only entries strictly after this position in the direction of travel (marker paging). */
  readonly after?: IndexPosition;
  /** Entries to skip first (offset paging). @defaultValue 0 */
  readonly offset?: number;
  /** The most entries to return. @defaultValue unlimited */
  readonly limit?: number;
  /** `'asc'`: by ascending `(key, id)`; `'desc'`: descending. @defaultValue 'asc' */
  readonly direction?: 'asc' | 'desc';
}

/**
 * One range of {@link StorageTransaction.rangeMany}: an index of a collection and the query.
 *
 * @category Storage internals
 */
export interface RangeRequest {
  /** The collection. */
  readonly collection: string;
  /** The index of that collection. */
  readonly index: string;
  /** Which entries. @defaultValue all, ascending */
  readonly query?: RangeQuery;
}

/**
 * A named lock of {@link StorageTransaction.lock}: locks of equal names are the same lock.
 *
 * @category Storage internals
 */
export interface StorageLock {
  /** What is locked: any string the core builds (a zone name, a project). */
  readonly name: string;
  /** Exclusive locks conflict with every other holder of the name; shared ones only with exclusive ones. */
  readonly exclusive: boolean;
}

/**
 * The index keys of a value: index name to key. An index left out (or `undefined`) does not
 * hold the value, which makes partial indexes (e.g. only ACTIVE transfer requests) cheap.
 *
 * @category Storage internals
 */
export type IndexKeys = Readonly<Record<string, string | undefined>>;

/**
 * The operations available inside a transaction. Every method may reject; the core treats a
 * rejection as a storage failure (500 `storage_failure`) and the transaction is rolled back.
 *
 * Values handed to `put` are frozen plain data and must not be changed by the adapter; values
 * read back must not be changed by the caller (an adapter may hand out the stored object).
 *
 * @category Storage internals
 */
export interface StorageTransaction {
  /** The value stored under `id`, or `undefined`. */
  get(collection: string, id: string): Promise<unknown>;
  /**
   * Stores `value` under `id`, replacing any previous value and all of its index entries. The
   * adapter may keep `keys` as given: the caller must not change it afterwards.
   */
  put(collection: string, id: string, value: unknown, keys: IndexKeys): Promise<void>;
  /**
   * Optional: stores `value` under `id` only when nothing is stored there, and answers whether it
   * did; `false` writes nothing. Every create goes through it (through {@link insert}), so that an
   * id source that repeats itself fails loudly instead of overwriting. An adapter over a database
   * does it in one statement (`INSERT … ON CONFLICT DO NOTHING`); without it, {@link insert}
   * reads first, which costs a round trip and, under SERIALIZABLE, a read of the index gap that
   * concurrent creates then conflict on.
   */
  insert?(collection: string, id: string, value: unknown, keys: IndexKeys): Promise<boolean>;
  /** Removes the value and its index entries; `false` when there was none. */
  delete(collection: string, id: string): Promise<boolean>;
  /** Entries of one index in `(key, id)` order, as the query says. Cost: O(log n + returned). */
  range(collection: string, index: string, query?: RangeQuery): Promise<readonly StoredEntry[]>;
  /**
   * Optional: several ranges at once, answered in request order, each exactly as
   * {@link StorageTransaction.range} would answer it. An adapter over a network reads them in one
   * round trip; without it, {@link rangeMany} calls `range` once per request.
   */
  rangeMany?(requests: readonly RangeRequest[]): Promise<readonly (readonly StoredEntry[])[]>;
  /** How many entries of one index have keys starting with `prefix`. Cost: O(log n). */
  count(collection: string, index: string, prefix?: string): Promise<number>;
  /**
   * Optional: holds named locks until the transaction ends, so that transactions that depend on
   * the same things take turns. Every read after the call sees all that the transactions which
   * held a conflicting lock, and ended before this one got it, wrote; an adapter whose view of
   * the data may be older than the lock (a snapshot taken at an earlier read) runs `work` again
   * from the start with the locks taken first, so call it before reading where possible.
   *
   * `covering`: the caller promises that these locks, together with the rows the transaction
   * itself writes, cover everything its outcome depends on that another transaction may change
   * (docs/postgres.md argues it for a zone create); an adapter may then skip its own tracking of
   * what the transaction reads (SERIALIZABLE's predicate locks) as long as it still refuses to
   * write over a row changed since the transaction's view was taken. Only a first call, before
   * any read or write, may say so. An adapter without it runs every transaction alone or
   * serializable anyway, so nothing is lost (the memory adapter, which runs one at a time, holds
   * every lock already).
   */
  lock?(locks: readonly StorageLock[], covering?: boolean): Promise<void>;
  /** Values of a collection in id order, a page at a time (`after` = last id seen): for snapshots. */
  scan(collection: string, after: string | undefined, limit: number): Promise<readonly StoredRow[]>;
}

/**
 * A value and its id, as {@link StorageTransaction.scan} returns them.
 *
 * @category Storage internals
 */
export interface StoredRow {
  /** The value's id. */
  readonly id: string;
  /** The stored value. */
  readonly value: unknown;
}

// Storages built by this package that never reject and never throw from a transaction's methods
// while it is open: the core calls them without tagging each call's failures. The mark holds the
// storage itself, so a copy or a wrapper (a fault injector spreading it, an object inheriting
// from it) is not marked and is guarded as any other adapter.
const UNFAILING = Symbol('zoneward.unfailing');

/** Marks `storage`, before it is frozen, as one of this package's adapters that never fail (see {@link failsNever}). @internal */
export function neverRejects<S extends Storage>(storage: S): S {
  (storage as { [UNFAILING]?: Storage })[UNFAILING] = storage;
  return storage;
}

/** Whether `storage` is one this package marked with {@link neverRejects}. @internal */
export function failsNever(storage: Storage): boolean {
  return (storage as { [UNFAILING]?: Storage })[UNFAILING] === storage;
}

/**
 * A transaction with every optional method of {@link StorageTransaction} present: what the core
 * works with, whichever adapter it runs on (see {@link completeTransaction}).
 * @internal
 */
export type CompleteTransaction = Required<StorageTransaction>;

/**
 * Reads several ranges through {@link StorageTransaction.rangeMany} when the adapter has it, and
 * one `range` call after another when it has not: the same answers either way.
 */
async function rangeMany(tx: StorageTransaction, requests: readonly RangeRequest[]): Promise<readonly (readonly StoredEntry[])[]> {
  if (tx.rangeMany !== undefined) return tx.rangeMany(requests);
  const out: (readonly StoredEntry[])[] = [];
  for (const r of requests) out.push(await tx.range(r.collection, r.index, r.query));
  return out;
}

/**
 * Stores a new value through {@link StorageTransaction.insert} when the adapter has it, and with
 * `get` then `put` when it has not: `false`, with nothing written, when `id` is taken either way.
 * @internal
 */
export async function insert(tx: StorageTransaction, collection: string, id: string, value: unknown, keys: IndexKeys): Promise<boolean> {
  if (tx.insert !== undefined) return tx.insert(collection, id, value, keys);
  if ((await tx.get(collection, id)) !== undefined) return false;
  await tx.put(collection, id, value, keys);
  return true;
}

/**
 * The port boundary: `tx` with its optional methods filled in where the adapter left them out
 * (`insert` reads first, `rangeMany` reads one range after another, `lock` does nothing, which is
 * right for an adapter that runs transactions alone or serializable anyway). The core asks this
 * once per transaction and never asks what an adapter can do. An adapter that has them all is
 * handed on as it is; otherwise one object whose methods live on its prototype, since every
 * command of every service pays for what this allocates.
 * @internal
 */
export function completeTransaction(tx: StorageTransaction): CompleteTransaction {
  return tx.insert !== undefined && tx.rangeMany !== undefined && tx.lock !== undefined ? (tx as CompleteTransaction) : new FilledTransaction(tx);
}

/** {@link completeTransaction}'s answer for an adapter without every optional method. */
class FilledTransaction implements CompleteTransaction {
  constructor(private readonly tx: StorageTransaction) {}
  get(c: string, id: string): Promise<unknown> {
    return this.tx.get(c, id);
  }
  put(c: string, id: string, value: unknown, keys: IndexKeys): Promise<void> {
    return this.tx.put(c, id, value, keys);
  }
  insert(c: string, id: string, value: unknown, keys: IndexKeys): Promise<boolean> {
    return insert(this.tx, c, id, value, keys);
  }
  delete(c: string, id: string): Promise<boolean> {
    return this.tx.delete(c, id);
  }
  range(c: string, index: string, query?: RangeQuery): Promise<readonly StoredEntry[]> {
    return this.tx.range(c, index, query);
  }
  rangeMany(requests: readonly RangeRequest[]): Promise<readonly (readonly StoredEntry[])[]> {
    return rangeMany(this.tx, requests);
  }
  count(c: string, index: string, prefix?: string): Promise<number> {
    return this.tx.count(c, index, prefix);
  }
  lock(locks: readonly StorageLock[], covering?: boolean): Promise<void> {
    return this.tx.lock === undefined ? Promise.resolve() : this.tx.lock(locks, covering);
  }
  scan(c: string, after: string | undefined, limit: number): Promise<readonly StoredRow[]> {
    return this.tx.scan(c, after, limit);
  }
}
