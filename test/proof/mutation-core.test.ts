/**
 * Exact boundary tests of the pure core that Stryker mutates (stryker.config.json): each case
 * pins one comparison, constant or branch that the service-level suites let through.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { effectiveLimit, exceedsQuota, isUnconstrained } from '../../src/kernel/quota-engine.js';
import { normalisePage, pageLinks } from '../../src/project-quotas/paging.js';
import { pythonIntLiteral } from '../../src/kernel/python-int.js';
import { tupleKey } from '../../src/kernel/keys.js';
import { formatTimestamp, toMicros, unixSeconds } from '../../src/dns/kernel/time.js';
import { isUuidLike } from '../../src/kernel/uuid.js';
import { applyReport } from '../../src/dns/kernel/zone-lifecycle.js';
import type { Zone } from '../../src/dns/kernel/zone.js';

describe('tupleKey', () => {
  it('encodes parts with a terminator, integers as 14 hex digits', () => {
    expect(tupleKey()).toBe('');
    expect(tupleKey('a')).toBe('a\u0000');
    expect(tupleKey('a', 'b')).toBe('a\u0000b\u0000');
    expect(tupleKey(0)).toBe('00000000000000\u0000');
    expect(tupleKey(255)).toBe('000000000000ff\u0000');
    expect(tupleKey(Number.MAX_SAFE_INTEGER)).toBe('1fffffffffffff\u0000');
    expect(tupleKey('x', 1)).toBe('x\u000000000000000001\u0000');
  });

  it('escapes U+0000 and U+0001 inside strings, each on its own', () => {
    expect(tupleKey('a\u0000b')).toBe('a\u0001\u0001b\u0000');
    expect(tupleKey('a\u0001b')).toBe('a\u0001\u0002b\u0000');
    expect(tupleKey('\u0001\u0000')).toBe('\u0001\u0002\u0001\u0001\u0000');
    expect(tupleKey('plain')).toBe('plain\u0000');
  });

  it('refuses integers it cannot order', () => {
    expect(() => tupleKey(-1)).toThrow(RangeError);
    expect(() => tupleKey(1.5)).toThrow(RangeError);
    expect(() => tupleKey(2 ** 53)).toThrow(RangeError);
    expect(() => tupleKey(Number.NaN)).toThrow(RangeError);
  });

  const part = fc.oneof(fc.string({ unit: fc.constantFrom('\u0000', '\u0001', '\u0002', 'a', 'b') }), fc.nat({ max: 1000 }));
  const cmp = (a: readonly (string | number)[], b: readonly (string | number)[]): number => {
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
      const x = a[i]!;
      const y = b[i]!;
      if (typeof x !== typeof y) return typeof x === 'number' ? -1 : 1;
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return a.length - b.length;
  };
  test.prop([fc.array(part, { maxLength: 3 }), fc.array(part, { maxLength: 3 })])('key order is tuple order', (a, b) => {
    const homogeneous = a.every((x, i) => i >= b.length || typeof x === typeof b[i]);
    fc.pre(homogeneous);
    const ka = tupleKey(...a);
    const kb = tupleKey(...b);
    expect(Math.sign(ka < kb ? -1 : ka > kb ? 1 : 0)).toBe(Math.sign(cmp(a, b)));
  });
});

describe('timestamps', () => {
  it('renders microseconds, UTC, no zone suffix', () => {
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00.000000');
    expect(formatTimestamp(1_700_000_000_123_456)).toBe('2023-11-14T22:13:20.123456');
    expect(formatTimestamp(Number.MAX_SAFE_INTEGER)).toBe('2255-06-05T23:47:34.740991');
    expect(formatTimestamp(951_782_400_000_000)).toBe('2000-02-29T00:00:00.000000');
    expect(formatTimestamp(999_999)).toBe('1970-01-01T00:00:00.999999');
    expect(formatTimestamp(1_000_000)).toBe('1970-01-01T00:00:01.000000');
    expect(formatTimestamp(-1)).toBe('1969-12-31T23:59:59.999999');
  });

  /** The rendering through `Date`, which the arithmetic must equal wherever `Date` reaches. */
  const viaDate = (micros: number): string =>
    `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19)}.${String(((micros % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0')}`;
  test.prop([fc.oneof(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: 4_102_444_800_000_000 }), fc.integer({ min: -(10 ** 15), max: 0 }))], {
    numRuns: 5000,
  })('renders every stored instant as Date does', (micros) => {
    expect(formatTimestamp(micros)).toBe(viaDate(micros));
  });

  it('converts clock readings and serial seconds', () => {
    expect(toMicros(new Date(1234))).toBe(1_234_000);
    expect(unixSeconds(1_999_999)).toBe(1);
    expect(unixSeconds(2_000_000)).toBe(2);
    expect(unixSeconds(-1)).toBe(-1);
  });
});

