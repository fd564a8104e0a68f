/**
 * The zone body rules one by one (reference §4.1, §4.2, §4.3 steps 3–4 and 10–11, §4.10), at the
 * level of the parsing functions so each rule's boundary is pinned exactly: the service-level
 * suites check that a bad body is refused, these check which rule refuses it and with what words.
 */
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/shared/api-error.js';
import {
  checkEmail,
  checkNameSyntax,
  checkTtlFloor,
  checkZoneName,
  DEFAULT_ZONE_LIMITS,
  parseMaster,
  parseZoneBody,
  validateZone,
  type ZoneInput,
  type ZoneLimits,
} from '../../src/zones/zone-input.js';
import type { Zone } from '../../src/zones/zone.js';

const VALUE = 'Provided object is not valid. Got a ValueError error with message ';
const ATTRIBUTE = 'Provided object is not valid. Got an AttributeError with message ';
const TYPE = 'Provided object is not valid. Got a TypeError with message ';
const KEYS = 'Provided object does not match schema. Keys ';

/** The error body the real API would send, or 'ok' with the value. */
const outcome = <T>(r: { isOk(): boolean; _unsafeUnwrap(): T; _unsafeUnwrapErr(): ApiError }): unknown =>
  r.isOk() ? ['ok', r._unsafeUnwrap()] : r._unsafeUnwrapErr().toJSON();
const invalid = (message: string) => ({ code: 400, type: 'invalid_object', message });
const label = (n: number, c = 'a') => c.repeat(n);

const ZONE: Zone = Object.freeze({
  id: '00000000-0000-4000-8000-000000000001', poolId: '794ccc2c-d751-44fe-b57f-8894c9f5c842', projectId: 'alice',
  name: 'example.com.', email: 'h@example.com', description: null, ttl: 3600, serial: 1700000000, status: 'ACTIVE',
  action: 'NONE', version: 2, attributes: {}, type: 'PRIMARY', masters: [], createdAt: 1, updatedAt: null,
  transferredAt: null, refresh: 3500, retry: 600, expire: 86400, minimum: 3600, parentZoneId: null,
  soaRecordsetId: 's', nsRecordsetId: 'n', recordsetCount: 0, recordCount: 0,
});

describe('zone name syntax (reference §4.2 steps 1–3, in that order)', () => {
  it('refuses a label over 63 characters first, even without the final dot', () => {
    expect(outcome(checkNameSyntax(`${label(63)}.com.`))).toEqual(['ok', `${label(63)}.com.`]);
    expect(outcome(checkNameSyntax(`${label(64)}.com.`))).toEqual(invalid(`${VALUE}Host ${label(64)} is too long`));
    expect(outcome(checkNameSyntax(`x.${label(64)}`))).toEqual(invalid(`${VALUE}Host ${label(64)} is too long`));
  });

  it('then needs the trailing dot', () => {
    expect(outcome(checkNameSyntax('example.com'))).toEqual(invalid(`${VALUE}Domain example.com does not end with a dot`));
  });

  it('allows 254 characters in all, the final dot included, and not 255', () => {
    const name254 = `${label(63)}.${label(63)}.${label(63)}.${label(61)}.`;
    expect(name254).toHaveLength(254);
    expect(checkNameSyntax(name254).isOk()).toBe(true);
    const name255 = `${label(63)}.${label(63)}.${label(63)}.${label(62)}.`;
    expect(outcome(checkNameSyntax(name255))).toEqual(invalid(`${VALUE}Domain ${name255} is invalid`));
  });

  it('takes labels of A–Z a–z 0–9 _ - that neither start nor end with a hyphen, case preserved', () => {
    for (const ok of ['UPPER.Example.COM.', 'a-b.com.', '_srv._tcp.example.com.', '09.com.', 'x.y.', 'a--b.com.', 'z.Z9_-z.']) {
      expect(outcome(checkNameSyntax(ok))).toEqual(['ok', ok]);
    }
    for (const bad of ['-a.com.', 'a-.com.', 'a.-com.', 'a.com-.', '.com.', 'a..com.', '*.com.', '.', 'exa mple.com.', 'ä.com.', 'a/b.com.', 'a.b@.']) {
      expect(outcome(checkNameSyntax(bad))).toEqual(invalid(`${VALUE}Domain ${bad} is invalid`));
    }
  });
});

