import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { markerNotFound } from '../../kernel/errors.js';
import { tupleKey } from '../../kernel/keys.js';
import { compareValues, listOrder, type FieldValue, type ListSpec, type ParsedListQuery } from '../../kernel/list-query.js';
import type { IndexPosition, StorageTransaction } from '../../ports/storage.js';
import { zonePool, type DnsDeps } from './deps.js';
import type { Zone } from './zone.js';
import { zoneRepository as zones } from './zone-store.js';
import { BLOCK_INDEXES, findId, IMPORTED_ZONES, RECORDSET_ZONES, checkedBlock, checkedImportedZone, idAt, isWritten, RECORDSETS, typeAt, writtenKey, type RecordsetBlock } from './recordset.js';
import { managedCount, managedRecordsets, presentRecordset, type RecordsetBody } from './recordset-body.js';
import { writesPending } from './recordset-status.js';
import { blockAt, findRecordset } from './recordset-store.js';

/** Imported blocks read per range call while filling a page (a block may hold a single recordset). */
const BLOCKS_PER_READ = 4;
/** Blocks per range call when a whole zone's imported recordsets are scanned. */
const SCAN_READ = 64;

/** Sort keys under which every imported recordset of a zone has the same value (so id order is their order). */
const SHARED_VALUE = new Set(['created_at', 'updated_at', 'status']);

/** The per-zone index of written recordsets that serves a sort key. */
function writtenIndex(sortKey: string, zone: Zone): { index: string; keyOf: (r: RecordsetBody) => string } {
  const z = zone.id;
  const byId = { index: BLOCK_INDEXES.written, keyOf: (r: RecordsetBody) => tupleKey(z, r.id) };
  switch (sortKey) {
    case 'created_at':
      return { index: BLOCK_INDEXES.created, keyOf: (r) => writtenKey(sortKey, z, parseMicros(r.created_at), r.id) };
    case 'updated_at':
      return { index: BLOCK_INDEXES.updated, keyOf: (r) => writtenKey(sortKey, z, r.updated_at === null ? null : parseMicros(r.updated_at), r.id) };
    case 'name':
      return { index: BLOCK_INDEXES.name, keyOf: (r) => writtenKey(sortKey, z, r.name, r.id) };
    case 'type':
      return { index: BLOCK_INDEXES.type, keyOf: (r) => writtenKey(sortKey, z, r.type, r.id) };
    case 'ttl':
      return { index: BLOCK_INDEXES.ttl, keyOf: (r) => writtenKey(sortKey, z, r.ttl, r.id) };
    case 'status':
      // In an ACTIVE zone every written recordset is ACTIVE (a zone's serial never goes back, so
      // it is past every write's), as in a zone being deleted: id order. In a pending zone never
      // served yet, a written recordset is ACTIVE when it had no records to serve and shows the
      // zone's status else, which always sorts after ACTIVE: the index's 0/1 is that order. (A
      // pending zone served before holds served writes too: its status pages are sorted whole,
      // see `mixedStatuses`.)
      if (!writesPending(zone)) return byId;
      return { index: BLOCK_INDEXES.status, keyOf: (r) => writtenKey(sortKey, z, r.status === 'ACTIVE' ? 0 : 1, r.id) };
    default:
      return byId;
  }
}

/** Microseconds since the epoch of a body's `YYYY-MM-DDTHH:MM:SS.ffffff` timestamp. */
function parseMicros(text: string): number {
  return Date.parse(`${text.slice(0, 19)}Z`) * 1000 + Number(text.slice(20, 26));
}

/** A recordset a page may show: where it is stored, and its body once presented. */
interface Slot {
  readonly block: RecordsetBlock;
  readonly i: number;
}

/**
 * The first `limit` written recordsets after the marker in the page's order, from the index of
 * the sort key: O(log n + limit).
 */
