import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
import pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import type { IndexKeys, RangeQuery, RangeRequest, Storage, StorageLock, StorageTransaction, StoredEntry, StoredRow } from '../../ports/storage.js';
import { arrayParam, Batch, type Call, OID, type Param, type Row } from './batch.js';
import { decodeKey, encodeKey, prefixEnd } from './key-codec.js';
import { migrate, PART, tables, type Tables } from './schema.js';

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

const RETRYABLE = new Set(['40001', '40P01']);
/**
 * A connection's prepared statements are not what the adapter thinks (another copy of zoneward on
 * the same pool, a `DISCARD ALL`): the connection is dropped and the attempt retried on another.
 */
const STALE_SESSION = new Set(['42P05', '26000']);
const UNDEFINED_TABLE = '42P01';
const LOCK_NOT_AVAILABLE = '55P03';

/** A `bytea` column as the server writes it in text (`\\x` and hex). */
function bytes(text: string | null): Buffer {
  if (text === null || !text.startsWith('\\x')) throw new Error("zoneward/postgres: bytea_output must be 'hex' (the default)");
  return Buffer.from(text.slice(2), 'hex');
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function deepFreeze(v: unknown): unknown {
  if (isRecord(v)) {
    for (const k of Object.keys(v)) deepFreeze(v[k]);
    Object.freeze(v);
  }
  return v;
}

/** Parses a stored value; frozen like every value the memory adapter hands out. */
const thaw = (text: string): unknown => deepFreeze(JSON.parse(text));

function serialise(collection: string, id: string, value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError(`zoneward/postgres: ${collection}/${id}: the value is not JSON-serialisable`);
  return text;
}

const sqlState = (e: unknown): string | undefined => (isRecord(e) && typeof e.code === 'string' ? e.code : undefined);

const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What one attempt of a transaction has seen; a failed statement poisons the whole attempt. */
interface Attempt {
  open: boolean;
  failure: Error | undefined;
  /** An `insert` was answered `true` before the server checked the id was free (see `transactionOn`). */
  speculated: boolean;
  /**
   * The named locks of the transaction (advisory lock key to exclusive), kept across attempts:
   * each attempt takes them all before its snapshot, and `lock` adds to them.
   */
  readonly locks: Map<string, boolean>;
  /** The locks this attempt holds (or will take with its first message). */
  readonly held: Map<string, boolean>;
  /** Running alone: nothing else runs, so named locks are not taken. */
  readonly alone: boolean;
  /**
   * The first call was a covering `lock` (see {@link StorageTransaction.lock}): READ COMMITTED
   * with the locks taken inside the transaction (`readCommitted`), or REPEATABLE READ after them.
   */
  covering: boolean;
  /**
   * A covering attempt may run at READ COMMITTED: true until one of the transaction's attempts
   * wanted to rewrite or delete a stored row, which at READ COMMITTED could overwrite a change
   * made since it was read.
   */
  readonly mayReadCommitted: boolean;
  /** This attempt runs at READ COMMITTED: covering, allowed, with locks to take, not alone. */
  readCommitted: boolean;
  /** `lock` has been called in this attempt. */
  locked: boolean;
}

/**
 * A `lock` came after the attempt's snapshot: the attempt is given up and `work` run again with
 * the locks taken first. Not a failure: no backoff, and the locks are kept.
 */
class Relock extends Error {
  constructor() {
    super('zoneward/postgres: a lock was asked for after the first read; running the transaction again with it taken first');
  }
}

/**
 * A covering attempt at READ COMMITTED wanted to rewrite or delete a row: a row it read may have
 * changed since, and READ COMMITTED would write over that change where REPEATABLE READ refuses
 * to. The attempt is given up and `work` run again at REPEATABLE READ. Not a failure either.
 */
class Reread extends Error {
  constructor() {
    super('zoneward/postgres: a covering transaction rewrites a stored row; running it again at REPEATABLE READ');
  }
}

/** SQLSTATE of a unique violation: how a speculative insert finds out the id was taken. */
const UNIQUE_VIOLATION = '23505';

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
  const attempts = Math.max(1, Math.floor(options.retry?.attempts ?? 20));
  const aloneFrom = Math.max(1, options.retry?.aloneFromAttempt ?? 4);
  const aloneWait = Math.max(1, Math.floor(options.retry?.aloneWaitMs ?? 5000));
  const onRetry = options.onRetry;
  const baseDelay = Math.max(0, options.retry?.baseDelayMs ?? 2);
  const maxDelay = Math.max(baseDelay, options.retry?.maxDelayMs ?? 200);
  const sql = statements(t);
  let closed = false;
  // Transactions of this storage under way: with more than one, messages go out once per turn
  // of the event loop (see `corkForThisTurn`).
  let active = 0;
  const busy = (): boolean => active > 1;
  // Read by the first transaction; transactions that start while it is read wait for the same
  // read, and a failed read is tried again by the next transaction.
  let kept: KeptCounts | undefined;
  let reading: Promise<KeptCounts> | undefined;
  const keptCounts = (): Promise<KeptCounts> =>
    (reading ??= pool
      .query<{ collection_like: string; index_name: string; depth: number }>(`SELECT collection_like, index_name, depth FROM ${t.counted}`)
      .then(
        (read) => (kept = new KeptCounts(read.rows)),
        (error: unknown) => {
          reading = undefined;
          throw explain(error, t);
        },
      ));

  const run = async <T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> => {
    active++;
    try {
      return await withRetries(work);
    } finally {
      active--;
    }
  };

  const withRetries = async <T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> => {
    const counted = kept ?? (await keptCounts());
    let speculate = true;
    let readCommitted = true;
    const locks = new Map<string, boolean>();
    let relocks = 0;
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      const session = sessionOf(client);
      // A connection that dies while checked out reports on the client, not the pool; unheard,
      // that event would crash the host. The failing query rejects too, which is what we act on.
      let died: Error | undefined;
      const onError = (error: Error): void => {
        died ??= error;
      };
      client.on('error', onError);
      let outcome: Outcome<T>;
      try {
        outcome = await once(client, session, sql, work, { aloneWaitMs: attempt >= aloneFrom ? aloneWait : undefined, speculate, readCommitted, locks, counted, busy });
      } catch (error) {
        // Only a dead connection or a failed BEGIN/COMMIT/ROLLBACK/unlock gets here: the client may
        // still be inside a transaction or hold the exclusive lock, so drop it rather than reuse it.
        died ??= toError(error);
        throw explain(error, t);
      } finally {
        client.off('error', onError);
        if (session.unsure) died ??= new Error('zoneward/postgres: prepared statements unknown after a failure');
        if (died !== undefined) sessions.delete(client);
        client.release(died);
      }
      if (outcome.ok) return outcome.value;
      if (outcome.cause instanceof Relock && relocks++ < attempts) {
        attempt--;
        continue;
      }
      if (outcome.cause instanceof Reread && readCommitted) {
        readCommitted = false;
        attempt--;
        continue;
      }
      const code = sqlState(outcome.cause) ?? '';
      if (outcome.speculated && code === UNIQUE_VIOLATION && speculate) {
        // An insert answered `true` for an id that was taken: run again, asking the server first,
        // so that this time it answers `false`. Not a contention retry: no backoff.
        speculate = false;
        attempt--;
        continue;
      }
      if (!(RETRYABLE.has(code) || STALE_SESSION.has(code)) || attempt >= attempts) throw explain(outcome.error, t);
      onRetry?.(attempt, code);
      // Full jitter: contenders that collided once spread out instead of colliding again.
      await sleep(Math.random() * Math.min(maxDelay, baseDelay * 2 ** (attempt - 1)));
    }
  };

  return {
    transaction<T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> {
      if (closed) return Promise.reject(new Error('zoneward/postgres: the storage is closed'));
      return run(work);
    },
    migrate: () => migrate(pool, t),
    async close() {
      if (closed) return;
      closed = true;
      if (owned) await pool.end();
    },
  };
}

