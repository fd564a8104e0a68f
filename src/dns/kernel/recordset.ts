import { CorruptValue } from '../../kernel/command.js';
import { tupleKey } from '../../kernel/keys.js';
import { isInteger, isPlainObject, isString, isStringArray, oneOf, optional, orNull, shapeCheck } from '../../kernel/stored.js';
import type { RecordsetColumns } from './blocks.js';

/**
 * Stored (non-managed) recordsets of one zone, a few hundred at a time, in columns.
 *
 * Recordsets are read-only once an import has created them and they all go with their zone, so
 * a row (and an index entry, a row id and an index key) per recordset would cost far more than
 * the recordset itself. A block holds a run of consecutive recordsets instead, each column an
 * array with one entry per recordset, the records of all of them in one flat array.
 *
 * Recordset ids are drawn from the service's id source and assigned in ascending order of
 * creation, so within a zone creation order, id order and the list's default order (created_at,
 * then id: every recordset of a zone shares its created_at) are one order. The blocks of a zone
 * partition that order, and the one index entry per block, keyed by the zone and the block's last
 * id, finds the block holding any id with one ordered lookup: enough for `get` and marker paging.
 *
 * What every imported recordset shares is not stored: description null, version 1, updated_at
 * null.
 * @internal
 */
export interface RecordsetBlock extends RecordsetColumns {
  readonly zoneId: string;
  /** The zone's project, for the cross-zone list (rewritten when the zone is transferred). */
  readonly projectId: string;
  /** created_at of every recordset in the block (the zone's). */
  readonly createdAt: number;
  /**
   * Ids, ascending: when they all have one length (UUIDs do), concatenated into one string
   * (36 bytes a UUID, against 64 for a string of its own and its array slot); else an array.
   */
  readonly ids: string | readonly string[];
  /** The length of every id when `ids` is one string. */
  readonly idWidth: number;
  /**
   * What a recordset written through the API has of its own (null for one an import or a
   * transfer created); absent while the block holds none, so imported zones pay nothing for it.
   */
  readonly meta?: readonly (RecordsetMeta | null)[];
}

/**
 * The fields of a recordset written through the API that imported ones share with their zone.
 * @internal
 */
export interface RecordsetMeta {
  readonly createdAt: number;
  readonly updatedAt: number | null;
  readonly version: number;
  readonly description: string | null;
  /** `CREATE` or `UPDATE` while the write waits for the pool targets; `NONE` with no records. */
  readonly action: 'CREATE' | 'UPDATE' | 'NONE';
  /** The zone serial the write made: the write is served once the zone is ACTIVE at or past it. */
  readonly serial: number;
}

/** What `RecordsetBlock.typeCodes` adds to a type's index: printable, and one byte up to 223 types. @internal */
export const TYPE_CODE_BASE = 0x20;

/** Turns type codes into a `typeCodes` string. */
const CODES = new TextDecoder('utf-16le');

/** The type of a block's `i`-th recordset. @internal */
export const typeAt = (b: RecordsetBlock, i: number): string => b.typeNames[b.typeCodes.charCodeAt(i) - TYPE_CODE_BASE]!;

/** A type column as a block stores it (`typeNames` and `typeCodes`), from one type per recordset. @internal */
export function packTypes(types: readonly string[]): { typeNames: readonly string[]; typeCodes: string } {
  const typeNames: string[] = [];
  const codes = new Uint16Array(types.length);
  for (let i = 0; i < types.length; i++) {
    const t = types[i]!;
    // A block holds a handful of types: a scan finds one faster than a map (and its strings are shared, so compare by reference first).
    let k = typeNames.indexOf(t);
    if (k < 0) k = typeNames.push(t) - 1;
    codes[i] = TYPE_CODE_BASE + k;
  }
  return { typeNames: Object.freeze(typeNames), typeCodes: CODES.decode(codes) };
}

/** Index: the imported blocks of a zone, keyed by (zone, last id) (written ones are in `BLOCK_INDEXES.written`). @internal */
export const BLOCKS_BY_ZONE = 'zone';

