/**
 * Isolation: over random histories (the model test's commands: zones, transfer requests and
 * accepts, DNS quotas, imports, exports, by three projects, admins and an anonymous caller), no
 * project ever reads, lists or changes another project's zones, recordsets, transfer requests,
 * accepts, imports, exports or quotas.
 *
 * After every command:
 * - reads: each project member (and the admin without all-projects, and the sudo admin acting as a
 *   project) lists and fetches every stored zone, recordset list, transfer request, accept, import,
 *   export and quota (and finds every recordset by id alone, `GET /v2/recordsets/{id}`); the
 *   service-wide admin resources (TSIG keys, pools, service statuses) only as an admin; everything
 *   it gets is its own, field by field (a transfer request it is the
 *   target of, or an untargeted one fetched by id, only in the reduced view without key, project
 *   or target), and everything its own is listed;
 * - writes: a command by a project member (or an admin without all-projects, or a sudo admin)
 *   leaves every other project's part of the snapshot exactly as it was. The one exception is a
 *   successful accept, which (with the key the owner handed out) moves exactly the request's zone,
 *   with its recordsets, and closes exactly that request; and an admin, who may read any transfer
 *   request by id, may also change its description and unset target, delete one targeted at
 *   its own project, and reset any project's DNS quotas (as the real service lets it).
 *
 * ZONEWARD_ISOLATION_RUNS raises the number of histories.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Result } from 'neverthrow';
import type { ApiError, DnsService, RequestContext } from '../../src/index.js';
import { idAt, type RecordsetBlock } from '../../src/dns/kernel/recordset.js';
import {
  actorNamed,
  configArb,
  dnsCommandArbs,
  newModel,
  newSut,
  type Actor,
  type DnsCommand,
  type DnsModel,
  type Sut,
} from '../model/dns-model.js';

const RUNS = Number(process.env['ZONEWARD_ISOLATION_RUNS'] ?? 0) || 60;

type Row = { readonly id: string; readonly value: Record<string, unknown> };
type Snap = Readonly<Record<string, readonly Row[]>>;

const rows = (snap: Snap, collection: string): readonly Row[] => snap[collection] ?? [];
async function snapshotOf(dns: DnsService): Promise<Snap> {
  return (await dns.snapshot()).collections as unknown as Snap;
}

/** One project's part of the state, keyed so that two parts compare field by field. */
function partOf(snap: Snap, project: string): Record<string, unknown> {
  const zones = rows(snap, 'dns.zones').filter((r) => r.value['projectId'] === project);
  const zoneIds = new Set(zones.map((z) => z.id));
  const pick = (collection: string, own: (v: Record<string, unknown>) => boolean) =>
    Object.fromEntries(rows(snap, collection).filter((r) => own(r.value)).map((r) => [r.id, r.value]));
  return {
    zones: Object.fromEntries(zones.map((z) => [z.id, z.value])),
    recordsets: pick('dns.recordset_blocks', (v) => zoneIds.has(String(v['zoneId']))),
    requests: pick('dns.transferRequests', (v) => v['projectId'] === project),
    accepts: pick('dns.transferAccepts', (v) => v['projectId'] === project),
    imports: pick('dns.imports', (v) => v['projectId'] === project),
    exports: pick('dns.exports', (v) => v['projectId'] === project),
    quotas: rows(snap, 'dns.quotas').find((r) => r.id === project)?.value ?? null,
  };
}

const projectsIn = (snap: Snap): Set<string> => {
  const out = new Set<string>(['pa', 'pb', 'pc', 'ops']);
  for (const c of ['dns.zones', 'dns.transferRequests', 'dns.transferAccepts', 'dns.imports', 'dns.exports']) {
    for (const r of rows(snap, c)) out.add(String(r.value['projectId']));
  }
  return out;
};

