import type { PoolClient } from 'pg';
import type { IndexKeys, RangeQuery, RangeRequest, StorageLock, StorageTransaction, StoredEntry, StoredRow } from '../../ports/storage.js';
import { arrayParam, OID, type Param, type Row } from './batch.js';
import { EMPTY, countDepth, type KeptCounts } from './kept-counts.js';
import { decodeKey, encodeKey, prefixEnd } from './key-codec.js';
import type { LockPlan } from './locks.js';
import { MessagePipeline, type AttemptState, type Outgoing } from './message-pipeline.js';
import { PUT_BATCH, PutBuffer } from './put-buffer.js';
import { Relock, Reread } from './retry-policy.js';
import type { Session } from './session.js';
import type { Statement, Statements, Step } from './statements.js';
import { byKeyThenId, bytes, checkText, entry, indexEntries, int, rangeEnd, serialise, thaw, toError } from './values.js';

/**
 * The port's operations on one attempt's connection.
 * @module
 * @internal
 */

const ended = (): Promise<never> => Promise.reject(new Error('storage transaction used after it ended'));

/** A range request {@link PostgresTransaction.rangeMany} sends with the others in one statement. */
interface PlainRange {
  readonly at: number;
  readonly lo: Buffer;
  readonly hi: Buffer;
  readonly limit: number | null;
}

/**
 * The port's operations on one attempt's connection.
 *
 * Every statement is prepared once per connection and run with bound parameters, and whatever is
 * due goes in one message (see {@link MessagePipeline}), so in one round trip: BEGIN with the
 * transaction's first statement, buffered puts with the next read, the last puts with COMMIT.
 *
 * Puts are buffered (see {@link PutBuffer}). A buffered put that fails makes the next call (or
 * the commit) reject, so the transaction still rejects and keeps nothing.
 *
 * With `speculate`, `insert` is buffered too and answered `true` before the server has seen it
 * (see `once` and the retry policy for what happens when the id was taken).
 * @internal
 */
export class PostgresTransaction implements StorageTransaction {
  private readonly pipeline: MessagePipeline;
  private readonly puts: PutBuffer;
  // The rows this attempt inserted (collection U+0000 id): at READ COMMITTED it may rewrite them.
  private readonly inserted = new Set<string>();

  constructor(
    private readonly client: PoolClient,
    private readonly session: Session,
    private readonly sql: Statements,
    private readonly counted: KeptCounts,
    private readonly attempt: AttemptState,
    private readonly locks: LockPlan,
    begin: (() => Step[]) | undefined,
    private readonly speculate: boolean,
    busy: () => boolean,
  ) {
    this.pipeline = new MessagePipeline(client, session, sql, attempt, begin, busy);
    this.puts = new PutBuffer(sql, counted, session.slot);
  }

  async get(collection: string, id: string): Promise<unknown> {
    const rows = await this.query(this.sql.get, () => [checkText(collection), encodeKey(id)]);
    const row = rows[0];
    return row === undefined ? undefined : thaw(row[0]!);
  }

  put(collection: string, id: string, value: unknown, keys: IndexKeys): Promise<void> {
    if (!this.attempt.open) return ended();
    const at = `${collection}\u0000${id}`;
    // A row this attempt inserted itself is safe to rewrite: no other can have changed it.
    if (this.locks.readCommitted && !this.inserted.has(at)) return this.reread();
    try {
      checkText(collection);
      const { names, encoded } = indexEntries(keys);
      const text = serialise(collection, id, value);
      // The map key only has to tell (collection, id) pairs apart; U+0000 cannot be in a collection name.
      this.puts.set(at, { collection, id: encodeKey(id), value: text, names, keys: encoded, isNew: this.puts.isNew(at) });
      this.flushIfFull();
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(toError(error));
    }
  }

