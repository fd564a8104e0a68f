/**
 * A deliberately simple model of the DNS service (who owns which zone name, the parent links of
 * subzones, transfer requests and accepts, per-project quota overrides, imports and exports) and
 * fast-check commands that drive the real service and check every answer against it.
 *
 * Shared by the model-based test (dns.model.test.ts) and the isolation property
 * (test/proof/isolation.test.ts).
 */
import fc from 'fast-check';
import type { Result } from 'neverthrow';
import { expect } from 'vitest';
import { createDnsService, type ApiError, type DnsService, type RequestContext } from '../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';

// ---------------------------------------------------------------------------------------------
// Actors

/** Who calls: the context, and what the model needs to know about it. */
export interface Actor {
  readonly label: string;
  readonly ctx: RequestContext;
  /** The effective project (after sudo); null for the anonymous caller. */
  readonly project: string | null;
  readonly isAdmin: boolean;
  readonly allProjects: boolean;
  readonly anonymous: boolean;
}

const actor = (label: string, ctx: RequestContext, project: string | null, isAdmin = false, allProjects = false): Actor =>
  Object.freeze({ label, ctx, project, isAdmin, allProjects, anonymous: project === null && !isAdmin });

export const PROJECTS = ['pa', 'pb', 'pc', 'ops'] as const;

export const ACTORS: readonly Actor[] = [
  actor('pa', { projectId: 'pa', roles: ['member'] }, 'pa'),
  actor('pb', { projectId: 'pb', roles: ['member'] }, 'pb'),
  // A reader still owns its project's zones under the legacy policies.
  actor('pc', { projectId: 'pc', roles: ['reader'] }, 'pc'),
  actor('admin', { projectId: 'ops', roles: ['admin'] }, 'ops', true),
  actor('adminAll', { projectId: 'ops', roles: ['admin'], allProjects: true }, 'ops', true, true),
  actor('sudoPb', { projectId: 'ops', roles: ['admin'], sudoProjectId: 'pb' }, 'pb', true),
  actor('anon', {}, null),
];
/** The non-admin project members, for the isolation property. */
export const MEMBERS = ACTORS.filter((a) => !a.isAdmin && !a.anonymous);
export const actorNamed = (label: string): Actor => ACTORS.find((a) => a.label === label)!;

/** Weighted so that the anonymous caller is rare. */
export const actorArb: fc.Arbitrary<Actor> = fc.oneof(
  { arbitrary: fc.constantFrom(...ACTORS.filter((a) => !a.anonymous)), weight: 20 },
  { arbitrary: fc.constant(actorNamed('anon')), weight: 1 },
);

// ---------------------------------------------------------------------------------------------
// Model

/**
 * Zone names: a hierarchy (a.test. > x.a.test. > y.x.a.test.), a case variant, a label that is a
 * string prefix of another (b.test. / bx.test.), and one invalid single-label name.
 */
export const NAMES = ['a.test.', 'x.a.test.', 'y.x.a.test.', 'X.A.test.', 'b.test.', 'bx.test.', 'x.b.test.', 'test.'] as const;

export type QuotaResource = 'zones' | 'zone_recordsets' | 'api_export_size';
export type Limits = Record<QuotaResource, number>;

export interface MZone {
  id: string;
  name: string;
  owner: string;
  parent: string | null;
  version: number;
  description: string | null;
  /** Recordsets: SOA and NS, plus www A for an imported zone. */
  recordsets: number;
  /** Recordsets written through the API, in creation order. */
  written: MRecordset[];
}
export interface MRecordset {
  id: string;
  name: string;
  type: string;
  version: number;
}
export interface MRequest {
  id: string;
  zoneId: string;
  zoneName: string;
  creator: string;
  target: string | null;
  key: string;
  status: 'ACTIVE' | 'COMPLETE';
  description: string | null;
}
export interface MAccept {
  id: string;
  project: string;
  zoneId: string;
  requestId: string;
}
export interface MImport {
  id: string;
  project: string;
  status: 'COMPLETE' | 'ERROR';
  zoneId: string | null;
}
export interface MExport {
  id: string;
  project: string;
  zoneId: string;
  status: 'COMPLETE' | 'ERROR';
}

export interface DnsModel {
  readonly forbidden: 401 | 403;
  /** Zone writes answer after their push (ACTIVE) rather than before it (PENDING). */
  readonly inline: boolean;
  readonly defaults: Limits;
  readonly zones: Map<string, MZone>;
  readonly requests: Map<string, MRequest>;
  readonly accepts: Map<string, MAccept>;
  readonly imports: Map<string, MImport>;
  readonly exports: Map<string, MExport>;
  readonly quotas: Map<string, Partial<Limits>>;
  /** Every id ever answered, deleted ones included, so commands also aim at what is gone. */
  readonly known: { zones: string[]; requests: string[]; accepts: string[]; imports: string[]; exports: string[]; recordsets: { zoneId: string; id: string }[] };
}

export interface Sut {
  readonly dns: DnsService;
  readonly imports: DnsService['imports'];
  readonly exports: DnsService['exports'];
}

export interface Config {
  readonly forbidden: 401 | 403;
  readonly zonesDefault: number;
  /** Pool targets of our own (always succeeding): every push is a background task, zones answer PENDING. */
  readonly ownTargets: boolean;
  readonly seed: number;
}
export const configArb: fc.Arbitrary<Config> = fc.record({
  forbidden: fc.constantFrom<401 | 403>(401, 403),
  zonesDefault: fc.integer({ min: 1, max: 5 }),
  ownTargets: fc.boolean(),
  seed: fc.integer({ min: 0, max: 1_000_000 }),
});

