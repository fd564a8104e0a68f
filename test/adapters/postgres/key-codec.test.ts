import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { decodeKey, encodeKey, prefixEnd } from '../../../src/adapters/postgres/key-codec.js';

// Code units that matter for order: the key separators, ASCII, the top of the BMP, both kinds of
// surrogate (paired and lone) and an astral character, whose UTF-16 and code-point orders differ.
const unit = fc.oneof(
  fc.constantFrom('\u0000', '\u0001', '\u0002', 'a', 'b', '\u007f', '\u0080', '\u07ff', '\u0800', '\ue000', '\uffff', '\ud800', '\udfff', '😀'),
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
);
const key = fc.string({ unit, maxLength: 8 });
const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);
const jsCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe('key codec (CESU-8 as bytea)', () => {
  test.prop([key])('round-trips every string, lone surrogates included', (s) => {
    expect(decodeKey(encodeKey(s))).toBe(s);
  });

  test.prop([key, key])('byte order is JS string order', (a, b) => {
    expect(sign(Buffer.compare(encodeKey(a), encodeKey(b)))).toBe(jsCompare(a, b));
  });

  test.prop([key, key])('[prefix, prefixEnd(prefix)) holds exactly the strings starting with prefix', (p, s) => {
    const bytes = encodeKey(s);
    const start = encodeKey(p);
    const end = prefixEnd(start);
    const inside = Buffer.compare(bytes, start) >= 0 && (end === undefined || Buffer.compare(bytes, end) < 0);
    expect(inside).toBe(s.startsWith(p));
  });

  test('is plain UTF-8 without surrogates, and the empty prefix is unbounded', () => {
    expect(encodeKey('zone\u0000é\u0000')).toEqual(Buffer.from('zone\u0000é\u0000', 'utf8'));
    expect(encodeKey('😀')).toEqual(Buffer.from([0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]));
    expect(prefixEnd(Buffer.alloc(0))).toBeUndefined();
    expect(prefixEnd(Buffer.from([0x61, 0xff, 0xff]))).toEqual(Buffer.from([0x62]));
  });
});