type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown; readonly cause: unknown; readonly speculated: boolean };

/**
 * What the adapter knows about one pooled connection: the statements it has prepared (SQL
 * protocol-level Parse, which outlives transactions, rollbacks included) and its counter slot.
 */
interface Session {
  readonly prepared: Set<string>;
  /**
   * The row of each maintained count this connection adds to (see `zoneward_counts`): sessions
   * of one process never share one, so concurrent writers never update the same counter row,
   * which under SERIALIZABLE would abort one of them.
   */
  readonly slot: number;
  /** A message preparing a statement failed, so which statements exist is unknown: drop the connection. */
  unsure: boolean;
}

/** Counter rows per count; more than the connections one process opens. */
const SLOTS = 64;

// Connections used by any storage of this module, so storages sharing a pool (statement names
// carry the schema) agree on what each connection has prepared and never share a slot.
const sessions = new WeakMap<PoolClient, Session>();
let nextSlot = Math.floor(Math.random() * SLOTS); // processes sharing the database start apart
const sessionOf = (client: PoolClient): Session => {
  let s = sessions.get(client);
  if (s === undefined) {
    s = { prepared: new Set(), slot: nextSlot++ % SLOTS, unsure: false };
    sessions.set(client, s);
  }
  return s;
};

/**
 * One attempt: BEGIN, `work`, COMMIT or ROLLBACK. Resolves `ok: false` (after rolling back) when
 * the attempt failed in a way a retry may fix or `work` rejected; rejects only when the
 * connection itself is unusable. `cause` is the first failed statement, which is what decides
 * whether to retry even when the core wrapped it into its own error.
 *
 * BEGIN travels in the same message as the transaction's first statement, and the last puts in
 * the same message as COMMIT (see `transactionOn`): a command that reads once and writes costs two
 * round trips, one that only fails validation none.
 *
 * `aloneWaitMs` set: try to run alone. Every transaction holds the schema's advisory lock shared (taken in the same message as BEGIN,
 * released by COMMIT or ROLLBACK: no extra round trip). An attempt that must run `alone` takes it
 * exclusively before BEGIN, at session level, so it waits for every running transaction to end
 * and, since a SERIALIZABLE snapshot is taken at the first statement after BEGIN, sees all they
 * wrote; transactions that start meanwhile wait for it before touching a table.
 */
async function once<T>(
  client: PoolClient,
  session: Session,
  sql: Statements,
  work: (tx: StorageTransaction) => Promise<T>,
  how: {
    readonly aloneWaitMs: number | undefined;
    readonly speculate: boolean;
    readonly readCommitted: boolean;
    readonly locks: Map<string, boolean>;
    readonly counted: KeptCounts;
    readonly busy: () => boolean;
  },
): Promise<Outcome<T>> {
  const { aloneWaitMs, speculate, locks } = how;
  const refused = unsupported(client);
  if (refused !== undefined) throw new Error(`zoneward/postgres: ${refused}; give it a pool of plain pg clients`);
  const alone = aloneWaitMs !== undefined && (await lockAlone(client, sql, aloneWaitMs));
  // Alone, every other transaction waits on this one: if its `work` stalls (awaits something
  // that hangs), the server ends the session after `aloneWaitMs` idle, which frees the lock. That
  // only holds inside a transaction, so alone (the rare, slow path) BEGIN is sent at once.
  if (alone) await client.query(`BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL idle_in_transaction_session_timeout = ${aloneWaitMs}`);
  const attempt: Attempt = {
    open: true,
    failure: undefined,
    speculated: false,
    locks,
    held: alone ? new Map<string, boolean>() : new Map(locks),
    alone,
    covering: false,
    mayReadCommitted: how.readCommitted,
    readCommitted: false,
    locked: false,
  };
  // What ends the transaction's session-level locks (see `opening`), once they were sent.
  let unlocks: string | undefined = alone ? sql.unlock : undefined;
  /**
   * BEGIN, built when the first statement goes out (named locks asked for until then go with it).
   * Without named locks: SERIALIZABLE, holding the schema's lock shared for the transaction. With
   * them, the schema's lock and then the named ones, in key order (so lockers cannot deadlock
   * each other):
   * - covering: READ COMMITTED, the locks taken for the transaction by its first statement;
   *   every later statement takes a snapshot of its own, younger than every lock;
   * - otherwise (or covering once READ COMMITTED was given up, see {@link Reread}): taken at
   *   session level in a transaction of their own that ends before BEGIN, so the snapshot (taken
   *   by the first statement after BEGIN) is younger than every lock; they are released with
   *   COMMIT or ROLLBACK, in the same message.
   */
  const opening = (): Step[] => {
    if (attempt.held.size === 0) return [{ statement: sql.beginSerializable, params: [] }, { statement: sql.lockShared, params: [] }];
    const keys = [...attempt.held.keys()].sort();
    // The calls on every named lock, in key order: `pg_advisory_<verb>` or its `_shared` form.
    const calls = (verb: 'lock' | 'unlock'): string =>
      keys.map((k) => `pg_advisory_${verb}${attempt.held.get(k)! ? '' : '_shared'}(${k})`).join(', ');
    if (attempt.readCommitted) {
      // A create's statements are all generic: their settings come with the locks (see `lock`).
      const pairs = keys.map((k) => k.split(', '));
      const array = (items: readonly string[]): string => `{${items.join(',')}}`;
      const params = [array(pairs.map((p) => p[0]!)), array(pairs.map((p) => p[1]!)), array(keys.map((k) => (attempt.held.get(k)! ? 't' : 'f')))];
      return [{ statement: sql.beginReadCommitted, params: [] }, { statement: sql.lockCovering, params }];
    }
    unlocks = `SELECT ${sql.sessionUnlockShared}, ${calls('unlock')}`;
    const level = attempt.covering ? 'REPEATABLE READ' : 'SERIALIZABLE';
    return ['BEGIN', `SELECT ${sql.sessionLockShared}, ${calls('lock')}`, 'COMMIT', `BEGIN ISOLATION LEVEL ${level}`];
  };
  const { tx, commit, begun, check } = transactionOn(client, session, sql, how, attempt, alone ? undefined : opening, speculate);
  const end: Step = { statement: sql.commit, params: [] };
  const unlock = (): string => (unlocks === undefined ? '' : `; ${unlocks}`);
  let outcome: Outcome<T>;
  try {
    const value = await work(tx);
    // `work` swallowed a failed statement; PostgreSQL would turn the COMMIT into a ROLLBACK
    // silently, so say so instead of reporting success.
    if (attempt.failure !== undefined) throw attempt.failure;
    await commit(() => (unlocks === undefined ? [end] : [end, unlocks]), alone ? sql.unlock : undefined);
    return { ok: true, value };
  } catch (error) {
    // `work` may have failed because an insert answered `true` wrongly: find out before judging.
    if (attempt.failure === undefined) await check();
    attempt.open = false;
    outcome = { ok: false, error, cause: attempt.failure ?? error, speculated: attempt.speculated };
  }
  // Also after a failed COMMIT message: a put before COMMIT may have failed, leaving the
  // transaction open; when COMMIT itself failed, there is none and ROLLBACK only warns.
  if (await begun()) await client.query(`ROLLBACK${unlock()}`);
  else if (alone) await client.query(sql.unlock);
  return outcome;
}

