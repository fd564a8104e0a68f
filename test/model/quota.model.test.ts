/**
 * Model-based test of the quota service (the secrets service's quota interface): random sequences
 * of effective/list/get/set/delete/enforce by a service admin, members, a caller without the needed
 * role, a project-less service admin and an anonymous caller, against a model that is one ordered
 * map (project -> configured values, in first-creation order) and the defaults.
 *
 * ZONEWARD_MODEL_RUNS raises the number of runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createQuotaService, type QuotaService, type RequestContext } from '../../src/index.js';
import { assertErr, assertOk } from './dns-model.js';

const RUNS = Number(process.env['ZONEWARD_MODEL_RUNS'] ?? 0) || 600;

const KINDS = ['secrets', 'orders', 'containers', 'consumers', 'cas'] as const;
type Kind = (typeof KINDS)[number];
type Configured = Record<Kind, number | null>;

interface QActor {
  readonly label: string;
  readonly ctx: RequestContext;
  readonly project: string | null;
  readonly roles: readonly string[];
}
const ADMIN_ROLE = 'key-manager:service-admin';
const EFFECTIVE_ROLES = ['reader', 'member', 'admin', 'observer', 'creator', 'audit', ADMIN_ROLE];
const qa = (label: string, project: string | null, roles: string[]): QActor => ({
  label,
  ctx: project === null ? { roles } : { projectId: project, roles },
  project,
  roles,
});
const ACTORS: readonly QActor[] = [
  qa('serviceAdmin', 'ops', [ADMIN_ROLE]),
  qa('serviceAdmin2', 'pa', ['member', ADMIN_ROLE]),
  qa('projectlessAdmin', null, [ADMIN_ROLE]),
  qa('member', 'pa', ['member']),
  qa('reader', 'pb', ['reader']),
  qa('dnsAdmin', 'pc', ['admin']),
  qa('stranger', 'pd', ['other']),
  { label: 'anon', ctx: {}, project: null, roles: [] },
];
const PROJECTS = ['pa', 'pb', 'pc', 'pd', 'ops'] as const;

interface QModel {
  readonly forbidden: 401 | 403;
  readonly defaults: Record<Kind, number>;
  /** Insertion order = list order: a delete then a set moves a project to the end. */
  readonly records: Map<string, Configured>;
}
interface QReal {
  readonly quotas: QuotaService;
}

const isAdmin = (a: QActor): boolean => a.roles.includes(ADMIN_ROLE);
const authFail = (a: QActor): { status: number; type: string } | undefined =>
  a.project === null && a.roles.length === 0 ? { status: 401, type: 'authentication_required' } : undefined;
const adminRule = (m: QModel, a: QActor) => authFail(a) ?? (isAdmin(a) ? undefined : { status: m.forbidden, type: 'forbidden' });
const effectiveOf = (m: QModel, project: string): Record<Kind, number> =>
  Object.fromEntries(KINDS.map((k) => [k, m.records.get(project)?.[k] ?? m.defaults[k]])) as Record<Kind, number>;

class QCommand implements fc.AsyncCommand<QModel, QReal> {
  constructor(
    private readonly label: string,
    private readonly body: (m: QModel, r: QReal) => Promise<void>,
  ) {}
  check(): boolean {
    return true;
  }
  run(m: QModel, r: QReal): Promise<void> {
    return this.body(m, r);
  }
  toString(): string {
    return this.label;
  }
}

const actorArb = fc.constantFrom(...ACTORS);
const projectArb = fc.constantFrom(...PROJECTS);
const value = fc.constantFrom(-5, -1, 0, 1, 2, 3, 10);

const effective = actorArb.map(
  (a) =>
    new QCommand(`effective(${a.label})`, async (m, r) => {
      const res = await r.quotas.effective(a.ctx);
      const fail =
        authFail(a) ??
        (a.roles.some((x) => EFFECTIVE_ROLES.includes(x)) ? undefined : { status: m.forbidden, type: 'forbidden' }) ??
        (a.project === null ? { status: 401, type: 'missing_project_id' } : undefined);
      if (fail !== undefined) return assertErr(res, fail, 'effective');
      expect(assertOk(res, 'effective')).toEqual({ quotas: effectiveOf(m, a.project!) });
    }),
);

const list = fc.tuple(actorArb, fc.nat({ max: 6 }), fc.integer({ min: 1, max: 4 })).map(
  ([a, offset, limit]) =>
    new QCommand(`projectQuotas.list(${a.label}, offset ${offset}, limit ${limit})`, async (m, r) => {
      const res = await r.quotas.projectQuotas.list(a.ctx, { offset: String(offset), limit: String(limit) });
      const fail = adminRule(m, a);
      if (fail !== undefined) return assertErr(res, fail, 'list');
      const page = assertOk(res, 'list');
      const all = [...m.records].map(([project_id, project_quotas]) => ({ project_id, project_quotas }));
      expect(page.project_quotas).toEqual(all.slice(offset, offset + limit));
      expect(page.total).toBe(all.length);
      const href = (o: number) => `http://localhost:9311/v1/project-quotas?limit=${limit}&offset=${o}`;
      expect(page.previous).toBe(offset > 0 ? href(Math.max(0, offset - limit)) : undefined);
      expect(page.next).toBe(all.length > offset + limit ? href(offset + limit) : undefined);
    }),
);

