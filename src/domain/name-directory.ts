import type { StorageTransaction } from '../ports/storage.js';
import { CorruptValue } from '../shared/command.js';
import { tupleKey } from '../shared/keys.js';
import { isInteger, isString, isStringArray, shapeCheck } from '../shared/stored.js';
import type { Zone } from './zone.js';
import { zoneBlocks } from './recordset.js';

/**
 * The owner names of a zone's stored recordsets, for the rules a create checks (CNAME alone at
 * its name, one recordset per name and type): rows of up to {@link ROW_ENTRIES} sorted
 * `name TAB type` entries, one index entry per row keyed by (zone, last entry), so the entries
 * of a name are found with one ordered lookup and kept with one row write.
 *
 * Imports do not build it: an imported zone's heap per record stays what it was, and a zone
 * that is never written through the API never pays for it. The first create in a zone builds it
 * from the zone's blocks (once, O(zone)); every later write keeps it in O(row). Its marker row
 * remembers the zone's serial and counts at the last write, so a directory that some other
 * writer of the blocks left behind (a transfer from a master, say) is rebuilt rather than
 * trusted.
 * @internal
 */
export const RECORDSET_NAMES = 'dns.recordset_names';
/** Index of the directory rows: (zone, last entry). @internal */
export const NAMES_BY_ZONE = 'zone';

const ROW_ENTRIES = 512;

/** One directory row. @internal */
export interface NameRow {
  readonly zoneId: string;
  /** Sorted `name TAB type` entries (a tab never occurs in a valid owner name or type). */
  readonly entries: readonly string[];
}

/** The marker row: what the zone looked like when the directory was last brought up to date. @internal */
export interface NameMarker {
  readonly zoneId: string;
  readonly serial: number;
  readonly recordsets: number;
  readonly records: number;
}

/** Index keys of a directory row (the marker row has none). @internal */
export const nameRowKeys = (r: NameRow | NameMarker): Record<string, string | undefined> =>
  'entries' in r && r.entries.length > 0 ? { [NAMES_BY_ZONE]: tupleKey(r.zoneId, r.entries[r.entries.length - 1]!) } : {};

const markerId = (zoneId: string): string => `${zoneId}/marker`;

const rowProblem = shapeCheck({ zoneId: isString, entries: isStringArray });
const markerProblem = shapeCheck({ zoneId: isString, serial: isInteger, recordsets: isInteger, records: isInteger });

/** A directory row (`marker`: the marker row) read back under `id` for `zoneId`, checked. */
function checkedRow(id: string, value: unknown, zoneId: string, marker: true): NameMarker;
function checkedRow(id: string, value: unknown, zoneId: string, marker: false): NameRow;
function checkedRow(id: string, value: unknown, zoneId: string, marker: boolean): NameRow | NameMarker {
  const problem = (marker ? markerProblem : rowProblem)(value);
  if (problem !== undefined) throw new CorruptValue(RECORDSET_NAMES, id, problem);
  const row = value as NameRow | NameMarker;
  if (row.zoneId !== zoneId) throw new CorruptValue(RECORDSET_NAMES, id, `it belongs to zone ${row.zoneId.slice(0, 100)}`);
  return row;
}
const entry = (name: string, type: string): string => `${name}\t${type}`;
const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether the directory of `zone` matches the zone's current blocks. */
async function current(tx: StorageTransaction, zone: Zone): Promise<boolean> {
  const stored = await tx.get(RECORDSET_NAMES, markerId(zone.id));
  const m = stored === undefined ? undefined : checkedRow(markerId(zone.id), stored, zone.id, true);
  return m !== undefined && m.serial === zone.serial && m.recordsets === zone.recordsetCount && m.records === zone.recordCount;
}

/** Removes a zone's directory, marker included. @internal */
export async function dropNameDirectory(tx: StorageTransaction, zoneId: string): Promise<void> {
  for (;;) {
    const batch = await tx.range(RECORDSET_NAMES, NAMES_BY_ZONE, { prefix: tupleKey(zoneId), limit: 256 });
    if (batch.length === 0) break;
    for (const e of batch) await tx.delete(RECORDSET_NAMES, e.id);
  }
  await tx.delete(RECORDSET_NAMES, markerId(zoneId));
}

