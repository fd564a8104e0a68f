import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../shared/api-error.js';
import { repeatedPagingParameter } from './quota-errors.js';

/** A normalised page request; bigints because an offset may be anything up to 2^63 − 1. @internal */
export interface Page {
  readonly offset: bigint;
  readonly limit: bigint;
}

const MAX_OFFSET = 2n ** 63n - 1n;
// What Python's str.strip() removes (str.isspace), which differs from JS \s (no U+FEFF; adds U+001C–U+001F, U+0085).
const PY_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);
const pyStrip = (s: string): string => {
  let start = 0;
  let end = s.length;
  while (start < end && PY_SPACE.has(s.charCodeAt(start))) start++;
  while (end > start && PY_SPACE.has(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
};
const DECIMAL = /^\p{Nd}$/u;
const MAX_TEXT = 4096;

/** The value of a Unicode decimal digit: Nd digits come in contiguous runs 0–9 (a Unicode stability rule). */
function digitValue(ch: string): number {
  let cp = ch.codePointAt(0) ?? 0;
  let run = 0;
  while (run < 10 && DECIMAL.test(String.fromCodePoint(cp - 1))) {
    cp--;
    run++;
  }
  return run % 10;
}

/**
 * Python's `int(text)` (base 10): surrounding whitespace, a sign, single underscores between
 * digits and any Unicode decimal digits; `undefined` where Python raises ValueError.
 * @internal
 */
export function parsePythonInt(text: string): bigint | undefined {
  if (text.length > MAX_TEXT) return undefined; // a real query string is far shorter; keeps the cost bounded
  const s = pyStrip(text);
  let i = 0;
  let negative = false;
  if (s[0] === '+' || s[0] === '-') {
    negative = s[0] === '-';
    i = 1;
  }
  let value = 0n;
  let digits = 0;
  let lastWasDigit = false;
  for (const ch of s.slice(i)) {
    if (ch === '_') {
      if (!lastWasDigit) return undefined;
      lastWasDigit = false;
      continue;
    }
    if (ch >= '0' && ch <= '9') value = value * 10n + BigInt(ch.charCodeAt(0) - 48);
    else if (DECIMAL.test(ch)) value = value * 10n + BigInt(digitValue(ch));
    else return undefined;
    digits++;
    lastWasDigit = true;
  }
  if (digits === 0 || !lastWasDigit) return undefined;
  return negative ? -value : value;
}

/** A query value as the integer the real service would parse from its text; `undefined` = absent or unparsable. */
function readInteger(value: unknown): Result<bigint | undefined, ApiError> {
  if (Array.isArray(value)) return err(repeatedPagingParameter());
  if (typeof value === 'string') return ok(value === '' ? undefined : parsePythonInt(value));
  if (typeof value === 'bigint') return ok(value);
  // A number stands for its decimal text, so only an integral one parses.
  if (typeof value === 'number' && Number.isInteger(value)) return ok(BigInt(value));
  return ok(undefined);
}

/**
 * Normalises `offset` and `limit` as the real service does (reference §4.2): absent, empty or
 * unparsable → 0 and the default limit; a negative offset or one above 2^63 − 1 → 0; a limit below
 * 1 → 1, above the maximum → the maximum. A parameter given twice (an array) is the real
 * service's 500.
 * @internal
 */
export function normalisePage(query: unknown, defaultLimit: number, maxLimit: number): Result<Page, ApiError> {
  const q = query !== null && typeof query === 'object' ? (query as Record<string, unknown>) : {};
  const rawOffset = Object.hasOwn(q, 'offset') ? q['offset'] : undefined;
  const rawLimit = Object.hasOwn(q, 'limit') ? q['limit'] : undefined;
  return readInteger(rawOffset).andThen((offset) =>
    readInteger(rawLimit).map((limit): Page => {
      const o = offset === undefined || offset < 0n || offset > MAX_OFFSET ? 0n : offset;
      let l = limit ?? BigInt(defaultLimit);
      if (l < 1n) l = 1n;
      if (l > BigInt(maxLimit)) l = BigInt(maxLimit);
      return { offset: o, limit: l };
    }),
  );
}

/** The navigation links of a page: `previous` when offset > 0, `next` when total > offset + limit. @internal */
export function pageLinks(base: string, page: Page, total: number): { previous?: string; next?: string } {
  const href = (offset: bigint): string => `${base}/v1/project-quotas?limit=${page.limit}&offset=${offset}`;
  const links: { previous?: string; next?: string } = {};
  if (page.offset > 0n) links.previous = href(page.offset > page.limit ? page.offset - page.limit : 0n);
  if (BigInt(total) > page.offset + page.limit) links.next = href(page.offset + page.limit);
  return links;
}
