/**
 * Python 3.11's `int(text)` in base 10, the one emulation both services use: the DNS service
 * coerces body fields with it (`ttl`, quota limits) and the secrets service its paging
 * parameters, so a value one accepts and the other refuses would be a bug in one of them.
 */

// The white space int() strips: str.isspace() less U+001C–U+001F, which str.strip() removes
// but int() keeps (so int('\x1c5') is a ValueError on the real services). Not U+FEFF.
const INT_SPACE = /^[\t-\r\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
// A sign, any Unicode decimal digits, single underscores between digits.
const INT_LITERAL = /^[+-]?\p{Nd}+(?:_\p{Nd}+)*$/u;
const DECIMAL = /\p{Nd}/u;

/** Python 3.11's cap on the digits `int()` converts from text (`sys.int_info.default_max_str_digits`). @internal */
export const PY_MAX_STR_DIGITS = 4300;

/** A literal `int()` refuses only for its length: Python's message names the digit count. @internal */
export interface TooManyDigits {
  readonly tooManyDigits: number;
}

/**
 * The value of `text` as Python's `int()` reads it; `undefined` where Python raises the
 * invalid-literal ValueError, and {@link TooManyDigits} past Python's digit cap (also a
 * ValueError, with its own message). Linear in the length of `text`.
 * @internal
 */
export function pythonIntLiteral(text: string): bigint | TooManyDigits | undefined {
  const t = text.replace(INT_SPACE, '');
  if (!INT_LITERAL.test(t)) return undefined;
  let digits = '';
  for (const ch of t) {
    if (ch === '_' || ch === '+' || ch === '-') continue;
    const code = ch.codePointAt(0) as number;
    if (code >= 0x30 && code <= 0x39) digits += ch;
    else digits += String(digitValue(code));
  }
  if (digits.length > PY_MAX_STR_DIGITS) return { tooManyDigits: digits.length };
  const n = BigInt(digits);
  return t[0] === '-' ? -n : n;
}

/**
 * A non-ASCII decimal digit's value. Unicode's decimal digits come in runs of ten, zero first,
 * and runs that touch (the five mathematical ones) start every ten: a digit's value is its
 * distance from the start of its run, modulo ten (at most 49 steps back, in the mathematical run).
 */
function digitValue(code: number): number {
  let start = code;
  while (start > 0 && DECIMAL.test(String.fromCodePoint(start - 1))) start--;
  return (code - start) % 10;
}
