import { packIds, type RecordsetBlock } from './recordset.js';

/**
 * Most recordsets in one block. A get or a page reads whole blocks: small enough that this stays
 * cheap (a few tens of kilobytes of JSON for a database adapter), large enough that the per-row
 * cost of the storage (row, index entry, row id, key) is a byte or two per recordset.
 * @internal
 */
export const BLOCK_RECORDSETS = 256;
/** Most records in one block, unless a single recordset has more (a recordset is never split). @internal */
export const BLOCK_RECORDS = 1024;

/** The recordsets of one block in creation order, in columns, before they have ids. @internal */
export interface RecordsetColumns {
  readonly names: readonly string[];
  readonly types: readonly string[];
  readonly ttls: readonly (number | null)[];
  /** Where each recordset's records end in `data` (cumulative counts). */
  readonly ends: readonly number[];
  readonly data: readonly string[];
}

/**
 * Where the blocks of a zone start: the index of the first recordset of each block, then `count`
 * (so block `b` holds recordsets `bounds[b]` to `bounds[b + 1] - 1`). Known before any column is
 * filled, so every column is allocated at its exact size: arrays grown by push keep up to half
 * again as many slots, for as long as the zone lives.
 * @param sizes - records in each recordset, in creation order
 * @param count - how many of `sizes` are recordsets
 * @internal
 */
export function blockBounds(sizes: ArrayLike<number>, count: number): number[] {
  const bounds = [0];
  let sets = 0;
  let records = 0;
  for (let i = 0; i < count; i++) {
    const size = sizes[i]!;
    if (sets > 0 && (sets === BLOCK_RECORDSETS || records + size > BLOCK_RECORDS)) {
      bounds.push(i);
      sets = 0;
      records = 0;
    }
    sets++;
    records += size;
  }
  if (count > 0) bounds.push(count);
  return bounds;
}

/**
 * The blocks of a zone: planned columns with ids attached. `ids` are the recordsets' ids,
 * ascending, one per recordset across all the columns, in order.
 * @internal
 */
export function buildBlocks(zoneId: string, createdAt: number, ids: readonly string[], planned: readonly RecordsetColumns[]): RecordsetBlock[] {
  const blocks: RecordsetBlock[] = [];
  let from = 0;
  for (const cols of planned) {
    const to = from + cols.names.length;
    blocks.push(
      Object.freeze({
        zoneId,
        createdAt,
        ...packIds(ids.slice(from, to)),
        names: Object.freeze(cols.names),
        types: Object.freeze(cols.types),
        ttls: Object.freeze(cols.ttls),
        ends: Object.freeze(cols.ends),
        data: Object.freeze(cols.data),
      }),
    );
    from = to;
  }
  return blocks;
}

const TIE_BITS = 2 ** 21;

/** The first 8 characters as a number when they are lower-case hex digits (their string order), else -1. */
function hexPrefix(s: string): number {
  if (s.length < 8) return -1;
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 97 && c <= 102) d = c - 87;
    else return -1;
    v = v * 16 + d;
  }
  return v;
}

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Ids in ascending string order. Sorting hundreds of thousands of random UUIDs with a string
 * comparator takes seconds, longer than parsing the file they came with; their first 8 hex digits
 * and their position fit in one double, and a typed-array sort of those takes a few tens of
 * milliseconds. Ids that are already in order (a counting id source) cost one pass; ids of another
 * shape fall back to the plain sort.
 * @internal
 */
export function sortIds(ids: string[]): string[] {
  const n = ids.length;
  let ordered = true;
  for (let i = 1; i < n; i++) {
    if (ids[i - 1]! > ids[i]!) {
      ordered = false;
      break;
    }
  }
  if (ordered) return ids;
  if (n > TIE_BITS) return ids.sort(byString);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = hexPrefix(ids[i]!);
    if (p < 0) return ids.sort(byString);
    keys[i] = p * TIE_BITS + i;
  }
  keys.sort();
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = ids[keys[i]! % TIE_BITS]!;
  // Ids sharing their first 8 digits are ordered by position so far: order them by the rest.
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i < n && Math.floor(keys[i]! / TIE_BITS) === Math.floor(keys[start]! / TIE_BITS)) continue;
    if (i - start > 1) {
      const run = out.slice(start, i).sort(byString);
      for (let j = 0; j < run.length; j++) out[start + j] = run[j]!;
    }
    start = i;
  }
  return out;
}