/**
 * Why the adapter cannot send its messages (see {@link Batch}) over this client, if it cannot:
 * they go through the JavaScript client's wire connection, which pg-native does not have, and pg
 * refuses them on a connection in pipeline mode.
 */
function unsupported(client: PoolClient): string | undefined {
  const c = client as { pipeline?: unknown; connection?: { bind?: unknown } };
  if (typeof c.connection?.bind !== 'function') return "the pool's clients are not pg's JavaScript client (pg-native?), which zoneward needs";
  if (c.pipeline === true) return "the pool's connections are in pipeline mode (`pipeline: true`), which zoneward does not support";
  return undefined;
}

/**
 * Takes the exclusive lock, waiting at most `waitMs` (see {@link PostgresRetryOptions.aloneWaitMs}).
 * The three statements share one implicit transaction, so when the lock times out the SET is
 * undone too.
 */
async function lockAlone(client: PoolClient, sql: Statements, waitMs: number): Promise<boolean> {
  try {
    await client.query(`SET lock_timeout = ${waitMs}; ${sql.lock}; RESET lock_timeout`);
    return true;
  } catch (error) {
    if (sqlState(error) === LOCK_NOT_AVAILABLE) return false;
    throw error;
  }
}

/**
 * Holds the connection's socket writes until the event loop's turn ends. With several
 * transactions under way, a write sent at once wakes its server process, which on a small
 * machine preempts this one in the middle of the turn; held, the turn's messages go out
 * together after its work is done. Measured on 2026-11-28 (2 cores, ABBA, 3 rounds of 3,000
 * creates): 8 in flight 1.10x creates/s, node 0.92x and server 0.93x CPU per create; 1 in flight,
 * where nothing else is under way, 0.94x, hence only when busy. The stream is the driver's own
 * (`client.connection.stream`, which pg corks itself for its extended-protocol queries); a driver
 * without it just writes at once.
 */
function corkForThisTurn(client: PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: Partial<Pick<Writable, 'cork' | 'uncork'>> } }).connection?.stream;
  if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return;
  stream.cork();
  setImmediate(() => stream.uncork?.());
}

/** Rewrites "relation does not exist" into what to do about it. */
function explain(error: unknown, t: Tables): unknown {
  if (sqlState(error) !== UNDEFINED_TABLE) return error;
  const where = t.schema === undefined ? 'on the search_path' : `in schema ${t.schema}`;
  return new Error(`zoneward/postgres: no zoneward tables ${where}; call migrate() first (or again, after an upgrade)`, { cause: error });
}

/**
 * The settings, for the rest of the transaction, under which generic statements run (see
 * {@link Statement.generic}), as a SELECT list. Their plans are made once per connection, often
 * while a table is still small or has no statistics: PostgreSQL then found a bitmap scan of a
 * whole collection as good as an index probe, and kept that plan after the table grew (creates
 * went from 0.5 to 2.5 ms of server time each within 12,000). Point statements must probe their
 * indexes whatever the statistics say, so the other ways in are priced out.
 */
const GENERIC_SETTINGS = `set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`;
const CUSTOM_MODE = `SELECT set_config('plan_cache_mode', 'auto', true), set_config('enable_seqscan', 'on', true), set_config('enable_bitmapscan', 'on', true)`;

/** A statement the adapter prepares once per connection and runs with bound parameters. */
interface Statement {
  readonly name: string;
  readonly text: string;
  /**
   * Runs with a generic plan (`plan_cache_mode`, set for the transaction when it changes). For
   * the point reads and writes of a create, a custom plan per execution (what PostgreSQL picks
   * for them, whose arguments are arrays) cost a third of a create's server time here; ranges
   * keep custom plans, since a generic plan for an unbounded LIMIT read a whole index (an
   * all-projects list page at 100,000 zones: 1.4 ms custom, 17 ms generic). Counts are generic
   * too, so a create's reads switch the mode once.
   */
  readonly generic: boolean;
}

interface Statements {
  readonly lock: string;
  /** The schema's lock, shared, for the transaction. */
  readonly lockShared: Statement;
  readonly unlock: string;
  /** The schema's lock, shared, at session level (the call only, for a SELECT list). */
  readonly sessionLockShared: string;
  readonly sessionUnlockShared: string;
  /** The advisory lock key of a named lock, as an SQL literal. */
  lockKey(name: string): string;
  readonly beginSerializable: Statement;
  readonly beginReadCommitted: Statement;
  readonly commit: Statement;
  /**
   * A covering transaction's locks: the schema's, shared, then the named ones in the order of
   * its arrays (int4 key halves, exclusive or not), then the generic statements' settings.
   */
  readonly lockCovering: Statement;
  /** The settings of generic statements, and back (see {@link Statement.generic}). */
  readonly genericMode: Statement;
  readonly customMode: Statement;
  readonly get: Statement;
  readonly put: Statement;
  readonly insert: Statement;
  readonly create: Statement;
  readonly delete: Statement;
  readonly scanFirst: Statement;
  readonly scanAfter: Statement;
  readonly count: Statement;
  readonly countAll: Statement;
  readonly countKept: Statement;
  readonly ranges: Statement;
  range(hasEnd: boolean, hasAfter: boolean, desc: boolean, hasLimit: boolean): Statement;
}