export function newModel(config: Config): DnsModel {
  return {
    forbidden: config.forbidden,
    inline: !config.ownTargets,
    defaults: { zones: config.zonesDefault, zone_recordsets: 500, api_export_size: 1000 },
    zones: new Map(),
    requests: new Map(),
    accepts: new Map(),
    imports: new Map(),
    exports: new Map(),
    quotas: new Map(),
    known: { zones: [], requests: [], accepts: [], imports: [], exports: [], recordsets: [] },
  };
}

export function newSut(config: Config, storage?: Parameters<typeof createDnsService>[0]): Sut {
  // The model applies a push with the command that asked for it, as `'inline'` does.
  const dns = createDnsService({
    tasks: 'inline',
    clock: manualClock('2026-01-01T00:00:00Z'),
    ids: sequentialIds(),
    random: seededRandom(config.seed),
    forbiddenStatus: config.forbidden,
    quotas: { zones: config.zonesDefault },
    ...(config.ownTargets ? { poolTargets: { createZone: () => Promise.resolve(), updateZone: () => Promise.resolve(), deleteZone: () => Promise.resolve() } } : {}),
    ...storage,
  });
  return { dns, imports: dns.imports, exports: dns.exports };
}

export const limitsOf = (m: DnsModel, project: string): Limits => ({ ...m.defaults, ...m.quotas.get(project) });
const over = (limit: number, prospective: number): boolean => limit >= 0 && prospective > limit;
const lower = (s: string): string => s.toLowerCase();
const ownedBy = (m: DnsModel, project: string): MZone[] => [...m.zones.values()].filter((z) => z.owner === project);
const canSee = (a: Actor, owner: string): boolean => a.allProjects || a.project === owner;
const adminOrOwner = (a: Actor, owner: string | null): boolean => a.isAdmin || (a.project !== null && a.project === owner);

/** Nearest existing ancestor zones, walking up label by label. */
function nearestAncestors(m: DnsModel, name: string): MZone[] {
  const labels = name.slice(0, -1).split('.');
  for (let i = 1; i < labels.length; i++) {
    const up = lower(`${labels.slice(i).join('.')}.`);
    const found = [...m.zones.values()].filter((z) => lower(z.name) === up);
    if (found.length > 0) return found;
  }
  return [];
}
const descendantsOf = (m: DnsModel, name: string): MZone[] =>
  [...m.zones.values()].filter((z) => lower(z.name).endsWith(`.${lower(name)}`));

/** An expected failure, or success. */
export type Expected = { readonly ok: true } | { readonly status: number; readonly type: string };
const OK: Expected = { ok: true };
const fail = (status: number, type: string): Expected => ({ status, type });
const AUTH = fail(401, 'authentication_required');

/** The outcome of creating `name` for the actor's project (zones.create and the import's creation). */
export function expectZoneCreate(m: DnsModel, a: Actor, name: string): Expected {
  if (a.anonymous) return AUTH;
  const owner = a.project!;
  const limits = limitsOf(m, owner);
  if (over(limits.zones, ownedBy(m, owner).length + 1)) return fail(413, 'over_quota');
  if (!name.slice(0, -1).includes('.')) return fail(400, 'invalid_zone_name');
  const same = [...m.zones.values()].filter((z) => lower(z.name) === lower(name));
  if (same.some((z) => z.owner !== owner)) return fail(409, 'duplicate_zone');
  if (nearestAncestors(m, name).some((z) => z.owner !== owner)) return fail(m.forbidden, 'illegal_child');
  if (descendantsOf(m, name).some((z) => z.owner !== owner)) return fail(m.forbidden, 'illegal_parent');
  if (same.length > 0) return fail(409, 'duplicate_zone');
  if (over(limits.zone_recordsets, 2)) return fail(413, 'over_quota');
  return OK;
}

/** Applies a successful create: parent link, re-parenting of every existing descendant. */
export function applyZoneCreate(m: DnsModel, id: string, name: string, owner: string, recordsets = 2): void {
  const parent = nearestAncestors(m, name)[0]?.id ?? null;
  for (const d of descendantsOf(m, name)) {
    d.parent = id;
    d.version += 2; // the re-parenting update, then its push report
  }
  m.zones.set(id, { id, name, owner, parent, version: 2, description: null, recordsets, written: [] });
  m.known.zones.push(id);
}

// ---------------------------------------------------------------------------------------------
// Assertions

