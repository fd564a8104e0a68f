import type { CompleteTransaction, IndexKeys, IndexPosition, RangeQuery, RangeRequest, StorageLock, StorageTransaction } from '../../ports/storage.js';
import { stringPart, tupleKey } from '../../kernel/keys.js';
import type { ListScope } from '../../kernel/list-query.js';
import {
  checked,
  type Entry,
  isInteger,
  isPlainObject,
  isString,
  isStringArray,
  isStringRecord,
  oneOf,
  optional,
  orNull,
  repository,
  shapeCheck,
  type Collection,
  type Shape,
} from '../../kernel/stored.js';
import type { Zone } from './zone.js';
import { isNameserverList } from './name-policy.js';

/**
 * The zone repository: the only code that knows the zones collection, its indexes and their
 * keys, and the one door through which a stored zone comes back into the core, checked.
 * @module
 */

/** The zones collection (also named by snapshots). @internal */
export const ZONES = 'dns.zones';
/** Index: zones of a project in (created_at, id) order. */
const BY_PROJECT = 'project';
/** Index: all zones in (created_at, id) order. */
const BY_CREATED = 'created';
/** Index: zones by reversed, lower-cased labels: exact names and whole subtrees are prefixes. */
const BY_NAME = 'name';
/** Index: zones by parent zone, for the "has subzones" check. */
const BY_PARENT = 'parent';

/**
 * Index key of a name: its labels lower-cased (names compare without regard to case, as DNS
 * does), root first, as one tuple: `Www.Example.com.` → `tupleKey('com', 'example', 'www')`.
 * @internal
 */
export function nameKey(name: string): string {
  const lower = name.toLowerCase();
  let end = lower.endsWith('.') ? lower.length - 1 : lower.length;
  if (end === 0) return '';
  let key = '';
  for (let i = end - 1; i >= -1; i--) {
    if (i === -1 || lower.charCodeAt(i) === 46) {
      key += stringPart(lower.slice(i + 1, end));
      end = i;
    }
  }
  return key;
}

/** The index keys of a stored zone. @internal */
export function zoneKeys(z: Zone): IndexKeys {
  return {
    [BY_PROJECT]: tupleKey(z.projectId, z.createdAt),
    [BY_CREATED]: tupleKey(z.createdAt),
    [BY_NAME]: nameKey(z.name),
    [BY_PARENT]: z.parentZoneId === null ? undefined : tupleKey(z.parentZoneId),
  };
}

/** What a stored zone is, field by field (the words of a failed check). @internal */
export const ZONE_SHAPE: Shape = {
  id: isString,
  poolId: isString,
  projectId: isString,
  name: isString,
  email: isString,
  description: orNull(isString),
  ttl: isInteger,
  serial: isInteger,
  status: oneOf('ACTIVE', 'PENDING', 'ERROR', 'DELETED'),
  action: oneOf('CREATE', 'UPDATE', 'DELETE', 'NONE'),
  version: isInteger,
  attributes: isStringRecord,
  type: oneOf('PRIMARY', 'SECONDARY'),
  masters: isStringArray,
  createdAt: isInteger,
  updatedAt: orNull(isInteger),
  transferredAt: orNull(isInteger),
  refresh: isInteger,
  retry: isInteger,
  expire: isInteger,
  minimum: isInteger,
  parentZoneId: orNull(isString),
  soaRecordsetId: orNull(isString),
  nsRecordsetId: orNull(isString),
  soaVersion: optional(isInteger),
  soaUpdatedAt: optional(isInteger),
  nameservers: optional(isNameserverList),
  nsWrite: optional(isNsWrite),
  servedSerial: optional(isInteger),
  recordsetCount: isInteger,
  recordCount: isInteger,
};

const str = (v: unknown): boolean => typeof v === 'string';

/** The NS recordset's last rewrite: three integers. */
function isNsWrite(v: unknown): boolean {
  return isPlainObject(v) && Number.isSafeInteger(v.version) && Number.isSafeInteger(v.updatedAt) && Number.isSafeInteger(v.serial);
}

const strOrNull = (v: unknown): boolean => v === null || typeof v === 'string';
const int = (v: unknown): boolean => Number.isSafeInteger(v);
const intOrNull = (v: unknown): boolean => v === null || Number.isSafeInteger(v);

