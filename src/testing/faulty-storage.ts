import type { Storage, StorageTransaction } from '../ports/storage.js';

/**
 * The storage operations {@link faultyStorage} counts: one name per port method.
 *
 * @category Testing
 */
export type StorageOperation = 'transaction' | 'get' | 'put' | 'delete' | 'range' | 'count' | 'scan';

/**
 * Wraps a storage so chosen operations reject, to prove that a failure anywhere leaves nothing
 * half-written and is answered 500 `storage_failure`.
 *
 * Operations are counted from 0 across the wrapper's life, in the order they are called
 * (`transaction` counts when it starts; its inner calls count one by one).
 *
 * @param inner - the storage to wrap
 * @param failAt - whether the `index`-th operation (an `operation`) fails
 * @example
 * ```ts
 * const storage = faultyStorage(memoryStorage(), (op, i) => op === 'put' && i === 7);
 * ```
 * @category Testing
 */
export function faultyStorage(inner: Storage, failAt: (operation: StorageOperation, index: number) => boolean): Storage {
  let index = 0;
  const fails = (op: StorageOperation): boolean => failAt(op, index++);
  const fault = (op: StorageOperation): Error => new Error(`injected storage failure (${op})`);
  const wrap = (tx: StorageTransaction): StorageTransaction => ({
    get: (c, id) => (fails('get') ? Promise.reject(fault('get')) : tx.get(c, id)),
    put: (c, id, v, k) => (fails('put') ? Promise.reject(fault('put')) : tx.put(c, id, v, k)),
    delete: (c, id) => (fails('delete') ? Promise.reject(fault('delete')) : tx.delete(c, id)),
    range: (c, i, q) => (fails('range') ? Promise.reject(fault('range')) : tx.range(c, i, q)),
    count: (c, i, p) => (fails('count') ? Promise.reject(fault('count')) : tx.count(c, i, p)),
    scan: (c, a, l) => (fails('scan') ? Promise.reject(fault('scan')) : tx.scan(c, a, l)),
  });
  return {
    transaction<T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> {
      if (fails('transaction')) return Promise.reject(fault('transaction'));
      return inner.transaction((tx) => work(wrap(tx)));
    },
  };
}
