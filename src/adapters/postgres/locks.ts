import type { StorageLock } from '../../ports/storage.js';
import type { Statements, Step } from './statements.js';

/**
 * The named locks of one attempt (see the port's `lock`): which it holds, whether a call may be
 * granted or must run the attempt again, at which isolation level it begins, and the statements
 * that take and release them. Pure bookkeeping: the transaction sends what it says, and the
 * decisions are tested without a server.
 * @module
 * @internal
 */

/** What {@link LockPlan.ask} says of one `lock` call. @internal */
export type LockAnswer = 'granted' | 'relock';

/** Where the attempt stands when `lock` is called. @internal */
export interface LockMoment {
  /** A statement has gone (or is going) out: the snapshot may be taken already. */
  readonly sent: boolean;
  /** Writes are buffered, not yet sent: the call is not the transaction's first. */
  readonly buffered: boolean;
}

/** @internal */
export class LockPlan {
  /** The locks this attempt holds (or will take with its first message): advisory key to exclusive. */
  readonly held: Map<string, boolean>;
  /**
   * The first call was a covering `lock`: READ COMMITTED with the locks taken inside the
   * transaction ({@link readCommitted}), or REPEATABLE READ after them.
   */
  covering = false;
  /** This attempt runs at READ COMMITTED: covering, allowed, with locks to take, not alone. */
  readCommitted = false;
  /** `lock` has been called in this attempt. */
  private locked = false;
  /** What ends the attempt's session-level locks, once they were sent (see {@link opening}). */
  unlocks: string | undefined;

  /**
   * @param kept The named locks of the transaction (advisory key to exclusive), kept across
   * attempts: each attempt takes them all before its snapshot, and `lock` adds to them.
   * @param alone Running alone: nothing else runs, so named locks are not taken.
   * @param mayReadCommitted A covering attempt may run at READ COMMITTED: true until one of the
   * transaction's attempts wanted to rewrite or delete a stored row (see `Reread`).
   * @param unlockAlone What releases the exclusive lock of an attempt running alone.
   */
  constructor(
    private readonly kept: Map<string, boolean>,
    readonly alone: boolean,
    private readonly mayReadCommitted: boolean,
    unlockAlone: string,
  ) {
    this.held = alone ? new Map<string, boolean>() : new Map(kept);
    this.unlocks = alone ? unlockAlone : undefined;
  }

  /**
   * A `lock` call: records the locks (an exclusive ask of a name once held shared upgrades it)
   * and answers whether the attempt may go on. Before anything was sent they go with BEGIN, so
   * they precede the snapshot; after, a lock the attempt does not hold yet means its snapshot may
   * be older than the lock, so it must run again with the lock first.
   */
  ask(locks: readonly StorageLock[], keyOf: (name: string) => string, covering: boolean, now: LockMoment): LockAnswer {
    const first = !this.locked && !now.sent && !now.buffered;
    this.locked = true;
    let missing = false;
    for (const l of locks) {
      const key = keyOf(l.name);
      const exclusive = l.exclusive || this.kept.get(key) === true;
      if (this.kept.get(key) !== exclusive) this.kept.set(key, exclusive);
      if (this.alone || this.held.get(key) === true || (this.held.has(key) && !exclusive)) continue;
      this.held.set(key, exclusive);
      missing = true;
    }
    if (!now.sent) {
      if (first && covering) {
        this.covering = true;
        this.readCommitted = this.mayReadCommitted && !this.alone && this.held.size > 0;
      }
      return 'granted';
    }
    return missing ? 'relock' : 'granted';
  }

  /**
   * BEGIN, built when the first statement goes out (named locks asked for until then go with it).
   * Without named locks: SERIALIZABLE, holding the schema's lock shared for the transaction. With
   * them, the schema's lock and then the named ones, in key order (so lockers cannot deadlock
   * each other):
   * - covering: READ COMMITTED, the locks taken for the transaction by its first statement;
   *   every later statement takes a snapshot of its own, younger than every lock;
   * - otherwise (or covering once READ COMMITTED was given up): taken at session level in a
   *   transaction of their own that ends before BEGIN, so the snapshot (taken by the first
   *   statement after BEGIN) is younger than every lock; they are released with COMMIT or
   *   ROLLBACK, in the same message ({@link unlocks}).
   */
  opening(sql: Statements): Step[] {
    if (this.held.size === 0) return [{ statement: sql.beginSerializable, params: [] }, { statement: sql.lockShared, params: [] }];
    const keys = [...this.held.keys()].sort();
    if (this.readCommitted) {
      // A create's statements are all generic: their settings come with the locks (see `lockCovering`).
      const pairs = keys.map((k) => k.split(', '));
      const array = (items: readonly string[]): string => `{${items.join(',')}}`;
      const params = [array(pairs.map((p) => p[0]!)), array(pairs.map((p) => p[1]!)), array(keys.map((k) => (this.held.get(k)! ? 't' : 'f')))];
      return [{ statement: sql.beginReadCommitted, params: [] }, { statement: sql.lockCovering, params }];
    }
    // The calls on every named lock, in key order: `pg_advisory_<verb>` or its `_shared` form.
    const calls = (verb: 'lock' | 'unlock'): string => keys.map((k) => `pg_advisory_${verb}${this.held.get(k)! ? '' : '_shared'}(${k})`).join(', ');
    this.unlocks = `SELECT ${sql.sessionUnlockShared}, ${calls('unlock')}`;
    const level = this.covering ? 'REPEATABLE READ' : 'SERIALIZABLE';
    return ['BEGIN', `SELECT ${sql.sessionLockShared}, ${calls('lock')}`, 'COMMIT', `BEGIN ISOLATION LEVEL ${level}`];
  }
}