/** {@link ZONE_SHAPE}, written out: every read of a zone passes here (a list page reads 20). */
function isZone(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const z = value as { readonly [K in keyof Zone]-?: unknown };
  const s = z.status;
  const a = z.action;
  return (
    str(z.id) &&
    str(z.poolId) &&
    str(z.projectId) &&
    str(z.name) &&
    str(z.email) &&
    strOrNull(z.description) &&
    int(z.ttl) &&
    int(z.serial) &&
    (s === 'ACTIVE' || s === 'PENDING' || s === 'ERROR' || s === 'DELETED') &&
    (a === 'CREATE' || a === 'UPDATE' || a === 'DELETE' || a === 'NONE') &&
    int(z.version) &&
    isStringRecord(z.attributes) &&
    (z.type === 'PRIMARY' || z.type === 'SECONDARY') &&
    isStringArray(z.masters) &&
    int(z.createdAt) &&
    intOrNull(z.updatedAt) &&
    intOrNull(z.transferredAt) &&
    int(z.refresh) &&
    int(z.retry) &&
    int(z.expire) &&
    int(z.minimum) &&
    strOrNull(z.parentZoneId) &&
    strOrNull(z.soaRecordsetId) &&
    strOrNull(z.nsRecordsetId) &&
    (z.soaVersion === undefined || int(z.soaVersion)) &&
    (z.soaUpdatedAt === undefined || int(z.soaUpdatedAt)) &&
    (z.nameservers === undefined || isNameserverList(z.nameservers)) &&
    (z.nsWrite === undefined || isNsWrite(z.nsWrite)) &&
    (z.servedSerial === undefined || int(z.servedSerial)) &&
    int(z.recordsetCount) &&
    int(z.recordCount)
  );
}

const collection: Collection<Zone> = {
  name: ZONES,
  problem: shapeCheck(ZONE_SHAPE),
  is: isZone,
  idOf: (z) => z.id,
  keys: zoneKeys,
};
const store = repository(collection);

/** The name keys of every ancestor of a name key, nearest first (a tuple part ends at each U+0000). */
function ancestorKeys(key: string): string[] {
  const parents: string[] = [];
  for (let end = key.length - 2; end > 0; end--) if (key.charCodeAt(end) === 0) parents.push(key.slice(0, end + 1));
  return parents;
}

/**
 * The locks that guard what a zone name owns (docs/postgres.md, "Isolation and retries"):
 * exclusive on the name, shared on each ancestor name, exclusive on each of `projects` (whose zone
 * count the caller reads against a quota). Every transaction that adds or removes a zone, moves
 * it to another project, or decides on what lies around a name (a create's name checks, a
 * delete's subzone check) or on a project's count takes them, so such transactions take turns
 * exactly when their names nest or their project is the same.
 */
function nameLocks(name: string, projects: readonly string[]): StorageLock[] {
  const key = nameKey(name);
  const locks: StorageLock[] = [{ name: `${ZONES}\u0000name\u0000${key}`, exclusive: true }];
  for (const parent of ancestorKeys(key)) locks.push({ name: `${ZONES}\u0000name\u0000${parent}`, exclusive: false });
  for (const project of projects) locks.push({ name: `${ZONES}\u0000project\u0000${project}`, exclusive: true });
  return locks;
}

/** How many zones `projectId` owns. O(log n). */
const countOfProject = (tx: StorageTransaction, projectId: string): Promise<number> => tx.count(ZONES, BY_PROJECT, tupleKey(projectId));

/**
 * What a new zone's name conflicts with, read in one go (one round trip over a database): the
 * zones bearing its name (`same`) and every zone below it (`below`), and the nearest existing
 * ancestor zones (all zones bearing that name), label by label upwards. A name key is its labels
 * root first, each ended by U+0000 (which never occurs inside an encoded label), so the
 * ancestors' keys are its prefixes ending at a terminator. Each ancestor is probed by its exact
 * key: over a database, the zones below an ancestor (every zone under `com.`) would otherwise
 * come back with every create, values and all, to be thrown away.
 */
async function neighbourhood(tx: CompleteTransaction, name: string): Promise<Omit<NameNeighbourhood, 'owned'>> {
  const key = nameKey(name);
  const parents = ancestorKeys(key);
  const byName = (query: RangeQuery): RangeRequest => ({ collection: ZONES, index: BY_NAME, query });
  const [tree = [], ...above] = await tx.rangeMany([byName({ prefix: key }), ...parents.map((prefix) => byName({ prefix, exact: true }))]);
  const same: Zone[] = [];
  const below: Zone[] = [];
  // Checked where used, entry by entry: a create reads this on every call, and a copy of each
  // entry would be garbage at once.
  for (const e of tree) (e.key === key ? same : below).push(checked(collection, e.id, e.value));
  const nearest = above.find((found) => found.length > 0) ?? [];
  return { same, below, ancestors: nearest.map((e) => checked(collection, e.id, e.value)) };
}

/**
 * What a new zone meets: its project's zone count, and around its name the zones of that name,
 * the zones below it and the nearest ancestors. @internal
 */