/** Stored recordsets of zones, in blocks (see `RecordsetBlock`), written by imports. @internal */
export const RECORDSETS = 'dns.recordset_blocks';

/**
 * The indexes of the recordset blocks.
 *
 * Imported blocks (many recordsets, no `meta`) are found through `imported` (which is
 * {@link BLOCKS_BY_ZONE}: an index entry costs more than a hundred bytes, a byte per imported
 * record when there are two), keyed by (zone, last id): inside a zone they all share one created_at, updated_at (null) and status, so every sort
 * key but name, type and ttl orders them by id, which is the order of that index. A recordset
 * written through the API is a block of its own (one index entry each, which a recordset someone
 * wrote is worth) under a row id made from its id, with one entry per sort key of the per-zone
 * list, so a page in any order reads only what it shows.
 * @internal
 */
export const BLOCK_INDEXES = {
  imported: BLOCKS_BY_ZONE,
  written: 'written',
  created: 'w_created',
  updated: 'w_updated',
  name: 'w_name',
  type: 'w_type',
  ttl: 'w_ttl',
  status: 'w_status',
  /** Written recordsets of every zone by id: a cross-zone marker is one look-up. */
  byId: 'w_id',
  /** Cross-zone (`GET /v2/recordsets`), by project and for all projects: written by (created_at, id). */
  projectCreated: 'p_created',
  allCreated: 'a_created',
} as const;

/**
 * One row per zone holding imported recordsets, for the cross-zone list: a zone's imported
 * recordsets share one created_at, so the row (zone, project, that created_at) tells where in
 * created_at order they all sit. One row a zone, not an index entry a block: a million imported
 * records would otherwise pay a byte each for the cross-zone list.
 * @internal
 */
export const RECORDSET_ZONES = 'dns.recordset_zones';
/** Indexes of {@link RECORDSET_ZONES}: by (project, created_at, zone) and by (created_at, zone). @internal */
export const IMPORTED_ZONES = { byProject: 'project', all: 'created' } as const;

/** A row of {@link RECORDSET_ZONES}. @internal */
export interface ImportedZone {
  readonly zoneId: string;
  readonly projectId: string;
  readonly createdAt: number;
  /** The prefix bits of the zone's owner index (`owner-index.ts`): it has up to 2^ownerBits rows. */
  readonly ownerBits: number;
  /** The key of the index's owner hashes (`ownerNameHash`); absent in rows stored before there was one (then FNV-1a). */
  readonly ownerKey?: readonly [number, number];
}

/** Index keys of an {@link ImportedZone} row. @internal */
export const importedZoneKeys = (r: ImportedZone): Record<string, string> => ({
  [IMPORTED_ZONES.byProject]: tupleKey(r.projectId, r.createdAt, r.zoneId),
  [IMPORTED_ZONES.all]: tupleKey(r.createdAt, r.zoneId),
});

/** Whether a block is one recordset written through the API (else it holds imported ones). @internal */
export const isWritten = (b: RecordsetBlock): boolean => b.meta !== undefined;

/** Row id of the block of a recordset written through the API: found by id with one get. @internal */
export const writtenRowId = (zoneId: string, id: string): string => `${zoneId}/w/${id}`;

/** A nullable integer as key parts that sort null first, then by value. */
const nullable = (n: number | null): (string | number)[] => (n === null ? [0] : [1, n]);

/**
 * The key of a written recordset in the index of `sortKey` (a per-zone list sort key), from the
 * value the list compares (the body's, case folded as the list folds text) and its id. Also the
 * position a page seeks to when the marker is any recordset with that value and id. `status`
 * takes 0 for ACTIVE, 1 for the zone's other status (see `listRecordsets`).
 * @internal
 */
export function writtenKey(sortKey: string, zoneId: string, value: string | number | null, id: string): string {
  switch (sortKey) {
    case 'created_at':
      return tupleKey(zoneId, value as number, id);
    case 'updated_at':
    case 'ttl':
      return tupleKey(zoneId, ...nullable(value as number | null), id);
    case 'name':
    case 'type':
      return tupleKey(zoneId, String(value).toLowerCase(), id);
    case 'status':
      return tupleKey(zoneId, value as number, id);
    default:
      return tupleKey(zoneId, id);
  }
}

