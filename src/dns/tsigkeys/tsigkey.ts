import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { tupleKey } from '../../kernel/keys.js';
import type { ListScope } from '../../kernel/list-query.js';
import { pythonIntLiteral } from '../../kernel/python-int.js';
import { isInteger, isString, oneOf, orNull, repository, shapeCheck, type Collection } from '../../kernel/stored.js';
import {
  persistentShown,
  enumField,
  invalidValue,
  nullRefusedByStore,
  parseAdapterObject,
  pyInt,
  pythonUuidText,
  pyTypeName,
  requiredProperty,
  stringField,
} from '../../kernel/validation.js';
import type { StorageTransaction } from '../../ports/storage.js';
import { formatTimestamp } from '../kernel/time.js';

/**
 * The HMAC algorithms a TSIG key may use, as the real service lists them.
 *
 * @category TSIG keys
 */
export type TsigAlgorithm = 'hmac-md5' | 'hmac-sha1' | 'hmac-sha224' | 'hmac-sha256' | 'hmac-sha384' | 'hmac-sha512';

/** @internal */
export const TSIG_ALGORITHMS: readonly TsigAlgorithm[] = Object.freeze(['hmac-md5', 'hmac-sha1', 'hmac-sha224', 'hmac-sha256', 'hmac-sha384', 'hmac-sha512']);

/**
 * What a key is for: a whole pool's transfers (`POOL`, `resource_id` a pool id) or one zone's
 * (`ZONE`, `resource_id` a zone id).
 *
 * @category TSIG keys
 */
export type TsigScope = 'POOL' | 'ZONE';

const SCOPES: readonly TsigScope[] = Object.freeze(['POOL', 'ZONE']);

/**
 * A TSIG key as `/v2/tsigkeys` answers it, keys in the real service's order.
 *
 * @category TSIG keys
 */
export interface TsigkeyBody {
  /** The key's UUID. */
  readonly id: string;
  /** Unique across the service, at most 160 characters. */
  readonly name: string;
  /** The HMAC algorithm. */
  readonly algorithm: TsigAlgorithm;
  /** The shared secret, as sent (at most 160 characters); admins read it back. */
  readonly secret: string;
  /** `POOL` or `ZONE`. */
  readonly scope: TsigScope;
  /** The pool's or zone's id, in canonical UUID form (not checked to exist, as in the real service). */
  readonly resource_id: string;
  /** `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC; null only when a create sent `created_at: null` (the real service keeps that). */
  readonly created_at: string | null;
  /** Null until the first update. */
  readonly updated_at: string | null;
  /** `self`: `/v2/tsigkeys/{id}`. */
  readonly links: {
    /** The key's absolute URL. */
    readonly self: string;
  };
}

/**
 * What `tsigkeys.create` and `tsigkeys.update` accept. A create needs all five fields.
 *
 * @category TSIG keys
 */
export interface TsigkeyInput {
  /** At most 160 characters. */
  readonly name?: string;
  /** One of {@link TsigAlgorithm}. */
  readonly algorithm?: TsigAlgorithm;
  /** At most 160 characters. */
  readonly secret?: string;
  /** `POOL` or `ZONE`. */
  readonly scope?: TsigScope;
  /** A UUID (braces, hyphens, `urn:uuid:` and case as Python's `uuid.UUID` reads them). */
  readonly resource_id?: string;
}

/** A TSIG key as stored (timestamps as epoch microseconds). @internal */
export interface StoredTsigkey {
  readonly id: string;
  readonly name: string;
  readonly algorithm: TsigAlgorithm;
  readonly secret: string;
  readonly scope: TsigScope;
  readonly resourceId: string;
  readonly createdAt: number | null;
  readonly updatedAt: number | null;
}

/** The TSIG keys collection. @internal */
export const TSIGKEYS = 'dns.tsigkeys';
/** Index: every key in (created_at, id) order; a null created_at sorts first, as SQL sorts it. */
const BY_CREATED = 'created';
/** Index: keys by name, for the unique-name rule. */
const BY_NAME = 'name';

const collection: Collection<StoredTsigkey> = {
  name: TSIGKEYS,
  problem: shapeCheck({
    id: isString,
    name: isString,
    algorithm: oneOf(...TSIG_ALGORITHMS),
    secret: isString,
    scope: oneOf(...SCOPES),
    resourceId: isString,
    createdAt: orNull(isInteger),
    updatedAt: orNull(isInteger),
  }),
  idOf: (k) => k.id,
  keys: (k) => ({ [BY_CREATED]: tupleKey(k.createdAt ?? 0), [BY_NAME]: tupleKey(k.name) }),
};

const store = repository(collection);

/** The stored TSIG keys, read (checked) and written only through here. @internal */
export const tsigkeyRepository = {
  ...store,
  /** The keys named `name` (at most one, other than a key being renamed). O(log n). */
  named: async (tx: StorageTransaction, name: string): Promise<StoredTsigkey[]> =>
    (await store.range(tx, BY_NAME, { prefix: tupleKey(name) })).map((e) => e.value),
  /** Where every key is listed from. */
  everyone: { collection, index: BY_CREATED, prefix: '', keyOf: (k) => tupleKey(k.createdAt ?? 0) } satisfies ListScope<StoredTsigkey>,
};

