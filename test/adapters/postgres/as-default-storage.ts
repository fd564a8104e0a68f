/**
 * setupFiles module of the `postgres` vitest project (see vitest.config.ts): runs the command
 * suites, unchanged, over PostgreSQL by making every `memoryStorage()` call (the services'
 * default, and what the tests construct themselves, directly or through src/index.ts) return a
 * fresh, empty storage over the shared throwaway cluster.
 *
 * Isolation without a schema per storage: every call gets a collection-name prefix of its own
 * over one `postgresStorage` (one pool per test file) on the schema the globalSetup migrated.
 * Collections are the first column of both tables' keys, so two prefixes never see each
 * other's rows or index entries, and a prefix starts empty.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject, vi } from 'vitest';
import type * as MemoryStorageModule from '../../../src/adapters/memory/memory-storage.js';
import { insert, type IndexKeys, type RangeQuery, type Storage, type StorageLock, type StorageTransaction } from '../../../src/ports/storage.js';
import { postgresStorage, type PostgresStorage } from '../../../src/adapters/postgres/index.js';

vi.mock('../../../src/adapters/memory/memory-storage.js', async (importOriginal) => {
  const original = await importOriginal<typeof MemoryStorageModule>();
  return { ...original, memoryStorage: isolatedPostgresStorage };
});

/** Connections per test file: tests run one at a time in a file, a few commands at once at most. */
const POOL_SIZE = 4;

let pool: pg.Pool | undefined;
let shared: PostgresStorage | undefined;
// Unique across the run's workers (threads share a pid) and across files of one worker.
const run = randomBytes(4).toString('hex');
let serial = 0;

function sharedStorage(): PostgresStorage {
  if (shared === undefined) {
    const url = process.env.ZONEWARD_PG_URL;
    if (url === undefined) throw new Error('the postgres project needs ZONEWARD_PG_URL');
    pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
    pool.on('error', () => undefined);
    shared = postgresStorage({ pool, schema: inject('zonewardPgSchema') });
  }
  return shared;
}

afterAll(async () => {
  const p = pool;
  pool = undefined;
  shared = undefined;
  await p?.end();
});

/** What `memoryStorage()` returns in this project: an empty storage of its own, over PostgreSQL. */
export function isolatedPostgresStorage(): Storage {
  const inner = sharedStorage();
  const prefix = `${run}.${serial++}/`;
  const c = (collection: string): string => prefix + collection;
  const wrap = (tx: StorageTransaction): StorageTransaction => ({
    get: (collection: string, id: string) => tx.get(c(collection), id),
    put: (collection: string, id: string, value: unknown, keys: IndexKeys) => tx.put(c(collection), id, value, keys),
    insert: (collection: string, id: string, value: unknown, keys: IndexKeys) => insert(tx, c(collection), id, value, keys),
    delete: (collection: string, id: string) => tx.delete(c(collection), id),
    range: (collection: string, index: string, query?: RangeQuery) => tx.range(c(collection), index, query),
    count: (collection: string, index: string, prefix?: string) => tx.count(c(collection), index, prefix),
    scan: (collection: string, after: string | undefined, limit: number) => tx.scan(c(collection), after, limit),
    // Forwarded, so the suites run the locked paths (a create's REPEATABLE READ, a delete's relock).
    lock: (locks: readonly StorageLock[], covering?: boolean) => tx.lock!(locks.map((l) => ({ ...l, name: prefix + l.name })), covering),
  });
  return {
    transaction: <T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> => inner.transaction((tx) => work(wrap(tx))),
  };
}
