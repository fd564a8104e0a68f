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

/** Encodes one string part of a tuple, terminator included: `tupleKey(a, b) === stringPart(a) + stringPart(b)`. @internal */
export const stringPart = (s: string): string => escapePart(s) + END;

/** Encodes one tuple. @internal */
export function tupleKey(...parts: readonly KeyPart[]): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'number') {
      if (!Number.isSafeInteger(part) || part < 0) throw new RangeError(`index key part out of range: ${part}`);
      out += part.toString(16).padStart(14, '0') + END;
    } else {
      out += escapePart(part) + END;
    }
  }
  return out;
}