/** The counter updates for index entries added (`n` = 1) or dropped (-1), by the session's slot. */
const bumpCounts = (t: Tables, changes: string, slot: string): string => `INSERT INTO ${t.counts} AS k (collection, index_name, part, slot, n)
        SELECT d.collection, d.index_name, ${PART}, ${slot}, sum(d.n)
        FROM ${changes} d JOIN ${t.counted} c ON d.collection LIKE c.collection_like AND d.index_name = c.index_name
        WHERE c.depth = 0 OR position(decode('00', 'hex') IN d.key) > 0
        GROUP BY 1, 2, 3
        ON CONFLICT (collection, index_name, part, slot) DO UPDATE SET n = k.n + EXCLUDED.n`;

function statements(t: Tables): Statements {
  const cache = new Map<string, Statement>();
  const statement = (text: string, generic = false): Statement => {
    let s = cache.get(text);
    if (s === undefined) {
      s = { name: `zoneward_${createHash('sha1').update(t.tag).update('\u0000').update(text).digest('hex').slice(0, 24)}`, text, generic };
      cache.set(text, s);
    }
    return s;
  };
  const select = `SELECT i.key, i.id, r.value FROM ${t.index} i JOIN ${t.rows} r ON r.collection = i.collection AND r.id = i.id`;
  // Literal, not a parameter: these statements are built as text (see `opening`).
  const key = createHash('sha1').update('zoneward.transaction\u0000').update(t.tag).digest().readInt32BE(0);
  return {
    lock: `SELECT pg_advisory_lock(${key})`,
    lockShared: statement(`SELECT pg_advisory_xact_lock_shared(${key})`),
    unlock: `SELECT pg_advisory_unlock(${key})`,
    sessionLockShared: `pg_advisory_lock_shared(${key})`,
    sessionUnlockShared: `pg_advisory_unlock_shared(${key})`,
    lockKey: (name) => lockKey(t.tag, name),
    beginSerializable: statement('BEGIN ISOLATION LEVEL SERIALIZABLE'),
    beginReadCommitted: statement('BEGIN ISOLATION LEVEL READ COMMITTED'),
    commit: statement('COMMIT'),
    // One column rather than one per call: the driver sets up a parser for every column. concat
    // takes its arguments in order, and the sub-select takes the named locks in its arrays'
    // order (a function scan hands the aggregate its rows in order), which is what keeps two
    // lockers from deadlocking.
    lockCovering: statement(`SELECT concat(pg_advisory_xact_lock_shared(${key}), (
        SELECT count(CASE WHEN l.x THEN concat(pg_advisory_xact_lock(l.a, l.b)) ELSE concat(pg_advisory_xact_lock_shared(l.a, l.b)) END)
        FROM unnest($1::int4[], $2::int4[], $3::bool[]) AS l(a, b, x)
      ), ${GENERIC_SETTINGS})`),
    genericMode: statement(`SELECT ${GENERIC_SETTINGS}`),
    customMode: statement(CUSTOM_MODE),
    get: statement(`SELECT value FROM ${t.rows} WHERE collection = $1 AND id = $2`, true),
    // One statement for a whole batch of puts (see `transactionOn`), ids unique within it.
    // Entries a value keeps are left alone (ON CONFLICT DO NOTHING writes nothing), so a status
    // change or a version bump rewrites only the row; the DELETE and the INSERT see the same
    // snapshot but act on disjoint entries, and the counts move by exactly what they changed.
    // A value that is new (xmax 0: inserted, not updated) has no entries to look for, so a create
    // reads nothing of the index, whose pages concurrent creates are writing (under SERIALIZABLE
    // such a read is a conflict).
    put: statement(`WITH input AS (
        SELECT * FROM unnest($1::text[], $2::bytea[], $3::json[]) AS v(collection, id, value)
      ), upserted AS (
        INSERT INTO ${t.rows} (collection, id, value) SELECT collection, id, value FROM input
        ON CONFLICT (collection, id) DO UPDATE SET value = EXCLUDED.value
        RETURNING collection, id, xmax <> 0 AS replaced
      ), wanted AS (
        SELECT * FROM unnest($4::text[], $5::bytea[], $6::text[], $7::bytea[]) AS w(collection, id, index_name, key)
      ), dropped AS (
        DELETE FROM ${t.index} x USING upserted v
        WHERE v.replaced AND x.collection = v.collection AND x.id = v.id
          AND NOT EXISTS (
            SELECT 1 FROM wanted w
            WHERE w.collection = x.collection AND w.id = x.id AND w.index_name = x.index_name AND w.key = x.key
          )
        RETURNING x.collection, x.index_name, x.key, -1 AS n
      ), added AS (
        INSERT INTO ${t.index} (collection, index_name, key, id)
        SELECT collection, index_name, key, id FROM wanted
        ON CONFLICT DO NOTHING
        RETURNING collection, index_name, key, 1 AS n
      )
      ${bumpCounts(t, '(SELECT * FROM added UNION ALL SELECT * FROM dropped)', '$8::smallint')}`, true),
    // A create: the row only where none is (no read of the index, so concurrent creates of other
    // ids do not conflict), its entries only with it, and whether it was written.
    insert: statement(`WITH inserted AS (
        INSERT INTO ${t.rows} (collection, id, value) VALUES ($1, $2, $3::json)
        ON CONFLICT (collection, id) DO NOTHING
        RETURNING collection, id
      ), added AS (
        INSERT INTO ${t.index} (collection, index_name, key, id)
        SELECT i.collection, w.index_name, w.key, i.id FROM inserted i, unnest($4::text[], $5::bytea[]) AS w(index_name, key)
        ON CONFLICT DO NOTHING
        RETURNING collection, index_name, key, 1 AS n
      ), counted AS (
        ${bumpCounts(t, 'added', '$6::smallint')}
      )
      SELECT count(*) AS n FROM inserted`, true),
    // Speculative inserts (see `transactionOn`), with `put`'s arguments and then the counts they
    // move, worked out by the adapter (`KeptCounts.moves`): plain INSERTs, so a taken id fails the
    // statement (23505) instead of being read first; nothing of the index is read, and nothing is
    // joined or grouped, which the hot path of every create would pay for in the server.
    create: statement(`WITH inserted AS (
        INSERT INTO ${t.rows} (collection, id, value) SELECT * FROM unnest($1::text[], $2::bytea[], $3::json[])
      ), added AS (
        INSERT INTO ${t.index} (collection, index_name, key, id)
        SELECT collection, index_name, key, id FROM unnest($4::text[], $5::bytea[], $6::text[], $7::bytea[]) AS w(collection, id, index_name, key)
      )
      INSERT INTO ${t.counts} AS k (collection, index_name, part, slot, n)
        SELECT collection, index_name, part, $8::smallint, n FROM unnest($9::text[], $10::text[], $11::bytea[], $12::bigint[]) AS b(collection, index_name, part, n)
        ON CONFLICT (collection, index_name, part, slot) DO UPDATE SET n = k.n + EXCLUDED.n`, true),
    delete: statement(`WITH gone AS (
        DELETE FROM ${t.rows} WHERE collection = $1 AND id = $2 RETURNING 1
      ), entries AS (
        DELETE FROM ${t.index} WHERE collection = $1 AND id = $2 RETURNING collection, index_name, key, -1 AS n
      ), counted AS (
        ${bumpCounts(t, 'entries', '$3::smallint')}
      )
      SELECT count(*) AS n FROM gone`, true),
    scanFirst: statement(`SELECT id, value FROM ${t.rows} WHERE collection = $1 ORDER BY id LIMIT $2`),
    scanAfter: statement(`SELECT id, value FROM ${t.rows} WHERE collection = $1 AND id > $3 ORDER BY id LIMIT $2`),
    // A maintained count (`KeptCounts.kept` says when there is one), or the entries themselves.
    countKept: statement(`SELECT coalesce(sum(n), 0) AS n FROM ${t.counts} WHERE collection = $1 AND index_name = $2 AND part = $3`, true),
    count: statement(`SELECT count(*) AS n FROM ${t.index} WHERE collection = $1 AND index_name = $2 AND key >= $3 AND key < $4`, true),
    countAll: statement(`SELECT count(*) AS n FROM ${t.index} WHERE collection = $1 AND index_name = $2`, true),
    // Several ascending prefix ranges in one statement: one index range scan each. The rows are
    // left unordered (`rangeMany` sorts each range's): an outer ORDER BY made every create's
    // statement set up and run a sort in the server.
    ranges: statement(`SELECT q.n, x.key, x.id, x.value
      FROM unnest($1::text[], $2::text[], $3::bytea[], $4::bytea[], $5::bigint[]) WITH ORDINALITY AS q(collection, index_name, lo, hi, lim, n)
      CROSS JOIN LATERAL (
        ${select}
        WHERE i.collection = q.collection AND i.index_name = q.index_name AND i.key >= q.lo AND i.key < q.hi
        ORDER BY i.key, i.id LIMIT q.lim
      ) x`, true),
    range(hasEnd, hasAfter, desc, hasLimit) {
      // Parameters are numbered in the order `range` pushes them; an unused bound is left out of
      // the text rather than passed as NULL, so each variant gets a plan that uses the index.
      const where = [`i.collection = $1`, `i.index_name = $2`, `i.key >= $3`];
      let n = 3;
      const p = (): string => `$${++n}`;
      if (hasEnd) where.push(`i.key < ${p()}`);
      if (hasAfter) where.push(`(i.key, i.id) ${desc ? '<' : '>'} (${p()}, ${p()})`);
      const offset = p();
      const limit = hasLimit ? ` LIMIT ${p()}` : '';
      const dir = desc ? ' DESC' : '';
      return statement(`${select}
        WHERE ${where.join(' AND ')}
        ORDER BY i.key${dir}, i.id${dir} OFFSET ${offset}${limit}`);
    },
  };
}

