import { neverRejects, type CompleteTransaction, type IndexKeys, type RangeQuery, type Storage, type StorageTransaction, type StoredEntry } from '../../ports/storage.js';
import { OrderedIndex } from './ordered-index.js';

interface Row {
  readonly value: unknown;
  readonly keys: IndexKeys;
}

interface Collection {
  readonly rows: Map<string, Row>;
  readonly indexes: Map<string, OrderedIndex>;
  /** Ids in order, for `scan`; kept lazily since only snapshots need it. */
  byId: OrderedIndex | undefined;
}

type Undo = { readonly collection: Collection; readonly id: string; readonly before: Row | undefined };

/** The rows of every collection and their indexes, kept in step by {@link Tables.restore}. */
class Tables {
  private readonly collections = new Map<string, Collection>();

  /** The collection, or undefined when nothing was ever written to it. */
  find(name: string): Collection | undefined {
    return this.collections.get(name);
  }

  /** The collection, made on first write. */
  open(name: string): Collection {
    let c = this.collections.get(name);
    if (c === undefined) {
      c = { rows: new Map(), indexes: new Map(), byId: undefined };
      this.collections.set(name, c);
    }
    return c;
  }

  /**
   * Puts a row back as it was (or removes it), keeping `rows`, indexes and `byId` in step. Only
   * index entries whose key changed are touched: most writes (a status change, a version bump)
   * leave every key as it was.
   */
  restore(c: Collection, id: string, row: Row | undefined): void {
    const current = c.rows.get(id);
    if (row === undefined) {
      if (current !== undefined) {
        for (const name in current.keys) {
          const key = current.keys[name];
          if (key !== undefined) c.indexes.get(name)?.delete(key, id);
        }
      }
      c.rows.delete(id);
      c.byId?.delete('', id);
      return;
    }
    if (current === undefined) {
      for (const name in row.keys) {
        const key = row.keys[name];
        if (key !== undefined) indexOf(c, name).insert(key, id);
      }
      c.byId?.insert('', id);
    } else {
      for (const name in current.keys) {
        const before = current.keys[name];
        if (before !== undefined && before !== row.keys[name]) c.indexes.get(name)?.delete(before, id);
      }
      for (const name in row.keys) {
        const after = row.keys[name];
        if (after !== undefined && after !== current.keys[name]) indexOf(c, name).insert(after, id);
      }
    }
    c.rows.set(id, row);
  }
}

/** A collection's index, made on first use. */
function indexOf(c: Collection, name: string): OrderedIndex {
  let i = c.indexes.get(name);
  if (i === undefined) {
    i = new OrderedIndex();
    c.indexes.set(name, i);
  }
  return i;
}

/** A collection's ids in order, for `scan`: built on the first scan, since only snapshots scan. */
function idIndex(c: Collection): OrderedIndex {
  if (c.byId === undefined) {
    c.byId = new OrderedIndex();
    for (const id of c.rows.keys()) c.byId.insert('', id);
  }
  return c.byId;
}

/** What one transaction wrote, newest last, to undo in reverse when it fails. */
type UndoLog = Undo[];

/** What the operations of one transaction work on; `open` turns false when it ends. */
interface TxState {
  readonly tables: Tables;
  readonly undo: UndoLog;
  open: boolean;
}

// The state sits under a symbol on the transaction object, so that a caller who spreads the
// object to wrap one operation (`{ ...tx, put }`) carries the same state, not a copy of it.
const STATE = Symbol('memory transaction');
type MemoryTransaction = CompleteTransaction & { readonly [STATE]: TxState };

function stateOf(tx: MemoryTransaction | undefined): TxState {
  const s = tx?.[STATE];
  if (s === undefined) throw new Error('memory storage: a transaction method called apart from its transaction object (call it as tx.get(...))');
  if (!s.open) throw new Error('storage transaction used after it ended');
  return s;
}

function write(s: TxState, c: Collection, id: string, before: Row | undefined, row: Row | undefined): void {
  s.undo.push({ collection: c, id, before });
  s.tables.restore(c, id, row);
}

