import type { PoolClient } from 'pg';
import { Batch, type Call, type Param, type Row } from './batch.js';
import { corkForThisTurn, type Session } from './session.js';
import { callOf, type Statement, type Statements, type Step } from './statements.js';
import { toError } from './values.js';

/**
 * How one attempt's statements reach the server: one message at a time, in call order, each
 * gathering every call made before it goes out, so that one round trip carries BEGIN with the
 * first statement, buffered puts with the next read, the last puts with COMMIT.
 * @module
 * @internal
 */

/** What one attempt of a transaction has seen; a failed statement poisons the whole attempt. @internal */
export interface AttemptState {
  open: boolean;
  failure: Error | undefined;
  /** An `insert` was answered `true` before the server checked the id was free. */
  speculated: boolean;
}

/** A statement to send: a call, or a function building steps when the message is built. @internal */
export type Outgoing = Call | (() => readonly Step[]);

/** One call's share of a message: its statements and who waits for its last one's rows. */
interface Part {
  readonly calls: readonly Outgoing[];
  readonly resolve: (rows: readonly Row[]) => void;
  readonly reject: (error: unknown) => void;
}

const step = (s: Step): Call => (typeof s === 'string' ? { text: s } : callOf(s.statement, s.params));

/** @internal */
export class MessagePipeline {
  // One message at a time, in call order, even when `work` starts several calls at once.
  private tail: Promise<unknown> = Promise.resolve();
  // The calls of the message not yet sent: calls made before it goes join it (see `send`).
  private gathering: Part[] | undefined;
  /** A statement has been handed to {@link send}. */
  sent = false;
  // The plan_cache_mode the statements built so far leave the transaction in (built in send order).
  private generic = false;

  /**
   * @param opening BEGIN and what goes with it, built when the first message is (locks asked
   * for until then go with it); `undefined` when the attempt has begun already.
   */
  constructor(
    private readonly client: PoolClient,
    private readonly session: Session,
    private readonly sql: Statements,
    private readonly attempt: AttemptState,
    private opening: (() => Step[]) | undefined,
    /** More than one transaction of the storage is under way (see `corkForThisTurn`). */
    private readonly busy: () => boolean,
  ) {}

  /** The transaction will start in the generic statements' settings (a covering BEGIN sets them). */
  assumeGeneric(): void {
    this.generic = true;
  }

  /** A prepared statement's run, preceded by the settings it needs (see `Statement.generic`). */
  calls(s: Statement, params: readonly Param[]): Call[] {
    const out: Call[] = [];
    if (s.generic !== this.generic) {
      this.generic = s.generic;
      out.push(callOf(this.generic ? this.sql.genericMode : this.sql.customMode, []));
    }
    out.push(callOf(s, params));
    return out;
  }

  /**
   * Sends the statements after the messages queued before, and answers the last one's rows.
   * Calls made before that message goes out (`work` starting several reads at once, e.g. with
   * `Promise.all`) join it: one round trip for all of them, each answered from its own last
   * statement. A function is called when the message is built, after BEGIN: COMMIT's unlocks
   * depend on the locks BEGIN took.
   */
  send(statements: readonly Outgoing[]): Promise<readonly Row[]> {
    this.sent = true;
    return new Promise<readonly Row[]>((resolve, reject) => {
      const part: Part = { calls: statements, resolve, reject };
      if (this.gathering !== undefined) {
        this.gathering.push(part);
        return;
      }
      const parts = [part];
      this.gathering = parts;
      this.tail = this.tail.then(() => this.flush(parts));
    });
  }

  /** Whether BEGIN reached the server, once nothing is in flight any more. */
  begun(): Promise<boolean> {
    return this.tail.then(() => this.opening === undefined);
  }

  /** Settles once every message queued so far has been answered. */
  async settled(): Promise<void> {
    await this.tail;
  }

  /** Whether nothing was ever sent nor BEGIN built: the transaction never reached the server. */
  get untouched(): boolean {
    return !this.sent && this.opening !== undefined;
  }

  /** Sends one message of `parts` and answers each part from its last statement's rows. */
  private async flush(parts: Part[]): Promise<void> {
    if (this.gathering === parts) this.gathering = undefined;
    try {
      // Queued before the attempt ended but not sent: after ROLLBACK it would run on its own,
      // outside any transaction, and commit.
      if (!this.attempt.open) throw new Error('storage transaction used after it ended');
      // After a failure PostgreSQL refuses everything but ROLLBACK; say why, without a round trip.
      if (this.attempt.failure !== undefined) throw this.attempt.failure;
      const { batch, ends } = this.build(parts);
      const results = await this.exchange(batch);
      parts.forEach((p, k) => p.resolve(results[ends[k]!]!));
    } catch (error) {
      for (const p of parts) p.reject(error);
    }
  }

  /**
   * The message's statements: BEGIN first if not sent yet, then each part's, and where each
   * part's last one is. Which statements to prepare is decided here, as the message goes, not
   * when a call was made: a message never sent (the attempt failed first) prepares nothing, and
   * two calls of one new statement parse it once.
   */
  private build(parts: readonly Part[]): { batch: Call[]; ends: number[] } {
    const all: Call[] = [];
    if (this.opening !== undefined) for (const s of this.opening()) all.push(step(s));
    this.opening = undefined;
    const ends: number[] = [];
    for (const p of parts) {
      for (const c of p.calls) {
        if (typeof c === 'function') for (const s of c()) all.push(step(s));
        else all.push(c);
      }
      ends.push(all.length - 1);
    }
    const prepared = this.session.prepared;
    const batch = all.map((c): Call => {
      if (c.name === undefined || prepared.has(c.name)) return c;
      prepared.add(c.name);
      return { ...c, parse: true };
    });
    return { batch, ends };
  }

  /** One round trip; a failure poisons the attempt (and, if it prepared anything, the session). */
  private async exchange(batch: readonly Call[]): Promise<readonly (readonly Row[])[]> {
    try {
      if (this.busy()) corkForThisTurn(this.client);
      return await new Promise((done, fail) => {
        this.client.query(new Batch(batch, (error, rows) => (error === undefined ? done(rows) : fail(toError(error)))));
      });
    } catch (error) {
      if (batch.some((c) => c.parse === true)) this.session.unsure = true;
      this.attempt.failure ??= toError(error);
      throw error;
    }
  }
}
