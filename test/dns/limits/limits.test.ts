import { describe, expect, it } from 'vitest';
import { createDnsService } from '../../../src/index.js';
import { manualClock, sequentialIds } from '../../../src/testing/index.js';

const admin = { projectId: 'p-admin', roles: ['admin'] };
const member = { projectId: 'p1', roles: ['member'] };
const other = { projectId: 'p2', roles: ['member'] };

const service = (options: Parameters<typeof createDnsService>[0] = {}) =>
  createDnsService({ clock: manualClock('2026-01-01T00:00:00.000Z'), ids: sequentialIds(), baseUrl: 'http://dns.test', ...options });

describe('dns.limits', () => {
  it('answers the real keys from the quotas of the caller and the service options', async () => {
    const dns = service({ limits: { minTtl: 60 }, quotas: { zones: 3 } });
    expect((await dns.limits.get(member))._unsafeUnwrap()).toEqual({
      max_zones: 3,
      max_zone_recordsets: 500,
      max_zone_records: 500,
      max_recordset_records: 20,
      min_ttl: 60,
      max_zone_name_length: 255,
      max_recordset_name_length: 255,
      max_page_limit: 1000,
    });
  });

  it('reads a project override', async () => {
    const dns = service();
    await dns.quotas.set({ ...admin, allProjects: true }, 'p1', { zones: 7 });
    expect((await dns.limits.get(member))._unsafeUnwrap().max_zones).toBe(7);
    expect((await dns.limits.get(other))._unsafeUnwrap().max_zones).toBe(10);
  });
});
