/**
 * globalSetup of the `postgres` vitest project (see vitest.config.ts): one schema for the whole
 * run, migrated once, handed to every test file through `inject('zonewardPgSchema')`, and
 * dropped at the end. Test files never create tables; they isolate by collection prefix
 * (test/adapters/postgres/as-default-storage.ts).
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { postgresStorage } from '../../../src/adapters/postgres/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated schema the command suites share on the throwaway cluster. */
    zonewardPgSchema: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.ZONEWARD_PG_URL;
  if (url === undefined) throw new Error('the postgres project needs ZONEWARD_PG_URL (eval "$(scripts/pg-test-cluster.sh start)")');
  const schema = `zw_commands_${process.pid}_${Date.now().toString(36)}`;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  await postgresStorage({ pool, schema }).migrate();
  // The maintained counts the migration sets up for the zones, under this project's collection
  // prefixes (see as-default-storage.ts), so the suites run over them as a deployment does.
  await pool.query(
    `INSERT INTO "${schema}".zoneward_counted (collection_like, index_name, depth)
     SELECT '%/' || collection_like, index_name, depth FROM "${schema}".zoneward_counted`,
  );
  project.provide('zonewardPgSchema', schema);
  return async () => {
    try {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await pool.end();
    }
  };
}