export function assertErr(res: Result<unknown, ApiError>, exp: { status: number; type: string }, what: string): void {
  if (res.isOk()) throw new Error(`${what}: expected ${exp.status} ${exp.type}, got ok ${JSON.stringify(res.value)}`);
  expect({ status: res.error.status, type: res.error.type }, `${what}: ${res.error.message}`).toEqual(exp);
}
export function assertOk<T>(res: Result<T, ApiError>, what: string): T {
  if (res.isErr()) throw new Error(`${what}: expected ok, got ${res.error.status} ${res.error.type}: ${res.error.message}`);
  return res.value;
}
/** How often each command met each outcome (printed with ZONEWARD_MODEL_STATS=1, to see what the runs cover). */
export const outcomes = new Map<string, number>();
/** Checks the answer against the expectation; returns the value when it was a success. */
export function check<T>(res: Result<T, ApiError>, exp: Expected, what: string): T | undefined {
  const outcome = `${what} ${'ok' in exp ? 'ok' : `${exp.status} ${exp.type}`}`;
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  if ('ok' in exp) return assertOk(res, what);
  assertErr(res, exp, what);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Commands

export class DnsCommand implements fc.AsyncCommand<DnsModel, Sut> {
  constructor(
    private readonly label: string,
    private readonly body: (m: DnsModel, r: Sut) => Promise<void>,
    private readonly guard: (m: DnsModel) => boolean = () => true,
  ) {}
  check(m: Readonly<DnsModel>): boolean {
    return this.guard(m);
  }
  async run(m: DnsModel, r: Sut): Promise<void> {
    await this.body(m, r);
    await r.dns.tasks.settle();
  }
  toString(): string {
    return this.label;
  }
  /** The caller, read back from the label (every label is `command(actor, ...)`). */
  get actor(): Actor {
    return actorNamed(/^[\w.]+\((\w+)/.exec(this.label)![1]!);
  }
}

/** An id that never exists (sequentialIds would need 65535 ids to reach it). */
export const GHOST = '00000000-0000-4000-8000-00000000ffff';
/** Picks a live id three times in four, else any id ever answered (deleted ones included) or the ghost id. */
export function pick(live: Iterable<string>, known: readonly string[], n: number): string {
  const alive = [...live];
  if (n % 4 !== 0 && alive.length > 0) return alive[n % alive.length]!;
  const i = (n >> 2) % (known.length + 1);
  return i === known.length ? GHOST : known[i]!;
}
const ref = fc.nat({ max: 1000 });
const targetArb = fc.constantFrom<string | null>(null, null, 'pa', 'pb', 'pc', 'ops', 'nobody');
const quotaProjectArb = fc.constantFrom(...PROJECTS);
const quotaBodyArb = fc.oneof(
  fc.record({ zones: fc.constantFrom(-1, 0, 1, 2, 3, 5) }),
  fc.record({ zone_recordsets: fc.constantFrom(-1, 1, 2, 500) }),
  fc.record({ api_export_size: fc.constantFrom(-1, 1, 2, 1000) }),
);

const itemsOf = (body: object, key: string): Record<string, unknown>[] => (body as Record<string, Record<string, unknown>[]>)[key]!;
const sorted = (xs: readonly string[]): string[] => [...xs].sort();

// --- zones -----------------------------------------------------------------------------------

const createZone = fc.tuple(actorArb, fc.constantFrom(...NAMES)).map(
  ([a, name]) =>
    new DnsCommand(`zones.create(${a.label}, ${name})`, async (m, r) => {
      const exp = expectZoneCreate(m, a, name);
      const z = check(await r.dns.zones.create(a.ctx, { name, email: 'admin@example.com' }), exp, 'zones.create');
      if (z === undefined) return;
      expect(z).toMatchObject({ name, project_id: a.project, ...(m.inline ? { status: 'ACTIVE', action: 'NONE', version: 2 } : { status: 'PENDING', action: 'CREATE', version: 1 }) });
      applyZoneCreate(m, z.id, name, a.project!);
    }),
);

function zoneView(m: DnsModel, a: Actor, id: string): Expected & { zone?: MZone } {
  if (a.anonymous) return AUTH;
  const z = m.zones.get(id);
  if (z === undefined || !canSee(a, z.owner)) return fail(404, 'zone_not_found');
  return { ok: true, zone: z };
}

const getZone = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`zones.get(${a.label}, zone#${n})`, async (m, r) => {
      const id = pick(m.zones.keys(), m.known.zones, n);
      const exp = zoneView(m, a, id);
      const z = check(await r.dns.zones.get(a.ctx, id), exp, 'zones.get');
      if (z === undefined) return;
      const mz = (exp as { zone: MZone }).zone;
      expect(z).toMatchObject({ id, name: mz.name, project_id: mz.owner, version: mz.version, description: mz.description, status: 'ACTIVE' });
    }),
);

const listZones = actorArb.map(
  (a) =>
    new DnsCommand(`zones.list(${a.label})`, async (m, r) => {
      const body = check(await r.dns.zones.list(a.ctx, { limit: 'max' }), a.anonymous ? AUTH : OK, 'zones.list');
      if (body === undefined) return;
      const expected = [...m.zones.values()].filter((z) => canSee(a, z.owner));
      const zones = itemsOf(body, 'zones');
      expect(sorted(zones.map((z) => `${String(z['id'])} ${String(z['project_id'])}`))).toEqual(
        sorted(expected.map((z) => `${z.id} ${z.owner}`)),
      );
      expect((body as { metadata?: { total_count: number } }).metadata?.total_count).toBe(expected.length);
    }),
);

const updateZone = fc.tuple(actorArb, ref, fc.constantFrom('one', 'two', null)).map(
  ([a, n, description]) =>
    new DnsCommand(`zones.update(${a.label}, zone#${n}, ${String(description)})`, async (m, r) => {
      const id = pick(m.zones.keys(), m.known.zones, n);
      const exp = zoneView(m, a, id);
      const z = check(await r.dns.zones.update(a.ctx, id, { description }), exp, 'zones.update');
      if (z === undefined) return;
      const mz = (exp as { zone: MZone }).zone;
      mz.version += 2;
      mz.description = description;
      const answered = m.inline ? { version: mz.version, status: 'ACTIVE', action: 'NONE' } : { version: mz.version - 1, status: 'PENDING', action: 'UPDATE' };
      expect(z).toMatchObject({ id, project_id: mz.owner, description, ...answered });
    }),
);

const hasChildren = (m: DnsModel, id: string): boolean => [...m.zones.values()].some((z) => z.parent === id);