async function writtenStream(deps: DnsDeps, tx: StorageTransaction, zone: Zone, q: ParsedListQuery, marker: RecordsetBody | undefined): Promise<RecordsetBody[]> {
  const { index, keyOf } = writtenIndex(q.sortKey, zone);
  // The marker's own key, with a row id past (ascending) or before (descending) every row's:
  // strictly after it, whether or not the marker is a written recordset itself.
  const after: IndexPosition | undefined = marker === undefined ? undefined : { key: keyOf(marker), id: q.sortDir === 'asc' ? '\uffff' : '' };
  const rows = await tx.range(RECORDSETS, index, { prefix: tupleKey(zone.id), direction: q.sortDir, limit: q.limit, ...(after === undefined ? {} : { after }) });
  return rows.map((e) => presentRecordset(checkedBlock(e.id, e.value, zone.id), 0, zone, deps.baseUrl));
}

/**
 * The first `limit` imported recordsets after the marker in id order (ascending or descending),
 * from the blocks around it: O(log n + limit). `fromId` undefined starts at the first (last).
 */
async function importedById(tx: StorageTransaction, zone: Zone, dir: 'asc' | 'desc', fromId: string | undefined, limit: number): Promise<Slot[]> {
  const asc = dir === 'asc';
  const prefix = tupleKey(zone.id);
  const out: Slot[] = [];
  let next: IndexPosition | undefined;
  if (fromId !== undefined) {
    // The block holding fromId, or the first one past it (ascending): every later block is past it too.
    const at = await tx.range(RECORDSETS, BLOCK_INDEXES.imported, { prefix, after: { key: tupleKey(zone.id, fromId), id: '' }, limit: 1 });
    const e = at[0];
    if (e === undefined) {
      if (asc) return out;
    } else {
      const b = checkedBlock(e.id, e.value, zone.id);
      if (asc) for (let i = 0; i < b.names.length && out.length < limit; i++) if (idAt(b, i) > fromId) out.push({ block: b, i });
      if (!asc) for (let i = b.names.length - 1; i >= 0 && out.length < limit; i--) if (idAt(b, i) < fromId) out.push({ block: b, i });
      next = { key: e.key, id: e.id };
    }
  }
  for (;;) {
    if (out.length >= limit) return out;
    // A block holds up to 256 recordsets, and seldom fewer than 64: read about as many as the rest of the page needs.
    const want = Math.min(BLOCKS_PER_READ, Math.ceil((limit - out.length) / 64));
    const batch = await tx.range(RECORDSETS, BLOCK_INDEXES.imported, { prefix, direction: dir, limit: want, ...(next === undefined ? {} : { after: next }) });
    for (const e of batch) {
      const b = checkedBlock(e.id, e.value, zone.id);
      if (asc) for (let i = 0; i < b.names.length && out.length < limit; i++) out.push({ block: b, i });
      else for (let i = b.names.length - 1; i >= 0 && out.length < limit; i--) out.push({ block: b, i });
    }
    const last = batch[batch.length - 1];
    if (last === undefined || batch.length < want) return out;
    next = { key: last.key, id: last.id };
  }
}

/** The value a per-recordset sort key reads straight from a block's columns (name, type, ttl). */
function columnValue(sortKey: string, b: RecordsetBlock, i: number): FieldValue {
  return sortKey === 'name' ? b.names[i]! : sortKey === 'type' ? typeAt(b, i) : b.ttls[i]!;
}

/**
 * The first `limit` imported recordsets after the marker by name, type or ttl. Imported
 * recordsets come in file order, not in any of those, and an index of their own would cost more
 * heap than the recordsets themselves (the import's budget is 145 bytes a record), so this reads
 * the zone's imported columns: O(imported × log limit) comparisons of column values, but only
 * `limit` bodies presented and no sort of the zone.
 */
