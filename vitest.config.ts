import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The command suites, unchanged, over a real PostgreSQL server: every `memoryStorage()` they (or
// the services, by default) create is an isolated storage over the cluster of
// scripts/pg-test-cluster.sh. Only when ZONEWARD_PG_URL is set; see docs/postgres.md.
const POSTGRES_SUITES = ['test/dns/zones', 'test/dns/transfers', 'test/dns/imports-exports', 'test/dns/quotas', 'test/project-quotas', 'test/dns/recordsets', 'test/dns/secondary'];

/**
 * The files that take longest (CONTRIBUTING.md, "CI time"), longest first, as `project:path`.
 * Vitest hands files to its workers from one queue in order; started last, one of these would
 * leave a worker alone with it at the end. Vitest orders by the last
 * run's durations where it has them, but CI's fresh clone has none, and without them it starts
 * the largest files first, which are not the slow ones.
 */
const SLOWEST_FIRST = [
  'memory:test/http-clients/clients.test.ts',
  'memory:test/oracle/zones.oracle.test.ts',
  'postgres:test/dns/imports-exports/recordset-blocks.test.ts',
  'postgres:test/dns/recordsets/recordset-pages.test.ts',
  'memory:test/proof/isolation.test.ts',
  'memory:test/model/dns.model.test.ts',
  'memory:test/adapters/postgres/two-processes.test.ts',
  'postgres:test/dns/recordsets/recordset-writes.test.ts',
  'memory:test/oracle/recordsets.oracle.test.ts',
  'memory:test/server/packed.test.ts',
  'postgres:test/dns/imports-exports/columnar-import.test.ts',
  'memory:test/proof/bad-input.test.ts',
  'memory:test/oracle/wire.oracle.test.ts',
  'memory:test/adapters/dns-server/secondaries.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => {
      const key = `${spec.project.name || 'memory'}:${relative(spec.project.config.root, spec.moduleId).replaceAll('\\', '/')}`;
      const at = SLOWEST_FIRST.indexOf(key);
      return at === -1 ? SLOWEST_FIRST.length : at;
    };
    const sorted = await super.sort(files);
    return sorted.map((spec, at) => ({ spec, at, rank: rank(spec) })).sort((a, b) => a.rank - b.rank || a.at - b.at).map(({ spec }) => spec);
  }
}

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
  test: {
    // Vitest's default is one worker less than the cores: on CI's two, one worker, and every
    // file in turn while the other core waited. Many of the slow files wait on a child process
    // (the real services, the Python clients, PostgreSQL) more than they compute.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowestFirst },
    ...(process.env.ZONEWARD_PG_URL === undefined
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
        }),
  },
});
