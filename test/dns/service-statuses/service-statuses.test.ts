import { describe, expect, it } from 'vitest';
import { createDnsService } from '../../../src/index.js';
import { manualClock, sequentialIds } from '../../../src/testing/index.js';

const admin = { projectId: 'p-admin', roles: ['admin'] };
const member = { projectId: 'p1', roles: ['member'] };

const service = (options: Parameters<typeof createDnsService>[0] = {}) =>
  createDnsService({ clock: manualClock('2026-01-01T00:00:00.000Z'), ids: sequentialIds(), baseUrl: 'http://dns.test', ...options });

describe('dns.serviceStatuses', () => {
  it('reports the five services UP, timed by the injected clock, to admins only', async () => {
    const dns = service();
    const list = (await dns.serviceStatuses.list(admin))._unsafeUnwrap();
    expect(list.service_statuses.map((s) => [s.service_name, s.status])).toEqual([
      ['api', 'UP'],
      ['central', 'UP'],
      ['mdns', 'UP'],
      ['worker', 'UP'],
      ['producer', 'UP'],
    ]);
    const first = list.service_statuses[0]!;
    expect(Object.keys(first)).toEqual(['id', 'hostname', 'service_name', 'status', 'stats', 'capabilities', 'heartbeated_at', 'created_at', 'updated_at', 'links']);
    expect(first.heartbeated_at).toBe('2026-01-01T00:00:00.000000');
    expect((await dns.serviceStatuses.get(admin, first.id))._unsafeUnwrap()).toEqual(first);
    expect((await dns.serviceStatuses.list(admin, { service_name: 'mdns', limit: 1 }))._unsafeUnwrap().service_statuses).toHaveLength(1);
    expect((await dns.serviceStatuses.list(admin, { bogus: '1' }))._unsafeUnwrapErr().message).toBe('Invalid filters bogus');
    expect((await dns.serviceStatuses.get(admin, '12345678-1234-5678-1234-567812345678'))._unsafeUnwrapErr()).toMatchObject({ status: 404, type: 'service_status_not_found' });
    expect((await dns.serviceStatuses.get(admin, 'bad'))._unsafeUnwrapErr().message).toBe('Invalid UUID service_id: bad');
    expect((await dns.serviceStatuses.list(member))._unsafeUnwrapErr().type).toBe('forbidden');
  });
});