describe('isUuidLike', () => {
  const hex = '0123456789abcdef0123456789ABCDEF';
  const dashed = '01234567-89ab-cdef-0123-456789abcdef';
  it('accepts 32 hex digits with optional hyphens, braces and case', () => {
    for (const ok of [hex, dashed, `{${dashed}}`, `{${hex}}`, `--${dashed}`]) expect(isUuidLike(ok), ok).toBe(true);
  });
  it('refuses anything else', () => {
    for (const bad of [hex.slice(1), `${hex}0`, `{${dashed}`, `${dashed}}`, `{${dashed}-}`, `${hex.slice(1)}g`, '', 42, null, undefined]) {
      expect(isUuidLike(bad), String(bad)).toBe(false);
    }
    expect(`--${dashed}`.length).toBe(38);
    expect(isUuidLike(`---${dashed}`)).toBe(false); // 39 characters
  });
});

describe('quota engine', () => {
  it('effectiveLimit: the configured value, the fallback only for null/undefined', () => {
    expect(effectiveLimit(null, 5)).toBe(5);
    expect(effectiveLimit(undefined, 5)).toBe(5);
    expect(effectiveLimit(0, 5)).toBe(0);
    expect(effectiveLimit(-1, 5)).toBe(-1);
    expect(effectiveLimit(3, 5)).toBe(3);
  });
  it('isUnconstrained: any negative', () => {
    expect(isUnconstrained(-1)).toBe(true);
    expect(isUnconstrained(-2)).toBe(true);
    expect(isUnconstrained(0)).toBe(false);
    expect(isUnconstrained(1)).toBe(false);
  });
  it('exceedsQuota at its boundaries', () => {
    expect(exceedsQuota(-1, 100, 1)).toBe(false);
    expect(exceedsQuota(0, 0, 0)).toBe(false);
    expect(exceedsQuota(0, 0, 1)).toBe(true);
    expect(exceedsQuota(5, 4, 1)).toBe(false);
    expect(exceedsQuota(5, 5, 1)).toBe(true);
    expect(exceedsQuota(5, 4, 2)).toBe(true);
    expect(exceedsQuota(5, 5, 0)).toBe(false);
    expect(exceedsQuota(5, 6, 0)).toBe(true);
  });
});

describe('pythonIntLiteral', () => {
  it.each([
    ['12', 12n],
    [' \t12\n', 12n],
    ['+5', 5n],
    ['-5', -5n],
    ['1_000', 1000n],
    ['\u0663', 3n], // ARABIC-INDIC DIGIT THREE
    ['\u0660', 0n],
    ['\u0669', 9n],
    ['\uff11\uff10', 10n], // fullwidth
    ['\u00857\u0085', 7n], // NEL is Python whitespace
    ['\u30007', 7n],
    ['1'.repeat(4300), BigInt('1'.repeat(4300))],
    [`${' '.repeat(5000)}7`, 7n],
    ['\u{1D7D1}\u{1D7E5}', 33n], // mathematical bold 3 and double-struck 3: adjoining runs of ten
  ])('%j → %s', (text, value) => {
    expect(pythonIntLiteral(text)).toBe(value);
  });
  // U+001C..U+001F are str.isspace() but int() does not strip them (the real services refuse them).
  it.each(['', ' ', '-', '+', '_1', '1_', '1__0', '1.0', 'abc', '\ufeff1', '0x10', '1 2', '\u001c7', '7\u001f'])('%j is not an int', (text) => {
    expect(pythonIntLiteral(text)).toBeUndefined();
  });
  it('counts the digits past Python\'s 4300-digit cap', () => {
    expect(pythonIntLiteral('1_1'.repeat(2200))).toEqual({ tooManyDigits: 4400 });
    expect(pythonIntLiteral('1'.repeat(4301))).toEqual({ tooManyDigits: 4301 });
  });
});

