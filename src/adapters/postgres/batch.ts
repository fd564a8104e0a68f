/**
 * Statements sent to PostgreSQL in one round trip over the extended query protocol, through the
 * `pg` driver's `Submittable` hook (the one pg-cursor uses).
 * @internal
 */
import type { Submittable } from 'pg';

/**
 * A parameter as it goes on the wire: text (a string, read by the type's input function), binary
 * (a Buffer: a `bytea`'s bytes, or an array built by {@link arrayParam}) or NULL.
 * @internal
 */
export type Param = string | Buffer | null;

/** A row as the server sent it: each column's text, or null. @internal */
export type Row = readonly (string | null)[];

/**
 * One statement of a {@link Batch}: a prepared statement with its parameters, or, without a name,
 * SQL parsed as the unnamed statement for this one run.
 * @internal
 */
export interface Call {
  /** The prepared statement's name. */
  readonly name?: string;
  readonly text: string;
  readonly params?: readonly Param[];
  /** Prepare `text` as `name` first: the connection does not have it yet. */
  readonly parse?: boolean;
}

/** The part of pg's `Connection` a batch writes with (pg 8: `client.connection`). */
interface WireConnection {
  readonly stream: { cork?(): void; uncork?(): void };
  parse(query: { name: string | undefined; text: string }): void;
  bind(config: { statement: string | undefined; values: readonly Param[] }): void;
  execute(config: object): void;
  sync(): void;
}

/**
 * Every call's Parse (when it has one), Bind and Execute, then one Sync: the server runs them in
 * order, answers them in one go, and on the first error skips the rest. Parameters are bound, so
 * the server parses no SQL for them; rows come back as text, one array per row, without the
 * column descriptions a driver's row objects would need (the caller knows its columns), and
 * untouched by pg's type parsers, which a host may have changed globally (for int8 or json, say).
 *
 * `done` gets each call's rows, or the first error (of the server, or of the connection).
 * @internal
 */
export class Batch implements Submittable {
  private readonly results: Row[][] = [];
  private rows: Row[] = [];
  private finished = false;

  constructor(
    private readonly calls: readonly Call[],
    private readonly done: (error: unknown, results: readonly (readonly Row[])[]) => void,
  ) {}

  submit(connection: unknown): void {
    const c = connection as WireConnection;
    // One write for the whole batch, as pg does for its own extended-protocol queries.
    c.stream.cork?.();
    try {
      for (const call of this.calls) {
        if (call.name === undefined || call.parse === true) c.parse({ name: call.name, text: call.text });
        c.bind({ statement: call.name, values: call.params ?? [] });
        c.execute({});
      }
      c.sync();
    } finally {
      c.stream.uncork?.();
    }
  }

  handleRowDescription(): void {}

  handleDataRow(message: { fields: Row }): void {
    this.rows.push(message.fields);
  }

  handleCommandComplete(): void {
    this.results.push(this.rows);
    this.rows = [];
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete();
  }

  // pg stops sending this batch's messages here after an error (it clears its active query), so
  // the error ends the batch rather than the ReadyForQuery that follows it.
  handleError(error: unknown): void {
    this.finish(error);
  }

  handleReadyForQuery(): void {
    this.finish(undefined);
  }

  private finish(error: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.done(error, this.results);
  }
}

/** Element type oids of the arrays the adapter binds. @internal */
export const OID = { text: 25, bytea: 17, json: 114, int8: 20 } as const;

/**
 * A one-dimensional array in PostgreSQL's binary format (what `array_recv` reads): strings as
 * UTF-8 (text, json), Buffers as they are (bytea), numbers as int8, null as NULL. The element
 * type must be the one the statement casts the parameter to, or the server refuses it.
 * @internal
 */
export function arrayParam(oid: number, items: readonly (string | Buffer | number | null)[]): Buffer {
  let size = 20;
  let nulls = 0;
  const lengths = new Array<number>(items.length);
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    const n = v === null || v === undefined ? -1 : typeof v === 'string' ? Buffer.byteLength(v) : typeof v === 'number' ? 8 : v.length;
    lengths[i] = n;
    if (n < 0) nulls = 1;
    size += 4 + Math.max(0, n);
  }
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(1, 0); // dimensions
  out.writeInt32BE(nulls, 4);
  out.writeInt32BE(oid, 8);
  out.writeInt32BE(items.length, 12);
  out.writeInt32BE(1, 16); // lower bound
  let at = 20;
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    const n = lengths[i]!;
    out.writeInt32BE(n, at);
    at += 4;
    if (n < 0) continue;
    if (typeof v === 'string') at += out.write(v, at, 'utf8');
    else if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw new RangeError(`zoneward/postgres: not an integer: ${v}`);
      out.writeInt32BE(Math.floor(v / 0x1_0000_0000), at);
      out.writeUInt32BE(v >>> 0, at + 4);
      at += 8;
    } else at += (v as Buffer).copy(out, at);
  }
  return out;
}
