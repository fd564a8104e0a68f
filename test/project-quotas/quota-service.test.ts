import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/memory-storage.js';
import type { Storage } from '../../src/ports/storage.js';
import { createQuotaService } from '../../src/project-quotas/index.js';
import type { RequestContext } from '../../src/kernel/context.js';
import { member, seeded, serviceAdmin } from './helpers.js';

const NULLS = { secrets: null, orders: null, containers: null, consumers: null, cas: null };

describe('effective', () => {
  it('answers the defaults, -1 each out of the box, in the real key order', async () => {
    const quotas = createQuotaService();
    const body = (await quotas.effective(member))._unsafeUnwrap();
    expect(JSON.stringify(body)).toBe('{"quotas":{"secrets":-1,"orders":-1,"containers":-1,"consumers":-1,"cas":-1}}');
  });

  it('overlays the configured values on the configured defaults (reference §3 example)', async () => {
    const quotas = createQuotaService({ defaults: { secrets: 2, orders: 0 } });
    expect((await quotas.effective(member))._unsafeUnwrap().quotas).toEqual({ secrets: 2, orders: 0, containers: -1, consumers: -1, cas: -1 });
    await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { orders: 5, cas: 0, consumers: -50 } });
    expect((await quotas.effective(member))._unsafeUnwrap().quotas).toEqual({ secrets: 2, orders: 5, containers: -1, consumers: -50, cas: 0 });
  });

  it.each(['reader', 'member', 'admin', 'observer', 'creator', 'audit', 'key-manager:service-admin'])('lets role %s read', async (role) => {
    expect((await createQuotaService().effective({ projectId: 'p1', roles: [role] })).isOk()).toBe(true);
  });

  it.each([401, 403] as const)('refuses other roles with forbiddenStatus %i and the real description', async (status) => {
    const e = (await createQuotaService({ forbiddenStatus: status }).effective({ projectId: 'p1', roles: ['guest'] }))._unsafeUnwrapErr();
    expect(e.type).toBe('forbidden');
    expect(e.toJSON()).toEqual({
      code: status,
      title: status === 401 ? 'Unauthorized' : 'Forbidden',
      description: 'Quotas attempt not allowed - please review your user/project privileges',
    });
  });

  it('needs a project and credentials', async () => {
    const quotas = createQuotaService();
    expect((await quotas.effective({ roles: ['reader'] }))._unsafeUnwrapErr().type).toBe('missing_project_id');
    expect((await quotas.effective(undefined as unknown as RequestContext))._unsafeUnwrapErr().type).toBe('authentication_required');
    expect((await quotas.effective({ projectId: 'p1' }))._unsafeUnwrapErr().type).toBe('forbidden');
  });
});

describe('projectQuotas.get', () => {
  it('answers the configured values with null for unset kinds', async () => {
    const quotas = createQuotaService();
    await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { secrets: 5, cas: 0 } });
    const body = (await quotas.projectQuotas.get(serviceAdmin, 'p1'))._unsafeUnwrap();
    expect(JSON.stringify(body)).toBe('{"project_quotas":{"secrets":5,"orders":null,"containers":null,"consumers":null,"cas":0}}');
  });

  it('answers 404 for a project with nothing configured', async () => {
    const e = (await createQuotaService().projectQuotas.get(serviceAdmin, 'nobody'))._unsafeUnwrapErr();
    expect([e.status, e.type]).toEqual([404, 'not_found']);
    expect(e.toJSON()).toEqual({ code: 404, title: 'Not Found', description: 'Project quotas not found.' });
  });

  it('accepts any project id, not only UUIDs, and refuses ids that cannot be stored with 400', async () => {
    const quotas = createQuotaService();
    expect((await quotas.projectQuotas.set(serviceAdmin, 'dummy', { project_quotas: {} })).isOk()).toBe(true);
    expect((await quotas.projectQuotas.get(serviceAdmin, 'dummy'))._unsafeUnwrap()).toEqual({ project_quotas: NULLS });
    for (const id of ['', 'x'.repeat(256), 'a\u0000b', '\udc00', 7, null]) {
      expect((await quotas.projectQuotas.get(serviceAdmin, id))._unsafeUnwrapErr().type).toBe('invalid_project_id');
    }
  });
});

