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
});