const deleteZone = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`zones.delete(${a.label}, zone#${n})`, async (m, r) => {
      const id = pick(m.zones.keys(), m.known.zones, n);
      let exp: Expected = zoneView(m, a, id);
      if ('ok' in exp && hasChildren(m, id)) exp = fail(400, 'zone_has_sub_zone');
      const z = check(await r.dns.zones.delete(a.ctx, id), exp, 'zones.delete');
      if (z === undefined) return;
      const mz = m.zones.get(id)!;
      expect(z).toMatchObject({ id, project_id: mz.owner, action: 'DELETE', status: 'PENDING', version: mz.version + 1 });
      m.zones.delete(id);
    }),
);

const abandonZone = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`zones.abandon(${a.label}, zone#${n})`, async (m, r) => {
      const id = pick(m.zones.keys(), m.known.zones, n);
      let exp: Expected;
      if (a.anonymous) exp = AUTH;
      else if (!a.isAdmin) exp = fail(m.forbidden, 'forbidden');
      else {
        exp = zoneView(m, a, id);
        if ('ok' in exp && hasChildren(m, id)) exp = fail(400, 'zone_has_sub_zone');
      }
      const done = await r.dns.zones.abandon(a.ctx, id);
      check(done, exp, 'zones.abandon');
      if ('ok' in exp) m.zones.delete(id);
    }),
);

const nameservers = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`zones.nameservers(${a.label}, zone#${n})`, async (m, r) => {
      const id = pick(m.zones.keys(), m.known.zones, n);
      const body = check(await r.dns.zones.nameservers(a.ctx, id), zoneView(m, a, id), 'zones.nameservers');
      if (body !== undefined) expect(body).toEqual({ nameservers: [{ hostname: 'ns1.example.org.', priority: 1 }] });
    }),
);

const listRecordsets = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`recordsets.list(${a.label}, zone#${n})`, async (m, r) => {
      const id = pick(m.zones.keys(), m.known.zones, n);
      const exp = zoneView(m, a, id);
      const body = check(await r.dns.recordsets.list(a.ctx, id), exp, 'recordsets.list');
      if (body === undefined) return;
      const sets = itemsOf(body, 'recordsets');
      const mz = (exp as { zone: MZone }).zone;
      expect(sets.map((s) => s['type'])).toEqual([...['SOA', 'NS', 'A'].slice(0, mz.recordsets), ...mz.written.map((w) => w.type)]);
      expect(sets.slice(mz.recordsets).map((s) => [s['id'], s['version']])).toEqual(mz.written.map((w) => [w.id, w.version]));
      expect(sets.every((s) => s['zone_id'] === id)).toBe(true);
    }),
);

// --- recordset writes ------------------------------------------------------------------------

const RECORDS: Record<string, string[]> = { A: ['192.0.2.1'], TXT: ['"t"'], CNAME: ['target.example.'] };

const createRecordset = fc.tuple(actorArb, ref, fc.constantFrom('mail', 'x', 'y'), fc.constantFrom('A', 'TXT', 'CNAME')).map(
  ([a, n, label, type]) =>
    new DnsCommand(`recordsets.create(${a.label}, zone#${n}, ${label} ${type})`, async (m, r) => {
      const id = pick(m.zones.keys(), m.known.zones, n);
      let exp: Expected = zoneView(m, a, id);
      const mz = m.zones.get(id);
      const name = `${label}.${mz?.name ?? 'ghost.'}`;
      if ('ok' in exp && mz !== undefined) {
        const here = mz.written.filter((w) => w.name === name).map((w) => w.type);
        const child = [...m.zones.values()].some((c) => c.parent === mz.id && (name === c.name || name.endsWith(`.${c.name}`)));
        if (over(limitsOf(m, mz.owner).zone_recordsets, mz.recordsets + mz.written.length + 1)) exp = fail(413, 'over_quota');
        else if (type === 'CNAME' ? here.length > 0 : here.includes('CNAME')) exp = fail(400, 'invalid_recordset_location');
        else if (child) exp = fail(400, 'invalid_recordset_location');
        else if (here.includes(type)) exp = fail(409, 'duplicate_recordset');
      }
      const rs = check(await r.dns.recordsets.create(a.ctx, id, { name, type, records: RECORDS[type] }), exp, 'recordsets.create');
      if (rs === undefined) return;
      const states = m.inline ? { status: 'ACTIVE', action: 'NONE' } : { status: 'PENDING', action: 'CREATE' };
      expect(rs).toMatchObject({ name, type, records: RECORDS[type], zone_id: id, project_id: mz!.owner, version: 1, ...states });
      mz!.written.push({ id: rs.id, name, type, version: 1 });
      mz!.version += 2;
      m.known.recordsets.push({ zoneId: id, id: rs.id });
    }),
);

/** A written recordset three times in four, else any ever answered or a ghost; with its zone and the expected lookup. */
function pickRecordset(m: DnsModel, a: Actor, n: number): { zoneId: string; id: string; exp: Expected; zone?: MZone; rs?: MRecordset } {
  const live = [...m.zones.values()].flatMap((z) => z.written.map((w) => ({ zoneId: z.id, id: w.id })));
  let target: { zoneId: string; id: string };
  if (n % 4 !== 0 && live.length > 0) target = live[n % live.length]!;
  else {
    const i = (n >> 2) % (m.known.recordsets.length + 1);
    target = m.known.recordsets[i] ?? { zoneId: pick(m.zones.keys(), m.known.zones, n >> 3), id: GHOST };
  }
  if (a.anonymous) return { ...target, exp: AUTH };
  const zone = m.zones.get(target.zoneId);
  // The real service looks the recordset up first: an unknown or deleted zone tells nothing.
  if (zone === undefined) return { ...target, exp: fail(404, 'recordset_not_found') };
  const rs = zone.written.find((w) => w.id === target.id);
  if (!canSee(a, zone.owner) || rs === undefined) return { ...target, exp: fail(404, 'recordset_not_found') };
  return { ...target, exp: OK, zone, rs };
}