async function importedByColumn(tx: StorageTransaction, zone: Zone, q: ParsedListQuery, marker: RecordsetBody | undefined): Promise<Slot[]> {
  const sign = q.sortDir === 'asc' ? 1 : -1;
  const read = (r: RecordsetBody): FieldValue => (q.sortKey === 'name' ? r.name : q.sortKey === 'type' ? r.type : r.ttl);
  const mv = marker === undefined ? undefined : read(marker);
  const order = (av: FieldValue, aid: string, bv: FieldValue, bid: string): number => sign * (compareValues(av, bv) || (aid < bid ? -1 : aid > bid ? 1 : 0));
  const best: { v: FieldValue; id: string; slot: Slot }[] = [];
  let after: IndexPosition | undefined;
  for (;;) {
    const batch = await tx.range(RECORDSETS, BLOCK_INDEXES.imported, { prefix: tupleKey(zone.id), limit: SCAN_READ, ...(after === undefined ? {} : { after }) });
    for (const e of batch) {
      const b = checkedBlock(e.id, e.value, zone.id);
      for (let i = 0; i < b.names.length; i++) {
        const v = columnValue(q.sortKey, b, i);
        const full = best.length >= q.limit;
        if (full) {
          const worst = best[best.length - 1]!;
          // Cheap rejection on the value alone before the id is cut out of the block.
          if (sign * compareValues(v, worst.v) > 0) continue;
        }
        const id = idAt(b, i);
        if (marker !== undefined && order(v, id, mv!, marker.id) <= 0) continue;
        if (full && order(v, id, best[best.length - 1]!.v, best[best.length - 1]!.id) >= 0) continue;
        let lo = 0;
        let hi = best.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (order(best[mid]!.v, best[mid]!.id, v, id) < 0) lo = mid + 1;
          else hi = mid;
        }
        best.splice(lo, 0, { v, id, slot: { block: b, i } });
        if (best.length > q.limit) best.pop();
      }
    }
    const last = batch[batch.length - 1];
    if (last === undefined || batch.length < SCAN_READ) break;
    after = { key: last.key, id: last.id };
  }
  return best.map((x) => x.slot);
}

/**
 * The imported recordsets a page may show: the first `limit` after the marker in the page's
 * order. Under created_at, updated_at and status they all share one value, so they follow the
 * marker in id order, all of them or none (an imported marker shares it too); under id they are
 * in id order.
 */
async function importedStream(
  deps: DnsDeps,
  tx: StorageTransaction,
  zone: Zone,
  q: ParsedListQuery,
  spec: ListSpec<RecordsetBody>,
  marker: RecordsetBody | undefined,
  markerImported: boolean,
): Promise<RecordsetBody[]> {
  const present = (s: Slot): RecordsetBody => presentRecordset(s.block, s.i, zone, deps.baseUrl);
  if (zone.recordsetCount === 0) return [];
  if (q.sortKey === 'name' || q.sortKey === 'type' || q.sortKey === 'ttl') return (await importedByColumn(tx, zone, q, marker)).map(present);
  let fromId: string | undefined;
  if (marker !== undefined) {
    if (SHARED_VALUE.has(q.sortKey) && !markerImported) {
      const first = await tx.range(RECORDSETS, BLOCK_INDEXES.imported, { prefix: tupleKey(zone.id), limit: 1 });
      if (first[0] === undefined) return [];
      const read = spec.sortKeys[q.sortKey]!;
      const c = compareValues(read(present({ block: checkedBlock(first[0].id, first[0].value, zone.id), i: 0 })), read(marker)) * (q.sortDir === 'asc' ? 1 : -1);
      if (c < 0) return [];
      if (c === 0) fromId = marker.id;
    } else {
      fromId = marker.id;
    }
  }
  return (await importedById(tx, zone, q.sortDir, fromId, q.limit)).map(present);
}

/**
 * One page of a zone's recordsets without filters, in any sort key and direction of the list:
 * the first `limit` after the marker of three streams that are each in the page's order (the
 * managed SOA and NS, the written recordsets from their index for the key, the imported ones
 * from their blocks), merged. O(log n + limit) reads for every key, plus a scan of the imported
 * recordsets' columns for name, type and ttl (see `importedByColumn`).
 * @internal
 */
