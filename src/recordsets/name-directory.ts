import type { IndexPosition, StorageTransaction } from '../ports/storage.js';
import { CorruptValue } from '../shared/command.js';
import { tupleKey } from '../shared/keys.js';
import { isInteger, isString, shapeCheck } from '../shared/stored.js';
import type { Zone } from '../zones/zone.js';
import { radixOrder } from './blocks.js';
import { BLOCK_INDEXES, blockRowId, checkedBlock, RECORDSETS, type RecordsetBlock } from './recordset.js';

/**
 * Where the owner names of a zone's imported recordsets are, for the rules a create checks (CNAME
 * alone at its name, one recordset per name and type): an owner-name index the import (or the
 * transfer from a master) writes with its blocks, so that no write ever reads the whole zone.
 *
 * One entry per owner name of each block: a 30-bit hash of the name (FNV-1a, seeded by the zone's
 * id, so that no file can aim its names at one hash in every zone) and the block's number, packed
 * into a string in hash order, {@link ROW_ENTRIES} to a row, one index entry per row keyed by
 * (zone, last hash). A name's blocks are one ordered look-up away, and each one read tells by its
 * names which of its recordsets are the name's: a hash shared by other names, or an entry left
 * behind by a recordset since changed or deleted through the API (the index is never rewritten),
 * costs a block read and no wrong answer. Recordsets written through the API have an index of
 * their own by name (`BLOCK_INDEXES.name`).
 *
 * Why not the names themselves, sorted: an import's recordsets are stored in the order the real
 * service creates them (which its lists and exports show), not by name, so an index of names
 * needs a copy of each, and sorting a million names takes longer than the 5 % of an import that
 * this index may cost; its entries take 6 bytes (a zone of up to 32,768 blocks) or 8.
 * @internal
 */
export const RECORDSET_OWNERS = 'dns.recordset_owners';
/** Index of the owner rows: (zone, last hash of the row). @internal */
export const OWNERS_BY_ZONE = 'zone';

/** Entries in a full row: a row is about 12 KiB of string, read whole by a look-up. */
const ROW_ENTRIES = 2048;
/** Bits a string character carries: characters from {@link CHAR_BASE} on, none a surrogate or NUL (a JSON or jsonb value holds them as they are). */
const CHAR_BITS = 15;
const CHAR_BASE = 0x100;
const CHAR_MASK = (1 << CHAR_BITS) - 1;

/** One row of the owner index: `entries` packs (hash, block) pairs, `width` characters each, in hash order. @internal */
export interface OwnerRow {
  readonly zoneId: string;
  /** Characters per entry: 2 for the hash, then 1 or 2 for the block number. */
  readonly width: number;
  readonly entries: string;
}

/** Index keys of an owner row. @internal */
export const ownerRowKeys = (r: OwnerRow): Record<string, string> => ({ [OWNERS_BY_ZONE]: tupleKey(r.zoneId, hashAt(r.entries, r.width, r.entries.length / r.width - 1)) });

/** Row id of a zone's `n`-th owner row. @internal */
export const ownerRowId = (zoneId: string, n: number): string => `${zoneId}/${n.toString(16).padStart(8, '0')}`;

const rowProblem = shapeCheck({ zoneId: isString, width: isInteger, entries: isString });

