import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../kernel/api-error.js';
import { pythonIntLiteral } from '../kernel/python-int.js';
import { repeatedPagingParameter } from './quota-errors.js';

/** A normalised page request; bigints because an offset may be anything up to 2^63 − 1. @internal */
export interface Page {
  readonly offset: bigint;
  readonly limit: bigint;
}

const MAX_OFFSET = 2n ** 63n - 1n;

/** A query value as the integer the real service would parse from its text; `undefined` = absent or unparsable. */
function readInteger(value: unknown): Result<bigint | undefined, ApiError> {
  if (Array.isArray(value)) return err(repeatedPagingParameter());
  if (typeof value === 'string') {
    // The real service's int() raises ValueError for anything but a literal it can convert, and
    // the page falls back to its default.
    const n = pythonIntLiteral(value);
    return ok(typeof n === 'bigint' ? n : undefined);
  }
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
