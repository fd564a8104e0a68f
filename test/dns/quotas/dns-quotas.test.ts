import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { test as propTest, fc } from '@fast-check/vitest';
import { memoryStorage } from '../../../src/adapters/memory/memory-storage.js';
import {
  DEFAULT_ZONE_QUOTAS,
  checkZoneQuota,
  getDnsQuotas,
  zoneOverQuota,
  readZoneQuotas,
  resetDnsQuotas,
  setDnsQuotas,
  type DnsQuotaDeps,
  type ZoneQuotaLimits,
  type ZoneQuotaResource,
} from '../../../src/dns/quotas/index.js';

const deps = (forbiddenStatus: 401 | 403 = 401, defaults: ZoneQuotaLimits = DEFAULT_ZONE_QUOTAS): DnsQuotaDeps => ({
  storage: memoryStorage(),
  restored: Promise.resolve(ok(undefined)),
  dialect: 'dns',
  forbiddenStatus,
  defaults,
});
const member = { projectId: 'p1', roles: ['member'] };
const admin = { projectId: 'p-admin', roles: ['admin'] };
const adminAll = { projectId: 'p-admin', roles: ['admin'], allProjects: true };
const RESOURCES: readonly ZoneQuotaResource[] = ['zones', 'zone_recordsets', 'zone_records', 'recordset_records', 'api_export_size'];

describe('DEFAULT_ZONE_QUOTAS', () => {
  it('holds the reference §10 defaults in the real output order', () => {
    expect(JSON.stringify(DEFAULT_ZONE_QUOTAS)).toBe(
      '{"zones":10,"zone_recordsets":500,"zone_records":500,"recordset_records":20,"api_export_size":1000}',
    );
    expect(Object.isFrozen(DEFAULT_ZONE_QUOTAS)).toBe(true);
  });
});

describe('checkZoneQuota', () => {
  it('allows a prospective value equal to the limit and refuses one above it with 413 over_quota', () => {
    expect(checkZoneQuota(DEFAULT_ZONE_QUOTAS, 'zones', 10).isOk()).toBe(true);
    const e = checkZoneQuota(DEFAULT_ZONE_QUOTAS, 'zones', 11)._unsafeUnwrapErr();
    expect([e.status, e.type, e.message]).toEqual([413, 'over_quota', 'Quota exceeded for zones.']);
    expect(e.toJSON()).toEqual({ code: 413, type: 'over_quota', message: 'Quota exceeded for zones.' });
  });

  it('treats -1 as unlimited and 0 as nothing allowed', () => {
    const limits = { ...DEFAULT_ZONE_QUOTAS, zones: -1, zone_records: 0 };
    expect(checkZoneQuota(limits, 'zones', Number.MAX_SAFE_INTEGER).isOk()).toBe(true);
    expect(checkZoneQuota(limits, 'zone_records', 0).isOk()).toBe(true);
    expect(checkZoneQuota(limits, 'zone_records', 1)._unsafeUnwrapErr().message).toBe('Quota exceeded for zone_records.');
  });

  propTest.prop([fc.constantFrom(...RESOURCES), fc.integer({ min: -1, max: 2147483647 }), fc.nat()])(
    'refuses exactly when the limit is not -1 and prospective > limit',
    (resource, limit, prospective) => {
      const result = checkZoneQuota({ ...DEFAULT_ZONE_QUOTAS, [resource]: limit }, resource, prospective);
      expect(result.isErr()).toBe(limit !== -1 && prospective > limit);
      if (result.isErr()) expect(result.error.message).toBe(`Quota exceeded for ${resource}.`);
    },
  );
});

describe('zoneOverQuota', () => {
  it('names several resources sorted by length, as the real service', () => {
    expect(zoneOverQuota(['zone_recordsets', 'zones', 'zone_records']).message).toBe(
      'Quota exceeded for zones, zone_records, zone_recordsets.',
    );
  });
});

