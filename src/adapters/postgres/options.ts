import type { Pool } from 'pg';
import type { Storage } from '../../ports/storage.js';

/**
 * How {@link postgresStorage} retries a transaction that PostgreSQL aborted to keep it
 * serializable (SQLSTATE 40001) or to break a deadlock (40P01).
 *
 * @category Ports
 */
export interface PostgresRetryOptions {
  /** Attempts in all, the first included; the last failure is passed on. @defaultValue 20 */
  readonly attempts?: number;
  /**
   * From this attempt on, a transaction runs alone: it waits until every other transaction of
   * this schema has ended and holds new ones back until it ends, so nothing can conflict with it
   * and it cannot fail to serialize again. Guarantees progress under heavy contention, at the
   * price of a pause for everyone else; `Infinity` turns it off. @defaultValue 4
   */
  readonly aloneFromAttempt?: number;
  /**
   * Bounds the stall one hung transaction can cause, both ways: an attempt waits this long for the
   * others to end before it gives up running alone and runs as usual, and a transaction running
   * alone that stays idle this long (its `work` awaiting something that hangs) has its session
   * ended by the server, which frees everyone else. @defaultValue 5000
   */
  readonly aloneWaitMs?: number;
  /** The backoff before the second attempt; it doubles each time, up to `maxDelayMs`. @defaultValue 2 */
  readonly baseDelayMs?: number;
  /** The most any one backoff may be. @defaultValue 200 */
  readonly maxDelayMs?: number;
}

/**
 * Options every form of {@link postgresStorage} takes.
 *
 * @category Ports
 */
export interface PostgresCommonOptions {
  /**
   * The PostgreSQL schema holding the tables (created by `migrate()` when missing), so several
   * zoneward stores, or test runs, can share a database. @defaultValue the connection's `search_path`
   */
  readonly schema?: string;
  /** Retries of serialization failures and deadlocks. @defaultValue see {@link PostgresRetryOptions} */
  readonly retry?: PostgresRetryOptions;
  /**
   * Called before each retry with the attempt that failed (1 for the first) and its SQLSTATE: a
   * place for metrics, since frequent retries mean contention worth designing away.
   */
  readonly onRetry?: (failedAttempt: number, sqlState: string) => void;
}

/**
 * {@link postgresStorage} opening its own pool.
 *
 * @category Ports
 */
export interface PostgresConnectionOptions extends PostgresCommonOptions {
  /** A libpq connection URI, e.g. `postgres://user@host:5432/db`. */
  readonly connectionString: string;
  /** The most connections the pool opens, i.e. the most transactions in flight. @defaultValue 10 */
  readonly poolSize?: number;
}

/**
 * {@link postgresStorage} over a pool the caller owns (and ends).
 *
 * @category Ports
 */
export interface PostgresPoolOptions extends PostgresCommonOptions {
  /**
   * A `pg` pool; the storage takes one client per transaction and gives it back. Its clients must
   * be pg's JavaScript client (not pg-native) and not in pipeline mode: the storage sends each
   * message's statements itself, over the client's connection (a transaction refuses others
   * with an error that says so).
   */
  readonly pool: Pool;
}

/**
 * The options of {@link postgresStorage}: a connection string (the storage owns its pool) or a
 * pool (the caller owns it).
 *
 * @category Ports
 */
export type PostgresStorageOptions = PostgresConnectionOptions | PostgresPoolOptions;

/**
 * A {@link Storage} over PostgreSQL, with the two calls a database needs besides transactions.
 *
 * @category Ports
 */
export interface PostgresStorage extends Storage {
  /**
   * Creates or upgrades the tables (and the schema, when one was given). Call it once at start-up,
   * before the first transaction; it is idempotent and safe when several processes call it at once.
   */
  migrate(): Promise<void>;
  /** Ends the pool when the storage opened it (a pool passed in is left to its owner); later transactions reject. */
  close(): Promise<void>;
}
