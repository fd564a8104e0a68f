import type { CompleteTransaction, IndexKeys, RangeQuery, StorageTransaction, StoredEntry } from '../ports/storage.js';
import { CorruptValue, insertNew } from './command.js';
import { tupleKey } from './keys.js';
import type { ListScope } from './list-query.js';

/**
 * What a repository reads back from a storage adapter is checked before the core uses it: the
 * port hands out `unknown` (a database shared with other software, a restored snapshot, a buggy
 * adapter may hold anything), and a value of the wrong shape must end its command with a clear
 * 500, not a TypeError deep in a rule or, worse, a wrong answer. The checks are hand-written
 * tables of field tests, no schema library: a table is a few lines per collection, and the zone's,
 * read on every create and list page, is also written out as straight code (see `Collection.is`),
 * which a generic validator would not be.
 * @module
 */

/** A test of one field's value. @internal */
export type FieldCheck = (value: unknown) => boolean;

/** The field tests of a stored value: every listed field must pass; others are not looked at. @internal */
export type Shape = Readonly<Record<string, FieldCheck>>;

/** @internal */
export const isString: FieldCheck = (v) => typeof v === 'string';
/** @internal */
export const isInteger: FieldCheck = (v) => Number.isSafeInteger(v);
/** @internal */
export const isStringArray: FieldCheck = (v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
};
/** @internal */
export const isPlainObject = (v: unknown): v is Readonly<Record<string, unknown>> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** An object of strings (zone attributes). @internal */
export const isStringRecord: FieldCheck = (v) => {
  if (!isPlainObject(v)) return false;
  for (const key in v) if (typeof v[key] !== 'string') return false;
  return true;
};
/** @internal */
export const orNull =
  (check: FieldCheck): FieldCheck =>
  (v) =>
    v === null || check(v);
/** A field that may be absent (`undefined`). @internal */
export const optional =
  (check: FieldCheck): FieldCheck =>
  (v) =>
    v === undefined || check(v);
/** One of a fixed set of strings. @internal */
export const oneOf = (...values: readonly string[]): FieldCheck => {
  const set = new Set(values);
  return (v) => typeof v === 'string' && set.has(v);
};

const describe = (v: unknown): string => {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string '${v.slice(0, 40)}'`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${v}`;
  return typeof v === 'object' ? 'an object' : typeof v;
};

/**
 * The check of a shape, made once per collection: why a value does not have it (the first field
 * that fails), or undefined when it has. The fields are walked as two arrays, not with `for…in`
 * over the shape, because a zone is checked on every read (27 fields, a list page reads 20 zones).
 * @internal
 */
export function shapeCheck(shape: Shape): (value: unknown) => string | undefined {
  const fields = Object.keys(shape);
  const checks = fields.map((f) => shape[f]!);
  return (value) => {
    if (!isPlainObject(value)) return `${describe(value)}, not an object`;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      if (!checks[i]!(value[field])) return `${field} is ${describe(value[field])}`;
    }
    return undefined;
  };
}

/**
 * One stored collection as its repository sees it: its name, the check of what is read back,
 * the id and index keys of what is written.
 * @internal
 */
export interface Collection<T> {
  readonly name: string;
  /** Why a value read back is not a `T`, or undefined when it is one. */
  readonly problem: (value: unknown) => string | undefined;
  /**
   * The same check written out field by field, for a collection read on a hot path: a property
   * read by a name known only at run time costs ~30 ns, 20 times a named one, and a zone has 27.
   * `problem` then only words the failure. test/kernel/stored.test.ts holds the two to one rule.
   */
  readonly is?: (value: unknown) => boolean;
  /** The id a value is stored under: what it is read back under must be the same. */
  readonly idOf: (value: T) => string;
  readonly keys: (value: T) => IndexKeys;
}

/**
 * `value`, read from `c` under `id`, as the `T` it must be; a {@link CorruptValue} when it is of
 * another shape or carries another id (a value filed under the wrong id would answer for an
 * entity it is not).
 * @internal
 */