/**
 * The advisory lock key of a named lock of a schema: two int4 (64 bits of a hash of the name), a
 * key space of its own beside the schema's single-key lock. Two names sharing a key only make
 * their holders take turns when they need not, never the other way round.
 */
function lockKey(tag: string, name: string): string {
  // Two 32-bit FNV-1a variants over the UTF-16 code units; cheap, and enough to keep names apart.
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  const feed = (s: string): void => {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
  };
  feed(tag);
  feed('\u0000');
  feed(name);
  return `${a | 0}, ${b | 0}`;
}

/**
 * Refuses a string no statement can carry: PostgreSQL text cannot hold U+0000. Checked when a
 * call is made, so the caller hears of it then rather than from a failed commit.
 */
function checkText(s: string): string {
  if (s.includes('\u0000')) throw new TypeError(`zoneward/postgres: ${JSON.stringify(s)}: names cannot contain U+0000 (PostgreSQL text cannot)`);
  return s;
}

/** An integer parameter, as text. */
function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`zoneward/postgres: not an integer argument: ${n}`);
  return String(n);
}

/** A value's index entries as statement arguments; refuses an index name no statement could carry. */
function indexEntries(keys: IndexKeys): { names: string[]; encoded: Buffer[] } {
  const names: string[] = [];
  const encoded: Buffer[] = [];
  for (const name in keys) {
    const key = keys[name];
    if (key === undefined) continue;
    names.push(checkText(name));
    encoded.push(encodeKey(key));
  }
  return { names, encoded };
}

/** A statement built when its message is: SQL without parameters, or a prepared statement's run. */
type Step = string | { readonly statement: Statement; readonly params: readonly Param[] };

/** A run of a prepared statement (prepared on the connection, if need be, when its message goes: see `send`). */
const callOf = (s: Statement, params: readonly Param[]): Call => ({ name: s.name, text: s.text, params });

/** One call's share of a message: its statements and who waits for its last one's rows. */
interface Part {
  /** Statements, or a function building them when the message is built (see `send`). */
  readonly calls: readonly (Call | (() => readonly Step[]))[];
  readonly resolve: (rows: readonly Row[]) => void;
  readonly reject: (error: unknown) => void;
}

/** A put waiting to be sent: its row and its entries. */
interface PendingPut {
  readonly collection: string;
  readonly id: Buffer;
  readonly value: string;
  readonly names: readonly string[];
  readonly keys: readonly Buffer[];
  /** Written by a speculative `insert`: the id must have been free when the transaction began. */
  readonly isNew: boolean;
}

/** Puts in one statement at most; bounds its memory on a big restore. */
const PUT_BATCH = 8192;