export async function zonePage(
  deps: DnsDeps,
  tx: StorageTransaction,
  zone: Zone,
  q: ParsedListQuery,
  spec: ListSpec<RecordsetBody>,
): Promise<Result<RecordsetBody[], ApiError>> {
  const pool = zonePool(deps, zone);
  const managed = managedRecordsets(zone, pool, deps.baseUrl);
  let marker: RecordsetBody | undefined;
  let markerImported = false;
  if (q.marker !== undefined) {
    marker = managed.find((r) => r.id === q.marker);
    if (marker === undefined) {
      const at = await findRecordset(tx, zone.id, q.marker);
      if (at === undefined) return err(markerNotFound());
      marker = presentRecordset(at.placed.block, at.i, zone, deps.baseUrl);
      markerImported = !isWritten(at.placed.block);
    }
  }
  const order = listOrder(spec, q);
  const m = marker;
  const candidates = [
    ...managed.filter((r) => m === undefined || order(r, m) > 0),
    ...(await writtenStream(deps, tx, zone, q, marker)),
    ...(await importedStream(deps, tx, zone, q, spec, marker, markerImported)),
  ];
  candidates.sort(order);
  return ok(candidates.slice(0, q.limit));
}

/** A run of a block's recordsets, `from` to `to - 1`, in creation order. @internal */
export interface BlockRun {
  readonly block: RecordsetBlock;
  readonly from: number;
  readonly to: number;
}

/**
 * Every stored recordset of a zone in creation order (created_at, then id: the list's default
 * order), as runs of blocks: the imported blocks in id order (they share one created_at) merged
 * with the written recordsets from their created_at index. Whole blocks while no written
 * recordset falls inside one, so a zone nobody wrote to is read block by block.
 * @internal
 */
export async function* creationOrder(tx: StorageTransaction, zoneId: string): AsyncGenerator<BlockRun> {
  const prefix = tupleKey(zoneId);
  const reader = (index: string, size: number): (() => Promise<RecordsetBlock | undefined>) => {
    let buffer: RecordsetBlock[] = [];
    let at = 0;
    let next: IndexPosition | undefined;
    let done = false;
    return async () => {
      if (at === buffer.length && !done) {
        const batch = await tx.range(RECORDSETS, index, { prefix, limit: size, ...(next === undefined ? {} : { after: next }) });
        buffer = batch.map((e) => checkedBlock(e.id, e.value, zoneId));
        at = 0;
        const last = batch[batch.length - 1];
        if (last === undefined || batch.length < size) done = true;
        else next = { key: last.key, id: last.id };
      }
      return at < buffer.length ? buffer[at++] : undefined;
    };
  };
  const nextImported = reader(BLOCK_INDEXES.imported, 64);
  const nextWritten = reader(BLOCK_INDEXES.created, 256);
  let w = await nextWritten();
  for (let b = await nextImported(); b !== undefined; b = await nextImported()) {
    let from = 0;
    while (from < b.names.length) {
      // Written recordsets that come before the block's next imported one.
      while (w !== undefined && (w.meta![0]!.createdAt < b.createdAt || (w.meta![0]!.createdAt === b.createdAt && idAt(w, 0) < idAt(b, from)))) {
        yield { block: w, from: 0, to: 1 };
        w = await nextWritten();
      }
      let to = b.names.length;
      if (w !== undefined && w.meta![0]!.createdAt === b.createdAt) {
        const wid = idAt(w, 0);
        to = from + 1;
        while (to < b.names.length && idAt(b, to) < wid) to++;
      }
      yield { block: b, from, to };
      from = to;
    }
  }
  for (; w !== undefined; w = await nextWritten()) yield { block: w, from: 0, to: 1 };
}

/** Who a cross-zone list shows: one project's zones, or every project's. @internal */
export type ListScopeOf = { readonly project: string } | { readonly project: null };

/**
 * SOA and NS of the scope's zones: those of the first zones (by created_at) from the marker's
 * created_at on, until `limit` of them follow the marker and the zones of the last created_at
 * read are all in (their recordsets' ids interleave).
 */