const RESOLVED: Promise<void> = Promise.resolve();
const TRUE = Promise.resolve(true);
const FALSE = Promise.resolve(false);

/*
 * The operations, shared by every transaction: a transaction is an object holding its state and
 * these functions (no closures made per transaction, since every command opens one). Each reads
 * its state through `this`, which a spread copy carries along.
 */
const operations: { readonly [K in keyof CompleteTransaction]: (this: MemoryTransaction, ...args: Parameters<CompleteTransaction[K]>) => ReturnType<CompleteTransaction[K]> } = {
  get(name, id) {
    return Promise.resolve(stateOf(this).tables.find(name)?.rows.get(id)?.value);
  },
  put(name, id, value, keys) {
    const s = stateOf(this);
    const c = s.tables.open(name);
    write(s, c, id, c.rows.get(id), { value, keys });
    return RESOLVED;
  },
  insert(name, id, value, keys) {
    const s = stateOf(this);
    const c = s.tables.open(name);
    if (c.rows.has(id)) return FALSE;
    write(s, c, id, undefined, { value, keys });
    return TRUE;
  },
  delete(name, id) {
    const s = stateOf(this);
    const c = s.tables.find(name);
    const before = c?.rows.get(id);
    if (c === undefined || before === undefined) return FALSE;
    write(s, c, id, before, undefined);
    return TRUE;
  },
  range(name, indexName, query = {}) {
    return Promise.resolve(rangeOf(stateOf(this).tables, name, indexName, query));
  },
  rangeMany(requests) {
    const { tables } = stateOf(this);
    return Promise.resolve(requests.map((r) => rangeOf(tables, r.collection, r.index, r.query ?? {})));
  },
  count(name, indexName, prefix = '') {
    const i = stateOf(this).tables.find(name)?.indexes.get(indexName);
    if (i === undefined) return Promise.resolve(0);
    const { start, end } = i.prefixBounds(prefix);
    return Promise.resolve(end - start);
  },
  // Transactions run one at a time: every lock is already held.
  lock() {
    stateOf(this);
    return RESOLVED;
  },
  scan(name, after, limit) {
    const c = stateOf(this).tables.find(name);
    if (c === undefined) return Promise.resolve([]);
    const byId = idIndex(c);
    const out: { id: string; value: unknown }[] = [];
    const start = after === undefined ? 0 : byId.upperBound('', after);
    byId.forEach(start, byId.size, 'asc', (_key, id) => {
      out.push({ id, value: c.rows.get(id)?.value });
      return out.length < limit;
    });
    return Promise.resolve(out);
  },
};

/**
 * The operations of one transaction over `tables`, each write logged in its undo log first. An
 * object of its own properties (not a class instance), so that a caller may spread it to wrap one
 * operation. Every call after the transaction ended throws.
 */
function transactionOver(s: TxState): MemoryTransaction {
  return {
    [STATE]: s,
    get: operations.get,
    put: operations.put,
    insert: operations.insert,
    delete: operations.delete,
    range: operations.range,
    rangeMany: operations.rangeMany,
    count: operations.count,
    lock: operations.lock,
    scan: operations.scan,
  };
}

/** Runs `work` in one transaction: its writes stay when it resolves, and are undone when it rejects. */
async function runTransaction<T>(tables: Tables, work: (tx: StorageTransaction) => Promise<T>): Promise<T> {
  const s: TxState = { tables, undo: [], open: true };
  try {
    return await work(transactionOver(s));
  } catch (error) {
    const { undo } = s;
    for (let k = undo.length - 1; k >= 0; k--) {
      const u = undo[k]!;
      tables.restore(u.collection, u.id, u.before);
    }
    throw error;
  } finally {
    s.open = false;
  }
}