describe('email (reference §4.2, EmailField)', () => {
  it('refuses null and non-strings as Python does when it calls .count on them', () => {
    const no = (type: string) => invalid(`${ATTRIBUTE}'${type}' object has no attribute 'count'`);
    expect(outcome(checkEmail(null))).toEqual(no('NoneType'));
    expect(outcome(checkEmail(undefined))).toEqual(no('NoneType'));
    expect(outcome(checkEmail(5))).toEqual(no('int'));
    expect(outcome(checkEmail(1.5))).toEqual(no('float'));
    expect(outcome(checkEmail(true))).toEqual(no('bool'));
    expect(outcome(checkEmail(['a@b']))).toEqual(no('list'));
    expect(outcome(checkEmail({}))).toEqual(no('dict'));
  });

  it('needs exactly one @, and the address read as a name must be a valid name', () => {
    for (const ok of ['a@b', 'first.last@example.com', 'HOST_master@Example.COM']) expect(outcome(checkEmail(ok))).toEqual(['ok', ok]);
    expect(outcome(checkEmail('not-an-email'))).toEqual(invalid(`${VALUE}not-an-email is not an email`));
    expect(outcome(checkEmail('a@b@c'))).toEqual(invalid(`${VALUE}a@b@c is not an email`));
    expect(outcome(checkEmail('a+b@c.org'))).toEqual(invalid(`${VALUE}Email a+b@c.org is invalid`));
    expect(outcome(checkEmail('a@-b.org'))).toEqual(invalid(`${VALUE}Email a@-b.org is invalid`));
    expect(outcome(checkEmail('a\u0000@b.org'))).toEqual(invalid(`${VALUE}Email a\u0000@b.org is invalid`));
  });

  it('refuses more than 255 characters without echoing a huge value', () => {
    const huge = `${'a'.repeat(1 << 20)}@b.org`;
    const error = checkEmail(huge)._unsafeUnwrapErr();
    expect(error.message).toBe(`${VALUE}Email ${huge.slice(0, 300)} is invalid`);
  });
});

describe('masters (reference §4.10: split at the first colon, port 1–65535, 53 not shown)', () => {
  it('renders host, or host:port when the port is not 53', () => {
    expect(outcome(parseMaster('192.0.2.1'))).toEqual(['ok', '192.0.2.1']);
    expect(outcome(parseMaster('192.0.2.1:53'))).toEqual(['ok', '192.0.2.1']);
    expect(outcome(parseMaster('192.0.2.1:5353'))).toEqual(['ok', '192.0.2.1:5353']);
    expect(outcome(parseMaster('ns.example.org:1'))).toEqual(['ok', 'ns.example.org:1']);
    expect(outcome(parseMaster('ns.example.org:65535'))).toEqual(['ok', 'ns.example.org:65535']);
  });

  it('takes the whole string as the host when what follows the first colon is not a number', () => {
    expect(outcome(parseMaster('2001:db8::1'))).toEqual(['ok', '2001:db8::1']);
    expect(outcome(parseMaster('host:53x'))).toEqual(['ok', 'host:53x']);
    expect(outcome(parseMaster('host:x53'))).toEqual(['ok', 'host:x53']);
    expect(outcome(parseMaster('host:'))).toEqual(['ok', 'host:']);
    // No colon at all: a host, even when it is all digits; an empty host before the port is kept.
    expect(outcome(parseMaster('5353'))).toEqual(['ok', '5353']);
    expect(outcome(parseMaster(':53'))).toEqual(['ok', '']);
  });

  it('refuses a port outside 1–65535 with the port field messages', () => {
    expect(outcome(parseMaster('host:0'))).toEqual(invalid(`${VALUE}Value must be >= 1 for field port`));
    expect(outcome(parseMaster('host:65536'))).toEqual(invalid(`${VALUE}Value too high for port`));
  });

  it('refuses what is not a usable string', () => {
    expect(outcome(parseMaster(''))).toEqual(invalid(`${VALUE}Master  is invalid`));
    expect(outcome(parseMaster(5))).toEqual(invalid(`${VALUE}Master int is invalid`));
    expect(outcome(parseMaster(null))).toEqual(invalid(`${VALUE}Master NoneType is invalid`));
    expect(outcome(parseMaster('a\u0000b'))).toEqual(invalid(`${VALUE}Master a\u0000b is invalid`));
    expect(parseMaster('h'.repeat(255)).isOk()).toBe(true);
    expect(outcome(parseMaster('h'.repeat(256)))).toEqual(invalid(`${VALUE}Master ${'h'.repeat(100)} is invalid`));
  });
});