async function managedAll(deps: DnsDeps, tx: StorageTransaction, scope: ListScopeOf, q: ParsedListQuery, order: (a: RecordsetBody, b: RecordsetBody) => number, marker: RecordsetBody | undefined): Promise<RecordsetBody[]> {
  const out: RecordsetBody[] = [];
  const at = marker === undefined ? undefined : parseMicros(marker.created_at);
  let next: IndexPosition | undefined;
  let last: number | undefined;
  for (;;) {
    const size = Math.max(4, q.limit >>> 1);
    const batch = await zones.ownedFrom(tx, scope.project, { direction: q.sortDir, limit: size, ...(at === undefined ? {} : { from: at }), ...(next === undefined ? {} : { after: next }) });
    for (const e of batch) {
      const zone = e.value;
      if (out.length >= q.limit && zone.createdAt !== last) return out;
      last = zone.createdAt;
      const pool = zonePool(deps, zone);
      for (const r of managedRecordsets(zone, pool, deps.baseUrl)) if (marker === undefined || order(r, marker) > 0) out.push(r);
    }
    const end = batch[batch.length - 1];
    if (end === undefined || batch.length < size) return out;
    next = { key: end.key, id: end.id };
  }
}

/** Written recordsets of the scope after the marker by (created_at, id): O(log n + limit). */
async function writtenAll(deps: DnsDeps, tx: StorageTransaction, scope: ListScopeOf, q: ParsedListQuery, marker: RecordsetBody | undefined, zoneOf: (id: string) => Promise<Zone | undefined>): Promise<RecordsetBody[]> {
  const index = scope.project === null ? BLOCK_INDEXES.allCreated : BLOCK_INDEXES.projectCreated;
  const prefix = scope.project === null ? '' : tupleKey(scope.project);
  const after = marker === undefined ? undefined : { key: prefix + tupleKey(parseMicros(marker.created_at), marker.id), id: q.sortDir === 'asc' ? '\uffff' : '' };
  const rows = await tx.range(RECORDSETS, index, { prefix, direction: q.sortDir, limit: q.limit, ...(after === undefined ? {} : { after }) });
  const out: RecordsetBody[] = [];
  for (const e of rows) {
    const b = checkedBlock(e.id, e.value);
    const zone = await zoneOf(b.zoneId);
    if (zone !== undefined) out.push(presentRecordset(b, 0, zone, deps.baseUrl));
  }
  return out;
}

/**
 * Imported recordsets of the scope after the marker by (created_at, id). A zone's imported
 * recordsets share one created_at, which its row in {@link RECORDSET_ZONES} holds: the first
 * `limit` of each zone from the marker's created_at on, group by group of created_at, until
 * `limit` are in (zones that share a created_at interleave their ids, so a group is read whole:
 * one zone per group, unless clocks collide).
 */
async function importedAll(deps: DnsDeps, tx: StorageTransaction, scope: ListScopeOf, q: ParsedListQuery, marker: RecordsetBody | undefined, zoneOf: (id: string) => Promise<Zone | undefined>): Promise<RecordsetBody[]> {
  const index = scope.project === null ? IMPORTED_ZONES.all : IMPORTED_ZONES.byProject;
  const base = scope.project === null ? '' : tupleKey(scope.project);
  const asc = q.sortDir === 'asc';
  const vm = marker === undefined ? undefined : parseMicros(marker.created_at);
  const out: RecordsetBody[] = [];
  // The first zone at or past the marker's created_at, then each next one.
  let seek: IndexPosition | undefined = vm === undefined ? undefined : { key: base + tupleKey(vm) + (asc ? '' : '\uffff'), id: '' };
  let group: number | undefined;
  for (;;) {
    const next = (await tx.range(RECORDSET_ZONES, index, { prefix: base, direction: q.sortDir, limit: 1, ...(seek === undefined ? {} : { after: seek }) }))[0];
    if (next === undefined) return out;
    const row = checkedImportedZone(next.id, next.value);
    if (out.length >= q.limit && row.createdAt !== group) return out;
    group = row.createdAt;
    const zone = await zoneOf(row.zoneId);
    if (zone !== undefined) {
      const fromId = vm !== undefined && row.createdAt === vm ? marker!.id : undefined;
      for (const s of await importedById(tx, zone, q.sortDir, fromId, q.limit)) out.push(presentRecordset(s.block, s.i, zone, deps.baseUrl));
    }
    seek = { key: next.key, id: next.id };
  }
}