  async insert(collection: string, id: string, value: unknown, keys: IndexKeys): Promise<boolean> {
    checkText(collection);
    const { names, encoded } = indexEntries(keys);
    const text = serialise(collection, id, value);
    const at = `${collection}\u0000${id}`;
    if (this.speculate && this.attempt.open) {
      if (this.puts.has(at)) return false; // put in this transaction, not yet sent: taken
      // Answered now and buffered like a put; the plain INSERT fails if the id was taken, and the
      // transaction then runs again without speculating. Ids are fresh random UUIDs, so that
      // almost never happens, and a create saves the round trip the answer would cost.
      this.attempt.speculated = true;
      this.puts.set(at, { collection, id: encodeKey(id), value: text, names, keys: encoded, isNew: true });
      this.inserted.add(at);
      this.flushIfFull();
      return true;
    }
    const rows = await this.query(this.sql.insert, () => [
      collection,
      encodeKey(id),
      text,
      arrayParam(OID.text, names),
      arrayParam(OID.bytea, encoded),
      int(this.session.slot),
    ]);
    if (rows[0]?.[0] !== '1') return false;
    this.inserted.add(at);
    return true;
  }

  async delete(collection: string, id: string): Promise<boolean> {
    if (this.locks.readCommitted) return this.reread();
    const rows = await this.query(this.sql.delete, () => [checkText(collection), encodeKey(id), int(this.session.slot)]);
    return rows[0]?.[0] !== '0';
  }

  async range(collection: string, index: string, q: RangeQuery = {}): Promise<readonly StoredEntry[]> {
    const limit = q.limit ?? Number.POSITIVE_INFINITY;
    if (!(limit > 0)) return [];
    const desc = q.direction === 'desc';
    const start = encodeKey(q.prefix ?? '');
    const end = rangeEnd(start, q);
    const hasLimit = Number.isFinite(limit);
    const rows = await this.query(this.sql.range(end !== undefined, q.after !== undefined, desc, hasLimit), () => {
      const values: Param[] = [checkText(collection), checkText(index), start];
      if (end !== undefined) values.push(end);
      if (q.after !== undefined) values.push(encodeKey(q.after.key), encodeKey(q.after.id));
      values.push(int(Math.max(0, Math.floor(q.offset ?? 0))));
      if (hasLimit) values.push(int(Math.floor(limit)));
      return values;
    });
    return rows.map((r) => entry(r));
  }

  /** One statement for the plain ones (ascending, a non-empty prefix, no marker or offset), one each for the rest. */
  async rangeMany(requests: readonly RangeRequest[]): Promise<readonly (readonly StoredEntry[])[]> {
    const out: (readonly StoredEntry[])[] = requests.map(() => []);
    const plain: PlainRange[] = [];
    const other: Promise<void>[] = [];
    requests.forEach((r, at) => {
      const q = r.query ?? {};
      const lo = encodeKey(q.prefix ?? '');
      const hi = rangeEnd(lo, q);
      const limit = q.limit ?? Number.POSITIVE_INFINITY;
      if (!(limit > 0)) return;
      if (hi === undefined || q.after !== undefined || (q.offset ?? 0) > 0 || q.direction === 'desc') {
        other.push(this.range(r.collection, r.index, q).then((entries) => void (out[at] = entries)));
      } else {
        plain.push({ at, lo, hi, limit: Number.isFinite(limit) ? Math.floor(limit) : null });
      }
    });
    if (plain.length > 0) {
      const found = await this.plainRanges(requests, plain);
      plain.forEach((p, k) => (out[p.at] = found[k]!));
    }
    await Promise.all(other);
    return out;
  }

