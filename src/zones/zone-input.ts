import { err, ok, type Result } from 'neverthrow';
import { ApiError, type FieldError } from '../shared/api-error.js';
import {
  intField,
  invalidKeys,
  invalidValue,
  isCleanText,
  ownEntries,
  pyTypeName,
  schemaErrors,
  stringField,
} from '../shared/validation.js';
import type { Zone, ZoneType } from './zone.js';

/**
 * Limits and name rules of the DNS service (the real service's configuration options).
 *
 * @category Zones
 */
export interface ZoneLimits {
  /** TTL floor for non-admins (`min_ttl`); null = none. @defaultValue null */
  readonly minTtl: number | null;
  /** Longest description. @defaultValue 160 */
  readonly maxDescriptionLength: number;
  /** Longest zone name, trailing dot included (`max_zone_name_len`). @defaultValue 255 */
  readonly maxZoneNameLength: number;
  /** Largest zone file an import accepts, in UTF-8 bytes. @defaultValue 16 MiB */
  readonly maxZoneFileBytes: number;
  /** Known TLDs without trailing dot (`com`, `co.uk`); empty = no TLD check. @defaultValue [] */
  readonly tlds: readonly string[];
  /** Blacklisted name patterns (regular-expression searches on the name with its dot); admins may bypass. @defaultValue [] */
  readonly blacklist: readonly string[];
  /** Email forced onto SECONDARY zones (`managed_resource_email`). @defaultValue 'hostmaster@example.com' */
  readonly managedResourceEmail: string;
}

/** The defaults of {@link ZoneLimits}. @internal */
export const DEFAULT_ZONE_LIMITS: ZoneLimits = Object.freeze({
  minTtl: null,
  maxDescriptionLength: 160,
  maxZoneNameLength: 255,
  maxZoneFileBytes: 16 * 1024 * 1024,
  tlds: Object.freeze([]),
  blacklist: Object.freeze([]),
  managedResourceEmail: 'hostmaster@example.com',
});

const MAX_TTL = 2147483647;
const LABEL = /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/;

/**
 * Whether a name passes every rule of {@link checkNameSyntax}, decided in one scan: absolute,
 * at most 254 characters, labels of 1 to 63 letters, digits, `_` or `-`, none starting or ending
 * with `-`. Only the refusals need the slower path that finds the real service's message.
 */
function isPlainName(name: string): boolean {
  const n = name.length;
  if (n < 2 || n > 254 || name.charCodeAt(n - 1) !== 46) return false;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c === 46) {
      const len = i - start;
      if (len < 1 || len > 63 || name.charCodeAt(i - 1) === 45) return false;
      start = i + 1;
    } else if (c === 45) {
      if (i === start) return false;
    } else if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95)) {
      return false;
    }
  }
  return true;
}

/** Name rules applied while parsing the body (the real service's DomainField). @internal */
export function checkNameSyntax(name: string): Result<string, ApiError> {
  if (isPlainName(name)) return ok(name);
  for (const label of name.split('.')) {
    if (label.length > 63) return err(invalidValue('ValueError', `Host ${label} is too long`));
  }
  if (!name.endsWith('.')) return err(invalidValue('ValueError', `Domain ${name} does not end with a dot`));
  const labels = name.slice(0, -1).split('.');
  if (name.length > 254 || !labels.every((l) => LABEL.test(l))) {
    return err(invalidValue('ValueError', `Domain ${name} is invalid`));
  }
  return ok(name);
}

/** Email rules (the real service's EmailField). @internal */
export function checkEmail(value: unknown): Result<string, ApiError> {
  if (value === null || value === undefined) {
    return err(invalidValue('AttributeError', "'NoneType' object has no attribute 'count'"));
  }
  if (typeof value !== 'string') {
    return err(invalidValue('AttributeError', `'${pyTypeName(value)}' object has no attribute 'count'`));
  }
  if (!isCleanText(value) || value.length > 255) return err(invalidValue('ValueError', `Email ${value.slice(0, 300)} is invalid`));
  if (value.split('@').length !== 2) return err(invalidValue('ValueError', `${value} is not an email`));
  const asName = `${value.replace('@', '.')}.`;
  if (checkNameSyntax(asName).isErr()) return err(invalidValue('ValueError', `Email ${value} is invalid`));
  return ok(value);
}