/** The API body of a stored key. @internal */
export function presentTsigkey(k: StoredTsigkey, baseUrl: string): TsigkeyBody {
  return {
    id: k.id,
    name: k.name,
    algorithm: k.algorithm,
    secret: k.secret,
    scope: k.scope,
    resource_id: k.resourceId,
    created_at: k.createdAt === null ? null : formatTimestamp(k.createdAt),
    updated_at: k.updatedAt === null ? null : formatTimestamp(k.updatedAt),
    links: { self: `${baseUrl}/v2/tsigkeys/${k.id}` },
  };
}

const MAX_TEXT = 160;
const UUID_RANGE = 1n << 128n;

/**
 * `resource_id` as the real service takes it: its UUID field first tries `int(value)`, and an
 * integer in UUID range is kept as its decimal text, which the store then reads as hex (so 32
 * decimal digits are a UUID and `"5"` fails there, a 500); anything else must be UUID text.
 * Answered in canonical form, as the real service reads it back from its store.
 * @internal
 */
export function coerceResourceId(value: unknown): Result<string, ApiError> {
  if (value === null || value === undefined) return err(invalidValue('ValueError', "Field `resource_id' cannot be None"));
  const n = pyInt(value);
  if (n.isOk()) {
    // pyInt reads numbers; text is re-read exactly, since a UUID-sized integer exceeds 2^53.
    const exact = typeof value === 'string' ? pythonIntLiteral(value) : BigInt(n.value);
    const big = typeof exact === 'bigint' ? exact : BigInt(n.value);
    if (big < 0n || big >= UUID_RANGE) return err(invalidValue('AttributeError', "'int' object has no attribute 'replace'"));
    const stored = pythonUuidText(big.toString());
    return stored.isOk() ? ok(stored.value) : err(nullRefusedByStore('resource_id', 'TSIG key (an integer that is no UUID)'));
  }
  // int() raised a TypeError or an OverflowError: the real service reports that one.
  if (!n.error.message.includes('a ValueError')) return err(n.error);
  if (typeof value !== 'string') return err(invalidValue('AttributeError', `'${pyTypeName(value)}' object has no attribute 'replace'`));
  return pythonUuidText(value);
}

/** What a body makes of a key: its fields, and the create quirks of the real service. @internal */
export interface ParsedTsigkey {
  readonly name: string;
  readonly algorithm: TsigAlgorithm;
  readonly secret: string;
  readonly scope: TsigScope;
  readonly resourceId: string;
  /** The body sent `created_at: null` (a create keeps it null) or the key has none. */
  readonly createdAtNull: boolean;
  /** A create sent `id: null`, which the real service's store refuses (a 500). */
  readonly idNull: boolean;
}

/** The fields of a key a body may set. */
interface TsigkeyDraft {
  id?: string | null;
  name?: string;
  algorithm?: TsigAlgorithm;
  secret?: string;
  scope?: TsigScope;
  resourceId?: string;
  createdAt?: number | null;
  updatedAt?: number | null;
}

const FIELDS = {
  id: { writable: false },
  name: { writable: true },
  algorithm: { writable: true },
  secret: { writable: true },
  scope: { writable: true },
  resource_id: { writable: true },
  created_at: { writable: false },
  updated_at: { writable: false },
} as const;

const text = (value: unknown, field: string): Result<string, ApiError> => stringField(value, field, MAX_TEXT);

/**
 * Reads a create (`current` undefined) or update body into the key it makes, with the real
 * service's checks in its order: the adapter's reading (unknown and read-only keys, each value's
 * coercion as it comes), then the required fields (name, algorithm, secret, scope, resource_id).
 * @internal
 */
export function parseTsigkeyBody(body: unknown, current: StoredTsigkey | undefined): Result<ParsedTsigkey, ApiError> {
  const draft: TsigkeyDraft =
    current === undefined
      ? {}
      : { name: current.name, algorithm: current.algorithm, secret: current.secret, scope: current.scope, resourceId: current.resourceId, createdAt: current.createdAt };
  const shown = persistentShown(current);
  const set = (key: string, value: unknown): Result<void, ApiError> => {
    switch (key) {
      case 'name':
        return text(value, 'name').map((v) => void (draft.name = v));
      case 'secret':
        return text(value, 'secret').map((v) => void (draft.secret = v));
      case 'algorithm':
        return enumField(value, 'algorithm', TSIG_ALGORITHMS).map((v) => void (draft.algorithm = v));
      case 'scope':
        return enumField(value, 'scope', SCOPES).map((v) => void (draft.scope = v));
      case 'resource_id':
        return coerceResourceId(value).map((v) => void (draft.resourceId = v));
      case 'id':
        // Only a repeat of the current id (update) or null (create) gets here.
        draft.id = value as string | null;
        return ok(undefined);
      case 'created_at':
        draft.createdAt = null;
        return ok(undefined);
      default:
        return ok(undefined);
    }
  };
  const read = parseAdapterObject(body, FIELDS, shown, set, 'tsigkey');
  if (read.isErr()) return err(read.error);
  for (const [field, value] of [
    ['name', draft.name],
    ['algorithm', draft.algorithm],
    ['secret', draft.secret],
    ['scope', draft.scope],
    ['resource_id', draft.resourceId],
  ] as const) {
    if (value === undefined) return err(requiredProperty(field));
  }
  return ok({
    name: draft.name!,
    algorithm: draft.algorithm!,
    secret: draft.secret!,
    scope: draft.scope!,
    resourceId: draft.resourceId!,
    createdAtNull: draft.createdAt === null,
    idNull: current === undefined && draft.id === null,
  });
}