const updateRecordset = fc.tuple(actorArb, ref, fc.constantFrom(60, 300, null)).map(
  ([a, n, ttl]) =>
    new DnsCommand(`recordsets.update(${a.label}, recordset#${n}, ttl ${String(ttl)})`, async (m, r) => {
      const t = pickRecordset(m, a, n);
      const rs = check(await r.dns.recordsets.update(a.ctx, t.zoneId, t.id, { ttl, description: 'changed' }), t.exp, 'recordsets.update');
      if (rs === undefined) return;
      t.rs!.version += 1;
      t.zone!.version += 2;
      const states = m.inline ? { status: 'ACTIVE', action: 'NONE' } : { status: 'PENDING', action: 'UPDATE' };
      expect(rs).toMatchObject({ id: t.id, ttl, description: 'changed', version: t.rs!.version, project_id: t.zone!.owner, ...states });
    }),
);

const deleteRecordset = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`recordsets.delete(${a.label}, recordset#${n})`, async (m, r) => {
      const t = pickRecordset(m, a, n);
      const rs = check(await r.dns.recordsets.delete(a.ctx, t.zoneId, t.id), t.exp, 'recordsets.delete');
      if (rs === undefined) return;
      expect(rs).toMatchObject({ id: t.id, status: 'PENDING', action: 'DELETE', version: t.rs!.version + 1 });
      t.zone!.written = t.zone!.written.filter((w) => w.id !== t.id);
      t.zone!.version += 2;
    }),
);

const listAllRecordsets = actorArb.map(
  (a) =>
    new DnsCommand(`recordsets.listAll(${a.label})`, async (m, r) => {
      const body = check(await r.dns.recordsets.listAll(a.ctx, { limit: 'max', type: '!SOA' }), a.anonymous ? AUTH : OK, 'recordsets.listAll');
      if (body === undefined) return;
      const visible = [...m.zones.values()].filter((z) => canSee(a, z.owner));
      const expected = visible.flatMap((z) => z.written.map((w) => w.id));
      const got = itemsOf(body, 'recordsets').filter((s) => s['type'] !== 'NS' && !(s['type'] === 'A' && String(s['name']).startsWith('www.')));
      expect(sorted(got.map((s) => String(s['id'])))).toEqual(sorted(expected));
    }),
);

// --- transfer requests ----------------------------------------------------------------------

const inScope = (a: Actor, q: MRequest): boolean => a.allProjects || (a.project !== null && (q.creator === a.project || q.target === a.project));
const mayRead = (a: Actor, q: MRequest): boolean =>
  a.isAdmin || (a.project !== null && (q.creator === a.project || q.target === a.project)) || q.target === null;
const detailed = (a: Actor, q: MRequest): boolean => a.isAdmin || a.project === q.creator;

function checkRequestView(a: Actor, q: MRequest, body: Record<string, unknown>): void {
  expect(body).toMatchObject({ id: q.id, zone_id: q.zoneId, zone_name: q.zoneName, status: q.status, description: q.description });
  if (detailed(a, q)) expect(body).toMatchObject({ project_id: q.creator, target_project_id: q.target, key: q.key });
  else for (const hidden of ['project_id', 'target_project_id', 'key', 'created_at', 'updated_at']) expect(body).not.toHaveProperty(hidden);
}

const createRequest = fc.tuple(actorArb, ref, targetArb).map(
  ([a, n, target]) =>
    new DnsCommand(`transferRequests.create(${a.label}, zone#${n}, target ${String(target)})`, async (m, r) => {
      const id = pick(m.zones.keys(), m.known.zones, n);
      let exp: Expected = zoneView(m, a, id);
      if ('ok' in exp && [...m.requests.values()].some((q) => q.zoneId === id && q.status === 'ACTIVE' && inScope(a, q))) {
        exp = fail(409, 'duplicate_zone_transfer_request');
      }
      const body = target === null ? undefined : { target_project_id: target };
      const t = check(await r.dns.transferRequests.create(a.ctx, id, body), exp, 'transferRequests.create');
      if (t === undefined) return;
      const zone = m.zones.get(id)!;
      expect(t).toMatchObject({ zone_id: id, zone_name: zone.name, project_id: a.project, target_project_id: target, status: 'ACTIVE' });
      expect(t.key).toMatch(/^[A-Z0-9]{8}$/);
      m.requests.set(t.id, {
        id: t.id,
        zoneId: id,
        zoneName: zone.name,
        creator: a.project!,
        target,
        key: t.key!,
        status: 'ACTIVE',
        description: null,
      });
      m.known.requests.push(t.id);
    }),
);

function requestRead(m: DnsModel, a: Actor, id: string): Expected & { req?: MRequest } {
  if (a.anonymous) return AUTH;
  const q = m.requests.get(id);
  if (q === undefined) return fail(404, 'zone_transfer_request_not_found');
  if (!mayRead(a, q)) return fail(m.forbidden, 'forbidden');
  return { ok: true, req: q };
}

const getRequest = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`transferRequests.get(${a.label}, request#${n})`, async (m, r) => {
      const id = pick(m.requests.keys(), m.known.requests, n);
      const exp = requestRead(m, a, id);
      const t = check(await r.dns.transferRequests.get(a.ctx, id), exp, 'transferRequests.get');
      if (t !== undefined) checkRequestView(a, exp.req!, t as unknown as Record<string, unknown>);
    }),
);

