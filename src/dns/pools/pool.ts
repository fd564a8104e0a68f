import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { checked, isInteger, isPlainObject, isString, isStringRecord, orNull, repository, shapeCheck, type Collection, type FieldCheck } from '../../kernel/stored.js';
import {
  persistentShown,
  intField,
  invalidValue,
  nullRefusedByStore,
  ownEntries,
  parseAdapterObject,
  pyTypeName,
  requiredProperty,
  stringField,
} from '../../kernel/validation.js';
import type { StorageTransaction } from '../../ports/storage.js';
import type { PoolConfig } from '../kernel/deps.js';
import { formatTimestamp } from '../kernel/time.js';

/**
 * One NS record of a pool as `/v2/pools` shows it.
 *
 * @category Pools
 */
export interface PoolNsRecord {
  /** 1 to 10000. */
  readonly priority: number;
  /** An absolute host name, with its trailing dot. */
  readonly hostname: string;
}

/**
 * A pool as `/v2/pools` answers it, keys in the real service's order.
 *
 * @category Pools
 */
export interface PoolBody {
  /** The pool's UUID (a zone's `pool_id`). */
  readonly id: string;
  /** The project that created it through the API; null for a configured pool. */
  readonly project_id: string | null;
  /** At most 50 characters. */
  readonly name: string;
  /** Free text (at most 160 characters) or null. */
  readonly description: string | null;
  /** Scheduler attributes, key to value. */
  readonly attributes: Readonly<Record<string, string>>;
  /** The pool's NS records. */
  readonly ns_records: readonly PoolNsRecord[];
  /** Null for a configured pool (it was not created through the API). */
  readonly created_at: string | null;
  /** Null until the first update. */
  readonly updated_at: string | null;
  /** `self`: `/v2/pools/{id}`. */
  readonly links: {
    /** The pool's absolute URL. */
    readonly self: string;
  };
}

/**
 * What `pools.create` and `pools.update` accept (a create needs `name`).
 *
 * @category Pools
 */
export interface PoolInput {
  /** At most 50 characters. */
  readonly name?: string;
  /** At most 160 characters, or null. */
  readonly description?: string | null;
  /** Keys and values of at most 50 characters. */
  readonly attributes?: Readonly<Record<string, string>>;
  /** The pool's NS records. */
  readonly ns_records?: readonly PoolNsRecord[];
  /** The owning project; settable while unset. */
  readonly project_id?: string;
}

/**
 * A pool as stored: one created through the API, or a configured pool changed or deleted through
 * it (`deleted` keeps the configured one from showing again). Unchanged configured pools are not
 * stored: they come from the `pools` option, so `reset()` brings the configuration back.
 * @internal
 */
export interface StoredPool {
  readonly id: string;
  readonly projectId: string | null;
  readonly name: string;
  readonly description: string | null;
  readonly attributes: Readonly<Record<string, string>>;
  readonly nsRecords: readonly PoolNsRecord[];
  readonly createdAt: number | null;
  readonly updatedAt: number | null;
  readonly deleted: boolean;
}

/** The pools collection (API-made pools and changes to configured ones). @internal */
export const POOLS = 'dns.pools';

const isNsRecords: FieldCheck = (v) =>
  Array.isArray(v) && v.every((r: unknown) => isPlainObject(r) && Number.isSafeInteger(r['priority']) && typeof r['hostname'] === 'string');

const collection: Collection<StoredPool> = {
  name: POOLS,
  problem: shapeCheck({
    id: isString,
    projectId: orNull(isString),
    name: isString,
    description: orNull(isString),
    attributes: isStringRecord,
    nsRecords: isNsRecords,
    createdAt: orNull(isInteger),
    updatedAt: orNull(isInteger),
    deleted: (v) => typeof v === 'boolean',
  }),
  idOf: (p) => p.id,
  keys: () => ({}),
};

/**
 * The stored pools. There are a handful in a deployment (the real service's are configuration),
 * so a list reads them all: no index beyond the ids.
 * @internal
 */
export const poolRepository = {
  ...repository(collection),
  /** Every stored pool (tombstones included), in id order. */
  all: async (tx: StorageTransaction): Promise<StoredPool[]> => {
    const out: StoredPool[] = [];
    let after: string | undefined;
    for (;;) {
      const rows = await tx.scan(POOLS, after, 256);
      for (const row of rows) out.push(checked(collection, row.id, row.value));
      if (rows.length < 256) return out;
      after = rows[rows.length - 1]!.id;
    }
  },
};

/** A configured pool as the API shows it. @internal */
export function configuredPool(p: PoolConfig): StoredPool {
  return {
    id: p.id,
    projectId: null,
    name: p.name ?? p.id,
    description: p.description ?? null,
    attributes: p.attributes ?? {},
    nsRecords: p.nameservers.map((n) => ({ priority: n.priority, hostname: n.hostname })),
    createdAt: null,
    updatedAt: null,
    deleted: false,
  };
}

/** The API body of a pool. @internal */
export function presentPool(p: StoredPool, baseUrl: string): PoolBody {
  return {
    id: p.id,
    project_id: p.projectId,
    name: p.name,
    description: p.description,
    attributes: { ...p.attributes },
    ns_records: p.nsRecords.map((r) => ({ priority: r.priority, hostname: r.hostname })),
    created_at: p.createdAt === null ? null : formatTimestamp(p.createdAt),
    updated_at: p.updatedAt === null ? null : formatTimestamp(p.updatedAt),
    links: { self: `${baseUrl}/v2/pools/${p.id}` },
  };
}

