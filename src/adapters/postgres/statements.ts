import { createHash } from 'node:crypto';
import type { Call, Param } from './batch.js';
import { PART, type Tables } from './schema.js';

/**
 * The SQL of the adapter: every statement it prepares, built once per storage.
 * @module
 * @internal
 */

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

/** A statement the adapter prepares once per connection and runs with bound parameters. @internal */
export interface Statement {
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

/** Every statement of one storage. @internal */
export interface Statements {
  readonly lock: string;
  /** The schema's lock, shared, for the transaction. */
  readonly lockShared: Statement;
  readonly unlock: string;
  /** The schema's lock, shared, at session level (the call only, for a SELECT list). */
  readonly sessionLockShared: string;
  readonly sessionUnlockShared: string;
  /** The advisory lock key of a named lock, as an SQL literal. */
  readonly lockKey: (name: string) => string;
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

/** A statement built when its message is: SQL without parameters, or a prepared statement's run. @internal */
export type Step = string | { readonly statement: Statement; readonly params: readonly Param[] };

/** A run of a prepared statement (prepared on the connection, if need be, when its message goes). @internal */
export const callOf = (s: Statement, params: readonly Param[]): Call => ({ name: s.name, text: s.text, params });

/** The counter updates for index entries added (`n` = 1) or dropped (-1), by the session's slot. */
const bumpCounts = (t: Tables, changes: string, slot: string): string => `INSERT INTO ${t.counts} AS k (collection, index_name, part, slot, n)
        SELECT d.collection, d.index_name, ${PART}, ${slot}, sum(d.n)
        FROM ${changes} d JOIN ${t.counted} c ON d.collection LIKE c.collection_like AND d.index_name = c.index_name
        WHERE c.depth = 0 OR position(decode('00', 'hex') IN d.key) > 0
        GROUP BY 1, 2, 3
        ON CONFLICT (collection, index_name, part, slot) DO UPDATE SET n = k.n + EXCLUDED.n`;

/** Makes a {@link Statement} of SQL text, named by a hash of the schema and the text; one object per text. */
type Make = (text: string, generic?: boolean) => Statement;

/** The statements of one storage's tables. @internal */
export function statements(t: Tables): Statements {
  const cache = new Map<string, Statement>();
  const statement: Make = (text, generic = false) => {
    let s = cache.get(text);
    if (s === undefined) {
      s = { name: `zoneward_${createHash('sha1').update(t.tag).update('\u0000').update(text).digest('hex').slice(0, 24)}`, text, generic };
      cache.set(text, s);
    }
    return s;
  };
  // Literal, not a parameter: these statements are built as text (see `LockPlan.opening`).
  const key = createHash('sha1').update('zoneward.transaction\u0000').update(t.tag).digest().readInt32BE(0);
  return { ...lockStatements(t, key, statement), ...writeStatements(t, statement), ...readStatements(t, statement) };
}

/** BEGIN, COMMIT, the schema's lock and the named locks, and the plan settings. */
function lockStatements(t: Tables, key: number, statement: Make): Pick<Statements, 'lock' | 'lockShared' | 'unlock' | 'sessionLockShared' | 'sessionUnlockShared' | 'lockKey' | 'beginSerializable' | 'beginReadCommitted' | 'commit' | 'lockCovering' | 'genericMode' | 'customMode'> {
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
  };
}

/** Point reads and the writes: a put batch, an insert, a create batch, a delete. */
function writeStatements(t: Tables, statement: Make): Pick<Statements, 'get' | 'put' | 'insert' | 'create' | 'delete'> {
  return {
    get: statement(`SELECT value FROM ${t.rows} WHERE collection = $1 AND id = $2`, true),
    // One statement for a whole batch of puts (see `PutBuffer`), ids unique within it.
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
    // Speculative inserts (see `PostgresTransaction.insert`), with `put`'s arguments and then the counts they
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
  };
}

/** Scans, counts and ranges. */
function readStatements(t: Tables, statement: Make): Pick<Statements, 'scanFirst' | 'scanAfter' | 'count' | 'countAll' | 'countKept' | 'ranges' | 'range'> {
  const select = `SELECT i.key, i.id, r.value FROM ${t.index} i JOIN ${t.rows} r ON r.collection = i.collection AND r.id = i.id`;
  return {
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

