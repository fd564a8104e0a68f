import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { createQuotaService, type QuotaKind } from '../../src/project-quotas/index.js';
import { serviceAdmin } from './helpers.js';

const KINDS: readonly QuotaKind[] = ['secrets', 'orders', 'containers', 'consumers', 'cas'];
const value = fc.integer({ min: -1000, max: 1000 });
const partial = fc.record({ secrets: value, orders: value, containers: value, consumers: value, cas: value }, { requiredKeys: [] });
const defaults = fc.record({ secrets: value, orders: value, containers: value, consumers: value, cas: value }, { requiredKeys: [] });

describe('quota service laws', () => {
  test.prop([fc.array(partial, { minLength: 1, maxLength: 4 })])('set-then-get returns every body merged over what was there, null where never set', async (bodies) => {
    const quotas = createQuotaService();
    for (const b of bodies) (await quotas.projectQuotas.set(serviceAdmin, 'p', { project_quotas: b }))._unsafeUnwrap();
    const expected = Object.fromEntries(KINDS.map((k) => [k, bodies.reduce<number | null>((acc, b) => b[k] ?? acc, null)]));
    expect((await quotas.projectQuotas.get(serviceAdmin, 'p'))._unsafeUnwrap().project_quotas).toEqual(expected);
  });

  test.prop([defaults, fc.option(partial, { nil: undefined })])('effective = configured ?? default per kind, for every mix', async (d, configured) => {
    const quotas = createQuotaService({ defaults: d });
    if (configured !== undefined) await quotas.projectQuotas.set(serviceAdmin, 'p', { project_quotas: configured });
    const effective = (await quotas.effective({ projectId: 'p', roles: ['reader'] }))._unsafeUnwrap().quotas;
    for (const k of KINDS) expect(effective[k]).toBe(configured?.[k] ?? d[k] ?? -1);
  });

  test.prop([fc.constantFrom(...KINDS), fc.option(value, { nil: undefined }), fc.nat({ max: 2000 }), fc.option(fc.nat({ max: 50 }), { nil: undefined })])(
    'enforce refuses exactly when the limit is >= 0 and inUse + requested > limit (requested defaults to 1)',
    async (kind, limit, inUse, requested) => {
      const quotas = createQuotaService({ defaults: { [kind]: 7 } });
      if (limit !== undefined) await quotas.projectQuotas.set(serviceAdmin, 'p', { project_quotas: { [kind]: limit } });
      const effective = limit ?? 7;
      const r = await quotas.enforce('p', kind, requested === undefined ? { inUse } : { inUse, requested });
      const asked = requested ?? 1;
      expect(r.isErr()).toBe(effective >= 0 && inUse + asked > effective);
      if (effective === 0 && asked > 0) expect(r.isErr()).toBe(true);
      if (effective < 0) expect(r.isOk()).toBe(true);
    },
  );
});