/** Writes: a member's command changes no other project's part (accepts: only the moved zone and the closed request). */
function checkWrites(before: Snap, after: Snap, a: Actor, what: string): void {
  const newAccepts = rows(after, 'dns.transferAccepts').filter((r) => !rows(before, 'dns.transferAccepts').some((b) => b.id === r.id));
  expect(newAccepts.length, what).toBeLessThanOrEqual(1);
  const accepted = newAccepts[0]?.value;
  if (accepted !== undefined) expect(accepted['projectId'], `${what}: an accept for the caller`).toBe(a.project);
  for (const project of projectsIn(before)) {
    if (project === a.project) continue;
    const was = partOf(before, project) as Record<string, Record<string, Record<string, unknown>>>;
    const now = partOf(after, project) as Record<string, Record<string, Record<string, unknown>>>;
    if (accepted !== undefined) {
      const zoneId = String(accepted['zoneId']);
      const requestId = String(accepted['requestId']);
      // The moved zone and its recordsets leave the part; the closed request only changes status and time.
      for (const part of [was, now]) {
        delete part['zones']![zoneId];
        for (const [id, rs] of Object.entries(part['recordsets']!)) if (rs['zoneId'] === zoneId) delete part['recordsets']![id];
      }
      const closed = now['requests']![requestId];
      if (closed !== undefined) {
        expect(closed['status']).toBe('COMPLETE');
        expect({ ...closed, status: null, updatedAt: null }).toEqual({ ...was['requests']![requestId], status: null, updatedAt: null });
        delete was['requests']![requestId];
        delete now['requests']![requestId];
      }
    }
    if (a.isAdmin) {
      // An admin may fetch any transfer request by id, so it may also change the description and
      // (while unset) the target of another project's request (policy update_zone_transfer_request),
      // and delete one targeted at its own project (policy delete_zone_transfer_request: admin).
      const targeted = new Set(
        [was, now].flatMap((part) => Object.entries(part['requests']!).filter(([, r]) => r['targetProjectId'] === a.project).map(([id]) => id)),
      );
      for (const part of [was, now]) {
        for (const [id, r] of Object.entries(part['requests']!)) {
          if (targeted.has(id)) delete part['requests']![id];
          else Object.assign(r, { description: null, targetProjectId: null, updatedAt: null });
        }
      }
      // An admin may reset any project's DNS quotas: the real service has no cross-project check there.
      if (what.startsWith('quotas.reset(') && now['quotas'] === null) (was as Record<string, unknown>)['quotas'] = null;
    }
    expect(now, `${what} changed project ${project}'s state`).toEqual(was);
  }
}

/** The items of a list answer (typed loosely: neverthrow's Result is invariant in its value). */
const list = async (answer: unknown, key: string): Promise<Record<string, unknown>[]> => {
  const res = (await answer) as Result<unknown, ApiError>;
  if (res.isErr()) throw new Error(`list ${key}: ${res.error.status} ${res.error.type}`);
  return (res.value as Record<string, Record<string, unknown>[]>)[key]!;
};
const ids = (xs: readonly { id: string }[] | readonly Record<string, unknown>[]): string[] => xs.map((x) => String(x['id' as keyof typeof x])).sort();