/** Builds a zone's directory from its blocks: the one O(zone) step, taken once per zone. */
async function build(tx: StorageTransaction, zone: Zone, newRowId: () => string): Promise<void> {
  await dropNameDirectory(tx, zone.id);
  const all: string[] = [];
  for await (const { block: b } of zoneBlocks(tx, zone.id)) {
    for (let i = 0; i < b.names.length; i++) all.push(entry(b.names[i]!, b.types[i]!));
  }
  all.sort(byString);
  for (let i = 0; i < all.length; i += ROW_ENTRIES) await putRow(tx, `${zone.id}/${newRowId()}`, { zoneId: zone.id, entries: all.slice(i, i + ROW_ENTRIES) });
}

async function putRow(tx: StorageTransaction, id: string, row: NameRow): Promise<void> {
  if (row.entries.length === 0) await tx.delete(RECORDSET_NAMES, id);
  else await tx.put(RECORDSET_NAMES, id, Object.freeze({ zoneId: row.zoneId, entries: Object.freeze(row.entries) }), nameRowKeys(row));
}

/** The rows that may hold entries of `name`: from the first whose last entry is not below it. */
async function rowsFrom(tx: StorageTransaction, zoneId: string, name: string, limit: number) {
  return tx.range(RECORDSET_NAMES, NAMES_BY_ZONE, { prefix: tupleKey(zoneId), after: { key: tupleKey(zoneId, `${name}\t`), id: '' }, limit });
}

/**
 * The types of the stored recordsets of `zone` named exactly `name` (names compare as stored),
 * bringing the directory up to date first when it is missing or stale.
 * @internal
 */
export async function typesAtName(tx: StorageTransaction, zone: Zone, name: string, newRowId: () => string): Promise<string[]> {
  if (!(await current(tx, zone))) {
    await build(tx, zone, newRowId);
    await markWritten(tx, zone);
  }
  const prefix = `${name}\t`;
  const out: string[] = [];
  // A name has at most a dozen types, so its entries span at most two rows.
  for (const e of await rowsFrom(tx, zone.id, name, 2)) {
    for (const x of checkedRow(e.id, e.value, zone.id, false).entries) if (x.startsWith(prefix)) out.push(x.slice(prefix.length));
  }
  return out;
}

/** After a write that changed no name: keeps a current directory current. @internal */
export async function keepCurrent(tx: StorageTransaction, before: Zone, after: Zone): Promise<void> {
  if (await current(tx, before)) await markWritten(tx, after);
}

/** Records that the directory matches `zone` as it now stands (after a write). @internal */
export async function markWritten(tx: StorageTransaction, zone: Zone): Promise<void> {
  const marker: NameMarker = Object.freeze({ zoneId: zone.id, serial: zone.serial, recordsets: zone.recordsetCount, records: zone.recordCount });
  await tx.put(RECORDSET_NAMES, markerId(zone.id), marker, {});
}

/**
 * Adds (`add`) or removes one entry, in O(row), when the directory exists and was current
 * before the write (`before`); otherwise leaves it to be rebuilt by the next create. Then marks
 * it current for `after`.
 * @internal
 */
export async function noteName(tx: StorageTransaction, before: Zone, after: Zone, name: string, type: string, add: boolean, newRowId: () => string): Promise<void> {
  if (!(await current(tx, before))) return;
  const e = entry(name, type);
  const found = await tx.range(RECORDSET_NAMES, NAMES_BY_ZONE, { prefix: tupleKey(before.id), after: { key: tupleKey(before.id, e), id: '' }, limit: 1 });
  let target = found[0];
  if (target === undefined && add) {
    target = (await tx.range(RECORDSET_NAMES, NAMES_BY_ZONE, { prefix: tupleKey(before.id), direction: 'desc', limit: 1 }))[0];
  }
  if (target === undefined) {
    if (add) await putRow(tx, `${before.id}/${newRowId()}`, { zoneId: before.id, entries: [e] });
    await markWritten(tx, after);
    return;
  }
  const entries = [...checkedRow(target.id, target.value, before.id, false).entries];
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]! < e) lo = mid + 1;
    else hi = mid;
  }
  if (add) entries.splice(lo, 0, e);
  else if (entries[lo] === e) entries.splice(lo, 1);
  if (entries.length > ROW_ENTRIES) {
    const half = entries.length >>> 1;
    await putRow(tx, target.id, { zoneId: before.id, entries: entries.slice(0, half) });
    await putRow(tx, `${before.id}/${newRowId()}`, { zoneId: before.id, entries: entries.slice(half) });
  } else {
    await putRow(tx, target.id, { zoneId: before.id, entries });
  }
  await markWritten(tx, after);
}
