import { err, ok, type Result } from 'neverthrow';
import type { ApiError, FieldError } from '../../kernel/api-error.js';
import {
  coerceString,
  intField,
  invalidValue,
  isCleanText,
  ownEntries,
  pyInt,
  pyText,
  pyTypeName,
  schemaErrors,
  stringField,
  walkBodyKeys,
  type BodyKeys,
} from '../../kernel/validation.js';
import type { Zone, ZoneType } from '../kernel/zone.js';
import { checkNameSyntax, emailProblem, type ZoneLimits } from '../kernel/zone-rules.js';

const MAX_TTL = 2147483647;
/** The name field's own length cap, checked before the name rules (`Value too long for name`). */
const MAX_NAME_FIELD = 255;

/** Email rules (the real service's EmailField: a nullable string field of at most 255 characters). @internal */
export function checkEmail(value: unknown): Result<string, ApiError> {
  // Null passes the string field and then fails the '@' count, as in the real service.
  if (value === null || value === undefined) {
    return err(invalidValue('AttributeError', "'NoneType' object has no attribute 'count'"));
  }
  // The name rule below refuses a NUL or a lone surrogate, as the real service's pattern does.
  const coerced = coerceString(value, 'email', 255);
  if (coerced.isErr()) return err(coerced.error);
  const problem = emailProblem(coerced.value);
  return problem === undefined ? ok(coerced.value) : err(invalidValue('ValueError', problem));
}

/** Parses one master (`host` or `host:port`) and renders it as the API shows it. @internal */
export function parseMaster(value: unknown): Result<string, ApiError> {
  // The real service splits what it is sent at ':' first, so a non-string fails there.
  if (typeof value !== 'string') return err(invalidValue('AttributeError', `'${pyTypeName(value)}' object has no attribute 'split'`));
  if (!isCleanText(value) || value.length > 255) {
    return err(invalidValue('ValueError', `Master ${value.slice(0, 100)} is invalid`));
  }
  const colon = value.indexOf(':');
  if (colon < 0) return ok(value);
  const host = value.slice(0, colon);
  const rest = value.slice(colon + 1);
  // What int() refuses (a bare IPv6 address, say) leaves the whole string as the host.
  const parsed = pyInt(rest);
  if (parsed.isErr()) return ok(value);
  const port = parsed.value;
  if (port < 1) return err(invalidValue('ValueError', 'Value must be >= 1 for field port'));
  if (port > 65535) return err(invalidValue('ValueError', 'Value too high for port'));
  return ok(port === 53 ? host : `${host}:${port}`);
}

/**
 * The masters as the real service reads them: it iterates what it is sent, so a list gives its
 * items, a string its characters and an object its keys, and anything else is not iterable.
 */
function parseMasters(value: unknown): Result<readonly string[], ApiError> {
  let items: readonly unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') items = Array.from(value);
  else if (typeof value === 'object' && value !== null) items = Object.keys(value);
  else return err(invalidValue('TypeError', `'${pyTypeName(value)}' object is not iterable`));
  if (items.length > 1000) return err(invalidValue('ValueError', 'Too many masters'));
  const out: string[] = [];
  for (const m of items) {
    const parsed = parseMaster(m);
    if (parsed.isErr()) return err(parsed.error);
    out.push(parsed.value);
  }
  return ok(Object.freeze(out));
}

function parseAttributes(value: unknown): Result<Readonly<Record<string, string>>, ApiError> {
  const entries = ownEntries(value);
  if (entries.isErr()) return err(entries.error);
  const out: Record<string, string> = {};
  const keys = Object.keys(entries.value);
  if (keys.length > 100) return err(invalidValue('ValueError', 'Too many attributes'));
  for (const key of keys) {
    const v = entries.value[key];
    // Each pair is a ZoneAttribute there, whose fields are named key and value.
    const k = stringField(key, 'key', 50);
    if (k.isErr()) return err(k.error);
    const s = stringField(v, 'value', 50);
    if (s.isErr()) return err(s.error);
    Object.defineProperty(out, key, { value: s.value, enumerable: true, writable: true, configurable: true });
  }
  return ok(Object.freeze(out));
}

/**
 * The keys the real service's zone adapter knows (any other key is refused): `name` and `type`
 * are set once, then only to the same value; `email`, `description` and `ttl` may change; every
 * other one is read-only.
 */
