import pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import type { Storage, StorageTransaction } from '../../ports/storage.js';
import { once, type AttemptOptions, type Outcome } from './attempt.js';
import { KeptCounts } from './kept-counts.js';
import type { PostgresStorage, PostgresStorageOptions } from './options.js';
import { afterFailure, aloneWait, FIRST_ATTEMPT, retrySettings, type RetrySettings, type RetryState } from './retry-policy.js';
import { migrate, tables, type Tables } from './schema.js';
import { forgetSession, sessionOf } from './session.js';
import { statements, type Statements } from './statements.js';
import { sqlState, toError } from './values.js';

const UNDEFINED_TABLE = '42P01';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What every transaction of one storage shares. */
interface Shared {
  readonly pool: Pool;
  readonly t: Tables;
  readonly sql: Statements;
  readonly retry: RetrySettings;
  readonly onRetry: ((failedAttempt: number, sqlState: string) => void) | undefined;
  /** The counts the schema keeps, read by the first transaction (see `keptCounts`). */
  readonly counted: () => KeptCounts | Promise<KeptCounts>;
  /** More than one transaction of the storage is under way (messages then go once per turn of the event loop). */
  readonly busy: () => boolean;
}

/**
 * A storage adapter over PostgreSQL, for servers that run zoneward in several processes (or want
 * state to outlive one): every command stays atomic and serializable across processes.
 *
 * Each {@link Storage.transaction} is one PostgreSQL transaction at `SERIALIZABLE` on one pooled
 * connection. When PostgreSQL aborts it to keep the order serial (SQLSTATE 40001) or to break a
 * deadlock (40P01), `work` is run again from the start on a fresh transaction, after a jittered
 * exponential backoff, up to {@link PostgresRetryOptions.attempts} times; so `work` must be safe
 * to re-run (the core's commands are) and must not keep state between attempts. A transaction
 * that keeps losing runs alone from {@link PostgresRetryOptions.aloneFromAttempt} on (an
 * exclusive advisory lock every other transaction of the schema holds shared), so heavy
 * contention slows commands down but does not fail them.
 *
 * {@link StorageTransaction.lock} takes named locks as advisory locks before the transaction's
 * snapshot (a lock asked for after the first read runs `work` again with it first); a
 * transaction whose first call is a covering `lock` runs at `READ COMMITTED` instead, without
 * predicate locks, and again at `REPEATABLE READ` if it goes on to rewrite a row it did not
 * insert (docs/postgres.md, "Isolation and retries", says why that stays serializable for a
 * zone create).
 *
 * Schema (see docs/postgres.md): `zoneward_rows(collection, id, value json)` and
 * `zoneward_index(collection, index_name, key, id)` whose primary key is the index order; keys
 * and ids are `bytea` in an encoding whose byte order is JS string order, since keys contain
 * U+0000 and `text` can hold neither that nor UTF-16 order. Call {@link PostgresStorage.migrate}
 * once before use.
 *
 * Costs differ from the memory adapter: every read is a round trip (BEGIN travels with the first,
 * puts are buffered and travel with the next read or with COMMIT, `rangeMany` is one statement,
 * reads started together share one message);
 * `count` is O(1) for the counts the schema keeps (all zones, a project's zones) and reads the
 * entries it counts otherwise (a B-tree in PostgreSQL has no subtree counts); `offset` paging
 * reads the skipped entries (O(offset)), so marker paging (`after`) is the way to page deep.
 *
 * @example
 * ```ts
 * import { createDnsService } from 'zoneward';
 * import { postgresStorage } from 'zoneward/postgres';
 *
 * const storage = postgresStorage({ connectionString: process.env.DATABASE_URL! });
 * await storage.migrate();
 * const dns = createDnsService({ storage });
 * // ... on shutdown:
 * await storage.close();
 * ```
 * @category Ports
 */
