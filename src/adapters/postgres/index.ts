/**
 * zoneward/postgres: the `Storage` port over PostgreSQL (through the optional peer
 * dependency `pg`), for servers that run zoneward in several processes or want durable state.
 * See {@link postgresStorage}.
 *
 * @module zoneward/postgres
 */
export { postgresStorage } from './postgres-storage.js';
export type {
  PostgresCommonOptions,
  PostgresConnectionOptions,
  PostgresPoolOptions,
  PostgresRetryOptions,
  PostgresStorage,
  PostgresStorageOptions,
} from './options.js';