export interface NameNeighbourhood {
  /** How many zones the new zone's project owns already. */
  readonly owned: number;
  readonly same: Zone[];
  readonly below: Zone[];
  readonly ancestors: Zone[];
}

/**
 * The stored zones, read and written only through here.
 * @internal
 */
export const zoneRepository = {
  /** The collection and its checks (for list scopes and the checks' own test). */
  collection,
  /** The zone stored under `id`, checked. */
  byId: store.get,
  /** Stores a changed zone with its index keys. */
  put: store.put,
  /** Stores a new zone, refusing to replace another under a repeated id. */
  insert: store.insert,
  /**
   * Removes the zone row (its children are the caller's), after taking its name's lock: a zone
   * going is a change to what lies around the name.
   */
  remove: async (tx: CompleteTransaction, zone: Zone): Promise<boolean> => {
    await tx.lock(nameLocks(zone.name, []));
    return store.delete(tx, zone.id);
  },

  /**
   * Whether `zone` has subzones (the delete and abandon rule), decided under its name's lock, so a
   * subzone created meanwhile either is seen or waits for the decision.
   */
  hasSubzones: async (tx: CompleteTransaction, zone: Zone): Promise<boolean> => {
    await tx.lock(nameLocks(zone.name, []));
    return (await tx.count(ZONES, BY_PARENT, tupleKey(zone.id))) > 0;
  },

  /**
   * How many zones `projectId` owns before it takes `zone` (a transfer), counted under the locks
   * of the zone's name and of the project's count: the move takes turns with creates and deletes
   * around the name and with every other zone coming to the project.
   */
  countBeforeTaking: async (tx: CompleteTransaction, zone: Zone, projectId: string): Promise<number> => {
    await tx.lock(nameLocks(zone.name, [projectId]));
    return countOfProject(tx, projectId);
  },

  /** The direct subzones of `zoneId`. */
  subzones: async (tx: StorageTransaction, zoneId: string): Promise<Zone[]> =>
    (await store.range(tx, BY_PARENT, { prefix: tupleKey(zoneId) })).map((e) => e.value),

  /** Every zone of `projectId`, or of every project when `null`, in creation order. */
  owned: async (tx: StorageTransaction, projectId: string | null): Promise<Zone[]> =>
    (projectId === null ? await store.range(tx, BY_CREATED, { prefix: '' }) : await store.range(tx, BY_PROJECT, { prefix: tupleKey(projectId) })).map(
      (e) => e.value,
    ),

  /**
   * What a zone created at `name` in `projectId` meets, read in one round trip over a database
   * after the name's and the project's locks are asked for: the reads are started right after
   * the lock call, not after its answer, so that they go in the same message as the locks (an
   * adapter whose snapshot would be older than the locks runs the transaction again).
   * `covering` only from a create's first call (see {@link StorageTransaction.lock}).
   */
  aroundNewZone: async (tx: CompleteTransaction, name: string, projectId: string, covering: boolean): Promise<NameNeighbourhood> => {
    const locked = tx.lock(nameLocks(name, [projectId]), covering);
    const [, owned, around] = await Promise.all([locked, countOfProject(tx, projectId), neighbourhood(tx, name)]);
    return { owned, ...around };
  },

  /**
   * A page of the zones of `projectId` (every project's when `null`) in (created_at, id) order,
   * from the zones created at `from` on (inclusive) in `direction`, or after `after`, a position
   * an earlier page ended at: for lists that merge zones by creation time.
   */
  ownedFrom: (
    tx: StorageTransaction,
    projectId: string | null,
    query: { readonly direction: 'asc' | 'desc'; readonly limit: number; readonly from?: number; readonly after?: IndexPosition },
  ): Promise<Entry<Zone>[]> => {
    const key = (t: number): string => (projectId === null ? tupleKey(t) : tupleKey(projectId, t));
    const start = query.after ?? (query.from === undefined ? undefined : { key: key(query.from), id: query.direction === 'asc' ? '' : '\uffff' });
    return store.range(tx, projectId === null ? BY_CREATED : BY_PROJECT, {
      prefix: projectId === null ? '' : tupleKey(projectId),
      direction: query.direction,
      limit: query.limit,
      ...(start === undefined ? {} : { after: start }),
    });
  },

  /** Where `GET /v2/zones` reads: a project's zones, or everyone's (all-projects). */
  listScope: (projectId: string | null): ListScope<Zone> =>
    projectId === null
      ? { collection, index: BY_CREATED, prefix: '', keyOf: (z) => tupleKey(z.createdAt) }
      : { collection, index: BY_PROJECT, prefix: tupleKey(projectId), keyOf: (z) => tupleKey(projectId, z.createdAt) },
};
