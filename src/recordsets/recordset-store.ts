import type { IndexPosition, StorageTransaction } from '../ports/storage.js';
import { tupleKey } from '../shared/keys.js';
import { RECORDSETS } from './recordset.js';
import type { Zone } from '../zones/zone.js';
import { BLOCK_RECORDS, BLOCK_RECORDSETS } from './blocks.js';
import { BLOCKS_BY_ZONE, blockKeys, findId, idAt, packIds, type RecordsetBlock, type RecordsetMeta } from './recordset.js';

/** One recordset taken out of its block, as a write sees it. @internal */
export interface RecordsetRow {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly ttl: number | null;
  readonly records: readonly string[];
  readonly meta: RecordsetMeta | null;
}

/** A stored block, its row id and where its index entry sits. @internal */
export interface PlacedBlock {
  readonly rowId: string;
  readonly block: RecordsetBlock;
  readonly at: IndexPosition;
}

/** The block of `zone` that holds `id` if any does: the first whose last id is not below `id`. @internal */
export async function blockAt(tx: StorageTransaction, zoneId: string, id: string): Promise<PlacedBlock | undefined> {
  const found = await tx.range(RECORDSETS, BLOCKS_BY_ZONE, { prefix: tupleKey(zoneId), after: { key: tupleKey(zoneId, id), id: '' }, limit: 1 });
  const e = found[0];
  return e === undefined ? undefined : { rowId: e.id, block: e.value as RecordsetBlock, at: { key: e.key, id: e.id } };
}

/** The zone's block with the greatest ids, if it has any. */
async function lastBlock(tx: StorageTransaction, zoneId: string): Promise<PlacedBlock | undefined> {
  const found = await tx.range(RECORDSETS, BLOCKS_BY_ZONE, { prefix: tupleKey(zoneId), direction: 'desc', limit: 1 });
  const e = found[0];
  return e === undefined ? undefined : { rowId: e.id, block: e.value as RecordsetBlock, at: { key: e.key, id: e.id } };
}

/** The `i`-th recordset of a block as a row. @internal */
export function rowAt(b: RecordsetBlock, i: number): RecordsetRow {
  return {
    id: idAt(b, i),
    name: b.names[i]!,
    type: b.types[i]!,
    ttl: b.ttls[i]!,
    records: b.data.slice(i === 0 ? 0 : b.ends[i - 1]!, b.ends[i]),
    meta: b.meta?.[i] ?? null,
  };
}

/** Finds a stored recordset of a zone by id: its block and position, or undefined. @internal */
export async function findRecordset(tx: StorageTransaction, zoneId: string, id: string): Promise<{ placed: PlacedBlock; i: number } | undefined> {
  const placed = await blockAt(tx, zoneId, id);
  if (placed === undefined) return undefined;
  const i = findId(placed.block, id);
  return i < 0 ? undefined : { placed, i };
}

/**
 * A block made of rows, in id order. Imported blocks keep their shared creation time and no
 * `meta` column until a written recordset joins them.
 */
function makeBlock(zoneId: string, createdAt: number, rows: readonly RecordsetRow[]): RecordsetBlock {
  const ends: number[] = [];
  const data: string[] = [];
  for (const r of rows) {
    for (const d of r.records) data.push(d);
    ends.push(data.length);
  }
  const block: { -readonly [K in keyof RecordsetBlock]: RecordsetBlock[K] } = {
    zoneId,
    createdAt,
    ...packIds(rows.map((r) => r.id)),
    names: Object.freeze(rows.map((r) => r.name)),
    types: Object.freeze(rows.map((r) => r.type)),
    ttls: Object.freeze(rows.map((r) => r.ttl)),
    ends: Object.freeze(ends),
    data: Object.freeze(data),
  };
  if (rows.some((r) => r.meta !== null)) block.meta = Object.freeze(rows.map((r) => r.meta));
  return Object.freeze(block);
}

const rowsOf = (b: RecordsetBlock): RecordsetRow[] => Array.from({ length: b.names.length }, (_, i) => rowAt(b, i));

/**
 * Writes a block's new rows back: removed when empty, split in two when it outgrew the block
 * limits (the second half under a fresh row id), else rewritten in place. Costs O(block).
 */
async function storeRows(tx: StorageTransaction, zoneId: string, createdAt: number, rowId: string, rows: RecordsetRow[], newRowId: () => string): Promise<void> {
  if (rows.length === 0) {
    await tx.delete(RECORDSETS, rowId);
    return;
  }
  const records = rows.reduce((n, r) => n + r.records.length, 0);
  if (rows.length > BLOCK_RECORDSETS || (records > BLOCK_RECORDS && rows.length > 1)) {
    const half = rows.length >>> 1;
    const first = makeBlock(zoneId, createdAt, rows.slice(0, half));
    const second = makeBlock(zoneId, createdAt, rows.slice(half));
    await tx.put(RECORDSETS, rowId, first, blockKeys(first));
    await tx.put(RECORDSETS, `${zoneId}/${newRowId()}`, second, blockKeys(second));
    return;
  }
  const block = makeBlock(zoneId, createdAt, rows);
  await tx.put(RECORDSETS, rowId, block, blockKeys(block));
}

/**
 * Adds a recordset to its zone's blocks: into the block whose id range holds its id (or the
 * last block, or a new one), which is split when it grows past the limits. O(block).
 * @internal
 */
export async function insertRecordset(tx: StorageTransaction, zone: Zone, row: RecordsetRow, newRowId: () => string): Promise<void> {
  const placed = (await blockAt(tx, zone.id, row.id)) ?? (await lastBlock(tx, zone.id));
  if (placed === undefined) {
    const block = makeBlock(zone.id, zone.createdAt, [row]);
    await tx.put(RECORDSETS, `${zone.id}/${newRowId()}`, block, blockKeys(block));
    return;
  }
  const rows = rowsOf(placed.block);
  const pos = findId(placed.block, row.id);
  rows.splice(pos < 0 ? -pos - 1 : pos, pos < 0 ? 0 : 1, row);
  await storeRows(tx, zone.id, placed.block.createdAt, placed.rowId, rows, newRowId);
}

/** Replaces the `i`-th recordset of a placed block (same id). O(block). @internal */
export async function replaceRecordset(tx: StorageTransaction, placed: PlacedBlock, i: number, row: RecordsetRow, newRowId: () => string): Promise<void> {
  const rows = rowsOf(placed.block);
  rows[i] = row;
  await storeRows(tx, placed.block.zoneId, placed.block.createdAt, placed.rowId, rows, newRowId);
}

/** Removes the `i`-th recordset of a placed block; an emptied block goes. O(block). @internal */
export async function removeRecordset(tx: StorageTransaction, placed: PlacedBlock, i: number): Promise<void> {
  const rows = rowsOf(placed.block);
  rows.splice(i, 1);
  await storeRows(tx, placed.block.zoneId, placed.block.createdAt, placed.rowId, rows, () => '');
}