describe('normalisePage', () => {
  const page = (q: unknown) => normalisePage(q, 10, 100)._unsafeUnwrap();
  it('defaults, clamps and ignores what does not parse', () => {
    expect(page(undefined)).toEqual({ offset: 0n, limit: 10n });
    expect(page(null)).toEqual({ offset: 0n, limit: 10n });
    expect(page('offset=5')).toEqual({ offset: 0n, limit: 10n });
    expect(page({ offset: '5', limit: '20' })).toEqual({ offset: 5n, limit: 20n });
    expect(page({ limit: '0' })).toEqual({ offset: 0n, limit: 1n });
    expect(page({ limit: '1' })).toEqual({ offset: 0n, limit: 1n });
    expect(page({ limit: '-3' })).toEqual({ offset: 0n, limit: 1n });
    expect(page({ limit: '100' })).toEqual({ offset: 0n, limit: 100n });
    expect(page({ limit: '101' })).toEqual({ offset: 0n, limit: 100n });
    expect(page({ limit: '' })).toEqual({ offset: 0n, limit: 10n });
    expect(page({ limit: 20 })).toEqual({ offset: 0n, limit: 20n });
    expect(page({ limit: 2.5 })).toEqual({ offset: 0n, limit: 10n });
    expect(page({ limit: 7n })).toEqual({ offset: 0n, limit: 7n });
    expect(page({ limit: true })).toEqual({ offset: 0n, limit: 10n });
    expect(page({ offset: '-1' })).toEqual({ offset: 0n, limit: 10n });
    expect(page({ offset: '0' })).toEqual({ offset: 0n, limit: 10n });
    expect(page({ offset: String(2n ** 63n - 1n) })).toEqual({ offset: 2n ** 63n - 1n, limit: 10n });
    expect(page({ offset: String(2n ** 63n) })).toEqual({ offset: 0n, limit: 10n });
    expect(page(Object.create({ offset: '5', limit: '5' }))).toEqual({ offset: 0n, limit: 10n });
  });
  it('a repeated parameter (an array) is an error', () => {
    expect(normalisePage({ limit: ['1', '2'] }, 10, 100).isErr()).toBe(true);
    expect(normalisePage({ offset: [] }, 10, 100).isErr()).toBe(true);
  });
  it('uses the configured default and maximum', () => {
    expect(normalisePage({}, 3, 4)._unsafeUnwrap()).toEqual({ offset: 0n, limit: 3n });
    expect(normalisePage({ limit: '9' }, 3, 4)._unsafeUnwrap()).toEqual({ offset: 0n, limit: 4n });
  });
});

describe('pageLinks', () => {
  const B = 'http://q';
  const at = (offset: bigint, limit: bigint, total: number) => pageLinks(B, { offset, limit }, total);
  it('previous only past the first page, next only while records remain', () => {
    expect(at(0n, 10n, 25)).toEqual({ next: `${B}/v1/project-quotas?limit=10&offset=10` });
    expect(at(10n, 10n, 25)).toEqual({
      previous: `${B}/v1/project-quotas?limit=10&offset=0`,
      next: `${B}/v1/project-quotas?limit=10&offset=20`,
    });
    expect(at(20n, 10n, 25)).toEqual({ previous: `${B}/v1/project-quotas?limit=10&offset=10` });
    expect(at(5n, 10n, 10)).toEqual({ previous: `${B}/v1/project-quotas?limit=10&offset=0` });
    expect(at(15n, 10n, 10)).toEqual({ previous: `${B}/v1/project-quotas?limit=10&offset=5` });
    expect(at(20n, 10n, 30)).toEqual({ previous: `${B}/v1/project-quotas?limit=10&offset=10` });
    expect(at(20n, 10n, 31)).toMatchObject({ next: `${B}/v1/project-quotas?limit=10&offset=30` });
    expect(at(0n, 10n, 10)).toEqual({});
    expect(at(0n, 10n, 0)).toEqual({});
  });
});