/** An owner row read back under `id` for `zoneId`, checked: its fields, whole entries, filed under its zone. */
function checkedRow(id: string, value: unknown, zoneId: string): OwnerRow {
  const problem = rowProblem(value);
  if (problem !== undefined) throw new CorruptValue(RECORDSET_OWNERS, id, problem);
  const row = value as OwnerRow;
  if (row.zoneId !== zoneId) throw new CorruptValue(RECORDSET_OWNERS, id, `it belongs to zone ${row.zoneId.slice(0, 100)}`);
  if ((row.width !== 3 && row.width !== 4) || row.entries.length === 0 || row.entries.length % row.width !== 0) {
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

/** The 30-bit hash of an owner name in a zone (`seed` from {@link zoneSeed}). */
function nameHash(seed: number, name: string): number {
  let h = seed;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  // Fold the top bits in rather than drop them: FNV's low bits mix least.
  return ((h >>> 2) ^ (h >>> 30)) & 0x3fffffff;
}

const hashAt = (entries: string, width: number, k: number): number =>
  ((entries.charCodeAt(k * width) - CHAR_BASE) << CHAR_BITS) | (entries.charCodeAt(k * width + 1) - CHAR_BASE);

const blockAt = (entries: string, width: number, k: number): number =>
  width === 3
    ? entries.charCodeAt(k * width + 2) - CHAR_BASE
    : (entries.charCodeAt(k * width + 2) - CHAR_BASE) * (CHAR_MASK + 1) + (entries.charCodeAt(k * width + 3) - CHAR_BASE);

/**
 * The owner rows of a zone's imported blocks (`blocks[n]` is stored as block `n`): one entry per
 * run of one name in a block (an import stores an owner's recordsets together), sorted by hash
 * with a radix sort (a few milliseconds for a million names). O(recordsets).
 * @internal
 */
export function ownerRows(zoneId: string, blocks: readonly RecordsetBlock[]): OwnerRow[] {
  let count = 0;
  for (const b of blocks) for (let i = 0; i < b.names.length; i++) if (i === 0 || b.names[i] !== b.names[i - 1]) count++;
  const hashes = new Uint32Array(count);
  const numbers = new Uint32Array(count);
  const seed = zoneSeed(zoneId);
  let k = 0;
  for (let n = 0; n < blocks.length; n++) {
    const names = blocks[n]!.names;
    for (let i = 0; i < names.length; i++) {
      if (i > 0 && names[i] === names[i - 1]) continue;
      hashes[k] = nameHash(seed, names[i]!);
      numbers[k++] = n;
    }
  }
  const order = radixOrder(hashes);
  const width = blocks.length <= CHAR_MASK + 1 ? 3 : 4;
  const rows: OwnerRow[] = [];
  for (let from = 0; from < count; from += ROW_ENTRIES) {
    const to = Math.min(count, from + ROW_ENTRIES);
    const codes = new Uint16Array((to - from) * width);
    let c = 0;
    for (let i = from; i < to; i++) {
      const h = hashes[order[i]!]!;
      const n = numbers[order[i]!]!;
      codes[c++] = CHAR_BASE + (h >>> CHAR_BITS);
      codes[c++] = CHAR_BASE + (h & CHAR_MASK);
      if (width === 4) codes[c++] = CHAR_BASE + Math.floor(n / (CHAR_MASK + 1));
      codes[c++] = CHAR_BASE + (n & CHAR_MASK);
    }
    rows.push(Object.freeze({ zoneId, width, entries: String.fromCharCode(...codes) }));
  }
  return rows;
}

/** Stores a zone's owner rows (see {@link ownerRows}); returns how many. @internal */
export async function putOwnerRows(tx: StorageTransaction, zoneId: string, blocks: readonly RecordsetBlock[]): Promise<number> {
  const rows = ownerRows(zoneId, blocks);
  for (let n = 0; n < rows.length; n++) await tx.put(RECORDSET_OWNERS, ownerRowId(zoneId, n), rows[n]!, ownerRowKeys(rows[n]!));
  return rows.length;
}

/** Removes a zone's owner rows. @internal */
export async function dropOwnerRows(tx: StorageTransaction, zoneId: string): Promise<void> {
  for (;;) {
    const batch = await tx.range(RECORDSET_OWNERS, OWNERS_BY_ZONE, { prefix: tupleKey(zoneId), limit: 256 });
    if (batch.length === 0) break;
    for (const e of batch) await tx.delete(RECORDSET_OWNERS, e.id);
  }
}

/** The numbers of the imported blocks that may hold recordsets named `name`: one ordered look-up and the rows a run of its hash spans. */
async function blocksNamed(tx: StorageTransaction, zoneId: string, name: string): Promise<Set<number>> {
  const h = nameHash(zoneSeed(zoneId), name);
  const out = new Set<number>();
  let after: IndexPosition = { key: tupleKey(zoneId, h), id: '' };
  for (;;) {
    const e = (await tx.range(RECORDSET_OWNERS, OWNERS_BY_ZONE, { prefix: tupleKey(zoneId), after, limit: 1 }))[0];
    if (e === undefined) return out;
    const { entries, width } = checkedRow(e.id, e.value, zoneId);
    const n = entries.length / width;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (hashAt(entries, width, mid) < h) lo = mid + 1;
      else hi = mid;
    }
    for (; lo < n && hashAt(entries, width, lo) === h; lo++) out.add(blockAt(entries, width, lo));
    // A run of the hash that reaches the row's end may go on in the next row (keyed by the same hash).
    if (lo < n) return out;
    after = { key: e.key, id: e.id };
  }
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
    for (let i = 0; i < b.names.length; i++) if (b.names[i] === name) out.push(b.types[i]!);
  };
  for (const n of await blocksNamed(tx, zone.id, name)) {
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
