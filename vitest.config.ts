import { defineConfig } from 'vitest/config';

// The command suites, unchanged, over a real PostgreSQL server: every `memoryStorage()` they (or
// the services, by default) create is an isolated storage over the cluster of
// scripts/pg-test-cluster.sh. Only when ZONEWARD_PG_URL is set; see docs/postgres.md.
const POSTGRES_SUITES = ['test/dns/zones', 'test/dns/transfers', 'test/dns/imports-exports', 'test/dns/quotas', 'test/project-quotas', 'test/dns/recordsets', 'test/dns/secondary'];

const memory = {
  include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
  // One module graph per worker, not per file: importing src/ again for every file cost about
  // three times the tests' own time. Nothing in src/ or test/ keeps state in a module (the core
  // has no global state; the postgres project's vi.mock is made by its setup file, which runs
  // before every file either way).
  isolate: false,
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test:
    process.env.ZONEWARD_PG_URL === undefined
      ? memory
      : {
          projects: [
            { test: { name: 'memory', ...memory } },
            {
              test: {
                name: 'postgres',
                include: POSTGRES_SUITES.map((dir) => `${dir}/**/*.test.ts`),
                isolate: false,
                testTimeout: 120_000,
                hookTimeout: 60_000,
                globalSetup: ['test/adapters/postgres/as-default-storage.global.ts'],
                setupFiles: ['test/adapters/postgres/as-default-storage.ts'],
              },
            },
          ],
        },
});
