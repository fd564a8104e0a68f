import type { IndexPosition, StorageTransaction } from '../../ports/storage.js';
import { tupleKey } from '../../kernel/keys.js';
import type { Zone } from './zone.js';
import { dropOwnerRows, putOwnerRows, type OwnerKey } from './owner-index.js';
import {
  BLOCK_INDEXES,
  blockKeys,
  blockRowId,
  checkedBlock,
  checkedImportedZone,
  findId,
  idAt,
  importedZoneKeys,
  packIds,
  packTypes,
  RECORDSET_ZONES,
  RECORDSETS,
  typeAt,
  writtenRowId,
  type ImportedZone,
  type RecordsetBlock,
  type RecordsetMeta,
} from './recordset.js';

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

/** The imported block of `zone` that holds `id` if any does: the first whose last id is not below `id`. @internal */
export async function blockAt(tx: StorageTransaction, zoneId: string, id: string): Promise<PlacedBlock | undefined> {
  const found = await tx.range(RECORDSETS, BLOCK_INDEXES.imported, { prefix: tupleKey(zoneId), after: { key: tupleKey(zoneId, id), id: '' }, limit: 1 });
  const e = found[0];
  return e === undefined ? undefined : { rowId: e.id, block: checkedBlock(e.id, e.value, zoneId), at: { key: e.key, id: e.id } };
}

/** The `i`-th recordset of a block as a row. @internal */
export function rowAt(b: RecordsetBlock, i: number): RecordsetRow {
  return {
    id: idAt(b, i),
    name: b.names[i]!,
    type: typeAt(b, i),
    ttl: b.ttls[i]!,
    records: b.data.slice(i === 0 ? 0 : b.ends[i - 1]!, b.ends[i]),
    meta: b.meta?.[i] ?? null,
  };
}

/**
 * Finds a stored recordset of a zone by id: its block and position, or undefined. A written one
 * is one get away (its row id is made from its id); an imported one one ordered look-up.
 * @internal
 */
export async function findRecordset(tx: StorageTransaction, zoneId: string, id: string): Promise<{ placed: PlacedBlock; i: number } | undefined> {
  const rowId = writtenRowId(zoneId, id);
  const stored = await tx.get(RECORDSETS, rowId);
  const own = stored === undefined ? undefined : checkedBlock(rowId, stored, zoneId);
  if (own !== undefined) return { placed: { rowId, block: own, at: { key: tupleKey(zoneId, id), id: rowId } }, i: 0 };
  const placed = await blockAt(tx, zoneId, id);
  if (placed === undefined) return undefined;
  const i = findId(placed.block, id);
  return i < 0 ? undefined : { placed, i };
}

/**
 * A block made of rows, in id order. Imported blocks keep their shared creation time and no
 * `meta` column; a written recordset's block has one.
 */
function makeBlock(zoneId: string, projectId: string, createdAt: number, rows: readonly RecordsetRow[]): RecordsetBlock {
  const ends: number[] = [];
  const data: string[] = [];
  for (const r of rows) {
    for (const d of r.records) data.push(d);
    ends.push(data.length);
  }
  const block: { -readonly [K in keyof RecordsetBlock]: RecordsetBlock[K] } = {
    zoneId,
    projectId,
    createdAt,
    ...packIds(rows.map((r) => r.id)),
    names: Object.freeze(rows.map((r) => r.name)),
    ...packTypes(rows.map((r) => r.type)),
    ttls: Object.freeze(rows.map((r) => r.ttl)),
    ends: Object.freeze(ends),
    data: Object.freeze(data),
  };
  if (rows.some((r) => r.meta !== null)) block.meta = Object.freeze(rows.map((r) => r.meta));
  return Object.freeze(block);
}

/**
 * Stores a recordset written through the API (created, or an imported one changed) as a block
 * of its own, replacing what that block held. O(log n): one row and its index entries.
 * @internal
 */
export async function putWritten(tx: StorageTransaction, zone: Zone, row: RecordsetRow & { readonly meta: RecordsetMeta }): Promise<void> {
  const block = makeBlock(zone.id, zone.projectId, row.meta.createdAt, [row]);
  await tx.put(RECORDSETS, writtenRowId(zone.id, row.id), block, blockKeys(block));
}

