import type { PostgresRetryOptions } from './options.js';
import { sqlState } from './values.js';

/**
 * What a transaction does after an attempt failed: run again at once, run again after a backoff,
 * or give up. Pure: the attempt loop (postgres-storage.ts) acts on these decisions, and the
 * decisions are tested without a server.
 * @module
 * @internal
 */

/**
 * A `lock` came after the attempt's snapshot: the attempt is given up and `work` run again with
 * the locks taken first. Not a failure: no backoff, and the locks are kept.
 * @internal
 */
export class Relock extends Error {
  constructor() {
    super('zoneward/postgres: a lock was asked for after the first read; running the transaction again with it taken first');
  }
}

/**
 * A covering attempt at READ COMMITTED wanted to rewrite or delete a row: a row it read may have
 * changed since, and READ COMMITTED would write over that change where REPEATABLE READ refuses
 * to. The attempt is given up and `work` run again at REPEATABLE READ. Not a failure either.
 * @internal
 */
export class Reread extends Error {
  constructor() {
    super('zoneward/postgres: a covering transaction rewrites a stored row; running it again at REPEATABLE READ');
  }
}

/** SQLSTATEs a new attempt may fix: a serialization failure and a deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);
/**
 * A connection's prepared statements are not what the adapter thinks (another copy of zoneward on
 * the same pool, a `DISCARD ALL`): the connection is dropped and the attempt retried on another.
 */
const STALE_SESSION = new Set(['42P05', '26000']);
/** SQLSTATE of a unique violation: how a speculative insert finds out the id was taken. @internal */
export const UNIQUE_VIOLATION = '23505';

/** {@link PostgresRetryOptions} with their defaults, bounded. @internal */
export interface RetrySettings {
  readonly attempts: number;
  readonly aloneFrom: number;
  readonly aloneWaitMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** The settings of `options`, defaults filled in. @internal */
export function retrySettings(options: PostgresRetryOptions = {}): RetrySettings {
  const baseDelayMs = Math.max(0, options.baseDelayMs ?? 2);
  return {
    attempts: Math.max(1, Math.floor(options.attempts ?? 20)),
    aloneFrom: Math.max(1, options.aloneFromAttempt ?? 4),
    aloneWaitMs: Math.max(1, Math.floor(options.aloneWaitMs ?? 5000)),
    baseDelayMs,
    maxDelayMs: Math.max(baseDelayMs, options.maxDelayMs ?? 200),
  };
}

/** Where a transaction stands between attempts. @internal */
export interface RetryState {
  /** The attempt about to run (1 for the first); runs again for free do not count. */
  readonly attempt: number;
  /** `insert` may answer before the server has seen it (see the transaction's `insert`). */
  readonly speculate: boolean;
  /** A covering attempt may run at READ COMMITTED (see {@link Reread}). */
  readonly readCommitted: boolean;
  /** Runs again for a {@link Relock} so far. */
  readonly relocks: number;
}

/** @internal */
export const FIRST_ATTEMPT: RetryState = { attempt: 1, speculate: true, readCommitted: true, relocks: 0 };

/** How a failed attempt ended, as far as the decision goes. @internal */
export interface AttemptFailure {
  /** The first failed statement of the attempt, or what `work` rejected with. */
  readonly cause: unknown;
  /** An `insert` of the attempt was answered `true` before the server checked the id. */
  readonly speculated: boolean;
}

/**
 * What to do after a failed attempt:
 * - `again`: run `work` again in `state`, at once (`backoffMs` 0) or after a pause drawn below
 *   `backoffMs` (full jitter); `sqlState` set when the retry is one `onRetry` reports;
 * - `give up`: pass the failure on.
 * @internal
 */
export type RetryDecision =
  | { readonly kind: 'again'; readonly state: RetryState; readonly backoffMs: number; readonly sqlState?: string }
  | { readonly kind: 'give up' };

/** The decision after `failure` ended the attempt of `state`. @internal */
export function afterFailure(settings: RetrySettings, state: RetryState, failure: AttemptFailure): RetryDecision {
  const { cause } = failure;
  if (cause instanceof Relock && state.relocks < settings.attempts) return { kind: 'again', state: { ...state, relocks: state.relocks + 1 }, backoffMs: 0 };
  if (cause instanceof Reread && state.readCommitted) return { kind: 'again', state: { ...state, readCommitted: false }, backoffMs: 0 };
  const code = sqlState(cause) ?? '';
  // An insert answered `true` for an id that was taken: run again, asking the server first, so
  // that this time it answers `false`. Not a contention retry: no backoff.
  if (failure.speculated && code === UNIQUE_VIOLATION && state.speculate) return { kind: 'again', state: { ...state, speculate: false }, backoffMs: 0 };
  if (!(RETRYABLE.has(code) || STALE_SESSION.has(code)) || state.attempt >= settings.attempts) return { kind: 'give up' };
  // Full jitter (the caller draws below the ceiling): contenders that collided once spread out.
  const backoffMs = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (state.attempt - 1));
  return { kind: 'again', state: { ...state, attempt: state.attempt + 1 }, backoffMs, sqlState: code };
}

/**
 * How long the attempt of `state` waits to run alone, or `undefined` when it runs as usual: from
 * {@link PostgresRetryOptions.aloneFromAttempt} on, so a transaction that keeps losing cannot
 * lose again.
 * @internal
 */
export const aloneWait = (settings: RetrySettings, state: RetryState): number | undefined =>
  state.attempt >= settings.aloneFrom ? settings.aloneWaitMs : undefined;
