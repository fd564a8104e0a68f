import { describe } from 'vitest';
import { runStorageConformance } from '../../src/testing/index.js';
import { freshPostgresStorage, PG_URL, SKIP_REASON } from './helpers.js';

describe.skipIf(PG_URL === undefined)(`postgresStorage${PG_URL === undefined ? ` (skipped: ${SKIP_REASON})` : ''}`, () => {
  runStorageConformance(() => freshPostgresStorage());
});
