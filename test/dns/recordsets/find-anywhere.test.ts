import { describe, expect, it } from 'vitest';
import { createDnsService } from '../../../src/index.js';
import { manualClock, sequentialIds } from '../../../src/testing/index.js';

const admin = { projectId: 'p-admin', roles: ['admin'] };
const member = { projectId: 'p1', roles: ['member'] };
const other = { projectId: 'p2', roles: ['member'] };

const service = (options: Parameters<typeof createDnsService>[0] = {}) =>
  createDnsService({ clock: manualClock('2026-01-01T00:00:00.000Z'), ids: sequentialIds(), baseUrl: 'http://dns.test', ...options });

describe('dns.recordsets.find', () => {
  it('finds a managed or written recordset of a visible zone, and nobody else\'s', async () => {
    const dns = service();
    const zone = (await dns.zones.create(member, { name: 'example.com.', email: 'a@example.com' }))._unsafeUnwrap();
    await dns.tasks.settle();
    const written = (await dns.recordsets.create(member, zone.id, { name: 'www.example.com.', type: 'A', records: ['192.0.2.1'] }))._unsafeUnwrap();
    const soa = (await dns.recordsets.list(member, zone.id, { type: 'SOA' }))._unsafeUnwrap().recordsets[0]!;
    for (const r of [written, soa]) {
      expect((await dns.recordsets.find(member, r.id))._unsafeUnwrap()).toMatchObject({ id: r.id, zone_id: zone.id });
      expect((await dns.recordsets.find(other, r.id))._unsafeUnwrapErr()).toMatchObject({ status: 404, type: 'recordset_not_found' });
      expect((await dns.recordsets.find({ ...admin, allProjects: true }, r.id)).isOk()).toBe(true);
    }
    expect((await dns.recordsets.find(member, 'bad'))._unsafeUnwrapErr().message).toBe('Invalid UUID recordset_id: bad');
  });
});
