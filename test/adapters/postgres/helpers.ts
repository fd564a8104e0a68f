import pg from 'pg';
import { afterAll } from 'vitest';
import { requirement, type Requirement } from '../../support/requires.js';
import { postgresStorage, type PostgresStorage, type PostgresStorageOptions } from '../../../src/adapters/postgres/index.js';

/** The throwaway cluster of scripts/pg-test-cluster.sh; the postgres tests skip without it. */
export const PG_URL = process.env.ZONEWARD_PG_URL;

const SKIP_REASON = 'ZONEWARD_PG_URL is not set (start a cluster: eval "$(scripts/pg-test-cluster.sh start)")';

/** What the postgres suites need. */
export const postgresRequirement: Requirement = requirement('PostgreSQL', PG_URL !== undefined, 'set ZONEWARD_PG_URL: eval "$(scripts/pg-test-cluster.sh start)"');

let pool: pg.Pool | undefined;
const schemas: string[] = [];
let serial = 0;

/** One pool per test file, ended (and its schemas dropped) after the file. */
export function testPool(): pg.Pool {
  if (PG_URL === undefined) throw new Error(SKIP_REASON);
  if (pool === undefined) {
    pool = new pg.Pool({ connectionString: PG_URL, max: 8 });
    pool.on('error', () => undefined);
    const p = pool;
    afterAll(async () => {
      for (const s of schemas) await p.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
      await p.end();
    });
  }
  return pool;
}

/** A fresh, migrated, empty storage in a schema of its own. */
export async function freshPostgresStorage(options: Partial<Omit<PostgresStorageOptions, 'pool' | 'connectionString'>> = {}): Promise<PostgresStorage> {
  const storage = postgresStorage({ pool: testPool(), schema: freshSchemaName(), ...options });
  await storage.migrate();
  return storage;
}

/** A schema name no other test uses, for tests that open their own storages on it. */
export function freshSchemaName(): string {
  const schema = `zw_test_${process.pid}_${Date.now().toString(36)}_${serial++}`;
  schemas.push(schema);
  return schema;
}

/** A promise a test resolves when it chooses: `opened` settles once `open()` is called. */
export function latch(): { readonly opened: Promise<void>; readonly open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
