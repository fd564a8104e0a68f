import { describe, expect, it } from 'vitest';
import { test as propTest, fc } from '@fast-check/vitest';
import { createDnsService, type DnsEvent } from '../../../src/index.js';
import { manualClock, sequentialIds } from '../../../src/testing/index.js';
import { coerceResourceId } from '../../../src/dns/tsigkeys/tsigkey.js';

/** A body with keys the command's input type does not name, sent as a server would. */
const unknownBody = (body: object): unknown => body;
const admin = { projectId: 'p-admin', roles: ['admin'] };
const member = { projectId: 'p1', roles: ['member'] };
const POOL = '794ccc2c-d751-44fe-b57f-8894c9f5c842';
const key = (name: string, extra: object = {}) => ({ name, algorithm: 'hmac-sha256', secret: 'SomeSecret', scope: 'POOL', resource_id: POOL, ...extra });

const service = () => {
  const clock = manualClock('2026-01-01T00:00:00.000Z');
  const dns = createDnsService({ clock, ids: sequentialIds(), baseUrl: 'http://dns.test' });
  const events: DnsEvent[] = [];
  dns.events.subscribe((e) => events.push(e));
  return { dns, clock, events };
};

describe('dns.tsigkeys', () => {
  it('creates, reads, updates and deletes a key with the real body and events', async () => {
    const { dns, clock, events } = service();
    const created = (await dns.tsigkeys.create(admin, key('k1')))._unsafeUnwrap();
    expect(created).toEqual({
      id: '00000000-0000-4000-8000-000000000001',
      name: 'k1',
      algorithm: 'hmac-sha256',
      secret: 'SomeSecret',
      scope: 'POOL',
      resource_id: POOL,
      created_at: '2026-01-01T00:00:00.000000',
      updated_at: null,
      links: { self: 'http://dns.test/v2/tsigkeys/00000000-0000-4000-8000-000000000001' },
    });
    expect((await dns.tsigkeys.get(admin, created.id))._unsafeUnwrap()).toEqual(created);
    clock.advance(1000);
    const updated = (await dns.tsigkeys.update(admin, created.id, { secret: 'new', algorithm: 'hmac-sha512' }))._unsafeUnwrap();
    expect(updated).toMatchObject({ secret: 'new', algorithm: 'hmac-sha512', updated_at: '2026-01-01T00:00:01.000000' });
    expect((await dns.tsigkeys.delete(admin, created.id)).isOk()).toBe(true);
    expect((await dns.tsigkeys.get(admin, created.id))._unsafeUnwrapErr()).toMatchObject({ status: 404, type: 'tsigkey_not_found' });
    expect(events.map((e) => e.type)).toEqual(['dns.tsigkey.create', 'dns.tsigkey.update', 'dns.tsigkey.delete']);
    expect(events[2]!.payload).toEqual(updated);
  });

  it('refuses a duplicate name with 409, on create and on rename', async () => {
    const { dns } = service();
    await dns.tsigkeys.create(admin, key('a'));
    const b = (await dns.tsigkeys.create(admin, key('b')))._unsafeUnwrap();
    expect((await dns.tsigkeys.create(admin, key('a')))._unsafeUnwrapErr()).toMatchObject({ status: 409, type: 'duplicate_tsigkey', message: 'Duplicate TsigKey' });
    expect((await dns.tsigkeys.update(admin, b.id, { name: 'a' }))._unsafeUnwrapErr()).toMatchObject({ status: 409 });
    // Its own name is no duplicate.
    expect((await dns.tsigkeys.update(admin, b.id, { name: 'b' })).isOk()).toBe(true);
  });

  it('checks the body before the policy on create, the policy before the key on reads and deletes', async () => {
    const { dns } = service();
    expect((await dns.tsigkeys.create(member, unknownBody({ bogus: 1 })))._unsafeUnwrapErr()).toMatchObject({ status: 400, type: 'invalid_object' });
    expect((await dns.tsigkeys.create(member, key('k')))._unsafeUnwrapErr()).toMatchObject({ status: 401, type: 'forbidden' });
    const missing = '12345678-1234-5678-1234-567812345678';
    expect((await dns.tsigkeys.get(member, missing))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await dns.tsigkeys.delete(member, missing))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await dns.tsigkeys.update(member, missing, {}))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await dns.tsigkeys.list(member))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await dns.tsigkeys.get(admin, 'bad'))._unsafeUnwrapErr()).toMatchObject({ status: 400, type: 'invalid_uuid', message: 'Invalid UUID tsigkey_id: bad' });
  });

  it('reads a body as the real adapter: value errors at once, unknown keys after, required fields last', async () => {
    const { dns } = service();
    const refusal = async (body: unknown) => (await dns.tsigkeys.create(admin, body))._unsafeUnwrapErr();
    expect((await refusal({ bogus: 1, algorithm: 'x' })).message).toBe('Provided object is not valid. Got a ValueError error with message Field value x is invalid');
    expect((await refusal({ name: 'k2', bogus: 1, id: 'x', more: 2 })).message).toBe("Provided object does not match schema. Keys ['bogus', 'id'] are not valid for tsigkey");
    expect((await refusal({ name: 'k2' })).toJSON()).toEqual({
      code: 400,
      type: 'invalid_object',
      errors: { errors: [{ path: ['records', '0', 'algorithm'], message: "'algorithm' is a required property" }] },
    });
    expect((await refusal({ ...key('k'), scope: 'zone' })).message).toContain('Field value zone is invalid');
    expect((await refusal({ ...key('k'), secret: null })).message).toContain("Field `secret' cannot be None");
    expect((await refusal({ ...key('k'), name: 'x'.repeat(161) })).message).toContain('Value too long for name');
    expect((await refusal([])).message).toContain("'list' object has no attribute 'items'");
    expect((await refusal(undefined)).type).toBe('empty_request_body');
  });

  it('reads resource_id as the real UUID field does', () => {
    expect(coerceResourceId('{12345678-1234-5678-1234-567812345678}')._unsafeUnwrap()).toBe('12345678-1234-5678-1234-567812345678');
    expect(coerceResourceId('urn:uuid:ABCDEF78-1234-5678-1234-567812345678')._unsafeUnwrap()).toBe('abcdef78-1234-5678-1234-567812345678');
    expect(coerceResourceId('12345678123456781234567812345678')._unsafeUnwrap()).toBe('12345678-1234-5678-1234-567812345678');
    expect(coerceResourceId('abc')._unsafeUnwrapErr().message).toContain('badly formed hexadecimal UUID string');
    expect(coerceResourceId('12345678-1234-5678-1234-56781234567G')._unsafeUnwrapErr().message).toContain("invalid literal for int() with base 16: '1234567812345678123456781234567G'");
    expect(coerceResourceId('-1')._unsafeUnwrapErr().message).toContain("'int' object has no attribute 'replace'");
    expect(coerceResourceId([1])._unsafeUnwrapErr().message).toContain("not 'list'");
    expect(coerceResourceId(5)._unsafeUnwrapErr()).toMatchObject({ status: 500 });
  });

  it('keeps created_at null when a create sends it null, and lists such a key first', async () => {
    const { dns } = service();
    await dns.tsigkeys.create(admin, key('a'));
    const b = (await dns.tsigkeys.create(admin, unknownBody({ ...key('b'), created_at: null })))._unsafeUnwrap();
    expect(b.created_at).toBeNull();
    const list = (await dns.tsigkeys.list(admin))._unsafeUnwrap();
    expect(list.tsigkeys.map((k) => k.name)).toEqual(['b', 'a']);
  });

  propTest.prop([fc.array(fc.constantFrom('hmac-md5', 'hmac-sha1', 'hmac-sha512'), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 5 })])(
    'pages through every key exactly once, in created_at order, whatever the page size',
    async (algorithms, limit) => {
      const { dns, clock } = service();
      for (const [i, algorithm] of algorithms.entries()) {
        clock.advance(1);
        await dns.tsigkeys.create(admin, key(`k${i}`, { algorithm }));
      }
      const seen: string[] = [];
      let marker: string | undefined;
      for (;;) {
        const page = (await dns.tsigkeys.list(admin, { limit, ...(marker === undefined ? {} : { marker }) }))._unsafeUnwrap();
        seen.push(...page.tsigkeys.map((k) => k.name));
        if (page.links.next === undefined) break;
        marker = page.tsigkeys[page.tsigkeys.length - 1]!.id;
      }
      expect(seen).toEqual(algorithms.map((_, i) => `k${i}`));
      const md5 = (await dns.tsigkeys.list(admin, { algorithm: 'hmac-md5', limit: 'max' }))._unsafeUnwrap();
      expect(md5.tsigkeys.length).toBe(algorithms.filter((a) => a === 'hmac-md5').length);
    },
  );

  it('takes its keys into snapshots and out on reset', async () => {
    const { dns } = service();
    await dns.tsigkeys.create(admin, key('a'));
    const snap = await dns.snapshot();
    expect(snap.collections['dns.tsigkeys']).toHaveLength(1);
    const copy = createDnsService({ from: snap });
    expect((await copy.tsigkeys.list(admin))._unsafeUnwrap().tsigkeys.map((k) => k.name)).toEqual(['a']);
    await dns.reset();
    expect((await dns.tsigkeys.list(admin))._unsafeUnwrap().tsigkeys).toEqual([]);
  });
});