  /** The plain ranges of {@link rangeMany}, in one statement, each in index order. */
  private async plainRanges(requests: readonly RangeRequest[], plain: readonly PlainRange[]): Promise<StoredEntry[][]> {
    const rows = await this.query(this.sql.ranges, () => [
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
    return found;
  }

  async count(collection: string, index: string, prefix = ''): Promise<number> {
    const start = encodeKey(prefix);
    const end = prefixEnd(start);
    const depth = countDepth(prefix);
    const names = (): [string, string] => [checkText(collection), checkText(index)];
    const rows =
      depth >= 0 && this.counted.kept(collection, index, depth)
        ? await this.query(this.sql.countKept, () => [...names(), depth === 0 ? EMPTY : start])
        : end === undefined
          ? await this.query(this.sql.countAll, names)
          : await this.query(this.sql.count, () => [...names(), start, end]);
    return Number(rows[0]?.[0] ?? 0);
  }

  lock(locks: readonly StorageLock[], covering = false): Promise<void> {
    if (!this.attempt.open) return ended();
    const sent = this.pipeline.sent;
    const answer = this.locks.ask(locks, this.sql.lockKey, covering, { sent, buffered: this.puts.size > 0 });
    // BEGIN will set the generic statements' settings, with the locks (see `LockPlan.opening`).
    if (!sent && this.locks.readCommitted) this.pipeline.assumeGeneric();
    if (answer === 'granted') return Promise.resolve();
    // The snapshot may be older than the locks: give the attempt up and run again, locks first.
    this.attempt.failure ??= new Relock();
    return Promise.reject(this.attempt.failure);
  }

  async scan(collection: string, after: string | undefined, limit: number): Promise<readonly StoredRow[]> {
    if (!(limit > 0)) return [];
    const n = Number.isFinite(limit) ? Math.floor(limit) : null;
    const rows =
      after === undefined
        ? await this.query(this.sql.scanFirst, () => [checkText(collection), n === null ? null : int(n)])
        : await this.query(this.sql.scanAfter, () => [checkText(collection), n === null ? null : int(n), encodeKey(after)]);
    return rows.map((r) => ({ id: decodeKey(bytes(r[0]!)), value: thaw(r[1]!) }));
  }

  /**
   * Sends what is still buffered with `end` (COMMIT), or, when the transaction never reached the
   * server, nothing but `instead` (if any).
   */
  async commit(end: () => Step[], instead: string | undefined): Promise<void> {
    const puts = this.takePuts();
    if (puts.length === 0 && this.pipeline.untouched) {
      this.attempt.open = false;
      if (instead !== undefined) await this.client.query(instead);
      return;
    }
    try {
      await this.pipeline.send([...puts, end]);
    } finally {
      this.attempt.open = false;
    }
  }

  /** Whether BEGIN reached the server, once nothing is in flight any more. */
  begun(): Promise<boolean> {
    return this.pipeline.begun();
  }

  /**
   * After `work` rejected: sends the speculative inserts still buffered, so that a taken id shows
   * as a failed statement (`attempt.failure`) and the transaction is run again without guessing,
   * instead of passing on a rejection that a wrong `true` may have caused.
   */
  async check(): Promise<void> {
    if (this.puts.hasNew()) {
      const puts = this.takePuts();
      if (puts.length > 0) await this.pipeline.send(puts).catch(() => undefined);
    }
    await this.pipeline.settled();
  }

  /** Gives up a covering attempt at READ COMMITTED that would rewrite a row (see {@link Reread}). */
  private reread(): Promise<never> {
    this.attempt.failure ??= new Reread();
    return Promise.reject(this.attempt.failure);
  }

  /** The buffered puts as calls, emptying the buffer. */
  private takePuts(): Outgoing[] {
    const out: Outgoing[] = [];
    for (const run of this.puts.take()) out.push(...this.pipeline.calls(run.statement, run.params));
    return out;
  }

  /**
   * Runs `s` after the buffered puts (a read must see them). The parameters are built here, so
   * that one no statement can carry fails the attempt, like a statement the server refused.
   */
  private query(s: Statement, params: () => readonly Param[]): Promise<readonly Row[]> {
    if (!this.attempt.open) return ended();
    try {
      return this.pipeline.send([...this.takePuts(), ...this.pipeline.calls(s, params())]);
    } catch (error) {
      // Puts may have left the buffer unsent: the transaction must not commit.
      this.attempt.failure ??= toError(error);
      return Promise.reject(this.attempt.failure);
    }
  }

  /** Sends the buffered puts at once, when there are many: a failure is reported through `attempt.failure`. */
  private flushIfFull(): void {
    if (this.puts.size >= PUT_BATCH) this.pipeline.send(this.takePuts()).catch(() => undefined);
  }
}