describe('projectQuotas.set', () => {
  it('creates a record with null for kinds left out, then merges later bodies (reference §4.4)', async () => {
    const quotas = createQuotaService();
    expect((await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { secrets: 5, cas: 0 } }))._unsafeUnwrap()).toBeUndefined();
    await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { orders: -7 } });
    expect((await quotas.projectQuotas.get(serviceAdmin, 'p1'))._unsafeUnwrap().project_quotas).toEqual({
      secrets: 5,
      orders: -7,
      containers: null,
      consumers: null,
      cas: 0,
    });
    await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: {} });
    expect((await quotas.projectQuotas.get(serviceAdmin, 'p1'))._unsafeUnwrap().project_quotas.secrets).toBe(5);
  });

  it('stores values below -1 as given, and integral floats as integers', async () => {
    const quotas = createQuotaService();
    await quotas.projectQuotas.set(serviceAdmin, 'p1', JSON.parse('{"project_quotas": {"secrets": -5, "containers": 3.0, "orders": 1e3}}'));
    expect((await quotas.projectQuotas.get(serviceAdmin, 'p1'))._unsafeUnwrap().project_quotas).toEqual({
      secrets: -5,
      orders: 1000,
      containers: 3,
      consumers: null,
      cas: null,
    });
    expect((await quotas.effective(member))._unsafeUnwrap().quotas.secrets).toBe(-5);
  });

  const prefix = "Provided object does not match schema 'Project Quota': ";
  it.each<[string, unknown, string]>([
    ['[]', [], "[] is not of type 'object'. Invalid property: 'None'"],
    ['null', null, "None is not of type 'object'. Invalid property: 'None'"],
    ['"abc"', 'abc', "'abc' is not of type 'object'. Invalid property: 'None'"],
    ['{}', {}, "'project_quotas' is a required property. Invalid property: 'None'"],
    ['no wrapper', { secrets: 1 }, "'project_quotas' is a required property. Invalid property: 'None'"],
    ['extra top key', { project_quotas: {}, x: 1 }, "Additional properties are not allowed ('x' was unexpected). Invalid property: 'None'"],
    ['wrapper null', { project_quotas: null }, "None is not of type 'object'. Invalid property: 'project_quotas'"],
    ['wrapper array', { project_quotas: [] }, "[] is not of type 'object'. Invalid property: 'project_quotas'"],
    ['unknown kind', { project_quotas: { bogus: 1 } }, "Additional properties are not allowed ('bogus' was unexpected). Invalid property: 'project_quotas'"],
    ['two unknown kinds', { project_quotas: { zz: 1, aa: 1 } }, "Additional properties are not allowed ('aa', 'zz' were unexpected). Invalid property: 'project_quotas'"],
    ['string', { project_quotas: { secrets: '5' } }, "'5' is not of type 'integer'. Invalid property: 'project_quotas'"],
    ['boolean', { project_quotas: { secrets: true } }, "True is not of type 'integer'. Invalid property: 'project_quotas'"],
    ['null value', { project_quotas: { secrets: null } }, "None is not of type 'integer'. Invalid property: 'project_quotas'"],
    ['float', { project_quotas: { secrets: 1.5 } }, "1.5 is not of type 'integer'. Invalid property: 'project_quotas'"],
    ['1e400', JSON.parse('{"project_quotas": {"secrets": 1e400}}'), "inf is not of type 'integer'. Invalid property: 'project_quotas'"],
    ['unknown before bad value', { project_quotas: { secrets: '5', bogus: 1 } }, "Additional properties are not allowed ('bogus' was unexpected). Invalid property: 'project_quotas'"],
    ['first bad value in kind order', { project_quotas: { cas: 'b', orders: true } }, "True is not of type 'integer'. Invalid property: 'project_quotas'"],
    ['unsafe integer (divergence)', { project_quotas: { secrets: 2 ** 63 } }, "9223372036854775808 is out of the supported range (-9007199254740991..9007199254740991). Invalid property: 'project_quotas'"],
  ])('answers 400 invalid_object for %s and stores nothing', async (_name, body, reason) => {
    const quotas = createQuotaService();
    const e = (await quotas.projectQuotas.set(serviceAdmin, 'p1', body))._unsafeUnwrapErr();
    expect([e.status, e.type]).toEqual([400, 'invalid_object']);
    expect(e.toJSON()).toEqual({ code: 400, title: 'Bad Request', description: prefix + reason });
    expect((await quotas.projectQuotas.get(serviceAdmin, 'p1'))._unsafeUnwrapErr().status).toBe(404);
  });

  it('answers the real empty-body message for a missing body', async () => {
    const e = (await createQuotaService().projectQuotas.set(serviceAdmin, 'p1', undefined))._unsafeUnwrapErr();
    expect([e.status, e.message]).toEqual([400, 'Project Quotas issue seen - No data supplied to process..']);
  });

  it('checks the policy before the body', async () => {
    const e = (await createQuotaService({ forbiddenStatus: 403 }).projectQuotas.set(member, 'p1', 'garbage'))._unsafeUnwrapErr();
    expect([e.status, e.type]).toEqual([403, 'forbidden']);
  });
});