const listRequests = actorArb.map(
  (a) =>
    new DnsCommand(`transferRequests.list(${a.label})`, async (m, r) => {
      const body = check(await r.dns.transferRequests.list(a.ctx, { limit: 'max' }), a.anonymous ? AUTH : OK, 'transferRequests.list');
      if (body === undefined) return;
      const expected = [...m.requests.values()].filter((q) => inScope(a, q));
      const items = body.transfer_requests as unknown as Record<string, unknown>[];
      expect(sorted(items.map((t) => String(t['id'])))).toEqual(sorted(expected.map((q) => q.id)));
      for (const t of items) checkRequestView(a, m.requests.get(String(t['id']))!, t);
    }),
);

const updateRequest = fc.tuple(actorArb, ref, fc.constantFrom('first', 'second'), fc.constantFrom<string | undefined>(undefined, undefined, 'pb', 'pc')).map(
  ([a, n, description, target]) =>
    new DnsCommand(`transferRequests.update(${a.label}, request#${n}, ${description}, target ${String(target)})`, async (m, r) => {
      const id = pick(m.requests.keys(), m.known.requests, n);
      let exp: Expected = requestRead(m, a, id);
      // The target may be set only while it is null: otherwise a different value is refused (invalid_object)
      // before the policy; the same value is accepted, as for every read-only key.
      const current = m.requests.get(id)?.target ?? null;
      if ('ok' in exp && target !== undefined && current !== null && current !== target) exp = fail(400, 'invalid_object');
      if ('ok' in exp && !adminOrOwner(a, m.requests.get(id)!.creator)) exp = fail(m.forbidden, 'forbidden');
      const body = target === undefined ? { description } : { description, target_project_id: target };
      const t = check(await r.dns.transferRequests.update(a.ctx, id, body), exp, 'transferRequests.update');
      if (t === undefined) return;
      const q = m.requests.get(id)!;
      q.description = description;
      if (target !== undefined) q.target = target;
      checkRequestView(actorNamed('admin'), q, t as unknown as Record<string, unknown>);
    }),
);

const deleteRequest = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`transferRequests.delete(${a.label}, request#${n})`, async (m, r) => {
      const id = pick(m.requests.keys(), m.known.requests, n);
      const q = m.requests.get(id);
      let exp: Expected;
      if (a.anonymous) exp = AUTH;
      else if (q === undefined || !inScope(a, q)) exp = fail(404, 'zone_transfer_request_not_found');
      else if (!adminOrOwner(a, q.creator)) exp = fail(m.forbidden, 'forbidden');
      else exp = OK;
      check(await r.dns.transferRequests.delete(a.ctx, id), exp, 'transferRequests.delete');
      if ('ok' in exp) m.requests.delete(id);
    }),
);

// --- transfer accepts -----------------------------------------------------------------------

/** The accept flow of the model, first failure wins (reference §7). */
export function expectAccept(m: DnsModel, a: Actor, requestId: string, rightKey: boolean): Expected {
  if (a.anonymous) return AUTH;
  const q = m.requests.get(requestId);
  if (q === undefined) return fail(404, 'zone_transfer_request_not_found');
  if (!mayRead(a, q)) return fail(m.forbidden, 'forbidden');
  if (q.status === 'COMPLETE') return fail(400, 'invalid_zone_transfer_request');
  if (!rightKey) return fail(m.forbidden, 'invalid_key');
  if (!(a.isAdmin || q.target === null || q.target === a.project)) return fail(m.forbidden, 'forbidden');
  if (!m.zones.has(q.zoneId)) return fail(404, 'zone_not_found');
  if (over(limitsOf(m, a.project!).zones, ownedBy(m, a.project!).length + 1)) return fail(413, 'over_quota');
  return OK;
}

export const wrongKey = (key: string): string => (key.startsWith('A') ? 'B' : 'A') + key.slice(1);

const acceptRequest = fc.tuple(actorArb, ref, fc.boolean()).map(
  ([a, n, rightKey]) =>
    new DnsCommand(`transferAccepts.create(${a.label}, request#${n}, ${rightKey ? 'right' : 'wrong'} key)`, async (m, r) => {
      const id = pick(m.requests.keys(), m.known.requests, n);
      const q = m.requests.get(id);
      const key = q === undefined ? 'ABCDEFGH' : rightKey ? q.key : wrongKey(q.key);
      const exp = expectAccept(m, a, id, rightKey);
      const acc = check(await r.dns.transferAccepts.create(a.ctx, { zone_transfer_request_id: id, key }), exp, 'transferAccepts.create');
      if (acc === undefined) return;
      expect(acc).toMatchObject({ zone_transfer_request_id: id, project_id: a.project, status: 'COMPLETE', zone_id: q!.zoneId, key });
      const zone = m.zones.get(q!.zoneId)!;
      zone.owner = a.project!;
      zone.version += 1;
      q!.status = 'COMPLETE';
      m.accepts.set(acc.id, { id: acc.id, project: a.project!, zoneId: zone.id, requestId: id });
      m.known.accepts.push(acc.id);
    }),
);

const getAccept = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`transferAccepts.get(${a.label}, accept#${n})`, async (m, r) => {
      const id = pick(m.accepts.keys(), m.known.accepts, n);
      const acc = m.accepts.get(id);
      let exp: Expected;
      if (a.anonymous) exp = AUTH;
      else if (acc === undefined || !canSee(a, acc.project)) exp = fail(404, 'zone_transfer_accept_not_found');
      else exp = OK;
      const body = check(await r.dns.transferAccepts.get(a.ctx, id), exp, 'transferAccepts.get');
      if (body === undefined) return;
      expect(body).toMatchObject({ id, project_id: acc!.project, zone_id: acc!.zoneId, zone_transfer_request_id: acc!.requestId, key: null });
    }),
);