describe('applyReport (the backend-report transition)', () => {
  const NOW = new Date('2026-01-01T00:00:00Z');
  const zone = (changes: Partial<Zone>): Zone => ({
    id: 'z', poolId: 'p', projectId: 'pr', name: 'a.com.', email: 'h@a.com', description: null, ttl: 3600, serial: 100,
    status: 'PENDING', action: 'CREATE', version: 3, attributes: {}, type: 'PRIMARY', masters: [], createdAt: 1,
    updatedAt: null, transferredAt: null, refresh: 3500, retry: 600, expire: 86400, minimum: 3600, parentZoneId: null,
    soaRecordsetId: 's', nsRecordsetId: 'n', recordsetCount: 0, recordCount: 0, ...changes,
  });
  const after = (z: Zone, action: Zone['action'], outcome: 'SUCCESS' | 'ERROR', serial: number) => applyReport(z, { action, outcome, serial }, NOW);
  const state = (r: Zone | 'gone') => (r === 'gone' ? 'gone' : `${r.action}/${r.status} v${r.version} ${r.updatedAt}`);
  const T = NOW.getTime() * 1000;

  it('a report for another action only re-saves', () => {
    expect(state(after(zone({}), 'UPDATE', 'SUCCESS', 100))).toBe(`CREATE/PENDING v4 ${T}`);
  });
  it('SUCCESS moves PENDING or ERROR to ACTIVE once the serial is reached', () => {
    expect(state(after(zone({}), 'CREATE', 'SUCCESS', 100))).toBe(`NONE/ACTIVE v4 ${T}`);
    expect(state(after(zone({}), 'CREATE', 'SUCCESS', 101))).toBe(`NONE/ACTIVE v4 ${T}`);
    expect(state(after(zone({}), 'CREATE', 'SUCCESS', 99))).toBe(`CREATE/PENDING v4 ${T}`);
    expect(state(after(zone({ status: 'ERROR' }), 'CREATE', 'SUCCESS', 100))).toBe(`NONE/ACTIVE v4 ${T}`);
    expect(state(after(zone({ status: 'ACTIVE' }), 'CREATE', 'SUCCESS', 100))).toBe(`CREATE/ACTIVE v4 ${T}`);
  });
  it('ERROR moves only PENDING to ERROR, for the current serial or serial 0', () => {
    expect(state(after(zone({}), 'CREATE', 'ERROR', 100))).toBe(`CREATE/ERROR v4 ${T}`);
    expect(state(after(zone({}), 'CREATE', 'ERROR', 0))).toBe(`CREATE/ERROR v4 ${T}`);
    expect(state(after(zone({}), 'CREATE', 'ERROR', 99))).toBe(`CREATE/PENDING v4 ${T}`);
    expect(state(after(zone({ status: 'ACTIVE' }), 'CREATE', 'ERROR', 100))).toBe(`CREATE/ACTIVE v4 ${T}`);
  });
  it('a DELETE completes unless the zone is in ERROR and the report does not clear it', () => {
    expect(after(zone({ action: 'DELETE' }), 'DELETE', 'ERROR', 1)).toBe('gone');
    expect(after(zone({ action: 'DELETE', status: 'ERROR' }), 'DELETE', 'SUCCESS', 100)).toBe('gone');
    expect(state(after(zone({ action: 'DELETE', status: 'ERROR' }), 'DELETE', 'SUCCESS', 99))).toBe(`DELETE/ERROR v4 ${T}`);
    expect(state(after(zone({ action: 'DELETE', status: 'ERROR' }), 'DELETE', 'ERROR', 100))).toBe(`DELETE/ERROR v4 ${T}`);
  });
  it('returns a frozen copy, the input untouched', () => {
    const z = Object.freeze(zone({}));
    const next = after(z, 'CREATE', 'SUCCESS', 100) as Zone;
    expect(Object.isFrozen(next)).toBe(true);
    expect(z.status).toBe('PENDING');
  });
});