describe('projectQuotas.delete', () => {
  it('removes the record so the defaults apply, then answers 404', async () => {
    const quotas = createQuotaService({ defaults: { secrets: 9 } });
    await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { secrets: 1 } });
    expect((await quotas.projectQuotas.delete(serviceAdmin, 'p1'))._unsafeUnwrap()).toBeUndefined();
    expect((await quotas.projectQuotas.get(serviceAdmin, 'p1'))._unsafeUnwrapErr().status).toBe(404);
    expect((await quotas.effective(member))._unsafeUnwrap().quotas.secrets).toBe(9);
    const e = (await quotas.projectQuotas.delete(serviceAdmin, 'p1'))._unsafeUnwrapErr();
    expect(e.toJSON()).toEqual({ code: 404, title: 'Not Found', description: 'Project quotas not found.' });
  });
});

describe('configuration policies', () => {
  const calls = [
    ['list', (q: ReturnType<typeof createQuotaService>, ctx: unknown) => q.projectQuotas.list(ctx as RequestContext)],
    ['get', (q: ReturnType<typeof createQuotaService>, ctx: unknown) => q.projectQuotas.get(ctx as RequestContext, 'p1')],
    ['set', (q: ReturnType<typeof createQuotaService>, ctx: unknown) => q.projectQuotas.set(ctx as RequestContext, 'p1', { project_quotas: { secrets: 1 } })],
    ['delete', (q: ReturnType<typeof createQuotaService>, ctx: unknown) => q.projectQuotas.delete(ctx as RequestContext, 'p1')],
  ] as const;
  for (const status of [401, 403] as const) {
    for (const [name, call] of calls) {
      it(`${name} is for key-manager:service-admin only (forbiddenStatus ${status})`, async () => {
        const quotas = await seeded(0, { forbiddenStatus: status });
        await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { secrets: 3 } });
        for (const roles of [['admin'], ['reader', 'member'], ['creator', 'observer', 'audit']]) {
          const e = (await call(quotas, { projectId: 'p1', roles }))._unsafeUnwrapErr();
          expect(e.toJSON()).toEqual({
            code: status,
            title: status === 401 ? 'Unauthorized' : 'Forbidden',
            description: 'Project Quotas attempt not allowed - please review your user/project privileges',
          });
        }
        expect((await quotas.projectQuotas.get(serviceAdmin, 'p1'))._unsafeUnwrap().project_quotas.secrets).toBe(3);
        // a project-less service-admin token is enough: these are system-wide calls
        expect((await call(quotas, { roles: ['key-manager:service-admin'] })).isOk()).toBe(true);
      });
    }
  }
});

describe('enforce', () => {
  it('allows up to N and refuses the (N+1)th with the real 403 body', async () => {
    const quotas = createQuotaService();
    await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { secrets: 2 } });
    expect((await quotas.enforce('p1', 'secrets', { inUse: 0 })).isOk()).toBe(true);
    expect((await quotas.enforce('p1', 'secrets', { inUse: 1 })).isOk()).toBe(true);
    const e = (await quotas.enforce('p1', 'secrets', { inUse: 2 }))._unsafeUnwrapErr();
    expect([e.status, e.type]).toEqual([403, 'quota_exceeded']);
    expect(e.toJSON()).toEqual({
      code: 403,
      title: 'Forbidden',
      description: 'Secret creation issue seen - Creation not allowed because a quota has been reached.',
    });
  });

  it('uses the defaults without a record, 0 disables, negative is unconstrained', async () => {
    const quotas = createQuotaService({ defaults: { orders: 0, containers: 1 } });
    expect((await quotas.enforce('any', 'secrets', { inUse: 1e9, requested: 5 })).isOk()).toBe(true);
    expect((await quotas.enforce('any', 'orders', { inUse: 0 }))._unsafeUnwrapErr().message).toMatch(/^Order creation issue seen/);
    expect((await quotas.enforce('any', 'containers', { inUse: 0, requested: 2 }))._unsafeUnwrapErr().message).toMatch(/^Container creation/);
    expect((await quotas.enforce('any', 'orders', { inUse: 0, requested: 0 })).isOk()).toBe(true);
  });

  it.each<[unknown, unknown, unknown]>([
    ['p1', 'bogus', { inUse: 0 }],
    ['p1', '__proto__', { inUse: 0 }],
    ['p1', 'secrets', { inUse: -1 }],
    ['p1', 'secrets', { inUse: 1.5 }],
    ['p1', 'secrets', { inUse: 0, requested: Number.NaN }],
    ['p1', 'secrets', undefined],
    ['', 'secrets', { inUse: 0 }],
  ])('answers 400 for bad arguments (%j, %j, %j)', async (project, kind, usage) => {
    const e = (await createQuotaService().enforce(project as never, kind as never, usage as never))._unsafeUnwrapErr();
    expect(e.status).toBe(400);
  });
});