const listAccepts = actorArb.map(
  (a) =>
    new DnsCommand(`transferAccepts.list(${a.label})`, async (m, r) => {
      const exp = a.anonymous ? AUTH : a.isAdmin ? OK : fail(m.forbidden, 'forbidden');
      const body = check(await r.dns.transferAccepts.list(a.ctx, { limit: 'max' }), exp, 'transferAccepts.list');
      if (body === undefined) return;
      const expected = [...m.accepts.values()].filter((x) => canSee(a, x.project));
      expect(sorted(body.transfer_accepts.map((x) => x.id))).toEqual(sorted(expected.map((x) => x.id)));
      expect(body.metadata.total_count).toBe(expected.length);
    }),
);

// --- DNS quotas -----------------------------------------------------------------------------

function quotaRule(m: DnsModel, a: Actor, project: string, rule: 'get' | 'set' | 'reset'): Expected {
  if (a.anonymous) return AUTH;
  const owner = a.project === project;
  const allowed = rule === 'get' ? a.isAdmin || owner : a.isAdmin;
  // A reset has no cross-project check in the real service.
  return !allowed || (!owner && !a.allProjects && rule !== 'reset') ? fail(m.forbidden, 'forbidden') : OK;
}
const effective = (m: DnsModel, project: string) => ({ ...limitsOf(m, project), zone_records: 500, recordset_records: 20 });

const getQuotas = fc.tuple(actorArb, quotaProjectArb).map(
  ([a, project]) =>
    new DnsCommand(`quotas.get(${a.label}, ${project})`, async (m, r) => {
      const q = check(await r.dns.quotas.get(a.ctx, project), quotaRule(m, a, project, 'get'), 'quotas.get');
      if (q !== undefined) expect(q).toEqual(effective(m, project));
    }),
);

const setQuotas = fc.tuple(actorArb, quotaProjectArb, quotaBodyArb).map(
  ([a, project, body]) =>
    new DnsCommand(`quotas.set(${a.label}, ${project}, ${JSON.stringify(body)})`, async (m, r) => {
      const q = check(await r.dns.quotas.set(a.ctx, project, body), quotaRule(m, a, project, 'set'), 'quotas.set');
      if (q === undefined) return;
      m.quotas.set(project, { ...m.quotas.get(project), ...(body as Partial<Limits>) });
      expect(q).toEqual(effective(m, project));
    }),
);

const resetQuotas = fc.tuple(actorArb, quotaProjectArb).map(
  ([a, project]) =>
    new DnsCommand(`quotas.reset(${a.label}, ${project})`, async (m, r) => {
      const exp = quotaRule(m, a, project, 'reset');
      check(await r.dns.quotas.reset(a.ctx, project), exp, 'quotas.reset');
      if ('ok' in exp) m.quotas.delete(project);
    }),
);

// --- imports and exports (once wired) -------------------------------------------------------

export const zoneFile = (name: string): string =>
  `$ORIGIN ${name}\n$TTL 3600\n${name} IN SOA ns1.${name} admin.${name} 7 3600 600 86400 3600\n${name} IN NS ns1.${name}\nwww.${name} IN A 192.0.2.1\n`;

const createImport = fc.tuple(actorArb, fc.constantFrom(...NAMES)).map(
  ([a, name]) =>
    new DnsCommand(`imports.create(${a.label}, ${name})`, async (m, r) => {
      const imports = r.imports;
      let exp = expectZoneCreate(m, a, name);
      // An imported zone holds one recordset more (www A) than a created one.
      if ('ok' in exp && over(limitsOf(m, a.project!).zone_recordsets, 3)) exp = fail(413, 'over_quota');
      const created = check(await imports.create(a.ctx, zoneFile(name), 'text/dns'), a.anonymous ? AUTH : OK, 'imports.create');
      if (created === undefined) return;
      expect(created).toMatchObject({ status: 'PENDING', project_id: a.project, zone_id: null });
      const id = String(created['id']);
      await r.dns.tasks.settle();
      const done = assertOk(await imports.get(a.ctx, id), 'imports.get after settle');
      m.known.imports.push(id);
      if ('ok' in exp) {
        expect(done).toMatchObject({ status: 'COMPLETE', message: `${name} imported` });
        const zoneId = String(done['zone_id']);
        applyZoneCreate(m, zoneId, name, a.project!, 3);
        // An imported zone is created PENDING and then pushed (version 2).
        m.imports.set(id, { id, project: a.project!, status: 'COMPLETE', zoneId });
      } else {
        const messages: Record<string, string> = { over_quota: 'Quota exceeded during zone import.', duplicate_zone: 'Duplicate zone.' };
        expect(done, JSON.stringify(exp)).toMatchObject({ status: 'ERROR', zone_id: null });
        const message = messages[exp.type];
        if (message !== undefined) expect(done['message']).toBe(message);
        else expect(String(done['message'])).toMatch(/^An undefined error occurred\. /);
        m.imports.set(id, { id, project: a.project!, status: 'ERROR', zoneId: null });
      }
    }),
);

const importView = (m: DnsModel, a: Actor, id: string): Expected => {
  if (a.anonymous) return AUTH;
  const i = m.imports.get(id);
  return i === undefined || !canSee(a, i.project) ? fail(404, 'zone_import_not_found') : OK;
};

const getImport = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`imports.get(${a.label}, import#${n})`, async (m, r) => {
      const id = pick(m.imports.keys(), m.known.imports, n);
      const body = check(await r.imports.get(a.ctx, id), importView(m, a, id), 'imports.get');
      if (body === undefined) return;
      const i = m.imports.get(id)!;
      expect(body).toMatchObject({ id, project_id: i.project, status: i.status, zone_id: i.zoneId });
    }),
);