/** Index keys of a block. @internal */
export function blockKeys(b: RecordsetBlock): Record<string, string> {
  const last = b.names.length === 0 ? '' : idAt(b, b.names.length - 1);
  const all = tupleKey(b.zoneId, last);
  const m = b.meta?.[0];
  if (!isWritten(b) || m === null || m === undefined) {
    return { [BLOCK_INDEXES.imported]: all };
  }
  const z = b.zoneId;
  return {
    [BLOCK_INDEXES.written]: all,
    [BLOCK_INDEXES.byId]: tupleKey(last),
    [BLOCK_INDEXES.projectCreated]: tupleKey(b.projectId, m.createdAt, last),
    [BLOCK_INDEXES.allCreated]: tupleKey(m.createdAt, last),
    [BLOCK_INDEXES.created]: writtenKey('created_at', z, m.createdAt, last),
    [BLOCK_INDEXES.updated]: writtenKey('updated_at', z, m.updatedAt, last),
    [BLOCK_INDEXES.name]: writtenKey('name', z, b.names[0]!, last),
    [BLOCK_INDEXES.type]: writtenKey('type', z, typeAt(b, 0), last),
    [BLOCK_INDEXES.ttl]: writtenKey('ttl', z, b.ttls[0]!, last),
    [BLOCK_INDEXES.status]: writtenKey('status', z, m.action === 'NONE' ? 0 : 1, last),
  };
}

/**
 * Whether a stored block is of the layout this version writes: its zone's project in it, a
 * written recordset alone in its block. Snapshots taken before that kept written recordsets
 * inside imported blocks, and no project.
 * @internal
 */
export const isCurrentLayout = (b: RecordsetBlock): boolean =>
  typeof b.projectId === 'string' && (!isWritten(b) || (b.names.length === 1 && b.meta?.[0] !== null && b.meta?.[0] !== undefined));

/** Row id of a zone's `n`-th block: zone id first, so one zone's blocks sit together in a scan. @internal */
export const blockRowId = (zoneId: string, n: number): string => `${zoneId}/${n.toString(16).padStart(8, '0')}`;

/** The id of a block's `i`-th recordset. @internal */
export function idAt(b: RecordsetBlock, i: number): string {
  return typeof b.ids === 'string' ? b.ids.slice(i * b.idWidth, (i + 1) * b.idWidth) : b.ids[i]!;
}

/** A block's ids as stored: one string when they share a length. @internal */
export function packIds(ids: readonly string[]): { ids: string | readonly string[]; idWidth: number } {
  const width = ids[0]?.length ?? 0;
  for (const id of ids) if (id.length !== width) return { ids: Object.freeze(ids.slice()), idWidth: 0 };
  return { ids: ids.join(''), idWidth: width };
}

/** Position of `id` in a block, or of the first greater id as `-(position + 1)`. @internal */
export function findId(b: RecordsetBlock, id: string): number {
  let lo = 0;
  let hi = b.names.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = idAt(b, mid);
    if (v < id) lo = mid + 1;
    else if (v > id) hi = mid - 1;
    else return mid;
  }
  return -(lo + 1);
}

const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
const metaProblem = shapeCheck({
  createdAt: isInteger,
  updatedAt: orNull(isInteger),
  version: isInteger,
  description: orNull(isString),
  action: oneOf('CREATE', 'UPDATE', 'NONE'),
  serial: isInteger,
});

/**
 * Why a stored block is not one (its columns of one length, its record ends rising to the end of
 * its data, its ids as many as its names), or undefined. A block out of step with itself would
 * answer other recordsets' names and records. Costs O(block), as reading it does.
 */
function blockProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'not an object';
  const b = value as { readonly [K in keyof RecordsetBlock]-?: unknown };
  if (typeof b.zoneId !== 'string') return 'zoneId is not a string';
  if (typeof b.projectId !== 'string') return 'projectId is not a string';
  if (!isInteger(b.createdAt)) return 'createdAt is not an integer';
  if (!isStringArray(b.names) || !isStringArray(b.typeNames) || !isStringArray(b.data)) return 'names, typeNames or data is not an array of strings';
  const names = b.names as readonly string[];
  const n = names.length;
  if (typeof b.typeCodes !== 'string' || b.typeCodes.length !== n) return 'typeCodes is not one type per recordset';
  const kinds = (b.typeNames as readonly string[]).length;
  for (let i = 0; i < n; i++) {
    const code = b.typeCodes.charCodeAt(i) - TYPE_CODE_BASE;
    if (code < 0 || code >= kinds) return 'typeCodes names a type typeNames does not hold';
  }
  const { ttls, ends, ids, idWidth } = b;
  if (!Array.isArray(ttls) || ttls.length !== n || !ttls.every((t) => t === null || isInteger(t))) return 'ttls is not one TTL or null per recordset';
  if (!Array.isArray(ends) || ends.length !== n) return 'ends is not one end per recordset';
  let last = 0;
  for (const end of ends) {
    if (!isCount(end) || (end as number) < last) return 'ends do not rise';
    last = end as number;
  }
  if (last !== (b.data as readonly string[]).length) return 'ends and data differ';
  if (typeof ids === 'string') {
    if (!isCount(idWidth) || ids.length !== (idWidth as number) * n) return 'ids do not hold one id per recordset';
  } else if (!isStringArray(ids) || (ids as readonly string[]).length !== n) return 'ids do not hold one id per recordset';
  if (b.meta !== undefined) {
    if (!Array.isArray(b.meta) || b.meta.length !== n) return 'meta is not one entry per recordset';
    for (const m of b.meta) {
      const problem = m === null ? undefined : metaProblem(m);
      if (problem !== undefined) return `meta: ${problem}`;
    }
  }
  return undefined;
}

/**
 * A block read back under `rowId`, checked: whole (see `blockProblem`) and filed under its own
 * zone (`zoneId`, when the reader knows which zone it asked for, must be that zone). Every read
 * of a block goes through here.
 * @internal
 */
export function checkedBlock(rowId: string, value: unknown, zoneId?: string): RecordsetBlock {
  const problem = blockProblem(value);
  if (problem !== undefined) throw new CorruptValue(RECORDSETS, rowId, problem);
  const b = value as RecordsetBlock;
  if (!rowId.startsWith(`${b.zoneId}/`) || (zoneId !== undefined && b.zoneId !== zoneId)) {
    throw new CorruptValue(RECORDSETS, rowId, `it belongs to zone ${b.zoneId.slice(0, 100)}`);
  }
  return b;
}

/** Two unsigned 32-bit integers, as `drawOwnerKey` makes them. */
const isOwnerKey = (v: unknown): boolean => Array.isArray(v) && v.length === 2 && v.every((w) => Number.isInteger(w) && w >= 0 && w < 2 ** 32);

const importedZoneProblem = shapeCheck({ zoneId: isString, projectId: isString, createdAt: isInteger, ownerBits: isInteger, ownerKey: optional(isOwnerKey) });

/**
 * An {@link ImportedZone} row read back under `zoneId`, checked: its fields, and filed under the
 * zone it names.
 * @internal
 */
export function checkedImportedZone(zoneId: string, value: unknown): ImportedZone {
  const problem = importedZoneProblem(value);
  if (problem !== undefined) throw new CorruptValue(RECORDSET_ZONES, zoneId, problem);
  const row = value as ImportedZone;
  // More prefix bits than rows an index of a billion owners has: not a value an import wrote.
  if (row.ownerBits < 0 || row.ownerBits > 24) throw new CorruptValue(RECORDSET_ZONES, zoneId, 'ownerBits is out of range');
  if (row.zoneId !== zoneId) throw new CorruptValue(RECORDSET_ZONES, zoneId, `it names zone ${row.zoneId.slice(0, 100)}`);
  return row;
}

