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
  /** The block's types, each once: `typeCodes` numbers them. */
  readonly typeNames: readonly string[];
  /**
   * Per recordset, its type as a character: `TYPE_CODE_BASE` + its index in `typeNames` (see
   * `typeAt` and `packTypes` in recordset.ts). A character a recordset, against 8 bytes for a slot of an array of types.
   */
  readonly typeCodes: string;
  readonly ttls: readonly (number | null)[];
  /** Where each recordset's records end in `data` (cumulative counts). */
  readonly ends: readonly number[];
  /** The records of every recordset of the block, in order. */
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
export function buildBlocks(zoneId: string, projectId: string, createdAt: number, ids: SortedIds, planned: readonly RecordsetColumns[]): RecordsetBlock[] {
  const blocks: RecordsetBlock[] = [];
  let from = 0;
  for (const cols of planned) {
    const to = from + cols.names.length;
    blocks.push(
      Object.freeze({
        zoneId,
        projectId,
        createdAt,
        ...(isPacked(ids) ? { ids: ASCII.decode(ids.text.subarray(from * ids.width, to * ids.width)), idWidth: ids.width } : packIds(ids.slice(from, to))),
        names: Object.freeze(cols.names),
        typeNames: Object.freeze(cols.typeNames),
        typeCodes: cols.typeCodes,
        ttls: Object.freeze(cols.ttls),
        ends: Object.freeze(cols.ends),
        data: Object.freeze(cols.data),
      }),
    );
    from = to;
  }
  return blocks;
}

/**
 * Ids in ascending order as one ASCII text, `width` characters each: what a block stores (its ids
 * as one string), made without a string per id.
 * @internal
 */
export interface PackedIds {
  readonly text: Uint8Array;
  readonly width: number;
  readonly count: number;
}

/** Ids in ascending order, one string each or packed. @internal */
export type SortedIds = readonly string[] | PackedIds;

const isPacked = (ids: SortedIds): ids is PackedIds => !Array.isArray(ids);

/** ASCII bytes to text: the UTF-8 decoder's ASCII path, a flat one-byte string. */
const ASCII = new TextDecoder();

/** Id `i` of `ids`. @internal */
export function sortedIdAt(ids: SortedIds, i: number): string {
  return isPacked(ids) ? ASCII.decode(ids.text.subarray(i * ids.width, (i + 1) * ids.width)) : ids[i]!;
}

/** How many ids `ids` holds. @internal */
export const sortedIdCount = (ids: SortedIds): number => (isPacked(ids) ? ids.count : ids.length);