/** Parses one master (`host` or `host:port`) and renders it as the API shows it. @internal */
export function parseMaster(value: unknown): Result<string, ApiError> {
  if (typeof value !== 'string' || value === '' || !isCleanText(value) || value.length > 255) {
    return err(invalidValue('ValueError', `Master ${typeof value === 'string' ? value.slice(0, 100) : pyTypeName(value)} is invalid`));
  }
  const colon = value.indexOf(':');
  if (colon < 0) return ok(value);
  const host = value.slice(0, colon);
  const rest = value.slice(colon + 1);
  if (!/^\d+$/.test(rest)) return ok(value); // a bare IPv6 address: the whole string is the host
  const port = Number(rest);
  if (port < 1) return err(invalidValue('ValueError', 'Value must be >= 1 for field port'));
  if (port > 65535) return err(invalidValue('ValueError', 'Value too high for port'));
  return ok(port === 53 ? host : `${host}:${port}`);
}

function parseMasters(value: unknown): Result<readonly string[], ApiError> {
  if (!Array.isArray(value)) {
    return err(invalidValue('ValueError', `A list is required in field masters, not a ${pyTypeName(value)}`));
  }
  if (value.length > 1000) return err(invalidValue('ValueError', 'Too many masters'));
  const out: string[] = [];
  for (const m of value as unknown[]) {
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
    if (!isCleanText(key) || key.length > 50) return err(invalidValue('ValueError', `Attribute key ${key.slice(0, 60)} is invalid`));
    const s = stringField(v, `attributes.${key}`, 50);
    if (s.isErr()) return err(s.error);
    Object.defineProperty(out, key, { value: s.value, enumerable: true, writable: true, configurable: true });
  }
  return ok(Object.freeze(out));
}

const WRITABLE = new Set(['name', 'email', 'description', 'ttl', 'type', 'masters', 'attributes']);
const READ_ONLY = new Set([
  'id',
  'pool_id',
  'project_id',
  'serial',
  'status',
  'action',
  'version',
  'created_at',
  'updated_at',
  'transferred_at',
  'links',
]);

/** The fields a create or update body sets. @internal */
export interface ZoneInput {
  name?: string;
  email?: string;
  description?: string | null;
  ttl?: number;
  type?: ZoneType;
  masters?: readonly string[];
  attributes?: Readonly<Record<string, string>>;
}

function parseType(value: unknown): Result<ZoneType, ApiError> {
  if (value === 'PRIMARY' || value === 'SECONDARY') return ok(value);
  return err(invalidValue('ValueError', `Field value ${typeof value === 'string' ? value.slice(0, 100) : pyTypeName(value)} is invalid`));
}

/**
 * Parses a create or update body onto the zone (`current`, or nothing on create) as the real
 * service's adapter does: unknown keys are collected, a read-only key passes only with the
 * current value (null on create), values are coerced field by field.
 * @internal
 */
