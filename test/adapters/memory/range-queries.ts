import { fc } from '@fast-check/vitest';
import type { RangeQuery } from '../../../src/index.js';

/**
 * Range queries over keys and ids drawn from `str`: every field of the port's `RangeQuery`, each
 * left out or set, for the properties that compare an adapter's ranges with a reference.
 */
export const rangeQuery = (str: fc.Arbitrary<string>): fc.Arbitrary<RangeQuery> =>
  fc.record(
    {
      prefix: str,
      exact: fc.boolean(),
      after: fc.record({ key: str, id: str }),
      offset: fc.nat(4),
      limit: fc.integer({ min: 0, max: 5 }),
      direction: fc.constantFrom('asc' as const, 'desc' as const),
    },
    { requiredKeys: [] },
  );
