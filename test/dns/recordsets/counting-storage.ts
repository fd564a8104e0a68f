import type { Storage, StorageTransaction } from '../../../src/index.js';

/**
 * A storage that counts what its transactions read: `rows`, the entries every range call hands
 * out; `reads`, per collection, the values got (when there is one) and handed out by ranges. For
 * tests that bound what a command reads (a write reads its block, never its zone).
 */
export function countingStorage(inner: Storage): Storage & { rows: number; readonly reads: Map<string, number> } {
  const counter = {
    rows: 0,
    reads: new Map<string, number>(),
    transaction<T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> {
      const add = (c: string, n: number): void => void counter.reads.set(c, (counter.reads.get(c) ?? 0) + n);
      return inner.transaction((tx) =>
        work({
          get: async (c, id) => {
            const v = await tx.get(c, id);
            if (v !== undefined) add(c, 1);
            return v;
          },
          put: (c, id, v, k) => tx.put(c, id, v, k),
          delete: (c, id) => tx.delete(c, id),
          count: (c, i, p) => tx.count(c, i, p),
          scan: (c, a, l) => tx.scan(c, a, l),
          range: async (c, i, q) => {
            const out = await tx.range(c, i, q);
            counter.rows += out.length;
            add(c, out.length);
            return out;
          },
        }),
      );
    },
  };
  return counter;
}