/**
 * The default storage adapter: everything in this process's memory.
 *
 * Transactions run one at a time (a FIFO queue), which makes them trivially serializable; a
 * transaction writes in place and keeps an undo log, so a failed one is rolled back exactly and
 * a successful one costs no copy. Values are stored by reference (they are frozen), and every
 * secondary index is an order-statistic B-tree, so lookups, prefix counts and page reads cost
 * O(log n) whatever the size.
 *
 * @example
 * ```ts
 * const storage = memoryStorage();
 * const dns = createDnsService({ storage });
 * const quotas = createQuotaService({ storage }); // one store may serve both services
 * ```
 * @category Ports
 */
export function memoryStorage(): Storage {
  const tables = new Tables();
  // Whether a transaction runs now; those that arrive meanwhile wait in `waiting`, oldest first
  // (from `head` on), and each one ending starts the next.
  let running = false;
  let waiting: (() => void)[] = [];
  let head = 0;
  const next = (): void => {
    if (head === waiting.length) {
      running = false;
      waiting = [];
      head = 0;
      return;
    }
    const start = waiting[head]!;
    waiting[head++] = undefined!;
    // A queue that never empties drops what it already started, now and then, in one copy.
    if (head >= 1024 && head * 2 >= waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
    start();
  };
  const run = <T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> => {
    // Set before the work starts, so a transaction asked for from inside it waits its turn.
    running = true;
    const result = runTransaction(tables, work);
    result.then(next, next);
    return result;
  };
  return Object.freeze(neverRejects<Storage>({
    transaction<T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> {
      // An idle store starts the transaction at once: nothing runs or waits before it.
      if (!running) return run(work);
      return new Promise<T>((resolve, reject) => {
        waiting.push(() => void run(work).then(resolve, reject));
      });
    },
  }));
}

/** A range read of an index, empty when the collection or the index was never written. */
function rangeOf(tables: Tables, name: string, indexName: string, query: RangeQuery): StoredEntry[] {
  const c = tables.find(name);
  const i = c?.indexes.get(indexName);
  return c === undefined || i === undefined ? [] : readRange(c, i, query);
}

function readRange(c: Collection, i: OrderedIndex, query: RangeQuery): StoredEntry[] {
  const desc = query.direction === 'desc';
  const limit = query.limit ?? Number.POSITIVE_INFINITY;
  if (!desc && !(query.offset !== undefined && query.offset >= 1)) return readForward(c, i, query.prefix ?? '', query.exact === true, query.after, limit);
  let { start, end } = i.prefixBounds(query.prefix ?? '');
  // K + U+0000 is the least string above K: the entries of key K end where its entries start.
  if (query.exact === true) end = i.lowerBound(`${query.prefix ?? ''}\u0000`, '');
  if (query.after !== undefined) {
    if (desc) end = Math.min(end, i.lowerBound(query.after.key, query.after.id));
    else start = Math.max(start, i.upperBound(query.after.key, query.after.id));
  }
  const offset = Math.max(0, Math.floor(query.offset ?? 0));
  if (desc) end -= offset;
  else start += offset;
  const out: StoredEntry[] = [];
  if (start >= end || limit <= 0) return out;
  i.forEach(start, end, desc ? 'desc' : 'asc', (key, id) => {
    out.push({ key, id, value: c.rows.get(id)?.value });
    return out.length < limit;
  });
  return out;
}

/** An ascending read without an offset: one descent to its first entry, no ranks. */
function readForward(c: Collection, i: OrderedIndex, prefix: string, exact: boolean, after: RangeQuery['after'], limit: number): StoredEntry[] {
  const out: StoredEntry[] = [];
  if (limit <= 0) return out;
  const visit = (key: string, id: string): boolean => {
    if (exact ? key !== prefix : !key.startsWith(prefix)) return false;
    out.push({ key, id, value: c.rows.get(id)?.value });
    return out.length < limit;
  };
  // Entries after a marker that sorts below the prefix start where the prefix does.
  if (after === undefined || after.key < prefix) i.forEachFrom(prefix, '', false, visit);
  else i.forEachFrom(after.key, after.id, true, visit);
  return out;
}
