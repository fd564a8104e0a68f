import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { invalidValue, nullRefusedByStore } from '../../kernel/validation.js';
import { invalidZoneName, ttlBelowMinimum } from './zone-errors.js';
import type { NamePolicy } from './name-policy.js';

/**
 * The rules a zone's name, email and TTL obey wherever a zone is made or changed: the API's
 * create and update, imports, SECONDARY transfers, recordset writes (the TTL floor).
 * @module
 */

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
  /** Known TLDs without trailing dot (`com`, `co.uk`), beside those of `dns.tlds`; none at all = no TLD check. @defaultValue [] */
  readonly tlds: readonly string[];
  /**
   * Blacklisted name patterns beside those of `dns.blacklists`: Python regular expressions
   * searched for in the name with its dot, in linear time (see `dns.blacklists`); admins may
   * bypass them. A pattern the matcher cannot use is ignored. @defaultValue []
   */
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

/**
 * A PRIMARY zone's `ttl: null`: the real service's checks all let it through, and its storage
 * column (NOT NULL) then refuses it, so create and PATCH answer a bare 500 `unknown` once every
 * other check has passed (reference §4.2, probed), and nothing is written.
 * @internal
 */
export const nullTtl = (): ApiError => nullRefusedByStore('ttl', 'zone');

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

/** Why a string is not an email by the real service's rule (its ValueError text), or undefined. @internal */
export function emailProblem(email: string): string | undefined {
  if (email.split('@').length !== 2) return `${email} is not an email`;
  if (checkNameSyntax(`${email.replace('@', '.')}.`).isErr()) return `Email ${email} is invalid`;
  return undefined;
}

/**
 * The central service's name rules: label count, TLDs (once any exists, a zone must be under one
 * and may not be one), blacklist (the `use_blacklisted_zone` rule: admins may bypass it).
 * @internal
 */
export function checkZoneName(name: string, limits: ZoneLimits, isAdmin: boolean, policy: Pick<NamePolicy, 'tlds' | 'blacklist'>): Result<void, ApiError> {
  if (name.length > limits.maxZoneNameLength) return err(invalidZoneName('Name too long'));
  const bare = name.slice(0, -1);
  if (!bare.includes('.')) return err(invalidZoneName('More than one label is required'));
  const { tlds } = policy;
  if (tlds.size > 0) {
    // One lookup per label suffix (`a.b.com`, `b.com`, `com`).
    let found = tlds.has(bare);
    for (let dot = bare.indexOf('.'); !found && dot >= 0; dot = bare.indexOf('.', dot + 1)) found = tlds.has(bare.slice(dot + 1));
    if (!found) return err(invalidZoneName('Invalid TLD'));
    if (tlds.has(bare.toLowerCase())) {
      return err(invalidZoneName('Zone name cannot be the same as a TLD'));
    }
  }
  if (!isAdmin && policy.blacklist.search(name)) return err(invalidZoneName('Blacklisted zone name'));
  return ok(undefined);
}

/** The TTL floor (`min_ttl`); admins may go below it. @internal */
export function checkTtlFloor(ttl: number, limits: ZoneLimits, isAdmin: boolean): Result<void, ApiError> {
  if (limits.minTtl !== null && ttl < limits.minTtl && !isAdmin) {
    return err(ttlBelowMinimum(limits.minTtl));
  }
  return ok(undefined);
}