describe('readZoneQuotas', () => {
  it('overlays stored overrides on the given defaults, ignoring keys that are not resources', async () => {
    const storage = memoryStorage();
    await storage.transaction((tx) => tx.put('dns.quotas', 'p1', { zones: 3, bogus: 1 }, {}));
    const defaults = { ...DEFAULT_ZONE_QUOTAS, recordset_records: 7 };
    const read = await storage.transaction((tx) => readZoneQuotas(tx, 'p1', defaults));
    expect(read).toEqual({ ...defaults, zones: 3 });
    expect(await storage.transaction((tx) => readZoneQuotas(tx, 'other', defaults))).toEqual(defaults);
  });

  // This replaced "ignores malformed stored fields": a limit read as the default because its stored
  // value is not a number answers a limit nobody set (#14: a corrupt value is a clear error).
  it.each([{ zones: 3, zone_records: 'x' }, { zones: 1.5 }, 'x', null, [1]])('refuses a stored row that is not one it writes: %j', async (row) => {
    const storage = memoryStorage();
    await storage.transaction((tx) => tx.put('dns.quotas', 'p1', row, {}));
    await expect(storage.transaction((tx) => readZoneQuotas(tx, 'p1', DEFAULT_ZONE_QUOTAS))).rejects.toMatchObject({
      name: 'CorruptValue',
      collection: 'dns.quotas',
      id: 'p1',
    });
  });
});

describe('getDnsQuotas', () => {
  it('answers the defaults for an owner with no overrides', async () => {
    expect((await getDnsQuotas(deps(), member, 'p1'))._unsafeUnwrap()).toEqual(DEFAULT_ZONE_QUOTAS);
  });

  it.each([401, 403] as const)('refuses another project without all-projects, admin or not (forbiddenStatus %i)', async (status) => {
    const d = deps(status);
    for (const ctx of [member, admin]) {
      const e = (await getDnsQuotas(d, ctx, 'p2'))._unsafeUnwrapErr();
      expect([e.status, e.type]).toEqual([status, 'forbidden']);
      expect(e.toJSON()).toEqual({ code: status, type: 'forbidden' });
    }
  });

  it('lets an admin read another project with all-projects or sudo', async () => {
    const d = deps();
    await setDnsQuotas(d, adminAll, 'p2', { zones: 4 });
    expect((await getDnsQuotas(d, adminAll, 'p2'))._unsafeUnwrap().zones).toBe(4);
    expect((await getDnsQuotas(d, { ...admin, sudoProjectId: 'p2' }, 'p2'))._unsafeUnwrap().zones).toBe(4);
  });

  it('refuses all-projects from a non-admin and unauthenticated callers', async () => {
    expect((await getDnsQuotas(deps(), { ...member, allProjects: true }, 'p2'))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await getDnsQuotas(deps(), undefined, 'p1'))._unsafeUnwrapErr().type).toBe('authentication_required');
    expect((await getDnsQuotas(deps(), {}, 'p1'))._unsafeUnwrapErr().status).toBe(401);
  });

  it.each([[''], ['x'.repeat(256)], ['a\u0000b'], ['\ud800'], [42], [null], [{}]])('answers 400 for project id %j', async (id) => {
    const e = (await getDnsQuotas(deps(), adminAll, id))._unsafeUnwrapErr();
    expect([e.status, e.type]).toEqual([400, 'invalid_object']);
  });
});