describe('parseZoneBody (reference §4.1 input rules, §4.3 step 3, §4.6 step 3)', () => {
  const create = (body: unknown, limits: ZoneLimits = DEFAULT_ZONE_LIMITS) => outcome(parseZoneBody(body, undefined, limits));
  const update = (body: unknown, current: Zone = ZONE) => outcome(parseZoneBody(body, current, DEFAULT_ZONE_LIMITS));

  it('needs a JSON object, with the AttributeError Python raises on .items()', () => {
    const no = (type: string) => invalid(`${ATTRIBUTE}'${type}' object has no attribute 'items'`);
    expect(create([])).toEqual(no('list'));
    expect(create(null)).toEqual(no('NoneType'));
    expect(create('text')).toEqual(no('str'));
    expect(create(3)).toEqual(no('int'));
    expect(create(3.5)).toEqual(no('float'));
    expect(create(false)).toEqual(no('bool'));
  });

  it('collects every unknown key, in body order', () => {
    expect(create({ foo: 1, name: 'a.com.', bar: 2 })).toEqual(invalid(`${KEYS}['foo', 'bar'] are not valid for zone`));
    expect(create(JSON.parse('{"__proto__": {"x": 1}, "constructor": 1}'))).toEqual(invalid(`${KEYS}['__proto__', 'constructor'] are not valid for zone`));
  });

  it('lets a read-only key through on create only when it is null', () => {
    const readOnly = ['id', 'pool_id', 'project_id', 'serial', 'status', 'action', 'version', 'created_at', 'updated_at', 'transferred_at', 'links'];
    expect(create(Object.fromEntries(readOnly.map((k) => [k, null])))).toEqual(['ok', {}]);
    for (const key of readOnly) expect(create({ [key]: 'x' })).toEqual(invalid(`${KEYS}['${key}'] are not valid for zone`));
  });

  it('lets a read-only key through on update only with the current value', () => {
    const same = { id: ZONE.id, pool_id: ZONE.poolId, project_id: ZONE.projectId, serial: ZONE.serial, status: ZONE.status, action: ZONE.action, version: ZONE.version };
    expect(update(same)).toEqual(['ok', {}]);
    for (const [key, value] of Object.entries(same)) {
      const other = typeof value === 'number' ? value + 1 : `${value}x`;
      expect(update({ [key]: other })).toEqual(invalid(`${KEYS}['${key}'] are not valid for zone`));
    }
    // Timestamps and links are never compared: only null passes.
    expect(update({ created_at: '2026-01-01T00:00:00.000000' })).toEqual(invalid(`${KEYS}['created_at'] are not valid for zone`));
    expect(update({ links: null })).toEqual(['ok', {}]);
  });

  it('treats name and type as immutable on update: only the current value parses', () => {
    expect(update({ name: 'example.com.', type: 'PRIMARY' })).toEqual(['ok', { name: 'example.com.', type: 'PRIMARY' }]);
    expect(update({ name: 'other.com.' })).toEqual(invalid(`${KEYS}['name'] are not valid for zone`));
    expect(update({ type: 'SECONDARY' })).toEqual(invalid(`${KEYS}['type'] are not valid for zone`));
    expect(update({ type: 'SECONDARY', name: 'other.com.', foo: 1 })).toEqual(invalid(`${KEYS}['foo', 'type', 'name'] are not valid for zone`));
    // On create both are ordinary writable fields.
    expect(create({ name: 'other.com.', type: 'SECONDARY' })).toEqual(['ok', { name: 'other.com.', type: 'SECONDARY' }]);
  });

  it('refuses a name that is not clean text before its syntax is looked at', () => {
    expect(create({ name: 5 })).toEqual(invalid(`${VALUE}Domain int is invalid`));
    expect(create({ name: null })).toEqual(invalid(`${VALUE}Domain NoneType is invalid`));
    expect(create({ name: 'a\ud800.com.' })).toEqual(invalid(`${VALUE}Domain a\ud800.com. is invalid`));
    expect(create({ name: 'example.com' })).toEqual(invalid(`${VALUE}Domain example.com does not end with a dot`));
    const huge = `${'a'.repeat(1 << 20)}\u0000`;
    expect(create({ name: huge })).toEqual(invalid(`${VALUE}Domain ${huge.slice(0, 300)} is invalid`));
  });

  it('takes type PRIMARY or SECONDARY in exact case', () => {
    expect(create({ type: 'primary' })).toEqual(invalid(`${VALUE}Field value primary is invalid`));
    expect(create({ type: 7 })).toEqual(invalid(`${VALUE}Field value int is invalid`));
    expect(create({ type: null })).toEqual(invalid(`${VALUE}Field value NoneType is invalid`));
    expect(create({ type: 'x'.repeat(500) })).toEqual(invalid(`${VALUE}Field value ${'x'.repeat(100)} is invalid`));
  });

  it('checks the email field as EmailField does', () => {
    expect(create({ email: 'a@b.com' })).toEqual(['ok', { email: 'a@b.com' }]);
    expect(create({ email: null })).toEqual(invalid(`${ATTRIBUTE}'NoneType' object has no attribute 'count'`));
    expect(create({ email: 'nope' })).toEqual(invalid(`${VALUE}nope is not an email`));
  });

  it('takes a description up to the configured length, or null', () => {
    expect(create({ description: null })).toEqual(['ok', { description: null }]);
    expect(create({ description: 'x'.repeat(160) })).toEqual(['ok', { description: 'x'.repeat(160) }]);
    expect(create({ description: 'x'.repeat(161) })).toEqual(invalid(`${VALUE}Value too long for description`));
    expect(create({ description: 'x'.repeat(11) }, { ...DEFAULT_ZONE_LIMITS, maxDescriptionLength: 10 })).toEqual(invalid(`${VALUE}Value too long for description`));
    expect(create({ description: 5 })).toEqual(invalid(`${VALUE}A string is required in field description, not a int`));
  });

  it('coerces ttl with int() and keeps it within 0..2147483647', () => {
    expect(create({ ttl: 0 })).toEqual(['ok', { ttl: 0 }]);
    expect(create({ ttl: 2147483647 })).toEqual(['ok', { ttl: 2147483647 }]);
    expect(create({ ttl: '301' })).toEqual(['ok', { ttl: 301 }]);
    expect(create({ ttl: 300.9 })).toEqual(['ok', { ttl: 300 }]);
    expect(create({ ttl: true })).toEqual(['ok', { ttl: 1 }]);
    expect(create({ ttl: -1 })).toEqual(invalid(`${VALUE}Value must be >= 0 for field ttl`));
    expect(create({ ttl: 2147483648 })).toEqual(invalid(`${VALUE}Value too high for ttl`));
    expect(create({ ttl: 'abc' })).toEqual(invalid(`${VALUE}invalid literal for int() with base 10: 'abc'`));
  });

  it('refuses ttl null with a 400 (the real service fails later with a 500; reference §4.2)', () => {
    expect(create({ ttl: null })).toEqual(invalid(`${TYPE}ttl must be an integer, not null`));
  });

  it('reads masters as a list of masters; null is an empty list', () => {
    expect(create({ masters: null })).toEqual(['ok', { masters: [] }]);
    expect(create({ masters: ['192.0.2.1:53', '192.0.2.2:5353'] })).toEqual(['ok', { masters: ['192.0.2.1', '192.0.2.2:5353'] }]);
    expect(create({ masters: '192.0.2.1' })).toEqual(invalid(`${VALUE}A list is required in field masters, not a str`));
    expect(create({ masters: ['192.0.2.1', 'h:0'] })).toEqual(invalid(`${VALUE}Value must be >= 1 for field port`));
    expect(create({ masters: Array.from({ length: 1000 }, () => 'h') })).toMatchObject(['ok', { masters: { length: 1000 } }]);
    expect(create({ masters: Array.from({ length: 1001 }, () => 'h') })).toEqual(invalid(`${VALUE}Too many masters`));
    const masters = parseZoneBody({ masters: ['h'] }, undefined, DEFAULT_ZONE_LIMITS)._unsafeUnwrap().masters;
    expect(Object.isFrozen(masters)).toBe(true);
  });

  it('reads attributes as a string-to-string object (keys and values up to 50); null is empty', () => {
    expect(create({ attributes: null })).toEqual(['ok', { attributes: {} }]);
    expect(create({ attributes: { pool: 'x'.repeat(50), [label(50, 'k')]: 'v' } })).toEqual(['ok', { attributes: { pool: 'x'.repeat(50), [label(50, 'k')]: 'v' } }]);
    expect(create({ attributes: { pool: 'x'.repeat(51) } })).toEqual(invalid(`${VALUE}Value too long for attributes.pool`));
    expect(create({ attributes: { pool: 1 } })).toEqual(invalid(`${VALUE}A string is required in field attributes.pool, not a int`));
    expect(create({ attributes: { [label(51, 'k')]: 'v' } })).toEqual(invalid(`${VALUE}Attribute key ${label(51, 'k')} is invalid`));
    expect(create({ attributes: { [label(200, 'k')]: 'v' } })).toEqual(invalid(`${VALUE}Attribute key ${label(60, 'k')} is invalid`));
    expect(create({ attributes: { 'a\u0000': 'v' } })).toEqual(invalid(`${VALUE}Attribute key a\u0000 is invalid`));
    expect(create({ attributes: ['x'] })).toEqual(invalid(`${ATTRIBUTE}'list' object has no attribute 'items'`));
    const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'v']));
    expect(create({ attributes: hundred })).toEqual(['ok', { attributes: hundred }]);
    expect(create({ attributes: { ...hundred, k100: 'v' } })).toEqual(invalid(`${VALUE}Too many attributes`));
  });

  it('keeps an attribute named __proto__ as plain data, in a frozen object', () => {
    const parsed = parseZoneBody({ attributes: JSON.parse('{"__proto__": "v"}') }, undefined, DEFAULT_ZONE_LIMITS)._unsafeUnwrap();
    const attributes = parsed.attributes!;
    expect(Object.keys(attributes)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(attributes, '__proto__')?.value).toBe('v');
    expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
    expect(Object.isFrozen(attributes)).toBe(true);
  });

  it('checks the fields in the order name, type, email, description, ttl, masters, attributes', () => {
    const bad = { attributes: 1, masters: 1, ttl: 'x', description: 1, email: 1, type: 1, name: 1 };
    const order = ['name', 'type', 'email', 'description', 'ttl', 'masters', 'attributes'] as const;
    const messages = order.map((_, i) => {
      const body: Record<string, unknown> = {};
      for (const key of order.slice(i)) body[key] = bad[key];
      return parseZoneBody(body, undefined, DEFAULT_ZONE_LIMITS)._unsafeUnwrapErr().message;
    });
    expect(messages).toEqual([
      `${VALUE}Domain int is invalid`,
      `${VALUE}Field value int is invalid`,
      `${ATTRIBUTE}'int' object has no attribute 'count'`,
      `${VALUE}A string is required in field description, not a int`,
      `${VALUE}invalid literal for int() with base 10: 'x'`,
      `${VALUE}A list is required in field masters, not a int`,
      `${ATTRIBUTE}'int' object has no attribute 'items'`,
    ]);
  });
});

