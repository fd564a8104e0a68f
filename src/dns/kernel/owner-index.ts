import type { IndexPosition, StorageTransaction } from '../../ports/storage.js';
import { CorruptValue } from '../../kernel/command.js';
import { tupleKey } from '../../kernel/keys.js';
import { isInteger, isString, shapeCheck } from '../../kernel/stored.js';
import type { Zone } from './zone.js';
import { BLOCK_INDEXES, blockRowId, checkedBlock, checkedImportedZone, RECORDSET_ZONES, RECORDSETS, typeAt, type RecordsetBlock } from './recordset.js';

/**
 * Where the owner names of a zone's imported recordsets are, for the rules a create checks (CNAME
 * alone at its name, one recordset per name and type): an owner index the import (or the transfer
 * from a master) writes with its blocks, so that no write ever reads the whole zone.
 *
 * One entry per owner of each block: a hash of the name and the block's number, packed into a
 * string (two characters of 15 bits, three in a zone of more than 2^18 blocks). The hash's top
 * `bits` choose the entry's row (2^bits rows, about {@link ROW_ENTRIES} entries each, fetched by
 * id), the next ones are kept in the entry. A name's blocks are one row read and scanned (a few
 * microseconds) away, and each block read tells by its names which of its recordsets are the name's: a
 * hash shared by other names, or an entry left behind by a recordset since changed or deleted
 * through the API (the index is never rewritten), costs a block read and never a wrong answer.
 * Recordsets written through the API are found by their own index by name
 * (`BLOCK_INDEXES.name`).
 *
 * Why not the names themselves, sorted: an import's recordsets are stored in the order the real
 * service creates them (its lists and exports show that order), not by name, so an index of the
 * names would need a copy of each, and sorting a million names takes longer than the 5 % of an
 * import this index may cost. The hashes are the ones the import's owner table computed.
 * @internal
 */
export const RECORDSET_OWNERS = 'dns.recordset_owners';
/** Index of the owner rows: by zone, so that a zone's rows are removed without knowing how many. @internal */
export const OWNERS_BY_ZONE = 'zone';

/** Entries a row holds on average at most: a row is a few kilobytes of string, read whole by a look-up. */
const ROW_ENTRIES = 1024;
/** Bits a string character carries: characters from {@link CHAR_BASE} on, none a surrogate or NUL (a JSON or jsonb value holds them as they are). */
const CHAR_BITS = 15;
const CHAR_BASE = 0x100;
const CHAR_MASK = (1 << CHAR_BITS) - 1;
/** Turns character codes into a string, ten times faster than `String.fromCharCode(...codes)`. */
const UTF16 = new TextDecoder('utf-16le');

/** One row of the owner index: the entries of one top-`bits` hash prefix, `width` characters each, in block order. @internal */
export interface OwnerRow {
  readonly zoneId: string;
  /** Characters per entry. */
  readonly width: number;
  /** Low bits of an entry that are the block number (the higher ones are hash). */
  readonly blockBits: number;
  readonly entries: string;
}

/** Index keys of an owner row. @internal */
export const ownerRowKeys = (r: OwnerRow): Record<string, string> => ({ [OWNERS_BY_ZONE]: tupleKey(r.zoneId) });

/** Row id of a zone's owner row for hash prefix `prefix`. @internal */
export const ownerRowId = (zoneId: string, prefix: number): string => `${zoneId}/${prefix.toString(16).padStart(8, '0')}`;

const rowProblem = shapeCheck({ zoneId: isString, width: isInteger, blockBits: isInteger, entries: isString });

/** An owner row read back under `id` for `zoneId`, checked: its fields, whole entries, filed under its zone. */
function checkedRow(id: string, value: unknown, zoneId: string): OwnerRow {
  const problem = rowProblem(value);
  if (problem !== undefined) throw new CorruptValue(RECORDSET_OWNERS, id, problem);
  const row = value as OwnerRow;
  if (row.zoneId !== zoneId) throw new CorruptValue(RECORDSET_OWNERS, id, `it belongs to zone ${row.zoneId.slice(0, 100)}`);
  if ((row.width !== 2 && row.width !== 3) || row.blockBits < 1 || row.blockBits > row.width * CHAR_BITS - 8 || row.entries.length % row.width !== 0) {
    throw new CorruptValue(RECORDSET_OWNERS, id, 'its entries are not whole');
  }
  return row;
}