const ZONE_KEYS: BodyKeys = {
  known: new Set([
    'id',
    'pool_id',
    'project_id',
    'name',
    'email',
    'description',
    'ttl',
    'serial',
    'status',
    'action',
    'version',
    'attributes',
    'type',
    'masters',
    'created_at',
    'updated_at',
    'transferred_at',
  ]),
  editable: new Set(['email', 'description', 'ttl']),
  immutable: new Set(['name', 'type']),
};

/**
 * What `zones.create` accepts (the typed form of its body; `unknown` is accepted too and checked
 * at run time). Read-only keys of {@link ZoneBody} are refused with `invalid_object`.
 *
 * @category Zones
 */
export interface ZoneCreateInput {
  /** Fully qualified, with its trailing dot. */
  readonly name: string;
  /** The SOA's RNAME, as an address; required for PRIMARY zones. */
  readonly email?: string;
  /** Default TTL of the zone's recordsets. @defaultValue 3600 */
  readonly ttl?: number;
  /** Free text, at most 160 characters, or null. */
  readonly description?: string | null;
  /** @defaultValue 'PRIMARY' */
  readonly type?: 'PRIMARY' | 'SECONDARY';
  /** SECONDARY zones: the masters to transfer from, `host` or `host:port`. */
  readonly masters?: readonly string[] | null;
  /** Scheduler hints (string values). */
  readonly attributes?: Readonly<Record<string, string>>;
}

/**
 * What `zones.update` accepts. `name` and `type` may be resent unchanged; another value is refused.
 *
 * @category Zones
 */
export interface ZoneUpdateInput {
  /** The SOA's RNAME, as an address. */
  readonly email?: string;
  /** Default TTL of the zone's recordsets. */
  readonly ttl?: number;
  /** Free text, at most 160 characters, or null. */
  readonly description?: string | null;
  /** SECONDARY zones: the masters to transfer from. */
  readonly masters?: readonly string[] | null;
  /** Scheduler hints (string values); replaces the stored ones. */
  readonly attributes?: Readonly<Record<string, string>>;
  /** Only the zone's own name. */
  readonly name?: string;
  /** Only the zone's own type. */
  readonly type?: 'PRIMARY' | 'SECONDARY';
}

/** The fields a create or update body sets. @internal */
export interface ZoneInput {
  name?: string;
  email?: string;
  description?: string | null;
  /** Null is a TTL the body may carry but no zone may hold (see {@link nullTtl}). */
  ttl?: number | null;
  type?: ZoneType;
  masters?: readonly string[];
  attributes?: Readonly<Record<string, string>>;
  /** Set when an update body names the zone's own project: the real service refuses that as a move. */
  projectId?: string;
}

function parseType(value: unknown): Result<ZoneType, ApiError> {
  if (value === 'PRIMARY' || value === 'SECONDARY') return ok(value);
  return err(invalidValue('ValueError', `Field value ${pyText(value).slice(0, 100)} is invalid`));
}

/** The keys {@link parseZoneBody} reads before the others, wherever they stand. */
const READ_FIRST: ReadonlySet<string> = new Set(['masters', 'attributes']);

/**
 * Parses a create or update body onto the zone (`current`, or nothing on create) as the real
 * service's adapter does, in its order: `masters` and `attributes` first, wherever they stand;
 * then every key in body order, where an unknown key is noted and skipped, a read-only key with
 * another value than the current one (null on create), or an immutable key changed, is noted and
 * ends the walk, and a value its field refuses is refused at once. The noted keys are refused
 * together at the end.
 * @internal
 */
export function parseZoneBody(body: unknown, current: Zone | undefined, limits: ZoneLimits): Result<ZoneInput, ApiError> {
  const entries = ownEntries(body);
  if (entries.isErr()) return err(entries.error);
  const fields = entries.value;
  const input: ZoneInput = {};
  if ('masters' in fields) {
    // The spec: masters is null for PRIMARY zones (the real service would fail to iterate it).
    const m = fields['masters'] === null ? ok<readonly string[], ApiError>([]) : parseMasters(fields['masters']);
    if (m.isErr()) return err(m.error);
    input.masters = m.value;
  }
  if ('attributes' in fields) {
    const a = parseAttributes(fields['attributes']);
    if (a.isErr()) return err(a.error);
    input.attributes = a.value;
  }
  const walked = walkBodyKeys(ZONE_KEYS, fields, (k) => storedValue(k, current), 'zone', {
    same: (key) => {
      // The real service's schema lets the zone's own project id through, and central then
      // refuses the body as a move (see {@link ZoneInput.projectId}).
      if (key === 'project_id' && current !== undefined) input.projectId = current.projectId;
      return undefined;
    },
    set: (key, value) => setField(input, key, value, limits),
  }, READ_FIRST);
  return walked.isErr() ? err(walked.error) : ok(input);
}