describe('validateZone (reference §4.3 step 4: the structured errors)', () => {
  const run = (merged: Parameters<typeof validateZone>[0], given: ZoneInput = {}) => outcome(validateZone(merged, given));
  const structured = (...errors: [string[], string][]) => ({
    code: 400,
    type: 'invalid_object',
    errors: { errors: errors.map(([path, message]) => ({ path, message })) },
  });
  const primary = { type: 'PRIMARY' as const, email: 'a@b.com', masters: [] as string[], name: 'a.com.' };
  const secondary = { type: 'SECONDARY' as const, email: undefined, masters: ['192.0.2.1'], name: 'a.com.' };

  it('passes a complete PRIMARY or SECONDARY zone', () => {
    expect(run(primary, { ttl: 300, email: 'a@b.com' })).toEqual(['ok', undefined]);
    expect(run(secondary, { description: 'd' })).toEqual(['ok', undefined]);
  });

  it('PRIMARY: no masters, an email', () => {
    expect(run({ ...primary, masters: ['h'] })).toEqual(structured([['type'], "'masters' has more items than allowed"]));
    expect(run({ ...primary, email: undefined })).toEqual(structured([['type', 'email'], "'email' is a required property"]));
  });

  it('SECONDARY: masters, and neither email nor ttl given', () => {
    expect(run({ ...secondary, masters: [] })).toEqual(structured([['type', 'masters'], "'masters' is a required property"]));
    expect(run(secondary, { email: 'a@b.com' })).toEqual(structured([['type'], "'email' can't be specified when type is SECONDARY"]));
    expect(run(secondary, { ttl: 0 })).toEqual(structured([['type'], "'ttl' can't be specified when type is SECONDARY"]));
  });

  it('a name, reported at the odd path the real service uses', () => {
    expect(run({ ...primary, name: undefined })).toEqual(structured([['records', '0', 'name'], "'name' is a required property"]));
  });

  it('reports every broken rule at once, and names them in the message', () => {
    expect(run({ ...secondary, masters: [], name: undefined }, { email: 'a@b.com', ttl: 1 })).toEqual(
      structured(
        [['type', 'masters'], "'masters' is a required property"],
        [['type'], "'email' can't be specified when type is SECONDARY"],
        [['type'], "'ttl' can't be specified when type is SECONDARY"],
        [['records', '0', 'name'], "'name' is a required property"],
      ),
    );
    expect(validateZone({ ...primary, masters: ['h'], email: undefined }, {})._unsafeUnwrapErr().message).toBe(
      "Provided object does not match schema: 'masters' has more items than allowed; 'email' is a required property",
    );
  });
});