/** The seed of a zone's hashes: FNV-1a of its id. */
function zoneSeed(zoneId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < zoneId.length; i++) h = Math.imul(h ^ zoneId.charCodeAt(i), 16777619);
  return h;
}

/**
 * The key of a zone's owner hashes: two 32-bit words (HalfSipHash's 64-bit key), drawn per zone
 * from the injected random source and stored with the zone's index, so that restoring a
 * snapshot or reading the zone back from PostgreSQL hashes names as the import did.
 * @internal
 */
export type OwnerKey = readonly [number, number];

/** A fresh {@link OwnerKey} from `random` (the service's injected source). @internal */
export const drawOwnerKey = (random: () => number): OwnerKey => [Math.floor(random() * 2 ** 32) >>> 0, Math.floor(random() * 2 ** 32) >>> 0];

/**
 * HalfSipHash-1-3 (Aumasson's 32-bit SipHash, the keyed hash Linux uses for its hash tables)
 * of `s`'s first `end` UTF-16 code units, read as their little-endian bytes: a PRF, so names
 * made to collide under one key (or found colliding offline) collide under a random other one
 * no more often than any names. Unkeyed FNV-1a, which the index used before, let anyone build
 * thousands of names of one hash in a second, making every later write in such a zone read
 * every block holding one of them.
 * @internal
 */
export function keyedHash(s: string, end: number, key: OwnerKey): number {
  let v0 = key[0] | 0;
  let v1 = key[1] | 0;
  let v2 = 0x6c796765 ^ v0;
  let v3 = 0x74656462 ^ v1;
  const words = end >> 1;
  // One SipRound per message word (two code units), the length word last; then 0xff into v2 and three more rounds.
  for (let w = 0; w <= words + 3; w++) {
    let m = 0;
    if (w < words) m = s.charCodeAt(2 * w) | (s.charCodeAt(2 * w + 1) << 16);
    else if (w === words) m = (end << 25) | ((end & 1) === 1 ? s.charCodeAt(end - 1) : 0);
    else if (w === words + 1) v2 ^= 0xff;
    v3 ^= m;
    v0 = (v0 + v1) | 0;
    v1 = (v1 << 5) | (v1 >>> 27);
    v1 ^= v0;
    v0 = (v0 << 16) | (v0 >>> 16);
    v2 = (v2 + v3) | 0;
    v3 = (v3 << 8) | (v3 >>> 24);
    v3 ^= v2;
    v0 = (v0 + v3) | 0;
    v3 = (v3 << 7) | (v3 >>> 25);
    v3 ^= v0;
    v2 = (v2 + v1) | 0;
    v1 = (v1 << 13) | (v1 >>> 19);
    v1 ^= v2;
    v2 = (v2 << 16) | (v2 >>> 16);
    v0 ^= m;
  }
  return (v1 ^ v3) >>> 0;
}

/**
 * The hash an import's owner table gives an owner name of zone `zoneName` (`ImportOwners.of` in
 * import-plan.ts, which hashes the name as it reads each record): {@link keyedHash} under the
 * zone's `key` of the name in lower case without the zone's suffix, which every owner of the
 * zone shares. Names that differ only in case or in the spelling of that suffix hash alike; the
 * block read tells them apart. An index stored without a key (before there was one) was made
 * with FNV-1a, which is what it is read with.
 * @internal
 */
