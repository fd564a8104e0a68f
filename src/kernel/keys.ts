/**
 * Index keys: tuples of strings and non-negative integers encoded as one string whose plain
 * string order is the tuple order, so any storage adapter can keep them in an ordinary ordered
 * index (a B-tree in memory, a bytea column in a database).
 *
 * Each part ends with U+0000; inside a string part U+0000 and U+0001 are escaped as
 * U+0001 U+0001 and U+0001 U+0002, which keeps "shorter prefix first" and the order of the
 * escaped characters. Integers are 14 hex digits (enough for 2^53).
 * @internal
 */
export type KeyPart = string | number;

const END = '\u0000';

function escapePart(s: string): string {
  if (!s.includes('\u0000') && !s.includes('\u0001')) return s;
  return s.replaceAll('\u0001', '\u0001\u0002').replaceAll('\u0000', '\u0001\u0001');
}

/**
 * 14 hex digits of a safe integer, as `n.toString(16).padStart(14, '0')` gives, in two halves of
 * 28 bits: each half is a small integer, whose conversion is a fast path, where a timestamp in
 * microseconds is a double that the general conversion divides with `fmod` digit by digit.
 */
function hex14(n: number): string {
  const hi = Math.floor(n / 0x10000000);
  const lo = (n - hi * 0x10000000).toString(16);
  return hi.toString(16).padStart(7, '0') + '0000000'.slice(lo.length) + lo;
}

/** Encodes one string part of a tuple, terminator included: `tupleKey(a, b) === stringPart(a) + stringPart(b)`. @internal */
export const stringPart = (s: string): string => escapePart(s) + END;

/** Encodes one tuple. @internal */
export function tupleKey(...parts: readonly KeyPart[]): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'number') {
      if (!Number.isSafeInteger(part) || part < 0) throw new RangeError(`index key part out of range: ${part}`);
      out += hex14(part) + END;
    } else {
      out += escapePart(part) + END;
    }
  }
  return out;
}