/**
 * The port's operations on one attempt's connection.
 *
 * Every statement is prepared once per connection and run with bound parameters, and whatever is
 * due goes in one message (see {@link Batch}), so in one round trip: BEGIN with the transaction's
 * first statement, buffered puts with the next read, the last puts with COMMIT.
 *
 * Puts are buffered: a put answers nothing the caller could act on, and a snapshot restore (one
 * transaction of puts) then costs a statement per {@link PUT_BATCH} values instead of one per
 * value. A buffered put that fails makes the next call (or the commit) reject, so the
 * transaction still rejects and keeps nothing. A later put of the same id replaces the buffered
 * one, which is what a put means anyway.
 *
 * With `speculate`, `insert` is buffered too and answered `true` before the server has seen it
 * (see `once` and `run` for what happens when the id was taken).
 */
function transactionOn(
  client: PoolClient,
  session: Session,
  sql: Statements,
  { counted, busy }: { readonly counted: KeptCounts; readonly busy: () => boolean },
  attempt: Attempt,
  begin: (() => Step[]) | undefined,
  speculate: boolean,
): {
  tx: StorageTransaction;
  commit: (end: () => Step[], instead: string | undefined) => Promise<void>;
  begun: () => Promise<boolean>;
  check: () => Promise<void>;
} {
  // One message at a time, in call order, even when `work` starts several calls at once.
  let tail: Promise<unknown> = Promise.resolve();
  // The calls of the message not yet sent: calls made before it goes join it (see `send`).
  let gathering: Part[] | undefined;
  let pending = new Map<string, PendingPut>();
  // The rows this attempt inserted (collection U+0000 id): at READ COMMITTED it may rewrite them.
  const inserted = new Set<string>();
  let opening: (() => Step[]) | undefined = begin;
  let sent = false;
  // The plan_cache_mode the statements built so far leave the transaction in (built in send order).
  let generic = false;

  /** The statements that send the buffered puts, emptying the buffer: new values first. */
  const takePuts = (): Call[] => {
    if (pending.size === 0) return [];
    const all = [...pending.values()];
    pending = new Map();
    const out: Call[] = [];
    for (const isNew of [true, false]) {
      const batch = all.filter((p) => p.isNew === isNew);
      for (let from = 0; from < batch.length; from += PUT_BATCH) {
        out.push(...calls(isNew ? sql.create : sql.put, putParams(batch.slice(from, from + PUT_BATCH), isNew)));
      }
    }
    return out;
  };

  /**
   * The parameters of `sql.put` for a batch of puts: rows, then their entries, then the slot; of
   * `sql.create`, then also the counts they move. Arrays go in binary form, which the server
   * reads without parsing text.
   */
  const putParams = (batch: readonly PendingPut[], isNew: boolean): Param[] => {
    const entries: [string[], Buffer[], string[], Buffer[]] = [[], [], [], []];
    for (const p of batch) {
      for (let k = 0; k < p.names.length; k++) {
        entries[0].push(p.collection);
        entries[1].push(p.id);
        entries[2].push(p.names[k]!);
        entries[3].push(p.keys[k]!);
      }
    }
    const params: Param[] = [
      arrayParam(OID.text, batch.map((p) => p.collection)),
      arrayParam(OID.bytea, batch.map((p) => p.id)),
      arrayParam(OID.json, batch.map((p) => p.value)),
      arrayParam(OID.text, entries[0]),
      arrayParam(OID.bytea, entries[1]),
      arrayParam(OID.text, entries[2]),
      arrayParam(OID.bytea, entries[3]),
      int(session.slot),
    ];
    if (!isNew) return params;
    const [collections, indexes, parts, n] = counted.moves(batch);
    return [...params, arrayParam(OID.text, collections), arrayParam(OID.text, indexes), arrayParam(OID.bytea, parts), arrayParam(OID.int8, n)];
  };

  /** A prepared statement's run, preceded by the settings it needs. */
  const calls = (s: Statement, params: readonly Param[]): Call[] => {
    const out: Call[] = [];
    if (s.generic !== generic) {
      generic = s.generic;
      out.push(callOf(generic ? sql.genericMode : sql.customMode, []));
    }
    out.push(callOf(s, params));
    return out;
  };

  /**
   * Sends the statements after the messages queued before, and answers the last one's rows.
   * Calls made before that message goes out (`work` starting several reads at once, e.g. with
   * `Promise.all`) join it: one round trip for all of them, each answered from its own last
   * statement. A function is called when the message is built, after BEGIN: COMMIT's unlocks
   * depend on the locks BEGIN took.
   */
  const send = (statements: readonly (Call | (() => readonly Step[]))[]): Promise<readonly Row[]> => {
    sent = true;
    return new Promise<readonly Row[]>((resolve, reject) => {
      const part: Part = { calls: statements, resolve, reject };
      if (gathering !== undefined) {
        gathering.push(part);
        return;
      }
      const parts = [part];
      gathering = parts;
      tail = tail.then(async () => {
        if (gathering === parts) gathering = undefined;
        try {
          // Queued before the attempt ended but not sent: after ROLLBACK it would run on its own,
          // outside any transaction, and commit.
          if (!attempt.open) throw new Error('storage transaction used after it ended');
          // After a failure PostgreSQL refuses everything but ROLLBACK; say why, without a round trip.
          if (attempt.failure !== undefined) throw attempt.failure;
          const all: Call[] = [];
          const call = (step: Step): Call => (typeof step === 'string' ? { text: step } : callOf(step.statement, step.params));
          if (opening !== undefined) all.push(...opening().map(call));
          opening = undefined;
          const ends: number[] = [];
          for (const p of parts) {
            for (const c of p.calls) {
              if (typeof c === 'function') all.push(...c().map(call));
              else all.push(c);
            }
            ends.push(all.length - 1);
          }
          // Decided as the message goes, not when a call was made: a message never sent (the
          // attempt failed first) prepares nothing, and two calls of one new statement parse it once.
          const batch = all.map((c): Call => {
            if (c.name === undefined || session.prepared.has(c.name)) return c;
            session.prepared.add(c.name);
            return { ...c, parse: true };
          });
          let results: readonly (readonly Row[])[];
          try {
            if (busy()) corkForThisTurn(client);
            results = await new Promise((done, fail) => {
              client.query(new Batch(batch, (error, rows) => (error === undefined ? done(rows) : fail(toError(error)))));
            });
          } catch (error) {
            if (batch.some((c) => c.parse === true)) session.unsure = true;
            attempt.failure ??= toError(error);
            throw error;
          }
          parts.forEach((p, k) => p.resolve(results[ends[k]!]!));
        } catch (error) {
          for (const p of parts) p.reject(error);
        }
      });
    });
  };

  /** Gives up a covering attempt at READ COMMITTED that would rewrite a row (see {@link Reread}). */
  const reread = (): Promise<never> => {
    attempt.failure ??= new Reread();
    return Promise.reject(attempt.failure);
  };

  /**
   * Runs `s` after the buffered puts (a read must see them). The parameters are built here, so
   * that one no statement can carry fails the attempt, like a statement the server refused.
   */
  const query = (s: Statement, params: () => readonly Param[]): Promise<readonly Row[]> => {
    if (!attempt.open) return Promise.reject(new Error('storage transaction used after it ended'));
    try {
      return send([...takePuts(), ...calls(s, params())]);
    } catch (error) {
      // Puts may have left the buffer unsent: the transaction must not commit.
      attempt.failure ??= toError(error);
      return Promise.reject(attempt.failure);
    }
  };

  /** Sends the buffered puts at once, when there are many: a failure is reported through `attempt.failure`. */
  const flushIfFull = (): void => {
    if (pending.size >= PUT_BATCH) send(takePuts()).catch(() => undefined);
  };

  const tx: StorageTransaction = {
    async get(collection, id) {
      const rows = await query(sql.get, () => [checkText(collection), encodeKey(id)]);
      const row = rows[0];
      return row === undefined ? undefined : thaw(row[0]!);
    },
    put(collection, id, value, keys: IndexKeys) {
      if (!attempt.open) return Promise.reject(new Error('storage transaction used after it ended'));
      // A row this attempt inserted itself is safe to rewrite: no other can have changed it.
      if (attempt.readCommitted && !inserted.has(`${collection}\u0000${id}`)) return reread();
      try {
        checkText(collection);
        const { names, encoded } = indexEntries(keys);
        const text = serialise(collection, id, value);
        // The map key only has to tell (collection, id) pairs apart; U+0000 cannot be in a collection name.
        const at = `${collection}\u0000${id}`;
        pending.set(at, { collection, id: encodeKey(id), value: text, names, keys: encoded, isNew: pending.get(at)?.isNew ?? false });
        flushIfFull();
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(toError(error));
      }
    },
    async insert(collection, id, value, keys: IndexKeys) {
      checkText(collection);
      const { names, encoded } = indexEntries(keys);
      const text = serialise(collection, id, value);
      if (speculate && attempt.open) {
        const at = `${collection}\u0000${id}`;
        if (pending.has(at)) return false; // put in this transaction, not yet sent: taken
        // Answered now and buffered like a put; the plain INSERT fails if the id was taken, and the
        // transaction then runs again without speculating (see `run`). Ids are fresh random UUIDs,
        // so that almost never happens, and a create saves the round trip the answer would cost.
        attempt.speculated = true;
        pending.set(at, { collection, id: encodeKey(id), value: text, names, keys: encoded, isNew: true });
        inserted.add(at);
        flushIfFull();
        return true;
      }
      const rows = await query(sql.insert, () => [collection, encodeKey(id), text, arrayParam(OID.text, names), arrayParam(OID.bytea, encoded), int(session.slot)]);
      if (rows[0]?.[0] !== '1') return false;
      inserted.add(`${collection}\u0000${id}`);
      return true;
    },
    async delete(collection, id) {
      if (attempt.readCommitted) return reread();
      const rows = await query(sql.delete, () => [checkText(collection), encodeKey(id), int(session.slot)]);
      return rows[0]?.[0] !== '0';
    },
    async range(collection, index, q: RangeQuery = {}): Promise<readonly StoredEntry[]> {
      const limit = q.limit ?? Number.POSITIVE_INFINITY;
      if (!(limit > 0)) return [];
      const desc = q.direction === 'desc';
      const start = encodeKey(q.prefix ?? '');
      const end = rangeEnd(start, q);
      const hasLimit = Number.isFinite(limit);
      const rows = await query(sql.range(end !== undefined, q.after !== undefined, desc, hasLimit), () => {
        const values: Param[] = [checkText(collection), checkText(index), start];
        if (end !== undefined) values.push(end);
        if (q.after !== undefined) values.push(encodeKey(q.after.key), encodeKey(q.after.id));
        values.push(int(Math.max(0, Math.floor(q.offset ?? 0))));
        if (hasLimit) values.push(int(Math.floor(limit)));
        return values;
      });
      return rows.map((r) => entry(r));
    },
    async rangeMany(requests: readonly RangeRequest[]): Promise<readonly (readonly StoredEntry[])[]> {
      // One statement for the plain ones (ascending, a non-empty prefix, no marker or offset),
      // one each for the rest.
      const out: (readonly StoredEntry[])[] = requests.map(() => []);
      const plain: { at: number; lo: Buffer; hi: Buffer; limit: number | null }[] = [];
      const other: Promise<void>[] = [];
      requests.forEach((r, at) => {
        const q = r.query ?? {};
        const lo = encodeKey(q.prefix ?? '');
        const hi = rangeEnd(lo, q);
        const limit = q.limit ?? Number.POSITIVE_INFINITY;
        if (!(limit > 0)) return;
        if (hi === undefined || q.after !== undefined || (q.offset ?? 0) > 0 || q.direction === 'desc') {
          other.push(tx.range(r.collection, r.index, q).then((entries) => void (out[at] = entries)));
        } else {
          plain.push({ at, lo, hi, limit: Number.isFinite(limit) ? Math.floor(limit) : null });
        }
      });
      if (plain.length > 0) {
        const rows = await query(sql.ranges, () => [
          arrayParam(OID.text, plain.map((p) => checkText(requests[p.at]!.collection))),
          arrayParam(OID.text, plain.map((p) => checkText(requests[p.at]!.index))),
          arrayParam(OID.bytea, plain.map((p) => p.lo)),
          arrayParam(OID.bytea, plain.map((p) => p.hi)),
          arrayParam(OID.int8, plain.map((p) => p.limit)),
        ]);
        const found = plain.map((): StoredEntry[] => []);
        // Columns: the request's number, then an entry's.
        for (const r of rows) found[Number(r[0]) - 1]!.push(entry(r, 1));
        for (const f of found) if (f.length > 1) f.sort(byKeyThenId);
        plain.forEach((p, k) => (out[p.at] = found[k]!));
      }
      await Promise.all(other);
      return out;
    },
    async count(collection, index, prefix = '') {
      const start = encodeKey(prefix);
      const end = prefixEnd(start);
      const depth = countDepth(prefix);
      const names = (): [string, string] => [checkText(collection), checkText(index)];
      const rows =
        depth >= 0 && counted.kept(collection, index, depth)
          ? await query(sql.countKept, () => [...names(), depth === 0 ? EMPTY : start])
          : end === undefined
            ? await query(sql.countAll, names)
            : await query(sql.count, () => [...names(), start, end]);
      return Number(rows[0]?.[0] ?? 0);
    },
    lock(locks: readonly StorageLock[], covering = false): Promise<void> {
      if (!attempt.open) return Promise.reject(new Error('storage transaction used after it ended'));
      const first = !attempt.locked && !sent && pending.size === 0;
      attempt.locked = true;
      let missing = false;
      for (const l of locks) {
        const key = sql.lockKey(l.name);
        const exclusive = l.exclusive || attempt.locks.get(key) === true;
        if (attempt.locks.get(key) !== exclusive) attempt.locks.set(key, exclusive);
        if (attempt.alone || attempt.held.get(key) === true || (attempt.held.has(key) && !exclusive)) continue;
        attempt.held.set(key, exclusive);
        missing = true;
      }
      // Nothing sent yet: the locks go with BEGIN, before the snapshot.
      if (!sent) {
        if (first && covering) {
          attempt.covering = true;
          // BEGIN will set the generic statements' settings, with the locks (see `opening`).
          attempt.readCommitted = attempt.mayReadCommitted && !attempt.alone && attempt.held.size > 0;
          if (attempt.readCommitted) generic = true;
        }
        return Promise.resolve();
      }
      if (!missing) return Promise.resolve();
      // The snapshot may be older than the locks: give the attempt up and run again, locks first.
      attempt.failure ??= new Relock();
      return Promise.reject(attempt.failure);
    },
    async scan(collection, after, limit): Promise<readonly StoredRow[]> {
      if (!(limit > 0)) return [];
      const n = Number.isFinite(limit) ? Math.floor(limit) : null;
      const rows =
        after === undefined
          ? await query(sql.scanFirst, () => [checkText(collection), n === null ? null : int(n)])
          : await query(sql.scanAfter, () => [checkText(collection), n === null ? null : int(n), encodeKey(after)]);
      return rows.map((r) => ({ id: decodeKey(bytes(r[0]!)), value: thaw(r[1]!) }));
    },
  };

  /**
   * Sends what is still buffered with `end` (COMMIT), or, when the transaction never reached the
   * server, nothing but `instead` (if any).
   */
  const commit = async (end: () => Step[], instead: string | undefined): Promise<void> => {
    const puts = takePuts();
    if (!sent && puts.length === 0 && opening !== undefined) {
      attempt.open = false;
      if (instead !== undefined) await client.query(instead);
      return;
    }
    try {
      await send([...puts, end]);
    } finally {
      attempt.open = false;
    }
  };
  // Whether BEGIN reached the server, once nothing is in flight any more.
  const begun = (): Promise<boolean> => tail.then(() => opening === undefined);
  /**
   * After `work` rejected: sends the speculative inserts still buffered, so that a taken id shows
   * as a failed statement (`attempt.failure`) and the transaction is run again without guessing,
   * instead of passing on a rejection that a wrong `true` may have caused.
   */
  const check = async (): Promise<void> => {
    if (![...pending.values()].some((p) => p.isNew)) {
      await tail;
      return;
    }
    const puts = takePuts();
    if (puts.length > 0) await send(puts).catch(() => undefined);
    await tail;
  };
  return { tx, commit, begun, check };
}