export function ownerNameHash(name: string, zoneName: string, key: OwnerKey | undefined): number {
  const lower = name.toLowerCase();
  const origin = zoneName.toLowerCase();
  const end = lower.length - (origin === '.' ? 1 : origin.length + 1);
  if (key !== undefined) return keyedHash(lower, end, key);
  let h = 0x811c9dc5;
  for (let i = 0; i < end; i++) h = Math.imul(h ^ lower.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** An owner hash mixed with the zone's seed (murmur3's finaliser), so that entries spread evenly over the rows whatever the names. */
function entryHash(seed: number, ownerHash: number): number {
  let h = (ownerHash ^ seed) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The entry of a row at `k`, as a number: hash key, then block number. */
function entryAt(entries: string, width: number, k: number): number {
  let v = 0;
  for (let c = k * width, end = c + width; c < end; c++) v = v * 2 ** CHAR_BITS + (entries.charCodeAt(c) - CHAR_BASE);
  return v;
}

/** The layout of a zone's index: prefix bits, then per entry the block bits and characters. */
function layout(entries: number, blocks: number): { bits: number; blockBits: number; width: number; keyBits: number } {
  let bits = 0;
  while (entries > ROW_ENTRIES << bits) bits++;
  let blockBits = 1;
  while (blocks > 2 ** blockBits) blockBits++;
  const width = blockBits <= 2 * CHAR_BITS - 12 ? 2 : 3;
  return { bits, blockBits, width, keyBits: Math.min(32 - bits, width * CHAR_BITS - blockBits) };
}

/**
 * The owner index of a zone's imported blocks (`blocks[n]` is stored as block `n`): one entry per
 * owner of each block (an import stores an owner's recordsets together), from the owner hashes
 * the import computed (`ownerHashes`: one per recordset, in the blocks' order), and its prefix
 * bits (the zone's row for the cross-zone list keeps them). Passes over the hashes that put
 * each entry in its row: O(recordsets), no name read, no sort.
 * @internal
 */
export function ownerRows(zone: { readonly id: string }, blocks: readonly RecordsetBlock[], ownerHashes: Uint32Array): { bits: number; rows: Map<number, OwnerRow> } {
  let total = 0;
  for (const b of blocks) total += b.names.length;
  if (total !== ownerHashes.length) throw new RangeError(`ownerRows: ${ownerHashes.length} owner hashes for ${total} recordsets`);
  // One entry per run of an owner in a block. Two owners of one hash side by side share one: the
  // block read finds both. Each entry's mixed hash and block, computed once.
  const seed = zoneSeed(zone.id);
  const hashes = new Uint32Array(total);
  const blockOf = new Uint32Array(total);
  let count = 0;
  for (let n = 0, at = 0; n < blocks.length; n++) {
    for (let i = 0, size = blocks[n]!.names.length; i < size; i++, at++) {
      if (i > 0 && ownerHashes[at] === ownerHashes[at - 1]) continue;
      hashes[count] = entryHash(seed, ownerHashes[at]!);
      blockOf[count++] = n;
    }
  }
  const { bits, blockBits, width, keyBits } = layout(count, blocks.length);
  const keyShift = 32 - keyBits;
  const blockScale = 2 ** blockBits;
  // Each row's entries counted, then written into their row's characters.
  const sizes = new Uint32Array(1 << bits);
  for (let e = 0; e < count; e++) {
    const row = bits === 0 ? 0 : hashes[e]! >>> (32 - bits);
    sizes[row] = sizes[row]! + 1;
  }
  const codes = Array.from(sizes, (n) => new Uint16Array(n * width));
  const fill = new Uint32Array(1 << bits);
  for (let e = 0; e < count; e++) {
    const h = hashes[e]!;
    const row = bits === 0 ? 0 : h >>> (32 - bits);
    const v = ((bits === 0 ? h : (h << bits) >>> 0) >>> keyShift) * blockScale + blockOf[e]!;
    const into = codes[row]!;
    const c = fill[row]!;
    fill[row] = c + width;
    if (width === 2) {
      into[c] = CHAR_BASE + (v >>> CHAR_BITS);
      into[c + 1] = CHAR_BASE + (v & CHAR_MASK);
    } else {
      const high = Math.floor(v / 2 ** (2 * CHAR_BITS));
      const low = v - high * 2 ** (2 * CHAR_BITS);
      into[c] = CHAR_BASE + high;
      into[c + 1] = CHAR_BASE + (low >>> CHAR_BITS);
      into[c + 2] = CHAR_BASE + (low & CHAR_MASK);
    }
  }
  const rows = new Map<number, OwnerRow>();
  for (let r = 0; r < codes.length; r++) if (sizes[r]! > 0) rows.set(r, Object.freeze({ zoneId: zone.id, width, blockBits, entries: UTF16.decode(codes[r]) }));
  return { bits, rows };
}

/** Stores a zone's owner index (see {@link ownerRows}); returns its prefix bits. @internal */
export async function putOwnerRows(tx: StorageTransaction, zone: { readonly id: string }, blocks: readonly RecordsetBlock[], ownerHashes: Uint32Array): Promise<number> {
  const { bits, rows } = ownerRows(zone, blocks, ownerHashes);
  for (const [prefix, row] of rows) await tx.put(RECORDSET_OWNERS, ownerRowId(zone.id, prefix), row, ownerRowKeys(row));
  return bits;
}

/** Removes a zone's owner rows. @internal */
export async function dropOwnerRows(tx: StorageTransaction, zoneId: string): Promise<void> {
  for (;;) {
    const batch = await tx.range(RECORDSET_OWNERS, OWNERS_BY_ZONE, { prefix: tupleKey(zoneId), limit: 256 });
    if (batch.length === 0) break;
    for (const e of batch) await tx.delete(RECORDSET_OWNERS, e.id);
  }
}

/** The numbers of the imported blocks that may hold recordsets named `name`: one row read and scanned. @internal */
export async function blocksNamed(tx: StorageTransaction, zone: Zone, name: string): Promise<number[]> {
  const stored = await tx.get(RECORDSET_ZONES, zone.id);
  if (stored === undefined) return [];
  const { ownerBits, ownerKey } = checkedImportedZone(zone.id, stored);
  const hash = entryHash(zoneSeed(zone.id), ownerNameHash(name, zone.name, ownerKey));
  const rowId = ownerRowId(zone.id, ownerBits === 0 ? 0 : hash >>> (32 - ownerBits));
  const value = await tx.get(RECORDSET_OWNERS, rowId);
  if (value === undefined) return [];
  const { entries, width, blockBits } = checkedRow(rowId, value, zone.id);
  const key = (ownerBits === 0 ? hash : (hash << ownerBits) >>> 0) >>> (32 - Math.min(32 - ownerBits, width * CHAR_BITS - blockBits));
  // A row holds about ROW_ENTRIES entries whatever the zone's size: a scan of it is O(1).
  const scale = 2 ** blockBits;
  const out: number[] = [];
  for (let k = 0, n = entries.length / width; k < n; k++) {
    const v = entryAt(entries, width, k);
    if (Math.floor(v / scale) === key) out.push(v % scale);
  }
  return out;
}

/**
 * The types of the stored recordsets of `zone` named exactly `name` (names compare as stored):
 * imported ones through the owner index, written ones through their index by name.
 * O(log n + block) for each block the name's hash leads to (one, but for collisions).
 * @internal
 */
export async function typesAtName(tx: StorageTransaction, zone: Zone, name: string): Promise<string[]> {
  const out: string[] = [];
  const take = (b: RecordsetBlock): void => {
    for (let i = 0; i < b.names.length; i++) if (b.names[i] === name) out.push(typeAt(b, i));
  };
  for (const n of new Set(await blocksNamed(tx, zone, name))) {
    const rowId = blockRowId(zone.id, n);
    const stored = await tx.get(RECORDSETS, rowId);
    if (stored !== undefined) take(checkedBlock(rowId, stored, zone.id));
  }
  // Written recordsets by (zone, name in lower case, id): a name's are one range, a dozen or so.
  const prefix = tupleKey(zone.id, name.toLowerCase());
  let next: IndexPosition | undefined;
  for (;;) {
    const batch = await tx.range(RECORDSETS, BLOCK_INDEXES.name, { prefix, limit: 64, ...(next === undefined ? {} : { after: next }) });
    for (const e of batch) take(checkedBlock(e.id, e.value, zone.id));
    const last = batch[batch.length - 1];
    if (last === undefined || batch.length < 64) return out;
    next = { key: last.key, id: last.id };
  }
}