describe('checkZoneName (reference §4.2 steps 4–7)', () => {
  const limits = (changes: Partial<ZoneLimits>): ZoneLimits => ({ ...DEFAULT_ZONE_LIMITS, ...changes });
  const zoneName = (message: string) => ({ code: 400, type: 'invalid_zone_name', message });
  const check = (name: string, l: Partial<ZoneLimits> = {}, isAdmin = false) => outcome(checkZoneName(name, limits(l), isAdmin));

  it('refuses names longer than max_zone_name_len', () => {
    expect(check('abc.de.', { maxZoneNameLength: 7 })).toEqual(['ok', undefined]);
    expect(check('abcd.de.', { maxZoneNameLength: 7 })).toEqual(zoneName('Name too long'));
  });

  it('needs two labels', () => {
    expect(check('com.')).toEqual(zoneName('More than one label is required'));
    expect(check('example.com.')).toEqual(['ok', undefined]);
  });

  it('with TLDs: some suffix must be a TLD exactly (case-sensitive), and the name itself, lowercased, must not be one', () => {
    const tlds = ['com', 'co.uk', 'uk'];
    expect(check('example.com.', { tlds })).toEqual(['ok', undefined]);
    expect(check('a.b.example.co.uk.', { tlds })).toEqual(['ok', undefined]);
    expect(check('example.org.', { tlds })).toEqual(zoneName('Invalid TLD'));
    expect(check('example.COM.', { tlds })).toEqual(zoneName('Invalid TLD'));
    expect(check('co.uk.', { tlds })).toEqual(zoneName('Zone name cannot be the same as a TLD'));
    expect(check('CO.uk.', { tlds })).toEqual(zoneName('Zone name cannot be the same as a TLD'));
    // Without TLDs there is no TLD rule at all.
    expect(check('example.invalid.')).toEqual(['ok', undefined]);
  });

  it('applies blacklist patterns as searches on the name with its dot; admins bypass them', () => {
    const blacklist = ['^bad\\.', 'evil\\.com\\.$'];
    expect(check('bad.com.', { blacklist })).toEqual(zoneName('Blacklisted zone name'));
    expect(check('notbad.com.', { blacklist })).toEqual(['ok', undefined]);
    expect(check('x.evil.com.', { blacklist })).toEqual(zoneName('Blacklisted zone name'));
    expect(check('bad.com.', { blacklist }, true)).toEqual(['ok', undefined]);
  });

  it('skips an unusable pattern and still applies the ones after it', () => {
    expect(check('bad.com.', { blacklist: ['(', 'bad'] })).toEqual(zoneName('Blacklisted zone name'));
    expect(check('good.com.', { blacklist: ['('] })).toEqual(['ok', undefined]);
  });
});

describe('checkTtlFloor (reference §4.2: min_ttl, admins may go below)', () => {
  const limits = (minTtl: number | null): ZoneLimits => ({ ...DEFAULT_ZONE_LIMITS, minTtl });
  it('refuses a TTL below min_ttl for non-admins only', () => {
    expect(outcome(checkTtlFloor(299, limits(300), false))).toEqual({ code: 400, type: 'invalid_ttl', message: 'TTL is below the minimum: 300' });
    expect(outcome(checkTtlFloor(300, limits(300), false))).toEqual(['ok', undefined]);
    expect(outcome(checkTtlFloor(0, limits(300), true))).toEqual(['ok', undefined]);
    expect(outcome(checkTtlFloor(0, limits(null), false))).toEqual(['ok', undefined]);
  });
});