/** Coerces and checks one editable or immutable field onto `input`. */
function setField(input: ZoneInput, key: string, value: unknown, limits: ZoneLimits): Result<void, ApiError> {
  switch (key) {
    case 'name': {
      // checkNameSyntax refuses a NUL or a lone surrogate, as the real service's pattern does.
      const coerced = coerceString(value, 'name', MAX_NAME_FIELD);
      if (coerced.isErr()) return err(coerced.error);
      const checked = checkNameSyntax(coerced.value);
      if (checked.isErr()) return err(checked.error);
      input.name = coerced.value;
      return ok(undefined);
    }
    case 'type': {
      const t = parseType(value);
      if (t.isErr()) return err(t.error);
      input.type = t.value;
      return ok(undefined);
    }
    case 'email': {
      const e = checkEmail(value);
      if (e.isErr()) return err(e.error);
      input.email = e.value;
      return ok(undefined);
    }
    case 'description': {
      if (value === null) {
        input.description = null;
        return ok(undefined);
      }
      const d = stringField(value, 'description', limits.maxDescriptionLength);
      if (d.isErr()) return err(d.error);
      input.description = d.value;
      return ok(undefined);
    }
    default: {
      // ttl. Null passes the field (it is nullable there) and fails later, at the storage: see nullTtl.
      if (value === null) {
        input.ttl = null;
        return ok(undefined);
      }
      const t = intField(value, 'ttl', 0, MAX_TTL);
      if (t.isErr()) return err(t.error);
      input.ttl = t.value;
      return ok(undefined);
    }
  }
}

/** A timestamp the zone holds: no JSON value equals it (the real service compares a datetime). */
const TIMESTAMP = Symbol('timestamp');

/**
 * The current value of a key, as the adapter compares it: on create, immutable keys are unset and
 * read-only ones None.
 */
function storedValue(key: string, z: Zone | undefined): string | number | null | undefined | typeof TIMESTAMP {
  if (z === undefined) return key === 'name' || key === 'type' ? undefined : null;
  switch (key) {
    case 'name':
      return z.name;
    case 'type':
      return z.type;
    case 'id':
      return z.id;
    case 'pool_id':
      return z.poolId;
    case 'project_id':
      return z.projectId;
    case 'serial':
      return z.serial;
    case 'status':
      return z.status;
    case 'action':
      return z.action;
    case 'version':
      return z.version;
    case 'updated_at':
      return z.updatedAt === null ? null : TIMESTAMP;
    case 'transferred_at':
      return z.transferredAt === null ? null : TIMESTAMP;
    default:
      return TIMESTAMP;
  }
}

/**
 * The cross-field rules of the real service's `validate()`: PRIMARY needs an email and no
 * masters; SECONDARY needs masters and takes no email or TTL; a create needs a name.
 * @internal
 */
export function validateZone(
  merged: { type: ZoneType; email: string | undefined; masters: readonly string[]; name: string | undefined },
  given: ZoneInput,
): Result<void, ApiError> {
  const errors: FieldError[] = [];
  if (merged.type === 'PRIMARY') {
    if (merged.masters.length > 0) errors.push({ path: 'type', message: "'masters' has more items than allowed" });
    if (merged.email === undefined) errors.push({ path: 'type.email', message: "'email' is a required property" });
  } else {
    if (merged.masters.length === 0) errors.push({ path: 'type.masters', message: "'masters' is a required property" });
    if (given.email !== undefined) errors.push({ path: 'type', message: "'email' can't be specified when type is SECONDARY" });
    if (given.ttl !== undefined) errors.push({ path: 'type', message: "'ttl' can't be specified when type is SECONDARY" });
  }
  if (merged.name === undefined) errors.push({ path: 'records.0.name', message: "'name' is a required property" });
  return errors.length > 0 ? err(schemaErrors(errors)) : ok(undefined);
}