export function parseZoneBody(body: unknown, current: Zone | undefined, limits: ZoneLimits): Result<ZoneInput, ApiError> {
  const entries = ownEntries(body);
  if (entries.isErr()) return err(entries.error);
  const fields = entries.value;
  const unknown: string[] = [];
  for (const key of Object.keys(fields)) {
    if (WRITABLE.has(key)) continue;
    if (READ_ONLY.has(key) && (fields[key] === null || (current !== undefined && sameReadOnly(key, fields[key], current)))) continue;
    unknown.push(key);
  }
  if (current !== undefined) {
    if ('type' in fields && fields['type'] !== current.type) unknown.push('type');
    if ('name' in fields && fields['name'] !== current.name) unknown.push('name');
  }
  if (unknown.length > 0) return err(invalidKeys(unknown, 'zone'));

  const input: ZoneInput = {};
  if ('name' in fields) {
    const name = fields['name'];
    if (typeof name !== 'string' || !isCleanText(name)) {
      return err(invalidValue('ValueError', `Domain ${typeof name === 'string' ? name.slice(0, 300) : pyTypeName(name)} is invalid`));
    }
    const checked = checkNameSyntax(name);
    if (checked.isErr()) return err(checked.error);
    input.name = name;
  }
  if ('type' in fields) {
    const t = parseType(fields['type']);
    if (t.isErr()) return err(t.error);
    input.type = t.value;
  }
  if ('email' in fields) {
    const e = checkEmail(fields['email']);
    if (e.isErr()) return err(e.error);
    input.email = e.value;
  }
  if ('description' in fields) {
    const d = fields['description'];
    if (d === null) input.description = null;
    else {
      const s = stringField(d, 'description', limits.maxDescriptionLength);
      if (s.isErr()) return err(s.error);
      input.description = s.value;
    }
  }
  if ('ttl' in fields) {
    if (fields['ttl'] === null) return err(invalidValue('TypeError', 'ttl must be an integer, not null'));
    const t = intField(fields['ttl'], 'ttl', 0, MAX_TTL);
    if (t.isErr()) return err(t.error);
    input.ttl = t.value;
  }
  if ('masters' in fields) {
    const m = fields['masters'] === null ? ok<readonly string[], ApiError>([]) : parseMasters(fields['masters']);
    if (m.isErr()) return err(m.error);
    input.masters = m.value;
  }
  if ('attributes' in fields) {
    const a = fields['attributes'] === null ? ok({}) : parseAttributes(fields['attributes']);
    if (a.isErr()) return err(a.error);
    input.attributes = a.value;
  }
  return ok(input);
}

function sameReadOnly(key: string, value: unknown, z: Zone): boolean {
  switch (key) {
    case 'id':
      return value === z.id;
    case 'pool_id':
      return value === z.poolId;
    case 'project_id':
      return value === z.projectId;
    case 'serial':
      return value === z.serial;
    case 'status':
      return value === z.status;
    case 'action':
      return value === z.action;
    case 'version':
      return value === z.version;
    default:
      return false;
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

/** The central service's name rules: label count, TLDs, blacklist (admins may bypass it). @internal */
export function checkZoneName(name: string, limits: ZoneLimits, isAdmin: boolean): Result<void, ApiError> {
  if (name.length > limits.maxZoneNameLength) return err(new ApiError(400, 'invalid_zone_name', 'Name too long'));
  const labels = name.slice(0, -1).split('.');
  if (labels.length < 2) return err(new ApiError(400, 'invalid_zone_name', 'More than one label is required'));
  if (limits.tlds.length > 0) {
    const tlds = new Set(limits.tlds);
    let found = false;
    for (let i = 0; i < labels.length && !found; i++) found = tlds.has(labels.slice(i).join('.'));
    if (!found) return err(new ApiError(400, 'invalid_zone_name', 'Invalid TLD'));
    if (tlds.has(name.slice(0, -1).toLowerCase())) {
      return err(new ApiError(400, 'invalid_zone_name', 'Zone name cannot be the same as a TLD'));
    }
  }
  if (!isAdmin) {
    for (const pattern of limits.blacklist) {
      let re: RegExp;
      try {
        re = new RegExp(pattern);
      } catch {
        continue; // an unusable pattern was refused when the service was configured
      }
      if (re.test(name)) return err(new ApiError(400, 'invalid_zone_name', 'Blacklisted zone name'));
    }
  }
  return ok(undefined);
}

/** The TTL floor (`min_ttl`); admins may go below it. @internal */
export function checkTtlFloor(ttl: number, limits: ZoneLimits, isAdmin: boolean): Result<void, ApiError> {
  if (limits.minTtl !== null && ttl < limits.minTtl && !isAdmin) {
    return err(new ApiError(400, 'invalid_ttl', `TTL is below the minimum: ${limits.minTtl}`));
  }
  return ok(undefined);
}