describe('setDnsQuotas', () => {
  it('merges the flat body over what was set and answers the full effective map', async () => {
    const d = deps();
    expect((await setDnsQuotas(d, admin, 'p-admin', { zones: 20 }))._unsafeUnwrap()).toEqual({ ...DEFAULT_ZONE_QUOTAS, zones: 20 });
    const after = (await setDnsQuotas(d, admin, 'p-admin', { zone_records: -1, api_export_size: 0 }))._unsafeUnwrap();
    expect(JSON.stringify(after)).toBe(
      '{"zones":20,"zone_recordsets":500,"zone_records":-1,"recordset_records":20,"api_export_size":0}',
    );
    expect((await getDnsQuotas(d, admin, 'p-admin'))._unsafeUnwrap()).toEqual(after);
  });

  it('accepts the bounds -1 and 2147483647, and stores -0 as 0', async () => {
    const d = deps();
    const r = (await setDnsQuotas(d, admin, 'p-admin', { zones: -1, zone_records: 2147483647, recordset_records: -0 }))._unsafeUnwrap();
    expect(r).toEqual({ ...DEFAULT_ZONE_QUOTAS, zones: -1, zone_records: 2147483647, recordset_records: 0 });
    expect(Object.is(r.recordset_records, 0)).toBe(true);
  });

  it.each([
    [{ bogus: 1 }, 'Provided object is not valid. Got a ValueError error with message Field value bogus is invalid'],
    [{ zones: -2 }, 'Provided object is not valid. Got a ValueError error with message Value must be >= -1 for field hard_limit'],
    [{ zones: 2147483648 }, 'Provided object is not valid. Got a ValueError error with message Value too high for hard_limit'],
    [{ zones: 'abc' }, "Provided object is not valid. Got a ValueError error with message invalid literal for int() with base 10: 'abc'"],
    [{ zones: '5.0' }, "Provided object is not valid. Got a ValueError error with message invalid literal for int() with base 10: '5.0'"],
    [{ zones: '\u001c5' }, "Provided object is not valid. Got a ValueError error with message invalid literal for int() with base 10: '\\x1c5'"],
    [{ zones: '-2' }, 'Provided object is not valid. Got a ValueError error with message Value must be >= -1 for field hard_limit'],
    [{ zones: Number.NaN }, 'Provided object is not valid. Got a ValueError error with message cannot convert float NaN to integer'],
    [{ zones: Infinity }, 'Provided object is not valid. Got a OverflowError error with message cannot convert float infinity to integer'],
    [{ zones: [] }, "Provided object is not valid. Got a TypeError with message int() argument must be a string, a bytes-like object or a real number, not 'list'"],
    [{ zones: {} }, "Provided object is not valid. Got a TypeError with message int() argument must be a string, a bytes-like object or a real number, not 'dict'"],
    [JSON.parse('{"__proto__": 1}'), 'Provided object is not valid. Got a ValueError error with message Field value __proto__ is invalid'],
    [{ constructor: 1 }, 'Provided object is not valid. Got a ValueError error with message Field value constructor is invalid'],
    [[1], "Provided object is not valid. Got an AttributeError with message 'list' object has no attribute 'items'"],
    ['zones', "Provided object is not valid. Got an AttributeError with message 'str' object has no attribute 'items'"],
  ])('answers 400 invalid_object for %j and changes nothing', async (body, message) => {
    const d = deps();
    await setDnsQuotas(d, admin, 'p-admin', { zones: 3 });
    const e = (await setDnsQuotas(d, admin, 'p-admin', body))._unsafeUnwrapErr();
    expect([e.status, e.type, e.message]).toEqual([400, 'invalid_object', message]);
    if (typeof body === 'object' && !Array.isArray(body)) {
      // a valid resource beside the bad one is not stored either
      expect((await setDnsQuotas(d, admin, 'p-admin', { zone_records: 9, ...body }))._unsafeUnwrapErr().message).toBe(message);
    }
    expect((await getDnsQuotas(d, admin, 'p-admin'))._unsafeUnwrap()).toEqual({ ...DEFAULT_ZONE_QUOTAS, zones: 3 });
    expect(Object.prototype).not.toHaveProperty('zones');
  });

  // Each answer as the real PATCH /v2/quotas/{project} gave it (Designate 15, designate-api here):
  // every value goes through Python's int(), then the -1..2147483647 range check.
  it.each([
    [{ zones: '5' }, 5],
    [{ zones: ' 7 ' }, 7],
    [{ zones: '\u00a05\u3000' }, 5],
    [{ zones: '-1' }, -1],
    [{ zones: '+5' }, 5],
    [{ zones: '1_0' }, 10],
    [{ zones: '\u0663' }, 3],
    [{ zones: true }, 1],
    [{ zones: 5.9 }, 5],
    [{ zones: -1.5 }, -1],
    [{ zones: -0.5 }, 0],
    [{ zones: 2147483647.9 }, 2147483647],
  ])('coerces %j like Python int(), as the real PATCH does', async (body, stored) => {
    const d = deps();
    expect((await setDnsQuotas(d, admin, 'p-admin', body))._unsafeUnwrap().zones).toBe(stored);
    expect((await getDnsQuotas(d, admin, 'p-admin'))._unsafeUnwrap().zones).toBe(stored);
  });

  it('answers a null limit as the real service does (500 unknown: its store refuses it) and changes nothing', async () => {
    const d = deps();
    await setDnsQuotas(d, admin, 'p-admin', { zones: 3 });
    const e = (await setDnsQuotas(d, admin, 'p-admin', { zone_records: 9, zones: null }))._unsafeUnwrapErr();
    expect([e.status, e.type]).toEqual([500, 'unknown']);
    expect((await getDnsQuotas(d, admin, 'p-admin'))._unsafeUnwrap()).toEqual({ ...DEFAULT_ZONE_QUOTAS, zones: 3 });
  });

  it('answers 400 empty_request_body for a missing body', async () => {
    const e = (await setDnsQuotas(deps(), admin, 'p-admin', undefined))._unsafeUnwrapErr();
    expect([e.status, e.type, e.message]).toEqual([400, 'empty_request_body', 'Request Body is empty']);
  });

  it.each([401, 403] as const)('is admin only, and needs all-projects for another project (forbiddenStatus %i)', async (status) => {
    const d = deps(status);
    expect((await setDnsQuotas(d, member, 'p1', { zones: 1 }))._unsafeUnwrapErr().status).toBe(status);
    expect((await setDnsQuotas(d, admin, 'p2', { zones: 1 }))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await setDnsQuotas(d, adminAll, 'p2', { zones: 1 }))._unsafeUnwrap().zones).toBe(1);
    expect((await getDnsQuotas(d, member, 'p1'))._unsafeUnwrap()).toEqual(DEFAULT_ZONE_QUOTAS);
  });

  it('answers 401 missing_project_id for a project-less token without all-projects', async () => {
    const e = (await setDnsQuotas(deps(), { roles: ['admin'] }, 'p2', { zones: 1 }))._unsafeUnwrapErr();
    expect([e.status, e.type, e.message]).toEqual([
      401,
      'missing_project_id',
      'The all-projects flag must be used when using non-project scoped tokens.',
    ]);
    expect((await setDnsQuotas(deps(), { roles: ['admin'], allProjects: true }, 'p2', { zones: 1 })).isOk()).toBe(true);
  });

  propTest.prop([
    fc.record({ zones: fc.integer({ min: -1, max: 2147483647 }), zone_records: fc.integer({ min: -1, max: 2147483647 }) }, { requiredKeys: [] }),
    fc.record({ zones: fc.integer({ min: -1, max: 2147483647 }), api_export_size: fc.integer({ min: -1, max: 2147483647 }) }, { requiredKeys: [] }),
  ])('set-then-get returns the second body merged over the first over the defaults', async (first, second) => {
    const d = deps();
    await setDnsQuotas(d, admin, 'p-admin', first);
    await setDnsQuotas(d, admin, 'p-admin', second);
    expect((await getDnsQuotas(d, admin, 'p-admin'))._unsafeUnwrap()).toEqual({ ...DEFAULT_ZONE_QUOTAS, ...first, ...second });
  });
});

