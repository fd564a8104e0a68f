import type { IndexKeys, RangeQuery, StoredEntry } from '../../ports/storage.js';
import type { Row } from './batch.js';
import { decodeKey, encodeKey, prefixEnd } from './key-codec.js';

/**
 * Values, keys and arguments as they go to the server and come back: JSON text, `bytea` in hex,
 * integers as text, index entries as arrays.
 * @module
 * @internal
 */

/** A `bytea` column as the server writes it in text (`\\x` and hex). @internal */
export function bytes(text: string | null): Buffer {
  if (text === null || !text.startsWith('\\x')) throw new Error("zoneward/postgres: bytea_output must be 'hex' (the default)");
  return Buffer.from(text.slice(2), 'hex');
}

/** @internal */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function deepFreeze(v: unknown): unknown {
  if (isRecord(v)) {
    for (const k of Object.keys(v)) deepFreeze(v[k]);
    Object.freeze(v);
  }
  return v;
}

/** Parses a stored value; frozen like every value the memory adapter hands out. @internal */
export const thaw = (text: string): unknown => deepFreeze(JSON.parse(text));

/** A value as the JSON text stored for it; refuses one JSON cannot carry. @internal */
export function serialise(collection: string, id: string, value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError(`zoneward/postgres: ${collection}/${id}: the value is not JSON-serialisable`);
  return text;
}

/** The SQLSTATE of a server error, if `e` is one. @internal */
export const sqlState = (e: unknown): string | undefined => (isRecord(e) && typeof e.code === 'string' ? e.code : undefined);

/** @internal */
export const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/**
 * Refuses a string no statement can carry: PostgreSQL text cannot hold U+0000. Checked when a
 * call is made, so the caller hears of it then rather than from a failed commit.
 * @internal
 */
export function checkText(s: string): string {
  if (s.includes('\u0000')) throw new TypeError(`zoneward/postgres: ${JSON.stringify(s)}: names cannot contain U+0000 (PostgreSQL text cannot)`);
  return s;
}

/** An integer parameter, as text. @internal */
export function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`zoneward/postgres: not an integer argument: ${n}`);
  return String(n);
}

/** A value's index entries as statement arguments; refuses an index name no statement could carry. @internal */
export function indexEntries(keys: IndexKeys): { names: string[]; encoded: Buffer[] } {
  const names: string[] = [];
  const encoded: Buffer[] = [];
  for (const name in keys) {
    const key = keys[name];
    if (key === undefined) continue;
    names.push(checkText(name));
    encoded.push(encodeKey(key));
  }
  return { names, encoded };
}

const ZERO = Buffer.of(0);

/**
 * Where a range's keys end (exclusive): past the prefix, or, for an exact key, at the least key
 * above it (the key followed by U+0000, whose encoding is the key's followed by a zero byte).
 * @internal
 */
export const rangeEnd = (start: Buffer, q: RangeQuery): Buffer | undefined => (q.exact === true ? Buffer.concat([start, ZERO]) : prefixEnd(start));

/** Index order: JS string order of the key, then of the id (what the encoded bytes sort by). @internal */
export const byKeyThenId = (a: StoredEntry, b: StoredEntry): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** An entry from a row whose columns from `at` on are key, id and value. @internal */
export const entry = (r: Row, at = 0): StoredEntry => ({ key: decodeKey(bytes(r[at]!)), id: decodeKey(bytes(r[at + 1]!)), value: thaw(r[at + 2]!) });
