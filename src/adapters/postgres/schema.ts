import type { Pool } from 'pg';

/**
 * Table names of one storage, qualified with its schema when it has one.
 * @internal
 */
export interface Tables {
  readonly rows: string;
  readonly index: string;
  readonly counted: string;
  readonly counts: string;
  readonly migrations: string;
  /** The schema to create first, quoted; `undefined` means "whatever `search_path` says". */
  readonly schema: string | undefined;
  /** Tags prepared-statement names, so storages in different schemas on one pool never share one. */
  readonly tag: string;
}

/** Quotes an SQL identifier (the schema name comes from the user). @internal */
export function quoteIdent(name: string): string {
  if (name.length === 0 || name.includes('\u0000')) throw new TypeError(`postgresStorage: invalid schema name ${JSON.stringify(name)}`);
  return `"${name.replaceAll('"', '""')}"`;
}

/** @internal */
export function tables(schema: string | undefined): Tables {
  const q = schema === undefined ? undefined : quoteIdent(schema);
  const name = (t: string): string => (q === undefined ? t : `${q}.${t}`);
  return {
    rows: name('zoneward_rows'),
    index: name('zoneward_index'),
    counted: name('zoneward_counted'),
    counts: name('zoneward_counts'),
    migrations: name('zoneward_migrations'),
    schema: q,
    tag: schema ?? '',
  };
}

/**
 * One step of the schema. Steps are applied in order, each in the same transaction as the row
 * that records it, and never edited once released: a change is a new step.
 */
interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: (t: Tables) => string;
}

/**
 * The schema, version by version.
 *
 * - `zoneward_rows`: one row per stored value. `id` is `bytea` (CESU-8, see key-codec.ts) so that
 *   `scan` can page in JS string order; `value` is `json`, not `jsonb`, because `json` keeps the
 *   text as written, so a `\u0000` escape (which `jsonb` refuses) or a lone-surrogate escape
 *   round-trips, and because nothing ever queries inside a value, `jsonb`'s parse on every write
 *   would buy nothing.
 * - `zoneward_index`: one row per secondary-index entry; the primary key is the index order
 *   `(collection, index_name, key, id)`, so a range, a count or a marker page is one B-tree
 *   range scan.
 * - `zoneward_index_by_id`: finds the entries of one value (for `put` and `delete`) without
 *   visiting the heap.
 *
 * There is no foreign key from entries to rows: the adapter writes both in one statement, and a
 * key check per entry would cost every write for nothing.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'rows and index entries',
    sql: (t) => `
      CREATE TABLE ${t.rows} (
        collection text NOT NULL,
        id bytea NOT NULL,
        value json NOT NULL,
        PRIMARY KEY (collection, id)
      );
      CREATE TABLE ${t.index} (
        collection text NOT NULL,
        index_name text NOT NULL,
        key bytea NOT NULL,
        id bytea NOT NULL,
        PRIMARY KEY (collection, index_name, key, id)
      );
      CREATE INDEX zoneward_index_by_id ON ${t.index} (collection, id) INCLUDE (index_name, key);
    `,
  },
  {
    version: 2,
    name: 'maintained counts',
    // Backfilled into slot 0 from the entries already there; from now on every put and delete
    // moves them. `migrate()` holds its lock, but writers of an older version would not keep
    // them: upgrade every process before serving again.
    sql: (t) => `
      CREATE TABLE ${t.counted} (
        collection_like text NOT NULL,
        index_name text NOT NULL,
        depth smallint NOT NULL CHECK (depth IN (0, 1)),
        PRIMARY KEY (collection_like, index_name, depth)
      );
      CREATE TABLE ${t.counts} (
        collection text NOT NULL,
        index_name text NOT NULL,
        part bytea NOT NULL,
        slot smallint NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (collection, index_name, part, slot)
      );
      INSERT INTO ${t.counted} (collection_like, index_name, depth) VALUES ${COUNTED.map(([c, i, d]) => `('${c}', '${i}', ${d})`).join(', ')};
      INSERT INTO ${t.counts} (collection, index_name, part, slot, n)
        SELECT d.collection, d.index_name, ${PART}, 0, count(*)
        FROM ${t.index} d JOIN ${t.counted} c ON d.collection LIKE c.collection_like AND d.index_name = c.index_name
        WHERE c.depth = 0 OR position(decode('00', 'hex') IN d.key) > 0
        GROUP BY 1, 2, 3;
    `,
  },
];

/**
 * The counts `migrate()` sets up: the zones of all projects (an admin's list `total_count`) and of
 * each project (a project's list and its zone quota), where `count(*)` would read every entry.
 * `(collection LIKE pattern, index, depth)`: depth 0 counts the whole index, depth 1 each first
 * tuple part of the keys. Other counts read their entries.
 * @internal
 */
export const COUNTED: readonly (readonly [string, string, 0 | 1])[] = [
  ['dns.zones', 'created', 0],
  ['dns.zones', 'project', 1],
];

/**
 * The part of an index key a maintained count is kept for, over an entry `d` and its
 * `zoneward_counted` row `c`: depth 0 is the whole index, depth 1 the key's first tuple part (up to
 * and including its first U+0000, a single 0x00 byte in CESU-8); a key without one has no first
 * part to count.
 * @internal
 */
export const PART = `CASE c.depth WHEN 0 THEN ''::bytea ELSE substring(d.key FROM 1 FOR position(decode('00', 'hex') IN d.key)) END`;

/** The newest schema version this code knows. @internal */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * Brings the schema up to {@link SCHEMA_VERSION}. Idempotent; concurrent callers (two processes
 * starting at once) queue on a transaction-scoped advisory lock keyed by the schema, so exactly
 * one applies each step and the others find it done. Refuses a database whose schema is newer
 * than this code, rather than writing rows an older layout would misread.
 * @internal
 */
export async function migrate(pool: Pool, t: Tables): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      await client.query("SELECT pg_advisory_xact_lock(hashtext('zoneward.migrate:' || $1::text))", [t.tag]);
      if (t.schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${t.schema}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${t.migrations} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const applied = await client.query<{ version: number }>(`SELECT version FROM ${t.migrations} ORDER BY version`);
      const done = new Set(applied.rows.map((r) => r.version));
      const newest = Math.max(0, ...done);
      if (newest > SCHEMA_VERSION) {
        throw new Error(`zoneward/postgres: the database schema is version ${newest}, newer than this code (${SCHEMA_VERSION}); upgrade zoneward`);
      }
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        await client.query(m.sql(t));
        await client.query(`INSERT INTO ${t.migrations} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch((e: unknown) => {
        broken = e instanceof Error ? e : new Error(String(e));
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}