/**
 * The recordset `id` among the zones of `scope`, wherever it is stored: a written one by its id
 * index (O(log n)), else the scope's zones' SOA and NS and imported blocks, zone by zone.
 *
 * @param scoped - the scope's zones, when the caller has read them already
 * @param zoneOf - a zone by id, when the caller keeps a cache of them
 * @internal
 */
export async function recordsetInScope(
  deps: DnsDeps,
  tx: StorageTransaction,
  scope: ListScopeOf,
  id: string,
  scoped?: readonly Zone[],
  zoneOf: (id: string) => Promise<Zone | undefined> = (zid) => zones.byId(tx, zid),
): Promise<RecordsetBody | undefined> {
  const inScope = (z: Zone | undefined): z is Zone => z !== undefined && (scope.project === null || z.projectId === scope.project);
  const found = (await tx.range(RECORDSETS, BLOCK_INDEXES.byId, { prefix: tupleKey(id), limit: 1 }))[0];
  const written = found === undefined ? undefined : checkedBlock(found.id, found.value);
  const wz = written === undefined ? undefined : await zoneOf(written.zoneId);
  if (written !== undefined && inScope(wz)) return presentRecordset(written, 0, wz, deps.baseUrl);
  for (const z of scoped ?? (await zones.owned(tx, scope.project))) {
    const pool = zonePool(deps, z);
    const managed = managedRecordsets(z, pool, deps.baseUrl).find((r) => r.id === id);
    if (managed !== undefined) return managed;
    if (z.recordsetCount > 0) {
      const at = await blockAt(tx, z.id, id);
      const i = at === undefined ? -1 : findId(at.block, id);
      if (at !== undefined && i >= 0 && !isWritten(at.block)) return presentRecordset(at.block, i, z, deps.baseUrl);
    }
  }
  return undefined;
}

/**
 * One page of `GET /v2/recordsets` in created_at order without filters: the scope's SOA/NS,
 * written and imported recordsets, each stream from the marker on, merged. The page reads what
 * it shows (and, where zones share a created_at, those zones); `total_count` and a marker that is
 * not a written recordset need the scope's zones (read, not their recordsets): O(zones) there.
 * @internal
 */
export async function allPage(
  deps: DnsDeps,
  tx: StorageTransaction,
  scope: ListScopeOf,
  q: ParsedListQuery,
  spec: ListSpec<RecordsetBody>,
): Promise<Result<{ rows: RecordsetBody[]; total: number }, ApiError>> {
  const known = new Map<string, Zone | undefined>();
  const zoneOf = async (id: string): Promise<Zone | undefined> => {
    if (!known.has(id)) known.set(id, await zones.byId(tx, id));
    return known.get(id);
  };
  // Every zone of the scope, for the count (and for a marker that is not a written recordset).
  const scoped = await zones.owned(tx, scope.project);
  let total = 0;
  for (const z of scoped) {
    known.set(z.id, z);
    total += managedCount(z) + z.recordsetCount;
  }
  let marker: RecordsetBody | undefined;
  if (q.marker !== undefined) {
    marker = await recordsetInScope(deps, tx, scope, q.marker, scoped, zoneOf);
    if (marker === undefined) return err(markerNotFound());
  }
  const order = listOrder(spec, q);
  const candidates = [
    ...(await managedAll(deps, tx, scope, q, order, marker)),
    ...(await writtenAll(deps, tx, scope, q, marker, zoneOf)),
    ...(await importedAll(deps, tx, scope, q, marker, zoneOf)),
  ].filter((r) => marker === undefined || order(r, marker) > 0);
  candidates.sort(order);
  return ok({ rows: candidates.slice(0, q.limit), total });
}