/**
 * Where a range's keys end (exclusive): past the prefix, or, for an exact key, at the least key
 * above it (the key followed by U+0000, whose encoding is the key's followed by a zero byte).
 */
const rangeEnd = (start: Buffer, q: RangeQuery): Buffer | undefined => (q.exact === true ? Buffer.concat([start, ZERO]) : prefixEnd(start));
const ZERO = Buffer.of(0);

/** Index order: JS string order of the key, then of the id (what the encoded bytes sort by). */
const byKeyThenId = (a: StoredEntry, b: StoredEntry): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** An entry from a row whose columns from `at` on are key, id and value. */
const entry = (r: Row, at = 0): StoredEntry => ({ key: decodeKey(bytes(r[at]!)), id: decodeKey(bytes(r[at + 1]!)), value: thaw(r[at + 2]!) });

/**
 * Which maintained count a prefix can use: 0 for the whole index, 1 for exactly one tuple part
 * (one U+0000, at its end), -1 for none (the entries are counted).
 */
function countDepth(prefix: string): 0 | 1 | -1 {
  if (prefix === '') return 0;
  const nul = prefix.indexOf('\u0000');
  return nul === prefix.length - 1 ? 1 : -1;
}

/**
 * Which counts the schema keeps (`zoneward_counted`), read once per storage: the adapter itself
 * picks the count statement and works out what a create adds to the counts, so neither joins the
 * table on every call. The table is written by migrations (and tests before first use); a row
 * added later is only seen by storages created after it.
 */