export function postgresStorage(options: PostgresStorageOptions): PostgresStorage {
  const owned = !('pool' in options);
  const pool: Pool =
    'pool' in options ? options.pool : new pg.Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 });
  if (owned) {
    // An idle client dying (server restart) must not crash the host: the pool drops it and the
    // next transaction opens a new one.
    pool.on('error', () => undefined);
  }
  const t = tables(options.schema);
  let closed = false;
  // Transactions of this storage under way.
  let active = 0;
  const shared: Shared = {
    pool,
    t,
    sql: statements(t),
    retry: retrySettings(options.retry),
    onRetry: options.onRetry,
    counted: keptCounts(pool, t),
    busy: () => active > 1,
  };
  const transaction: Storage['transaction'] = async (work) => {
    if (closed) throw new Error('zoneward/postgres: the storage is closed');
    active++;
    try {
      return await withRetries(shared, work);
    } finally {
      active--;
    }
  };
  return {
    transaction,
    migrate: () => migrate(pool, t),
    async close() {
      if (closed) return;
      closed = true;
      if (owned) await pool.end();
    },
  };
}

/**
 * The kept counts, read by the first transaction; transactions that start while it is read wait
 * for the same read, and a failed read is tried again by the next transaction. Answered without
 * a promise once read, so that a transaction pays no extra turn for it.
 */
function keptCounts(pool: Pool, t: Tables): () => KeptCounts | Promise<KeptCounts> {
  let kept: KeptCounts | undefined;
  let reading: Promise<KeptCounts> | undefined;
  return () =>
    kept ??
    (reading ??= pool
      .query<{ collection_like: string; index_name: string; depth: number }>(`SELECT collection_like, index_name, depth FROM ${t.counted}`)
      .then(
        (read) => (kept = new KeptCounts(read.rows)),
        (error: unknown) => {
          reading = undefined;
          throw explain(error, t);
        },
      ));
}

/** Runs `work` in attempts until one commits or the retry policy gives up (see `afterFailure`). */
async function withRetries<T>(shared: Shared, work: (tx: StorageTransaction) => Promise<T>): Promise<T> {
  const counted = shared.counted();
  const kept = counted instanceof KeptCounts ? counted : await counted;
  const locks = new Map<string, boolean>();
  let state: RetryState = FIRST_ATTEMPT;
  for (;;) {
    const outcome = await onConnection(shared, work, {
      aloneWaitMs: aloneWait(shared.retry, state),
      speculate: state.speculate,
      readCommitted: state.readCommitted,
      locks,
      counted: kept,
      busy: shared.busy,
    });
    if (outcome.ok) return outcome.value;
    const decision = afterFailure(shared.retry, state, outcome);
    if (decision.kind === 'give up') throw explain(outcome.error, shared.t);
    if (decision.sqlState !== undefined) {
      shared.onRetry?.(state.attempt, decision.sqlState);
      await sleep(Math.random() * decision.backoffMs);
    }
    state = decision.state;
  }
}

/** One attempt on a pooled connection, which is dropped rather than reused when it may be unsound. */
async function onConnection<T>(shared: Shared, work: (tx: StorageTransaction) => Promise<T>, how: AttemptOptions): Promise<Outcome<T>> {
  const client: PoolClient = await shared.pool.connect();
  const session = sessionOf(client);
  // A connection that dies while checked out reports on the client, not the pool; unheard,
  // that event would crash the host. The failing query rejects too, which is what we act on.
  let died: Error | undefined;
  const onError = (error: Error): void => {
    died ??= error;
  };
  client.on('error', onError);
  try {
    return await once(client, session, shared.sql, work, how);
  } catch (error) {
    // Only a dead connection or a failed BEGIN/COMMIT/ROLLBACK/unlock gets here: the client may
    // still be inside a transaction or hold the exclusive lock, so drop it rather than reuse it.
    died ??= toError(error);
    throw explain(error, shared.t);
  } finally {
    client.off('error', onError);
    if (session.unsure) died ??= new Error('zoneward/postgres: prepared statements unknown after a failure');
    if (died !== undefined) forgetSession(client);
    client.release(died);
  }
}

/** Rewrites "relation does not exist" into what to do about it. */
function explain(error: unknown, t: Tables): unknown {
  if (sqlState(error) !== UNDEFINED_TABLE) return error;
  const where = t.schema === undefined ? 'on the search_path' : `in schema ${t.schema}`;
  return new Error(`zoneward/postgres: no zoneward tables ${where}; call migrate() first (or again, after an upgrade)`, { cause: error });
}