/** Reads: what `a` (acting as `a.project`, without all-projects) gets is exactly its own. */
async function checkReads(r: Sut, snap: Snap, a: Actor): Promise<void> {
  const p = a.project!;
  const ctx: RequestContext = a.ctx;
  const own = partOf(snap, p) as Record<string, Record<string, Record<string, unknown>>>;
  const label = `reads of ${a.label}`;

  // Zones and recordsets: listed and fetched exactly when owned.
  const zones = await list(r.dns.zones.list(ctx, { limit: 'max' }), 'zones');
  expect(ids(zones), `${label}: zones.list`).toEqual(Object.keys(own['zones']!).sort());
  for (const z of zones) expect(z['project_id']).toBe(p);
  for (const row of rows(snap, 'dns.zones')) {
    const mine = row.value['projectId'] === p;
    const got = await r.dns.zones.get(ctx, row.id);
    expect(got.isOk(), `${label}: zones.get ${row.id}`).toBe(mine);
    if (got.isOk()) expect(got.value.project_id).toBe(p);
    else expect(got.error.status).toBe(404);
    const sets = await r.dns.recordsets.list(ctx, row.id);
    expect(sets.isOk(), `${label}: recordsets.list ${row.id}`).toBe(mine);
    for (const block of rows(snap, 'dns.recordset_blocks').filter((x) => x.value['zoneId'] === row.id)) {
      const b = block.value as unknown as RecordsetBlock;
      for (let i = 0; i < b.names.length; i++) {
        expect((await r.dns.recordsets.get(ctx, row.id, idAt(b, i))).isOk(), `${label}: recordsets.get`).toBe(mine);
        const found = await r.dns.recordsets.find(ctx, idAt(b, i));
        expect(found.isOk(), `${label}: recordsets.find`).toBe(mine);
        if (found.isOk()) expect(found.value.project_id).toBe(p);
      }
    }
  }
  // The cross-zone list: the recordsets of its own zones, SOA and NS included, and nothing else.
  const everyOwn = await list(r.dns.recordsets.listAll(ctx, { limit: 'max' }), 'recordsets');
  const ownZones = new Set(Object.keys(own['zones']!));
  const stored = rows(snap, 'dns.recordset_blocks').filter((x) => ownZones.has(String(x.value['zoneId'])));
  const expectedCount = stored.reduce((n, x) => n + (x.value as unknown as RecordsetBlock).names.length, 0) + 2 * ownZones.size;
  expect(everyOwn.every((x) => x['project_id'] === p && ownZones.has(String(x['zone_id']))), `${label}: recordsets.listAll`).toBe(true);
  expect(everyOwn.length, `${label}: recordsets.listAll count`).toBe(Math.min(1000, expectedCount));

  // Transfer requests: listed when created by or targeted at the caller; full view only for its creator (or an admin).
  const requests = await list(r.dns.transferRequests.list(ctx, { limit: 'max' }), 'transfer_requests');
  const storedRequests = new Map(rows(snap, 'dns.transferRequests').map((x) => [x.id, x.value]));
  const expectedIds = [...storedRequests].filter(([, v]) => v['projectId'] === p || v['targetProjectId'] === p).map(([id]) => id).sort();
  expect(ids(requests), `${label}: transferRequests.list`).toEqual(expectedIds);
  for (const [id, v] of storedRequests) {
    const got = await r.dns.transferRequests.get(ctx, id);
    const readable = a.isAdmin || v['projectId'] === p || v['targetProjectId'] === p || v['targetProjectId'] === null;
    expect(got.isOk(), `${label}: transferRequests.get ${id}`).toBe(readable);
    if (!got.isOk()) continue;
    const full = a.isAdmin || v['projectId'] === p;
    expect('key' in got.value, `${label}: the key of request ${id}`).toBe(full);
    expect('project_id' in got.value || 'target_project_id' in got.value).toBe(full);
  }

  // Accepts, imports, exports: fetched exactly when the caller's.
  for (const [collection, get, key] of [
    ['dns.transferAccepts', (id: string) => r.dns.transferAccepts.get(ctx, id), 'accepts'],
    ['dns.imports', (id: string) => r.dns.imports.get(ctx, id), 'imports'],
    ['dns.exports', (id: string) => r.dns.exports.get(ctx, id), 'exports'],
  ] as const) {
    for (const row of rows(snap, collection)) {
      const got = await get(row.id);
      expect(got.isOk(), `${label}: ${collection} get ${row.id}`).toBe(row.value['projectId'] === p);
      if (got.isOk()) expect(got.value.project_id).toBe(p);
    }
    if (key !== 'accepts') {
      const listed = await list(key === 'imports' ? r.dns.imports.list(ctx, { limit: 'max' }) : r.dns.exports.list(ctx, { limit: 'max' }), key);
      expect(ids(listed), `${label}: ${key}.list`).toEqual(Object.keys(own[key]!).sort());
    }
  }
  if (a.isAdmin) {
    const accepts = await list(r.dns.transferAccepts.list(ctx, { limit: 'max' }), 'transfer_accepts');
    expect(ids(accepts), `${label}: transferAccepts.list`).toEqual(Object.keys(own['accepts']!).sort());
  }

  // The admin resources: an admin's (the service's, not a project's); everyone else is refused.
  for (const [what, got] of [
    ['tsigkeys.list', await r.dns.tsigkeys.list(ctx)],
    ['pools.list', await r.dns.pools.list(ctx)],
    ['serviceStatuses.list', await r.dns.serviceStatuses.list(ctx)],
  ] as const) {
    expect(got.isOk(), `${label}: ${what}`).toBe(a.isAdmin);
  }

  // Quotas: its own only (an admin without all-projects included).
  for (const other of ['pa', 'pb', 'pc', 'ops']) {
    const got = await r.dns.quotas.get(ctx, other);
    expect(got.isOk(), `${label}: quotas.get ${other}`).toBe(other === p);
    if (a.isAdmin) continue;
    expect((await r.dns.quotas.set(ctx, other, { zones: 0 })).isErr()).toBe(true);
    expect((await r.dns.quotas.reset(ctx, other)).isErr()).toBe(true);
  }
}

const READERS: readonly Actor[] = ['pa', 'pb', 'pc', 'admin', 'sudoPb'].map(actorNamed);

class Isolated implements fc.AsyncCommand<DnsModel, Sut> {
  constructor(private readonly inner: DnsCommand) {}
  check(m: Readonly<DnsModel>): boolean {
    return this.inner.check(m);
  }
  async run(m: DnsModel, r: Sut): Promise<void> {
    const before = await snapshotOf(r.dns);
    await this.inner.run(m, r);
    const after = await snapshotOf(r.dns);
    const a = this.inner.actor;
    if (!a.allProjects && !a.anonymous) checkWrites(structuredClone(before), structuredClone(after), a, this.inner.toString());
    if (a.anonymous) expect(after, `${this.inner.toString()} changed state`).toEqual(before);
    for (const reader of READERS) await checkReads(r, after, reader);
    // The probes above are reads and refused writes: they must leave the state as it was.
    expect(await snapshotOf(r.dns)).toEqual(after);
  }
  toString(): string {
    return this.inner.toString();
  }
}

/** Per-test time limit that grows with the number of runs (the config's 60 s fits the defaults). */
const TIMEOUT = 60_000 + RUNS * 400;

describe('isolation between projects', () => {
  it(`no project reads, lists or changes another's resources over random histories (${RUNS} runs)`, async () => {
    const commands = dnsCommandArbs().map((arb) => arb.map((c) => new Isolated(c as DnsCommand)));
    await fc.assert(
      fc.asyncProperty(configArb, fc.commands(commands, { size: '+1', maxCommands: 60 }), async (config, cmds) => {
        await fc.asyncModelRun(() => ({ model: newModel(config), real: newSut(config) }), cmds);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});