const ZONE_NAME = /^(?!.{255,})(?:(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\.)+$/s;

/** The real service's DomainField: a string of at most 255, labels of at most 63, a final dot, its name pattern. */
function domainField(value: unknown, field: string): Result<string, ApiError> {
  return stringField(value, field, 255).andThen((s) => {
    const long = s.split('.').find((label) => label.length > 63);
    if (long !== undefined) return err(invalidValue('ValueError', `Host ${long} is too long`));
    if (!s.endsWith('.')) return err(invalidValue('ValueError', `Domain ${s} does not end with a dot`));
    if (!ZONE_NAME.test(s)) return err(invalidValue('ValueError', `Domain ${s} is invalid`));
    return ok(s);
  });
}

/** One `ns_records` item, as the NS record adapter reads it: its keys in order, then the required ones. */
function parseNsRecord(item: unknown): Result<PoolNsRecord, ApiError> {
  let priority: number | undefined;
  let hostname: string | undefined;
  const read = parseAdapterObject(
    item,
    { priority: { writable: true }, hostname: { writable: true } },
    () => undefined,
    (key, value) => {
      if (value === null) return err(invalidValue('ValueError', `Field \`${key}' cannot be None`));
      if (key === 'priority') return intField(value, 'priority', 1, 10000).map((n) => void (priority = n));
      return domainField(value, 'hostname').map((h) => void (hostname = h));
    },
    'ns_record',
  );
  if (read.isErr()) return err(read.error);
  if (priority === undefined) return err(requiredProperty('priority'));
  if (hostname === undefined) return err(requiredProperty('hostname'));
  return ok({ priority, hostname });
}

/** `attributes`: an object whose keys and values are strings of at most 50 characters. */
function parseAttributes(value: unknown): Result<Record<string, string>, ApiError> {
  if (value === null) return ok({});
  return ownEntries(value).andThen((entries) => {
    const out: Record<string, string> = {};
    for (const [key, v] of Object.entries(entries)) {
      const k = stringField(key, 'key', 50);
      if (k.isErr()) return err(k.error);
      const s = stringField(v, 'value', 50);
      if (s.isErr()) return err(s.error);
      out[k.value] = s.value;
    }
    return ok(out);
  });
}

/** `ns_records`: a list of NS record objects. */
function parseNsRecords(value: unknown): Result<PoolNsRecord[], ApiError> {
  if (value === null) return ok([]);
  if (!Array.isArray(value)) {
    // The real adapter iterates what it got: a string's characters, an object's keys (strings,
    // which are no NS record objects); a number is not iterable at all.
    if (typeof value !== 'string' && !isPlainObject(value)) return err(invalidValue('TypeError', `'${pyTypeName(value)}' object is not iterable`));
    const empty = typeof value === 'string' ? value === '' : Object.keys(value).length === 0;
    return empty ? ok([]) : err(invalidValue('AttributeError', "'str' object has no attribute 'items'"));
  }
  const out: PoolNsRecord[] = [];
  for (const item of value) {
    const r = parseNsRecord(item);
    if (r.isErr()) return err(r.error);
    out.push(r.value);
  }
  return ok(out);
}

const FIELDS = {
  id: { writable: false },
  project_id: { writable: true, immutable: true },
  name: { writable: true },
  description: { writable: true },
  attributes: { writable: true },
  ns_records: { writable: true },
  created_at: { writable: false },
  updated_at: { writable: false },
} as const;

/** What a pool body makes: the pool's new fields. @internal */
export type ParsedPool = Pick<StoredPool, 'projectId' | 'name' | 'description' | 'attributes' | 'nsRecords'> & {
  /** A create sent `id: null`, which the real service's store refuses (a 500). */
  readonly idNull: boolean;
};

/**
 * Reads a create (`current` undefined) or update body as the real service's pool adapter does,
 * then requires `name`.
 * @internal
 */
export function parsePoolBody(body: unknown, current: StoredPool | undefined): Result<ParsedPool, ApiError> {
  let { projectId, name, description, attributes, nsRecords } = current ?? {
    projectId: null as string | null,
    name: undefined as string | undefined,
    description: null as string | null,
    attributes: {},
    nsRecords: [] as readonly PoolNsRecord[],
  };
  let idNull = false;
  const persistent = persistentShown(current);
  const shown = (key: string): unknown => (key === 'project_id' ? (current?.projectId ?? null) : persistent(key));
  const set = (key: string, value: unknown): Result<void, ApiError> => {
    switch (key) {
      case 'name':
        return stringField(value, 'name', 50).map((v) => void (name = v));
      case 'description':
        if (value === null) {
          description = null;
          return ok(undefined);
        }
        return stringField(value, 'description', 160).map((v) => void (description = v));
      case 'project_id':
        if (value === null) {
          projectId = null;
          return ok(undefined);
        }
        return stringField(value, 'tenant_id', 36).map((v) => void (projectId = v));
      case 'attributes':
        return parseAttributes(value).map((v) => void (attributes = v));
      case 'ns_records':
        return parseNsRecords(value).map((v) => void (nsRecords = v));
      case 'id':
        idNull = current === undefined && value === null;
        return ok(undefined);
      default:
        return ok(undefined);
    }
  };
  const read = parseAdapterObject(body, FIELDS, shown, set, 'pool');
  if (read.isErr()) return err(read.error);
  if (name === undefined) return err(requiredProperty('name'));
  return ok({ projectId, name, description, attributes, nsRecords, idNull });
}

/** The store's refusal of a pool created with `id: null`. @internal */
export const poolIdNull = (): ApiError => nullRefusedByStore('id', 'pool');
