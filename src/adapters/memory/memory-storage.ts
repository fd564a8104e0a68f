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
  const collections = new Map<string, Collection>();
  let tail: Promise<unknown> = Promise.resolve();

  const collection = (name: string): Collection => {
    let c = collections.get(name);
    if (c === undefined) {
      c = { rows: new Map(), indexes: new Map(), byId: undefined };
      collections.set(name, c);
    }
    return c;
  };

  const index = (c: Collection, name: string): OrderedIndex => {
    let i = c.indexes.get(name);
    if (i === undefined) {
      i = new OrderedIndex();
      c.indexes.set(name, i);
    }
    return i;
  };

  const unlink = (c: Collection, id: string, row: Row): void => {
    for (const name in row.keys) {
      const key = row.keys[name];
      if (key !== undefined) c.indexes.get(name)?.delete(key, id);
    }
  };

  const link = (c: Collection, id: string, row: Row): void => {
    for (const name in row.keys) {
      const key = row.keys[name];
      if (key !== undefined) index(c, name).insert(key, id);
    }
  };

  /**
   * Puts a row back as it was (or removes it), keeping `rows`, indexes and `byId` in step. Only
   * index entries whose key changed are touched: most writes (a status change, a version bump)
   * leave every key as it was.
   */
  const restore = (c: Collection, id: string, row: Row | undefined): void => {
    const current = c.rows.get(id);
    if (row === undefined) {
      if (current !== undefined) unlink(c, id, current);
      c.rows.delete(id);
      c.byId?.delete('', id);
      return;
    }
    if (current === undefined) {
      link(c, id, row);
      c.byId?.insert('', id);
    } else {
      for (const name in current.keys) {
        const before = current.keys[name];
        if (before !== undefined && before !== row.keys[name]) c.indexes.get(name)?.delete(before, id);
      }
      for (const name in row.keys) {
        const after = row.keys[name];
        if (after !== undefined && after !== current.keys[name]) index(c, name).insert(after, id);
      }
    }
    c.rows.set(id, row);
  };

  const run = async <T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> => {
    const undo: Undo[] = [];
    let open = true;
    const check = (): void => {
      if (!open) throw new Error('storage transaction used after it ended');
    };
    const tx: StorageTransaction = {
      get(name, id) {
        check();
        return Promise.resolve(collections.get(name)?.rows.get(id)?.value);
      },
      put(name, id, value, keys) {
        check();
        const c = collection(name);
        undo.push({ collection: c, id, before: c.rows.get(id) });
        restore(c, id, { value, keys });
        return Promise.resolve();
      },
      insert(name, id, value, keys) {
        check();
        const c = collection(name);
        if (c.rows.has(id)) return Promise.resolve(false);
        undo.push({ collection: c, id, before: undefined });
        restore(c, id, { value, keys });
        return Promise.resolve(true);
      },
      delete(name, id) {
        check();
        const c = collections.get(name);
        const before = c?.rows.get(id);
        if (c === undefined || before === undefined) return Promise.resolve(false);
        undo.push({ collection: c, id, before });
        restore(c, id, undefined);
        return Promise.resolve(true);
      },
      range(name, indexName, query = {}) {
        check();
        const c = collections.get(name);
        const i = c?.indexes.get(indexName);
        if (c === undefined || i === undefined) return Promise.resolve([]);
        return Promise.resolve(readRange(c, i, query));
      },
      rangeMany(requests) {
        check();
        return Promise.resolve(
          requests.map((r) => {
            const c = collections.get(r.collection);
            const i = c?.indexes.get(r.index);
            return c === undefined || i === undefined ? [] : readRange(c, i, r.query ?? {});
          }),
        );
      },
      count(name, indexName, prefix = '') {
        check();
        const i = collections.get(name)?.indexes.get(indexName);
        if (i === undefined) return Promise.resolve(0);
        const { start, end } = i.prefixBounds(prefix);
        return Promise.resolve(end - start);
      },
      scan(name, after, limit) {
        check();
        const c = collections.get(name);
        if (c === undefined) return Promise.resolve([]);
        if (c.byId === undefined) {
          c.byId = new OrderedIndex();
          for (const id of c.rows.keys()) c.byId.insert('', id);
        }
        const out: { id: string; value: unknown }[] = [];
        const start = after === undefined ? 0 : c.byId.upperBound('', after);
        c.byId.forEach(start, c.byId.size, 'asc', (_key, id) => {
          out.push({ id, value: c.rows.get(id)?.value });
          return out.length < limit;
        });
        return Promise.resolve(out);
      },
    };
    try {
      const result = await work(tx);
      return result;
    } catch (error) {
      for (let k = undo.length - 1; k >= 0; k--) {
        const u = undo[k]!;
        restore(u.collection, u.id, u.before);
      }
      throw error;
    } finally {
      open = false;
    }
  };

  return {
    transaction<T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> {
      const result = tail.then(() => run(work));
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
  };
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