const listImports = actorArb.map(
  (a) =>
    new DnsCommand(`imports.list(${a.label})`, async (m, r) => {
      const body = check(await r.imports.list(a.ctx, { limit: 'max' }), a.anonymous ? AUTH : OK, 'imports.list');
      if (body === undefined) return;
      const expected = [...m.imports.values()].filter((i) => canSee(a, i.project));
      expect(sorted(itemsOf(body, 'imports').map((i) => String(i['id'])))).toEqual(sorted(expected.map((i) => i.id)));
    }),
);

const deleteImport = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`imports.delete(${a.label}, import#${n})`, async (m, r) => {
      const id = pick(m.imports.keys(), m.known.imports, n);
      const exp = importView(m, a, id);
      check(await r.imports.delete(a.ctx, id), exp, 'imports.delete');
      if ('ok' in exp) m.imports.delete(id);
    }),
);

const createExport = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`exports.create(${a.label}, zone#${n})`, async (m, r) => {
      const zoneId = pick(m.zones.keys(), m.known.zones, n);
      const exp = zoneView(m, a, zoneId);
      const created = check(await r.exports.create(a.ctx, zoneId), exp, 'exports.create');
      if (created === undefined) return;
      expect(created).toMatchObject({ status: 'PENDING', project_id: a.project, zone_id: zoneId });
      const id = String(created['id']);
      await r.dns.tasks.settle();
      const done = assertOk(await r.exports.get(a.ctx, id), 'exports.get after settle');
      // Size = recordsets of the zone: SOA and NS, plus www A for an imported zone.
      const mz = m.zones.get(zoneId)!;
      const status = over(limitsOf(m, a.project!).api_export_size, mz.recordsets + mz.written.length) ? 'ERROR' : 'COMPLETE';
      expect(done).toMatchObject({ status, zone_id: zoneId, project_id: a.project });
      m.exports.set(id, { id, project: a.project!, zoneId, status });
      m.known.exports.push(id);
    }),
);

const exportView = (m: DnsModel, a: Actor, id: string): Expected => {
  if (a.anonymous) return AUTH;
  const e = m.exports.get(id);
  return e === undefined || !canSee(a, e.project) ? fail(404, 'zone_export_not_found') : OK;
};

const getExport = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`exports.get(${a.label}, export#${n})`, async (m, r) => {
      const id = pick(m.exports.keys(), m.known.exports, n);
      const body = check(await r.exports.get(a.ctx, id), exportView(m, a, id), 'exports.get');
      if (body === undefined) return;
      const e = m.exports.get(id)!;
      expect(body).toMatchObject({ id, project_id: e.project, status: e.status, zone_id: e.zoneId });
    }),
);

const listExports = actorArb.map(
  (a) =>
    new DnsCommand(`exports.list(${a.label})`, async (m, r) => {
      const body = check(await r.exports.list(a.ctx, { limit: 'max' }), a.anonymous ? AUTH : OK, 'exports.list');
      if (body === undefined) return;
      const expected = [...m.exports.values()].filter((e) => canSee(a, e.project));
      expect(sorted(itemsOf(body, 'exports').map((e) => String(e['id'])))).toEqual(sorted(expected.map((e) => e.id)));
    }),
);

const deleteExport = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`exports.delete(${a.label}, export#${n})`, async (m, r) => {
      const id = pick(m.exports.keys(), m.known.exports, n);
      const exp = exportView(m, a, id);
      check(await r.exports.delete(a.ctx, id), exp, 'exports.delete');
      if ('ok' in exp) m.exports.delete(id);
    }),
);

const exportFile = fc.tuple(actorArb, ref).map(
  ([a, n]) =>
    new DnsCommand(`exports.file(${a.label}, export#${n})`, async (m, r) => {
      const id = pick(m.exports.keys(), m.known.exports, n);
      let exp = exportView(m, a, id);
      const e = m.exports.get(id);
      if ('ok' in exp) {
        const zone = m.zones.get(e!.zoneId);
        if (e!.status !== 'COMPLETE') exp = fail(400, 'bad_request');
        else if (zone === undefined || !canSee(a, zone.owner)) exp = fail(404, 'zone_not_found');
      }
      const text = check(await r.exports.file(a.ctx, id), exp, 'exports.file');
      if (text !== undefined) expect(text.startsWith(`$ORIGIN ${m.zones.get(e!.zoneId)!.name}\n`)).toBe(true);
    }),
);

/** Every command arbitrary, weighted so that writes happen often enough to build up state. */
export function dnsCommandArbs(withIo = true): fc.Arbitrary<fc.AsyncCommand<DnsModel, Sut>>[] {
  const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T>[] => Array.from({ length: weight }, () => arbitrary);
  const base = [
    ...w(4, createZone),
    getZone,
    listZones,
    updateZone,
    deleteZone,
    abandonZone,
    listRecordsets,
    ...w(3, createRecordset),
    updateRecordset,
    deleteRecordset,
    listAllRecordsets,
    nameservers,
    ...w(3, createRequest),
    getRequest,
    listRequests,
    updateRequest,
    deleteRequest,
    ...w(3, acceptRequest),
    getAccept,
    listAccepts,
    getQuotas,
    ...w(2, setQuotas),
    resetQuotas,
  ];
  if (!withIo) return base;
  return [...base, ...w(2, createImport), getImport, listImports, deleteImport, ...w(2, createExport), getExport, listExports, deleteExport, exportFile];
}