/**
 * Removes a stored recordset: a written one's block goes; an imported one leaves its block
 * (rewritten without it, or removed when emptied). O(block).
 * @internal
 */
export async function removeRecordset(tx: StorageTransaction, placed: PlacedBlock, i: number): Promise<void> {
  const b = placed.block;
  if (b.names.length === 1) {
    await tx.delete(RECORDSETS, placed.rowId);
    return;
  }
  const rows = Array.from({ length: b.names.length }, (_, k) => rowAt(b, k));
  rows.splice(i, 1);
  const block = makeBlock(b.zoneId, b.projectId, b.createdAt, rows);
  await tx.put(RECORDSETS, placed.rowId, block, blockKeys(block));
}

/**
 * Stores the blocks an import or a transfer from a master made for a zone (which holds no other
 * imported ones), their owner index (from `ownerHashes`, the plan's, made under `ownerKey`), and the zone's row for the
 * cross-zone list.
 * @internal
 */
export async function storeImported(
  tx: StorageTransaction,
  zone: { readonly id: string; readonly name: string; readonly projectId: string },
  createdAt: number,
  blocks: readonly RecordsetBlock[],
  ownerHashes: Uint32Array,
  ownerKey: OwnerKey,
): Promise<void> {
  for (let n = 0; n < blocks.length; n++) await tx.put(RECORDSETS, blockRowId(zone.id, n), blocks[n]!, blockKeys(blocks[n]!));
  const ownerBits = await putOwnerRows(tx, zone, blocks, ownerHashes);
  const row: ImportedZone = Object.freeze({ zoneId: zone.id, projectId: zone.projectId, createdAt, ownerBits, ownerKey });
  await tx.put(RECORDSET_ZONES, zone.id, row, importedZoneKeys(row));
}

/** Removes every stored recordset of a zone and its owner index (a SECONDARY zone's before a transfer writes its new ones; a zone's as it goes). @internal */
export async function removeRecordsets(tx: StorageTransaction, zoneId: string): Promise<void> {
  const ids: string[] = [];
  for await (const { id } of zoneBlocks(tx, zoneId)) ids.push(id);
  for (const id of ids) await tx.delete(RECORDSETS, id);
  await dropOwnerRows(tx, zoneId);
  await tx.delete(RECORDSET_ZONES, zoneId);
}

/** Every block of a zone, imported ones (in id order) then written ones (in id order), a batch at a time. @internal */
export async function* zoneBlocks(tx: StorageTransaction, zoneId: string): AsyncGenerator<{ readonly id: string; readonly block: RecordsetBlock }> {
  for (const index of [BLOCK_INDEXES.imported, BLOCK_INDEXES.written]) {
    let after: { key: string; id: string } | undefined;
    for (;;) {
      const batch = await tx.range(RECORDSETS, index, { prefix: tupleKey(zoneId), limit: 256, ...(after === undefined ? {} : { after }) });
      for (const e of batch) yield { id: e.id, block: checkedBlock(e.id, e.value, zoneId) };
      const last = batch[batch.length - 1];
      if (last === undefined || batch.length < 256) break;
      after = { key: last.key, id: last.id };
    }
  }
}

/**
 * Moves a zone's stored recordsets to the project that accepted the zone (a transfer): their
 * blocks name the project for the cross-zone list, so each is rewritten (its zone index keys
 * unchanged). O(blocks of the zone).
 * @internal
 */
export async function moveRecordsets(tx: StorageTransaction, zoneId: string, projectId: string): Promise<void> {
  for await (const { id, block } of zoneBlocks(tx, zoneId)) {
    const moved: RecordsetBlock = Object.freeze({ ...block, projectId });
    await tx.put(RECORDSETS, id, moved, blockKeys(moved));
  }
  const stored = await tx.get(RECORDSET_ZONES, zoneId);
  const row = stored === undefined ? undefined : checkedImportedZone(zoneId, stored);
  if (row !== undefined) {
    const movedRow: ImportedZone = Object.freeze({ ...row, projectId });
    await tx.put(RECORDSET_ZONES, zoneId, movedRow, importedZoneKeys(movedRow));
  }
}
