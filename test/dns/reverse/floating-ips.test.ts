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
});