describe('snapshot / from / reset', () => {
  it('restores exactly, order included, from a JSON round trip', async () => {
    const quotas = await seeded(5);
    await quotas.projectQuotas.delete(serviceAdmin, 'p01');
    await quotas.projectQuotas.set(serviceAdmin, 'p01', { project_quotas: { cas: 0 } });
    const snap = await quotas.snapshot();
    expect(Object.isFrozen(snap)).toBe(true);
    expect(snap.projectQuotas.map((r) => r.project_id)).toEqual(['p00', 'p02', 'p03', 'p04', 'p01']);
    const copy = createQuotaService({ from: JSON.parse(JSON.stringify(snap)) });
    expect((await copy.projectQuotas.list(serviceAdmin))._unsafeUnwrap()).toEqual((await quotas.projectQuotas.list(serviceAdmin))._unsafeUnwrap());
    expect(await copy.snapshot()).toEqual(snap);
    await copy.projectQuotas.set(serviceAdmin, 'new', { project_quotas: {} });
    expect((await copy.projectQuotas.list(serviceAdmin))._unsafeUnwrap().project_quotas.at(-1)?.project_id).toBe('new');
  });

  it('is frozen all the way down: a test that edits a snapshot cannot change what it restores', async () => {
    const snap = await (await seeded(2)).snapshot();
    const isDeeplyFrozen = (v: unknown): boolean =>
      v === null || typeof v !== 'object' || (Object.isFrozen(v) && Object.values(v).every(isDeeplyFrozen));
    expect(isDeeplyFrozen(snap)).toBe(true);
    expect(() => {
      (snap.projectQuotas[0]!.project_quotas as { secrets: number | null }).secrets = 99;
    }).toThrow(TypeError);
  });

  it('reset empties the service and keeps the options', async () => {
    const quotas = await seeded(3, { defaults: { cas: 4 } });
    await quotas.reset();
    expect((await quotas.projectQuotas.list(serviceAdmin))._unsafeUnwrap()).toEqual({ project_quotas: [], total: 0 });
    expect((await quotas.effective(member))._unsafeUnwrap().quotas.cas).toBe(4);
  });

  it('refuses a malformed snapshot when the service is created', () => {
    expect(() => createQuotaService({ from: { version: 2 } as never })).toThrow(TypeError);
    const dup = { version: 1, projectQuotas: [{ project_id: 'a', project_quotas: {} }, { project_id: 'a', project_quotas: {} }] };
    expect(() => createQuotaService({ from: dup as never })).toThrow(TypeError);
  });
});

describe('storage failures', () => {
  it('answer 500 storage_failure and change nothing', async () => {
    const inner = memoryStorage();
    let fail = false;
    const storage: Storage = {
      transaction: (work) =>
        inner.transaction((tx) =>
          work({
            ...tx,
            get: (c, id) => tx.get(c, id),
            put: (...args) => (fail ? Promise.reject(new Error('disk full')) : tx.put(...args)),
            delete: (c, id) => tx.delete(c, id),
            range: (c, i, q) => tx.range(c, i, q),
            count: (c, i, p) => tx.count(c, i, p),
            scan: (c, a, l) => tx.scan(c, a, l),
          }),
        ),
    };
    const quotas = createQuotaService({ storage });
    await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { secrets: 1 } });
    fail = true;
    const e = (await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { secrets: 2 } }))._unsafeUnwrapErr();
    expect([e.status, e.type]).toEqual([500, 'storage_failure']);
    expect(Object.keys(e.toJSON())).toEqual(['code', 'title', 'description']);
    fail = false;
    expect((await quotas.projectQuotas.get(serviceAdmin, 'p1'))._unsafeUnwrap().project_quotas.secrets).toBe(1);
  });

  it('enforce answers 500 when the storage rejects', async () => {
    const quotas = createQuotaService({ storage: { transaction: () => Promise.reject(new Error('down')) } });
    expect((await quotas.enforce('p1', 'secrets', { inUse: 0 }))._unsafeUnwrapErr().type).toBe('storage_failure');
  });
});
