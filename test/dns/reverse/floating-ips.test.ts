import { describe, expect, it } from 'vitest';
import { createDnsService } from '../../../src/index.js';
import { manualClock, sequentialIds } from '../../../src/testing/index.js';

const member = { projectId: 'p1', roles: ['member'] };

const service = (options: Parameters<typeof createDnsService>[0] = {}) =>
  createDnsService({ clock: manualClock('2026-01-01T00:00:00.000Z'), ids: sequentialIds(), baseUrl: 'http://dns.test', ...options });

describe('dns.floatingIps', () => {
  it('answers as a real Designate without a network service', async () => {
    const dns = service();
    expect((await dns.floatingIps.list(member))._unsafeUnwrap()).toEqual({ floatingips: [], links: { self: 'http://dns.test/v2/reverse/floatingips' } });
    expect((await dns.floatingIps.get(member, 'RegionOne:12345678-1234-5678-1234-567812345678'))._unsafeUnwrapErr()).toMatchObject({
      status: 404,
      type: 'not_found',
      message: 'FloatingIP 12345678-1234-5678-1234-567812345678 in RegionOne is not associated for project "p1"',
    });
    expect((await dns.floatingIps.get(member, 'bad'))._unsafeUnwrapErr()).toMatchObject({ status: 400, message: 'Floating IP bad is not in the format of <region>:<uuid>' });
    expect((await dns.floatingIps.set(member, 'RegionOne:12345678-1234-5678-1234-567812345678', { ptrdname: 'a.example.org.' }))._unsafeUnwrapErr().status).toBe(404);
  });

  it('a PATCH that sets no PTR changes nothing and answers null; unsetting one there is not is a 404 (as the real API answers on the wire)', async () => {
    const dns = service();
    const key = 'RegionOne:12345678-1234-5678-1234-567812345678';
    expect((await dns.floatingIps.set(member, key, {}))._unsafeUnwrap()).toBeNull();
    expect((await dns.floatingIps.set(member, key, { description: 'x', ttl: 5 }))._unsafeUnwrap()).toBeNull();
    expect((await dns.floatingIps.set(member, key, { ptrdname: null }))._unsafeUnwrapErr()).toMatchObject({ status: 404, message: `No such FloatingIP ${key}` });
    expect((await dns.floatingIps.set(member, key, { bogus: 1 }))._unsafeUnwrapErr()).toMatchObject({
      status: 400,
      message: "Provided object does not match schema. Keys ['bogus'] are not valid for floatingip",
    });
    expect((await dns.floatingIps.set(member, key, null))._unsafeUnwrapErr().type).toBe('empty_request_body');
    expect((await dns.floatingIps.set(member, key, []))._unsafeUnwrapErr().type).toBe('invalid_object');
  });

  it('checks each value as the real fields coerce it, in body order, before the 404 (texts as the real API answers on the wire)', async () => {
    const dns = service();
    const key = 'RegionOne:12345678-1234-5678-1234-567812345678';
    const refused = async (body: object) => {
      const e = (await dns.floatingIps.set(member, key, body))._unsafeUnwrapErr();
      expect(e.type).toBe('invalid_object');
      return e.message.replace('Provided object is not valid. Got a ValueError error with message ', '');
    };
    expect(await refused({ ptrdname: 'not a name' })).toBe('Domain not a name does not end with a dot');
    expect(await refused({ ptrdname: true })).toBe('Domain True does not end with a dot');
    expect(await refused({ ptrdname: 'a..b.' })).toBe('Domain a..b. is invalid');
    expect(await refused({ ptrdname: `${'a'.repeat(64)}.org.` })).toBe(`Host ${'a'.repeat(64)} is too long`);
    expect(await refused({ ptrdname: [] })).toBe('A string is required in field ptrdname, not a list');
    expect(await refused({ ttl: 'abc' })).toBe("invalid literal for int() with base 10: 'abc'");
    expect(await refused({ ttl: 0.5 })).toBe('Value must be >= 1 for field ttl');
    expect(await refused({ ttl: 2 ** 31 })).toBe('Value too high for ttl');
    expect(await refused({ description: 'x'.repeat(161) })).toBe('Value too long for description');
    // The first bad value answers, whatever follows it; an unknown key before it does not stop the reading.
    expect(await refused({ ptrdname: 'a.example.org.', ttl: 'x', description: [] })).toBe("invalid literal for int() with base 10: 'x'");
    expect(await refused({ bogus: 1, ttl: 'x' })).toBe("invalid literal for int() with base 10: 'x'");
    // address is read-only: null passes that check, and the real field then refuses it without a message.
    expect(await refused({ address: null })).toBe('');
    expect((await dns.floatingIps.set(member, key, { ttl: ' 7 ', description: 5, action: null, status: null }))._unsafeUnwrap()).toBeNull();
    expect((await dns.floatingIps.set(member, key, { action: 'x' }))._unsafeUnwrapErr().message).toBe("Provided object does not match schema. Keys ['action'] are not valid for floatingip");
  });
});
