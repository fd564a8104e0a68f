import type { IndexKeys, RangeQuery, Storage, StorageTransaction, StoredEntry } from '../../ports/storage.js';
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

/**
 * The operations of one transaction over `tables`, each write logged in `undo` first. An object of
 * its own methods (not a class instance), so that a caller may spread it to wrap one operation.
 * Every call after the transaction ended (`isOpen()` false) throws.
 */
function transactionOver(tables: Tables, undo: UndoLog, isOpen: () => boolean): StorageTransaction {
  const check = (): void => {
    if (!isOpen()) throw new Error('storage transaction used after it ended');
  };
  const write = (c: Collection, id: string, before: Row | undefined, row: Row | undefined): void => {
    undo.push({ collection: c, id, before });
    tables.restore(c, id, row);
  };
  return {
    get(name, id) {
      check();
      return Promise.resolve(tables.find(name)?.rows.get(id)?.value);
    },
    put(name, id, value, keys) {
      check();
      const c = tables.open(name);
      write(c, id, c.rows.get(id), { value, keys });
      return Promise.resolve();
    },
    insert(name, id, value, keys) {
      check();
      const c = tables.open(name);
      if (c.rows.has(id)) return Promise.resolve(false);
      write(c, id, undefined, { value, keys });
      return Promise.resolve(true);
    },
    delete(name, id) {
      check();
      const c = tables.find(name);
      const before = c?.rows.get(id);
      if (c === undefined || before === undefined) return Promise.resolve(false);
      write(c, id, before, undefined);
      return Promise.resolve(true);
    },
    range(name, indexName, query = {}) {
      check();
      return Promise.resolve(rangeOf(tables, name, indexName, query));
    },
    rangeMany(requests) {
      check();
      return Promise.resolve(requests.map((r) => rangeOf(tables, r.collection, r.index, r.query ?? {})));
    },
    count(name, indexName, prefix = '') {
      check();
      const i = tables.find(name)?.indexes.get(indexName);
      if (i === undefined) return Promise.resolve(0);
      const { start, end } = i.prefixBounds(prefix);
      return Promise.resolve(end - start);
    },
    scan(name, after, limit) {
      check();
      const c = tables.find(name);
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
}

/** Runs `work` in one transaction: its writes stay when it resolves, and are undone when it rejects. */
async function runTransaction<T>(tables: Tables, work: (tx: StorageTransaction) => Promise<T>): Promise<T> {
  const undo: UndoLog = [];
  let open = true;
  try {
    return await work(transactionOver(tables, undo, () => open));
  } catch (error) {
    for (let k = undo.length - 1; k >= 0; k--) {
      const u = undo[k]!;
      tables.restore(u.collection, u.id, u.before);
    }
    throw error;
  } finally {
    open = false;
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
  let tail: Promise<unknown> = Promise.resolve();
  return {
    transaction<T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> {
      const result = tail.then(() => runTransaction(tables, work));
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
  };
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
