import type { PoolClient } from 'pg';
import type { StorageTransaction } from '../../ports/storage.js';
import type { KeptCounts } from './kept-counts.js';
import { LockPlan } from './locks.js';
import type { AttemptState } from './message-pipeline.js';
import { type Session, unsupported } from './session.js';
import type { Statements, Step } from './statements.js';
import { PostgresTransaction } from './transaction.js';
import { sqlState } from './values.js';

/**
 * One attempt of a transaction: BEGIN, `work`, COMMIT or ROLLBACK, on one connection.
 * @module
 * @internal
 */

/** SQLSTATE of a lock wait that timed out. */
const LOCK_NOT_AVAILABLE = '55P03';

/** How an attempt ended. @internal */
export type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown; readonly cause: unknown; readonly speculated: boolean };

/** How to run one attempt. @internal */
export interface AttemptOptions {
  /** Set: try to run alone, waiting this long at most (see `PostgresRetryOptions.aloneWaitMs`). */
  readonly aloneWaitMs: number | undefined;
  /** `insert` may answer before the server has seen it. */
  readonly speculate: boolean;
  /** A covering attempt may run at READ COMMITTED. */
  readonly readCommitted: boolean;
  /** The transaction's named locks, kept across its attempts (see {@link LockPlan}). */
  readonly locks: Map<string, boolean>;
  readonly counted: KeptCounts;
  /** More than one transaction of the storage is under way. */
  readonly busy: () => boolean;
}

/**
 * One attempt: BEGIN, `work`, COMMIT or ROLLBACK. Resolves `ok: false` (after rolling back) when
 * the attempt failed in a way a retry may fix or `work` rejected; rejects only when the
 * connection itself is unusable. `cause` is the first failed statement, which is what decides
 * whether to retry even when the core wrapped it into its own error.
 *
 * BEGIN travels in the same message as the transaction's first statement, and the last puts in
 * the same message as COMMIT (see {@link PostgresTransaction}): a command that reads once and
 * writes costs two round trips, one that only fails validation none.
 *
 * `aloneWaitMs` set: try to run alone. Every transaction holds the schema's advisory lock shared
 * (taken in the same message as BEGIN, released by COMMIT or ROLLBACK: no extra round trip). An
 * attempt that must run `alone` takes it exclusively before BEGIN, at session level, so it waits
 * for every running transaction to end and, since a SERIALIZABLE snapshot is taken at the first
 * statement after BEGIN, sees all they wrote; transactions that start meanwhile wait for it
 * before touching a table.
 * @internal
 */
export async function once<T>(
  client: PoolClient,
  session: Session,
  sql: Statements,
  work: (tx: StorageTransaction) => Promise<T>,
  how: AttemptOptions,
): Promise<Outcome<T>> {
  const { aloneWaitMs } = how;
  const refused = unsupported(client);
  if (refused !== undefined) throw new Error(`zoneward/postgres: ${refused}; give it a pool of plain pg clients`);
  const alone = aloneWaitMs !== undefined && (await lockAlone(client, sql, aloneWaitMs));
  // Alone, every other transaction waits on this one: if its `work` stalls (awaits something
  // that hangs), the server ends the session after `aloneWaitMs` idle, which frees the lock. That
  // only holds inside a transaction, so alone (the rare, slow path) BEGIN is sent at once.
  if (alone) await client.query(`BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL idle_in_transaction_session_timeout = ${aloneWaitMs}`);
  const attempt: AttemptState = { open: true, failure: undefined, speculated: false };
  const locks = new LockPlan(how.locks, alone, how.readCommitted, sql.unlock);
  const begin = alone ? undefined : (): Step[] => locks.opening(sql);
  const tx = new PostgresTransaction(client, session, sql, how.counted, attempt, locks, begin, how.speculate, how.busy);
  let outcome: Outcome<T>;
  try {
    const value = await work(tx);
    // `work` swallowed a failed statement; PostgreSQL would turn the COMMIT into a ROLLBACK
    // silently, so say so instead of reporting success.
    if (attempt.failure !== undefined) throw attempt.failure;
    const end: Step = { statement: sql.commit, params: [] };
    await tx.commit(() => (locks.unlocks === undefined ? [end] : [end, locks.unlocks]), alone ? sql.unlock : undefined);
    return { ok: true, value };
  } catch (error) {
    // `work` may have failed because an insert answered `true` wrongly: find out before judging.
    if (attempt.failure === undefined) await tx.check();
    attempt.open = false;
    outcome = { ok: false, error, cause: attempt.failure ?? error, speculated: attempt.speculated };
  }
  // Also after a failed COMMIT message: a put before COMMIT may have failed, leaving the
  // transaction open; when COMMIT itself failed, there is none and ROLLBACK only warns.
  if (await tx.begun()) await client.query(locks.unlocks === undefined ? 'ROLLBACK' : `ROLLBACK; ${locks.unlocks}`);
  else if (alone) await client.query(sql.unlock);
  return outcome;
}

/**
 * Takes the exclusive lock, waiting at most `waitMs` (see `PostgresRetryOptions.aloneWaitMs`).
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
