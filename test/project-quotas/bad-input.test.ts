import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { createQuotaService } from '../../src/project-quotas/index.js';
import type { RequestContext } from '../../src/kernel/context.js';
import { memoryStorage } from '../../src/adapters/memory/memory-storage.js';
import { DEFAULT_ZONE_QUOTAS, getDnsQuotas, setDnsQuotas } from '../../src/dns/quotas/index.js';
import { serviceAdmin } from './helpers.js';

const nasty: readonly unknown[] = [
  JSON.parse('{"__proto__": {"polluted": 1}}'),
  JSON.parse('{"project_quotas": {"__proto__": {"polluted": 1}}}'),
  JSON.parse('{"project_quotas": {"constructor": {"prototype": {"polluted": 1}}}}'),
  { project_quotas: { secrets: 'x'.repeat(1_000_000) } },
  { project_quotas: { ['x'.repeat(100_000)]: 1 } },
  { project_quotas: { secrets: 'a\u0000b' } },
  { project_quotas: { secrets: '\ud800' } },
  { project_quotas: { '\ud800': 1 } },
  JSON.parse('{"project_quotas": {"secrets": 1e400}}'),
  { project_quotas: { secrets: Number.NaN } },
  { project_quotas: { secrets: -Infinity } },
  { project_quotas: { secrets: 1n } },
  { project_quotas: new Map([['secrets', 1]]) },
  { project_quotas: Object.create({ secrets: 1 }) },
  Object.create({ project_quotas: {} }),
  'x'.repeat(1_000_000),
  Symbol('s'),
  () => 1,
];

describe('bad input to the quota service', () => {
  it.each(nasty.map((b, i) => [i, b]))('body #%i is a 4xx, changes nothing, and pollutes nothing', async (_i, body) => {
    const quotas = createQuotaService();
    await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { secrets: 4 } });
    const before = await quotas.snapshot();
    const e = (await quotas.projectQuotas.set(serviceAdmin, 'p1', body))._unsafeUnwrapErr();
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect(e.status).toBeLessThan(500);
    expect(e.message.length).toBeLessThan(1000);
    expect(e.message).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(await quotas.snapshot()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('secrets');
  });

  it('stores -0 as 0, as JSON and the real service know it', async () => {
    const quotas = createQuotaService();
    await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { secrets: -0 } });
    const got = (await quotas.projectQuotas.get(serviceAdmin, 'p1'))._unsafeUnwrap().project_quotas.secrets;
    expect(Object.is(got, 0)).toBe(true);
  });

  it.each(['', 'x'.repeat(256), 'a\u0000b', '\ud800x', 'x\udc00', '\u007f', 12, {}, null, undefined])('project id %j is a 400 and stores nothing', async (id) => {
    const quotas = createQuotaService();
    expect((await quotas.projectQuotas.set(serviceAdmin, id, { project_quotas: { secrets: 1 } }))._unsafeUnwrapErr().status).toBe(400);
    expect((await quotas.snapshot()).projectQuotas).toEqual([]);
  });

  test.prop([fc.anything({ withBigInt: true, withNullPrototype: true, withObjectString: true, withSparseArray: true, withTypedArray: true, withMap: true, withSet: true })], {
    numRuns: 300,
  })('never throws or rejects, and anything it accepts reads back as integers or null', async (body) => {
    const quotas = createQuotaService();
    const r = await quotas.projectQuotas.set(serviceAdmin, 'p', body);
    if (r.isErr()) {
      expect(r.error.status).toBeGreaterThanOrEqual(400);
      expect(r.error.status).toBeLessThan(500);
      expect((await quotas.snapshot()).projectQuotas).toEqual([]);
    } else {
      const got = (await quotas.projectQuotas.get(serviceAdmin, 'p'))._unsafeUnwrap().project_quotas;
      for (const v of Object.values(got)) expect(v === null || Number.isSafeInteger(v)).toBe(true);
    }
    await expect(quotas.projectQuotas.list(fc.sample(fc.anything(), 1)[0] as RequestContext, body as never)).resolves.toBeDefined();
    await expect(quotas.effective(body as RequestContext)).resolves.toBeDefined();
    await expect(quotas.enforce(body as never, body as never, body as never)).resolves.toBeDefined();
  });
});

describe('bad input to the DNS quota commands', () => {
  const admin = { projectId: 'p1', roles: ['admin'] };
  test.prop([fc.anything({ withBigInt: true, withNullPrototype: true, withMap: true })], { numRuns: 300 })(
    'set never throws; a refusal is a 4xx and changes nothing',
    async (body) => {
      const deps = { storage: memoryStorage(), restored: Promise.resolve(ok(undefined)), dialect: 'dns' as const, forbiddenStatus: 401 as const, defaults: DEFAULT_ZONE_QUOTAS };
      const r = await setDnsQuotas(deps, admin, 'p1', body);
      if (r.isErr()) {
        expect(r.error.status).toBe(400);
        expect((await getDnsQuotas(deps, admin, 'p1'))._unsafeUnwrap()).toEqual(DEFAULT_ZONE_QUOTAS);
      }
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    },
  );
});

describe('hostile objects', () => {
  it('a throwing getter in enforce usage or a set body never makes a command throw or reject', async () => {
    const quotas = createQuotaService();
    const usage = Object.defineProperty({}, 'inUse', { enumerable: true, get: () => { throw new Error('boom'); } });
    expect((await quotas.enforce('p1', 'secrets', usage as never))._unsafeUnwrapErr().status).toBe(400);
    const body = { project_quotas: Object.defineProperty({}, 'secrets', { enumerable: true, get: () => { throw new Error('boom'); } }) };
    const r = await quotas.projectQuotas.set(serviceAdmin, 'p1', body);
    expect(r.isErr()).toBe(true);
    expect((await quotas.snapshot()).projectQuotas).toEqual([]);
  });
});
