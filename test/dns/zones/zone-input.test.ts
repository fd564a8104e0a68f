/**
 * The zone body rules one by one (reference §4.1, §4.2, §4.3 steps 3–4 and 10–11, §4.10), at the
 * level of the parsing functions so each rule's boundary is pinned exactly: the service-level
 * suites check that a bad body is refused, these check which rule refuses it and with what words.
 */
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../../src/kernel/api-error.js';
import { checkEmail, parseMaster, parseZoneBody, validateZone, type ZoneInput } from '../../../src/dns/zones/zone-input.js';
import { checkNameSyntax, checkTtlFloor, checkZoneName, DEFAULT_ZONE_LIMITS, type ZoneLimits } from '../../../src/dns/kernel/zone-rules.js';
import { configuredPatterns } from '../../../src/dns/kernel/name-policy.js';
import type { Zone } from '../../../src/dns/kernel/zone.js';

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
  it('refuses null as Python does when it calls .count on it, and reads scalars as their str()', () => {
    expect(outcome(checkEmail(null))).toEqual(invalid(`${ATTRIBUTE}'NoneType' object has no attribute 'count'`));
    expect(outcome(checkEmail(undefined))).toEqual(invalid(`${ATTRIBUTE}'NoneType' object has no attribute 'count'`));
    expect(outcome(checkEmail(5))).toEqual(invalid(`${VALUE}5 is not an email`));
    expect(outcome(checkEmail(1.5))).toEqual(invalid(`${VALUE}1.5 is not an email`));
    expect(outcome(checkEmail(true))).toEqual(invalid(`${VALUE}True is not an email`));
    expect(outcome(checkEmail(['a@b']))).toEqual(invalid(`${VALUE}A string is required in field email, not a list`));
    expect(outcome(checkEmail({}))).toEqual(invalid(`${VALUE}A string is required in field email, not a dict`));
  });

  it('needs exactly one @, and the address read as a name must be a valid name', () => {
    for (const ok of ['a@b', 'first.last@example.com', 'HOST_master@Example.COM']) expect(outcome(checkEmail(ok))).toEqual(['ok', ok]);
    expect(outcome(checkEmail('not-an-email'))).toEqual(invalid(`${VALUE}not-an-email is not an email`));
    expect(outcome(checkEmail('a@b@c'))).toEqual(invalid(`${VALUE}a@b@c is not an email`));
    expect(outcome(checkEmail('a+b@c.org'))).toEqual(invalid(`${VALUE}Email a+b@c.org is invalid`));
    expect(outcome(checkEmail('a@-b.org'))).toEqual(invalid(`${VALUE}Email a@-b.org is invalid`));
    expect(outcome(checkEmail('a\u0000@b.org'))).toEqual(invalid(`${VALUE}Email a\u0000@b.org is invalid`));
  });

  it('refuses more than 255 characters (the field length) without echoing the value', () => {
    const longest = `${'a'.repeat(63)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(outcome(checkEmail(longest))).toEqual(['ok', longest]);
    expect(outcome(checkEmail(`${'a'.repeat(1 << 20)}@b.org`))).toEqual(invalid(`${VALUE}Value too long for email`));
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
    expect(outcome(parseMaster(''))).toEqual(['ok', '']);
    expect(outcome(parseMaster(5))).toEqual(invalid(`${ATTRIBUTE}'int' object has no attribute 'split'`));
    expect(outcome(parseMaster(null))).toEqual(invalid(`${ATTRIBUTE}'NoneType' object has no attribute 'split'`));
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

  it('lets a read-only key through on create only when it is null; other keys are unknown', () => {
    const readOnly = ['id', 'pool_id', 'project_id', 'serial', 'status', 'action', 'version', 'created_at', 'updated_at', 'transferred_at'];
    expect(create(Object.fromEntries(readOnly.map((k) => [k, null])))).toEqual(['ok', {}]);
    for (const key of readOnly) expect(create({ [key]: 'x' })).toEqual(invalid(`${KEYS}['${key}'] are not valid for zone`));
    expect(create({ links: null })).toEqual(invalid(`${KEYS}['links'] are not valid for zone`));
  });

  it('lets a read-only key through on update only with the current value, compared as Python does', () => {
    const same = { id: ZONE.id, pool_id: ZONE.poolId, project_id: ZONE.projectId, serial: ZONE.serial, status: ZONE.status, action: ZONE.action, version: ZONE.version };
    // The zone's own project id parses, and is kept so the update can refuse it as a move.
    expect(update(same)).toEqual(['ok', { projectId: ZONE.projectId }]);
    for (const [key, value] of Object.entries(same)) {
      const other = typeof value === 'number' ? value + 1 : `${value}x`;
      expect(update({ [key]: other })).toEqual(invalid(`${KEYS}['${key}'] are not valid for zone`));
    }
    // True == 1 in Python, and a number never equals a string.
    expect(update({ version: ZONE.version === 1 ? true : ZONE.version })).toEqual(['ok', {}]);
    expect(update({ version: String(ZONE.version) })).toEqual(invalid(`${KEYS}['version'] are not valid for zone`));
    // A stored timestamp is a datetime there, which no JSON value equals; an unset one is None.
    expect(update({ created_at: '2026-01-01T00:00:00.000000' })).toEqual(invalid(`${KEYS}['created_at'] are not valid for zone`));
    expect(update({ created_at: null })).toEqual(invalid(`${KEYS}['created_at'] are not valid for zone`));
    expect(update({ updated_at: null, transferred_at: null })).toEqual(['ok', {}]);
  });

  it('treats name and type as immutable on update: only the current value parses', () => {
    expect(update({ name: 'example.com.', type: 'PRIMARY' })).toEqual(['ok', { name: 'example.com.', type: 'PRIMARY' }]);
    expect(update({ name: 'other.com.' })).toEqual(invalid(`${KEYS}['name'] are not valid for zone`));
    expect(update({ type: 'SECONDARY' })).toEqual(invalid(`${KEYS}['type'] are not valid for zone`));
    // The first changed read-only or immutable key ends the walk; unknown keys before it are kept.
    expect(update({ foo: 1, type: 'SECONDARY', name: 'other.com.', bar: 2 })).toEqual(invalid(`${KEYS}['foo', 'type'] are not valid for zone`));
    // On create both are ordinary writable fields.
    expect(create({ name: 'other.com.', type: 'SECONDARY' })).toEqual(['ok', { name: 'other.com.', type: 'SECONDARY' }]);
  });

  it('reads the name as a string field (str() of scalars, 255 characters) before the name rules', () => {
    expect(create({ name: 5 })).toEqual(invalid(`${VALUE}Domain 5 does not end with a dot`));
    expect(create({ name: true })).toEqual(invalid(`${VALUE}Domain True does not end with a dot`));
    expect(create({ name: null })).toEqual(invalid(`${VALUE}Field \`name' cannot be None`));
    expect(create({ name: ['a.'] })).toEqual(invalid(`${VALUE}A string is required in field name, not a list`));
    expect(create({ name: 'a\ud800.com.' })).toEqual(invalid(`${VALUE}Domain a\ud800.com. is invalid`));
    expect(create({ name: 'a\u0000.com.' })).toEqual(invalid(`${VALUE}Domain a\u0000.com. is invalid`));
    expect(create({ name: 'example.com' })).toEqual(invalid(`${VALUE}Domain example.com does not end with a dot`));
    expect(create({ name: `${'a.'.repeat(128)}` })).toEqual(invalid(`${VALUE}Value too long for name`));
    expect(create({ name: `${'a'.repeat(1 << 20)}\u0000` })).toEqual(invalid(`${VALUE}Value too long for name`));
  });

  it('takes type PRIMARY or SECONDARY in exact case', () => {
    expect(create({ type: 'primary' })).toEqual(invalid(`${VALUE}Field value primary is invalid`));
    expect(create({ type: 7 })).toEqual(invalid(`${VALUE}Field value 7 is invalid`));
    expect(create({ type: null })).toEqual(invalid(`${VALUE}Field value None is invalid`));
    expect(create({ type: { a: ['b', 1, null, true, 1.5] } })).toEqual(invalid(`${VALUE}Field value {'a': ['b', 1, None, True, 1.5]} is invalid`));
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
    // oslo's String type takes int, float and str (and bool, an int) and stores str() of them.
    expect(create({ description: 5 })).toEqual(['ok', { description: '5' }]);
    expect(create({ description: true })).toEqual(['ok', { description: 'True' }]);
    expect(create({ description: 1e-5 })).toEqual(['ok', { description: '1e-05' }]);
    expect(create({ description: ['x'] })).toEqual(invalid(`${VALUE}A string is required in field description, not a list`));
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

  it('lets ttl null through the body, as the real service does (its storage refuses it later: reference §4.2)', () => {
    expect(create({ ttl: null })).toEqual(['ok', { ttl: null }]);
  });

  it('reads masters as a list of masters; null is an empty list', () => {
    expect(create({ masters: null })).toEqual(['ok', { masters: [] }]);
    expect(create({ masters: ['192.0.2.1:53', '192.0.2.2:5353'] })).toEqual(['ok', { masters: ['192.0.2.1', '192.0.2.2:5353'] }]);
    // The real service iterates what it is sent: a string's characters, an object's keys.
    expect(create({ masters: '12' })).toEqual(['ok', { masters: ['1', '2'] }]);
    expect(create({ masters: { 'h:5353': 1 } })).toEqual(['ok', { masters: ['h:5353'] }]);
    expect(create({ masters: 5 })).toEqual(invalid(`${TYPE}'int' object is not iterable`));
    expect(create({ masters: ['192.0.2.1', 'h:0'] })).toEqual(invalid(`${VALUE}Value must be >= 1 for field port`));
    expect(create({ masters: Array.from({ length: 1000 }, () => 'h') })).toMatchObject(['ok', { masters: { length: 1000 } }]);
    expect(create({ masters: Array.from({ length: 1001 }, () => 'h') })).toEqual(invalid(`${VALUE}Too many masters`));
    const masters = parseZoneBody({ masters: ['h'] }, undefined, DEFAULT_ZONE_LIMITS)._unsafeUnwrap().masters;
    expect(Object.isFrozen(masters)).toBe(true);
  });

  it('reads attributes as a string-to-string object (keys and values up to 50)', () => {
    expect(create({ attributes: null })).toEqual(invalid(`${ATTRIBUTE}'NoneType' object has no attribute 'items'`));
    expect(create({ attributes: { pool: 'x'.repeat(50), [label(50, 'k')]: 'v' } })).toEqual(['ok', { attributes: { pool: 'x'.repeat(50), [label(50, 'k')]: 'v' } }]);
    // Each pair is parsed as a ZoneAttribute, whose two string fields are named key and value.
    expect(create({ attributes: { pool: 'x'.repeat(51) } })).toEqual(invalid(`${VALUE}Value too long for value`));
    expect(create({ attributes: { pool: 1 } })).toEqual(['ok', { attributes: { pool: '1' } }]);
    expect(create({ attributes: { pool: [1] } })).toEqual(invalid(`${VALUE}A string is required in field value, not a list`));
    expect(create({ attributes: { pool: null } })).toEqual(invalid(`${VALUE}Field \`value' cannot be None`));
    expect(create({ attributes: { [label(51, 'k')]: 'v' } })).toEqual(invalid(`${VALUE}Value too long for key`));
    expect(create({ attributes: { 'a\u0000': 'v' } })).toEqual(invalid(`${VALUE}Field key must be UTF-8 text without NUL characters or lone surrogates`));
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

  it('checks masters, then attributes, then every other key in body order (checked with the designate oracle)', () => {
    const first = (body: Record<string, unknown>) => parseZoneBody(body, undefined, DEFAULT_ZONE_LIMITS)._unsafeUnwrapErr().message;
    expect(first({ email: 1, name: 1 })).toBe(`${VALUE}1 is not an email`);
    expect(first({ name: 1, email: 1 })).toBe(`${VALUE}Domain 1 does not end with a dot`);
    expect(first({ ttl: 'x', description: [] })).toBe(`${VALUE}invalid literal for int() with base 10: 'x'`);
    expect(first({ type: 1, ttl: 'x' })).toBe(`${VALUE}Field value 1 is invalid`);
    expect(first({ name: 1, attributes: 1, masters: 1 })).toBe(`${TYPE}'int' object is not iterable`);
    expect(first({ name: 1, attributes: 1 })).toBe(`${ATTRIBUTE}'int' object has no attribute 'items'`);
    // A refused value answers at once, before the unknown keys seen so far.
    expect(first({ foo: 1, email: 'bad', bar: 2 })).toBe(`${VALUE}bad is not an email`);
    expect(first({ foo: 1, id: 'x', bar: 2, email: 'bad' })).toBe(`${KEYS}['foo', 'id'] are not valid for zone`);
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
  // The configured rules, as the service builds its name policy from them when nothing is stored.
  const policyOf = (l: ZoneLimits) => ({ tlds: new Set(l.tlds), blacklist: configuredPatterns(l.blacklist) });
  const check = (name: string, l: Partial<ZoneLimits> = {}, isAdmin = false) => outcome(checkZoneName(name, limits(l), isAdmin, policyOf(limits(l))));

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