/** Whether `id` is `width` ASCII characters. */
function asciiOfWidth(id: string, width: number): boolean {
  if (id.length !== width) return false;
  for (let i = 0; i < width; i++) if (id.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * The `extra.length` smallest of `ids` and `extra` together, ascending, and the others, still
 * in order. An import's zone takes the smallest ids for its own SOA and NS recordsets.
 * @internal
 */
export function takeSmallest(ids: SortedIds, extra: readonly string[]): { smallest: string[]; rest: SortedIds } {
  const m = Math.min(extra.length, sortedIdCount(ids));
  const head = [...extra];
  for (let i = 0; i < m; i++) head.push(sortedIdAt(ids, i));
  head.sort(byString);
  const smallest = head.slice(0, extra.length);
  const left = head.slice(extra.length);
  if (!isPacked(ids) || !left.every((id) => asciiOfWidth(id, ids.width))) {
    const rest = isPacked(ids) ? Array.from({ length: ids.count - m }, (_, i) => sortedIdAt(ids, m + i)) : ids.slice(m);
    for (const id of left) rest.splice(lowerBound(rest.length, (i) => rest[i]! < id), 0, id);
    return { smallest, rest };
  }
  const { width } = ids;
  const count = ids.count - m + left.length;
  const text = new Uint8Array(count * width);
  let from = m; // next id of `ids` to copy
  let to = 0; // ids written
  for (const id of left) {
    const until = m + lowerBound(ids.count - m, (i) => sortedIdAt(ids, m + i) < id);
    text.set(ids.text.subarray(from * width, until * width), to * width);
    to += until - from;
    from = until;
    for (let k = 0; k < width; k++) text[to * width + k] = id.charCodeAt(k);
    to++;
  }
  text.set(ids.text.subarray(from * width), to * width);
  return { smallest, rest: { text, width, count } };
}

/** The first of 0 … n - 1 for which `before` is false (`before` true on a prefix). */
function lowerBound(n: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

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

/** One stable counting-sort pass: the positions in `from`, ordered by 16 bits of their keys from `shift`, into `to`. */
function countingPass(keys: Uint32Array, shift: number, from: Uint32Array, to: Uint32Array): void {
  const starts = new Uint32Array(65537);
  for (let i = 0; i < from.length; i++) {
    const digit = ((keys[from[i]!]! >>> shift) & 0xffff) + 1;
    starts[digit] = starts[digit]! + 1;
  }
  for (let d = 1; d <= 65536; d++) starts[d] = starts[d]! + starts[d - 1]!;
  for (let i = 0; i < from.length; i++) {
    const at = from[i]!;
    const digit = (keys[at]! >>> shift) & 0xffff;
    to[starts[digit]!] = at;
    starts[digit] = starts[digit]! + 1;
  }
}

/**
 * The positions of `keys` in ascending key order, equal keys in position order: a least
 * significant digit radix sort, two passes of 16 bits.
 */
function radixOrder(keys: Uint32Array): Uint32Array {
  const n = keys.length;
  const positions = new Uint32Array(n);
  for (let i = 0; i < n; i++) positions[i] = i;
  const low = new Uint32Array(n);
  countingPass(keys, 0, positions, low);
  countingPass(keys, 16, low, positions);
  return positions;
}

/**
 * Draws `count` ids from `source` and returns them in ascending string order.
 *
 * Sorting hundreds of thousands of random UUIDs with a string comparator takes seconds, longer
 * than parsing the file they came with; their first 8 hex digits are a 32-bit number in the same
 * order, and a radix sort of those takes a few milliseconds (ids that share them are then ordered
 * by the rest). Ids that come in order (a counting id source) cost one pass; ids of another shape
 * fall back to the plain sort.
 *
 * The key is read as each id is drawn, not afterwards: reading a string that a source built by
 * concatenation (as `crypto.randomUUID` and template literals build theirs) flattens it, and done
 * at once the pieces die young, where read after a few hundred thousand more allocations they
 * have been copied into the old generation first (several times the cost of the draw).
 * @internal
 */
export function drawSortedIds(count: number, source: () => string): string[] {
  const ids = new Array<string>(count);
  const prefixes = new Uint32Array(count);
  let keyed = true;
  let ordered = true;
  for (let i = 0; i < count; i++) {
    const id = source();
    ids[i] = id;
    if (keyed) {
      const p = hexPrefix(id);
      if (p < 0) keyed = false;
      else prefixes[i] = p;
    }
    if (ordered && i > 0 && ids[i - 1]! > id) ordered = false;
  }
  if (ordered) return ids;
  if (!keyed) return ids.sort(byString);
  const order = radixOrder(prefixes);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) out[i] = ids[order[i]!]!;
  let start = 0;
  for (let i = 1; i <= count; i++) {
    if (i < count && prefixes[order[i]!] === prefixes[order[start]!]) continue;
    if (i - start > 1) {
      const run = out.slice(start, i).sort(byString);
      for (let j = 0; j < run.length; j++) out[start + j] = run[j]!;
    }
    start = i;
  }
  return out;
}

/** Per byte value, the character codes of its two lower-case hex digits. */
const HEX_HIGH = new Uint8Array(256);
const HEX_LOW = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  HEX_HIGH[b] = (b >> 4 < 10 ? 48 : 87) + (b >> 4);
  HEX_LOW[b] = ((b & 15) < 10 ? 48 : 87) + (b & 15);
}

/**
 * Writes the 16 bytes at `bytes[from]` as a UUID's 36 characters at `text[to]`. Unrolled, with
 * the tables in locals: run once per import over every id, this loop runs mostly before the
 * optimiser has compiled it, where each operation saved counts.
 */
function writeUuid(bytes: Uint8Array, from: number, text: Uint8Array, to: number): void {
  const hi = HEX_HIGH;
  const lo = HEX_LOW;
  let b = bytes[from]!;
  text[to] = hi[b]!;
  text[to + 1] = lo[b]!;
  b = bytes[from + 1]!;
  text[to + 2] = hi[b]!;
  text[to + 3] = lo[b]!;
  b = bytes[from + 2]!;
  text[to + 4] = hi[b]!;
  text[to + 5] = lo[b]!;
  b = bytes[from + 3]!;
  text[to + 6] = hi[b]!;
  text[to + 7] = lo[b]!;
  text[to + 8] = 45;
  b = bytes[from + 4]!;
  text[to + 9] = hi[b]!;
  text[to + 10] = lo[b]!;
  b = bytes[from + 5]!;
  text[to + 11] = hi[b]!;
  text[to + 12] = lo[b]!;
  text[to + 13] = 45;
  b = bytes[from + 6]!;
  text[to + 14] = hi[b]!;
  text[to + 15] = lo[b]!;
  b = bytes[from + 7]!;
  text[to + 16] = hi[b]!;
  text[to + 17] = lo[b]!;
  text[to + 18] = 45;
  b = bytes[from + 8]!;
  text[to + 19] = hi[b]!;
  text[to + 20] = lo[b]!;
  b = bytes[from + 9]!;
  text[to + 21] = hi[b]!;
  text[to + 22] = lo[b]!;
  text[to + 23] = 45;
  for (let k = 10, p = to + 24; k < 16; k++, p += 2) {
    b = bytes[from + k]!;
    text[p] = hi[b]!;
    text[p + 1] = lo[b]!;
  }
}

/**
 * Draws `count` ids from `source`, ascending, as {@link drawSortedIds} does; from the default
 * source (`BinaryUuidSource`), drawn as bytes and ordered and written out packed, with no string
 * per id: 100,000 short strings made and held until they are joined into blocks cost the
 * collector more than making them.
 * @internal
 */
export function drawSortedPacked(count: number, source: (() => string) & { readonly binary?: (count: number) => Uint8Array }): SortedIds {
  if (source.binary === undefined) return drawSortedIds(count, source);
  const bytes = source.binary(count);
  // The first four bytes, big-endian, order ids as their first eight hex digits do.
  const keys = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const at = i * 16;
    keys[i] = ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
  }
  const order = radixOrder(keys);
  // Ids that share their first four bytes (about one pair in 100,000) are ordered by the rest.
  const rest = (a: number, b: number): number => {
    for (let k = 4; k < 16; k++) {
      const d = bytes[a * 16 + k]! - bytes[b * 16 + k]!;
      if (d !== 0) return d;
    }
    return 0;
  };
  for (let start = 0, i = 1; i <= count; i++) {
    if (i < count && keys[order[i]!] === keys[order[start]!]) continue;
    if (i - start > 1) order.subarray(start, i).sort(rest);
    start = i;
  }
  const text = new Uint8Array(count * 36);
  for (let i = 0; i < count; i++) writeUuid(bytes, order[i]! * 16, text, i * 36);
  return { text, width: 36, count };
}
