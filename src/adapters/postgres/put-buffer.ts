import { arrayParam, OID, type Param } from './batch.js';
import type { CountedValue, KeptCounts } from './kept-counts.js';
import type { Statement, Statements } from './statements.js';
import { int } from './values.js';

/**
 * The puts of a transaction not sent yet. A put answers nothing the caller could act on, so it
 * waits for the next message (a read's, or COMMIT's), and a snapshot restore (one transaction of
 * puts) costs a statement per {@link PUT_BATCH} values instead of one per value.
 * @module
 * @internal
 */

/** A put waiting to be sent: its row and its entries. @internal */
export interface PendingPut extends CountedValue {
  readonly id: Buffer;
  readonly value: string;
  /** Written by a speculative `insert`: the id must have been free when the transaction began. */
  readonly isNew: boolean;
}

/** Puts in one statement at most; bounds its memory on a big restore. @internal */
export const PUT_BATCH = 8192;

/** A statement to run and its parameters. @internal */
export interface StatementRun {
  readonly statement: Statement;
  readonly params: readonly Param[];
}

/**
 * The buffered puts of one attempt, by `collection U+0000 id`: a later put of the same id
 * replaces the buffered one, which is what a put means anyway.
 * @internal
 */
export class PutBuffer {
  private pending = new Map<string, PendingPut>();

  constructor(
    private readonly sql: Statements,
    private readonly counted: KeptCounts,
    /** The connection's counter slot (see the session). */
    private readonly slot: number,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  has(at: string): boolean {
    return this.pending.has(at);
  }

  /** Whether the put buffered under `at` is a speculative insert's (a put over it stays new). */
  isNew(at: string): boolean {
    return this.pending.get(at)?.isNew ?? false;
  }

  /** Buffers a put or a speculative insert. */
  set(at: string, put: PendingPut): void {
    this.pending.set(at, put);
  }

  /** Whether a speculative insert waits to be sent. */
  hasNew(): boolean {
    for (const p of this.pending.values()) if (p.isNew) return true;
    return false;
  }

  /** The statements that send the buffered puts, emptying the buffer: new values first. */
  take(): StatementRun[] {
    if (this.pending.size === 0) return [];
    const all = [...this.pending.values()];
    this.pending = new Map();
    const out: StatementRun[] = [];
    for (const isNew of [true, false]) {
      const batch = all.filter((p) => p.isNew === isNew);
      for (let from = 0; from < batch.length; from += PUT_BATCH) {
        out.push({ statement: isNew ? this.sql.create : this.sql.put, params: this.params(batch.slice(from, from + PUT_BATCH), isNew) });
      }
    }
    return out;
  }

  /**
   * The parameters of `sql.put` for a batch of puts: rows, then their entries, then the slot; of
   * `sql.create`, then also the counts they move. Arrays go in binary form, which the server
   * reads without parsing text.
   */
  private params(batch: readonly PendingPut[], isNew: boolean): Param[] {
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
      int(this.slot),
    ];
    if (!isNew) return params;
    const [collections, indexes, parts, n] = this.counted.moves(batch);
    return [...params, arrayParam(OID.text, collections), arrayParam(OID.text, indexes), arrayParam(OID.bytea, parts), arrayParam(OID.int8, n)];
  }
}