describe('resetDnsQuotas', () => {
  it('removes the overrides so the defaults apply again, and succeeds when there were none', async () => {
    const d = deps();
    await setDnsQuotas(d, admin, 'p-admin', { zones: 1 });
    expect((await resetDnsQuotas(d, admin, 'p-admin')).isOk()).toBe(true);
    expect((await getDnsQuotas(d, admin, 'p-admin'))._unsafeUnwrap()).toEqual(DEFAULT_ZONE_QUOTAS);
    expect((await resetDnsQuotas(d, admin, 'p-admin')).isOk()).toBe(true);
  });

  it.each([401, 403] as const)('is admin only, with no cross-project rule as in the real service (forbiddenStatus %i)', async (status) => {
    const d = deps(status);
    await setDnsQuotas(d, adminAll, 'p1', { zones: 1 });
    expect((await resetDnsQuotas(d, member, 'p1'))._unsafeUnwrapErr().status).toBe(status);
    expect((await getDnsQuotas(d, member, 'p1'))._unsafeUnwrap().zones).toBe(1);
    expect((await resetDnsQuotas(d, admin, 'p1')).isOk()).toBe(true);
    expect((await getDnsQuotas(d, member, 'p1'))._unsafeUnwrap().zones).toBe(10);
    await setDnsQuotas(d, adminAll, 'p1', { zones: 1 });
    expect((await resetDnsQuotas(d, adminAll, 'p1')).isOk()).toBe(true);
    expect((await getDnsQuotas(d, member, 'p1'))._unsafeUnwrap().zones).toBe(10);
  });
});