class KeptCounts {
  private readonly rules: readonly { readonly like: RegExp; readonly index: string; readonly depth: number }[];

  constructor(rows: readonly { collection_like: string; index_name: string; depth: number }[]) {
    this.rules = rows.map((r) => ({ like: likePattern(r.collection_like), index: r.index_name, depth: Number(r.depth) }));
  }

  /** Whether the count of `index` of `collection` at `depth` (see `countDepth`) is kept. */
  kept(collection: string, index: string, depth: number): boolean {
    return this.rules.some((r) => r.depth === depth && r.index === index && r.like.test(collection));
  }

  /**
   * The counter moves of new values' entries, as the `create` statement's last four arguments:
   * every kept count an entry falls in (depth 0: the whole index; depth 1: the key's first tuple
   * part, U+0000 included, when it has one) goes up by its entries, summed per counter.
   */
  moves(puts: readonly PendingPut[]): [string[], string[], Buffer[], number[]] {
    const out: [string[], string[], Buffer[], number[]] = [[], [], [], []];
    if (this.rules.length === 0) return out;
    const at = new Map<string, number>();
    for (const p of puts) {
      for (let k = 0; k < p.names.length; k++) {
        const index = p.names[k]!;
        const key = p.keys[k]!;
        for (const r of this.rules) {
          if (r.index !== index || !r.like.test(p.collection)) continue;
          const nul = r.depth === 0 ? -1 : key.indexOf(0);
          if (r.depth === 1 && nul < 0) continue;
          const part = r.depth === 0 ? EMPTY : key.subarray(0, nul + 1);
          const counter = `${p.collection}\u0000${index}\u0000${part.toString('hex')}`;
          const i = at.get(counter);
          if (i !== undefined) {
            out[3][i]!++;
            continue;
          }
          at.set(counter, out[0].length);
          out[0].push(p.collection);
          out[1].push(index);
          out[2].push(part);
          out[3].push(1);
        }
      }
    }
    return out;
  }
}

const EMPTY = Buffer.alloc(0);

/** A LIKE pattern (backslash escapes, `%` and `_`) as an anchored RegExp over code points. */
function likePattern(like: string): RegExp {
  let source = '';
  const chars = [...like];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += (c === '\\' && i + 1 < chars.length ? chars[++i]! : c).replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u');
}
