/**
 * The vitest configuration Stryker runs (`npm run mutation`, see stryker.config.json and
 * docs/mutation.md): the small, fast test files that exercise the mutated core, with fewer
 * fast-check runs, and without module isolation between files (Stryker switches mutants at run
 * time, so modules can be shared), so one mutant costs well under a second on a quiet machine.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/quotas/engine.test.ts',
      'test/quotas/paging.test.ts',
      'test/quotas/laws.test.ts',
      'test/adapters/memory-storage.test.ts',
      'test/zones/zones.test.ts',
      'test/proof/mutation-*.test.ts',
    ],
    setupFiles: ['test/testing/stryker-setup.ts'],
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
