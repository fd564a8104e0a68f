import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { effectiveLimit, exceedsQuota, isUnconstrained } from '../../src/kernel/quota-engine.js';

const count = fc.nat({ max: 2 ** 40 });

describe('effectiveLimit', () => {
  test.prop([fc.option(fc.integer(), { nil: undefined }), fc.integer()])('a configured value wins, undefined falls back', (c, d) => {
    expect(effectiveLimit(c, d)).toBe(c === undefined ? d : c);
  });
  test.prop([fc.oneof(fc.constant(null), fc.constant(undefined), fc.integer()), fc.integer()])(
    'configured ?? default for every mix of configured / null / default',
    (c, d) => {
      const e = effectiveLimit(c, d);
      if (c === null || c === undefined) expect(e).toBe(d);
      else expect(e).toBe(c);
    },
  );
  test.prop([fc.integer()])('a configured 0 stays 0 (disabled), never the default', (d) => {
    expect(effectiveLimit(0, d)).toBe(0);
  });
});

describe('exceedsQuota', () => {
  test.prop([fc.integer({ min: 1, max: 2 ** 40 }), count, count])('a positive limit refuses exactly when inUse + requested > limit', (limit, inUse, requested) => {
    expect(exceedsQuota(limit, inUse, requested)).toBe(inUse + requested > limit);
  });
  test.prop([count, fc.integer({ min: 1, max: 2 ** 40 })])('0 refuses every positive request, even with nothing in use', (inUse, requested) => {
    expect(exceedsQuota(0, inUse, requested)).toBe(true);
  });
  test.prop([fc.integer({ max: -1 }), count, count])('a negative limit never refuses', (limit, inUse, requested) => {
    expect(isUnconstrained(limit)).toBe(true);
    expect(exceedsQuota(limit, inUse, requested)).toBe(false);
  });
  test.prop([fc.integer({ min: 0, max: 2 ** 40 }), count])('requested 0 is refused only when already over the limit', (limit, inUse) => {
    expect(exceedsQuota(limit, inUse, 0)).toBe(inUse > limit);
  });
  test.prop([fc.integer({ min: 1, max: 1000 })])('a limit N admits exactly N one-by-one creations (the real service: 201 ×N, then 403)', (n) => {
    let held = 0;
    while (!exceedsQuota(n, held, 1)) held++;
    expect(held).toBe(n);
  });
});
