// Setup for the mutation run only (vitest.stryker.config.ts): fewer property runs per mutant.
import fc from 'fast-check';

fc.configureGlobal({ numRuns: 25 });