export function checked<T>(c: Collection<T>, id: string, value: unknown): T {
  const sound = c.is === undefined ? c.problem(value) === undefined : c.is(value);
  if (!sound) throw new CorruptValue(c.name, id, c.problem(value) ?? 'not of the stored shape');
  // The one cast of a stored value: its shape was just checked.
  const typed = value as T;
  const own = c.idOf(typed);
  if (own !== id) throw new CorruptValue(c.name, id, `it carries the id ${String(own).slice(0, 100)}`);
  return typed;
}

/** A checked entry of an index: its position and its value. @internal */
export interface Entry<T> {
  readonly key: string;
  readonly id: string;
  readonly value: T;
}

/** Checks every entry of a range answer. */
const checkedEntries = <T>(c: Collection<T>, entries: readonly StoredEntry[]): Entry<T>[] =>
  entries.map((e) => ({ key: e.key, id: e.id, value: checked(c, e.id, e.value) }));

/**
 * The operations every repository has over its collection: reads are checked, writes carry the
 * value's own id and index keys, so no caller names the collection or builds a key.
 * @internal
 */
export interface Repository<T> {
  readonly collection: Collection<T>;
  readonly get: (tx: StorageTransaction, id: string) => Promise<T | undefined>;
  /** Stores `value` under its id, replacing what was there. */
  readonly put: (tx: StorageTransaction, value: T) => Promise<void>;
  /** Stores a new value; 500 `duplicate_id` when its id is taken (an id source that repeats itself). */
  readonly insert: (tx: CompleteTransaction, value: T) => Promise<void>;
  readonly delete: (tx: StorageTransaction, id: string) => Promise<boolean>;
  readonly range: (tx: StorageTransaction, index: string, query?: RangeQuery) => Promise<Entry<T>[]>;
}

/** The repository operations of a collection. @internal */
export function repository<T>(c: Collection<T>): Repository<T> {
  return {
    collection: c,
    get: async (tx, id) => {
      const value = await tx.get(c.name, id);
      return value === undefined ? undefined : checked(c, id, value);
    },
    put: (tx, value) => tx.put(c.name, c.idOf(value), value, c.keys(value)),
    insert: (tx, value) => insertNew(tx, c.name, c.idOf(value), value, c.keys(value)),
    delete: (tx, id) => tx.delete(c.name, id),
    range: async (tx, index, query) => checkedEntries(c, await tx.range(c.name, index, query)),
  };
}

/** A repository of entities that belong to one project and are listed in creation order. @internal */
export interface OwnedRepository<T> extends Repository<T> {
  /** Where a project's entities (or, for `null`, everyone's) are listed from. */
  readonly listScope: (projectId: string | null) => ListScope<T>;
}

/**
 * The repository of a collection of project-owned entities (imports, exports, transfer
 * accepts): indexed by project and by creation, both in (created_at, id) order. `more` adds the
 * collection's other indexes.
 * @internal
 */
export function ownedRepository<T extends { readonly id: string; readonly projectId: string; readonly createdAt: number }>(
  name: string,
  shape: Shape,
  more: (value: T) => IndexKeys = () => ({}),
): OwnedRepository<T> {
  const collection: Collection<T> = {
    name,
    problem: shapeCheck(shape),
    idOf: (e) => e.id,
    keys: (e) => ({ [BY_PROJECT]: tupleKey(e.projectId, e.createdAt), [BY_CREATED]: tupleKey(e.createdAt), ...more(e) }),
  };
  return {
    ...repository(collection),
    listScope: (projectId) =>
      projectId === null
        ? { collection, index: BY_CREATED, prefix: '', keyOf: (e) => tupleKey(e.createdAt) }
        : { collection, index: BY_PROJECT, prefix: tupleKey(projectId), keyOf: (e) => tupleKey(projectId, e.createdAt) },
  };
}

const BY_PROJECT = 'project';
const BY_CREATED = 'created';
