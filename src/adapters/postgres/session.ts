import type { Writable } from 'node:stream';
import type { PoolClient } from 'pg';

/**
 * What the adapter knows about each pooled connection it has used, and how it writes to one.
 * @module
 * @internal
 */

/**
 * What the adapter knows about one pooled connection: the statements it has prepared (SQL
 * protocol-level Parse, which outlives transactions, rollbacks included) and its counter slot.
 * @internal
 */
export interface Session {
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

/** The session of `client`, new when the adapter has not used it yet. @internal */
export const sessionOf = (client: PoolClient): Session => {
  let s = sessions.get(client);
  if (s === undefined) {
    s = { prepared: new Set(), slot: nextSlot++ % SLOTS, unsure: false };
    sessions.set(client, s);
  }
  return s;
};

/** Forgets a connection that is being dropped (the pool may hand out a new one as the same object). @internal */
export const forgetSession = (client: PoolClient): void => {
  sessions.delete(client);
};

/**
 * Why the adapter cannot send its messages (see `Batch`) over this client, if it cannot:
 * they go through the JavaScript client's wire connection, which pg-native does not have, and pg
 * refuses them on a connection in pipeline mode.
 * @internal
 */
export function unsupported(client: PoolClient): string | undefined {
  const c = client as { pipeline?: unknown; connection?: { bind?: unknown } };
  if (typeof c.connection?.bind !== 'function') return "the pool's clients are not pg's JavaScript client (pg-native?), which zoneward needs";
  if (c.pipeline === true) return "the pool's connections are in pipeline mode (`pipeline: true`), which zoneward does not support";
  return undefined;
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
 * @internal
 */
export function corkForThisTurn(client: PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: Partial<Pick<Writable, 'cork' | 'uncork'>> } }).connection?.stream;
  if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return;
  stream.cork();
  setImmediate(() => stream.uncork?.());
}