const get = fc.tuple(actorArb, projectArb).map(
  ([a, project]) =>
    new QCommand(`projectQuotas.get(${a.label}, ${project})`, async (m, r) => {
      const res = await r.quotas.projectQuotas.get(a.ctx, project);
      const record = m.records.get(project);
      const fail = adminRule(m, a) ?? (record === undefined ? { status: 404, type: 'not_found' } : undefined);
      if (fail !== undefined) return assertErr(res, fail, 'get');
      expect(assertOk(res, 'get')).toEqual({ project_quotas: record });
    }),
);

const set = fc
  .tuple(actorArb, projectArb, fc.record({ secrets: value, orders: value, containers: value, consumers: value, cas: value }, { requiredKeys: [] }))
  .map(
    ([a, project, patch]) =>
      new QCommand(`projectQuotas.set(${a.label}, ${project}, ${JSON.stringify(patch)})`, async (m, r) => {
        const res = await r.quotas.projectQuotas.set(a.ctx, project, { project_quotas: patch });
        const fail = adminRule(m, a);
        if (fail !== undefined) return assertErr(res, fail, 'set');
        assertOk(res, 'set');
        const before = m.records.get(project) ?? { secrets: null, orders: null, containers: null, consumers: null, cas: null };
        m.records.set(project, { ...before, ...patch });
      }),
  );

const del = fc.tuple(actorArb, projectArb).map(
  ([a, project]) =>
    new QCommand(`projectQuotas.delete(${a.label}, ${project})`, async (m, r) => {
      const res = await r.quotas.projectQuotas.delete(a.ctx, project);
      const fail = adminRule(m, a) ?? (m.records.has(project) ? undefined : { status: 404, type: 'not_found' });
      if (fail !== undefined) return assertErr(res, fail, 'delete');
      assertOk(res, 'delete');
      m.records.delete(project);
    }),
);

const enforce = fc.tuple(projectArb, fc.constantFrom(...KINDS), fc.nat({ max: 12 }), fc.nat({ max: 3 })).map(
  ([project, kind, inUse, requested]) =>
    new QCommand(`enforce(${project}, ${kind}, inUse ${inUse}, requested ${requested})`, async (m, r) => {
      const res = await r.quotas.enforce(project, kind, { inUse, requested });
      const limit = effectiveOf(m, project)[kind];
      if (limit >= 0 && inUse + requested > limit) assertErr(res, { status: 403, type: 'quota_exceeded' }, 'enforce');
      else assertOk(res, 'enforce');
    }),
);

const setupArb = fc.record({
  forbidden: fc.constantFrom<401 | 403>(401, 403),
  defaults: fc.record({ secrets: value, orders: value, containers: value, consumers: value, cas: value }, { requiredKeys: [] }),
});

/** Per-test time limit that grows with the number of runs (the config's 60 s fits the defaults). */
const TIMEOUT = 60_000 + RUNS * 150;

describe('quota service against its model', () => {
  it(`agrees with the model over random command sequences (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        setupArb,
        fc.commands([effective, list, list, get, set, set, set, del, enforce, enforce], { size: '+1' }),
        async ({ forbidden, defaults }, cmds) => {
          const model: QModel = {
            forbidden,
            defaults: Object.fromEntries(KINDS.map((k) => [k, defaults[k] ?? -1])) as Record<Kind, number>,
            records: new Map(),
          };
          await fc.asyncModelRun(() => ({ model, real: { quotas: createQuotaService({ forbiddenStatus: forbidden, defaults }) } }), cmds);
        },
      ),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it('a snapshot restores into a service that answers the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands([set, set, del], { size: '+1' }), async (cmds) => {
        const model: QModel = { forbidden: 401, defaults: { secrets: -1, orders: -1, containers: -1, consumers: -1, cas: -1 }, records: new Map() };
        const quotas = createQuotaService();
        await fc.asyncModelRun(() => ({ model, real: { quotas } }), cmds);
        const restored = createQuotaService({ from: JSON.parse(JSON.stringify(await quotas.snapshot())) as Awaited<ReturnType<QuotaService['snapshot']>> });
        const admin = ACTORS[0]!.ctx;
        const page = async (q: QuotaService) => assertOk(await q.projectQuotas.list(admin, { limit: '100' }), 'list');
        expect(await page(restored)).toEqual(await page(quotas));
      }),
      { numRuns: Math.ceil(RUNS / 6) },
    );
  }, TIMEOUT);
});
