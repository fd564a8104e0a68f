import { describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ALL, ctx, harness, zoneOf } from './harness.js';

/** A body sent as a server would pass it (`unknown`): deliberately outside the typed input. */
const untyped = (body: unknown): unknown => body;

const A = ctx('p-a');
const B = ctx('p-b');
const C = ctx('p-c');
const BASE = 'http://localhost:9001';

async function setup(options: Parameters<typeof harness>[0] = {}) {
  const h = harness(options);
  const zoneId = await zoneOf(h, A, 'example.com.');
  return { h, zoneId };
}

describe('transferRequests.create', () => {
  it('answers the owner view with an 8-character A–Z0–9 key, ACTIVE, keys in the real order', async () => {
    const { h, zoneId } = await setup();
    const r = (await h.transferRequests.create(A, zoneId, { target_project_id: 'p-b', description: 'to B' }))._unsafeUnwrap();
    expect(Object.keys(r)).toEqual([
      'id', 'zone_id', 'project_id', 'target_project_id', 'description', 'key', 'status', 'zone_name', 'created_at', 'updated_at', 'links',
    ]);
    expect(r).toMatchObject({
      zone_id: zoneId,
      project_id: 'p-a',
      target_project_id: 'p-b',
      description: 'to B',
      status: 'ACTIVE',
      zone_name: 'example.com.',
      updated_at: null,
      links: { self: `${BASE}/v2/zones/tasks/transfer_requests/${r.id}` },
    });
    expect(r.key).toMatch(/^[A-Z0-9]{8}$/);
    expect(r.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    expect(h.events.filter((e) => e.type === 'dns.zone_transfer_request.create').map((e) => e.payload)).toEqual([r]);
  });

  it('draws the key from deps.random as floor(random*36) over A–Z0–9', async () => {
    const h = harness();
    const values = [0, 35.5 / 36, 25.5 / 36, 26.5 / 36, 35.5 / 36, 0.5, 1.5 / 36, 0.1];
    let i = 0;
    (h.deps as { random: () => number }).random = () => values[i++ % values.length]!;
    const zoneId = await zoneOf(h, A, 'example.com.');
    i = 0;
    const r = (await h.transferRequests.create(A, zoneId))._unsafeUnwrap();
    expect(r.key).toBe('A9Z09SBD');
  });

  it('treats a missing or null body as {}', async () => {
    const { h, zoneId } = await setup();
    const r = (await h.transferRequests.create(A, zoneId))._unsafeUnwrap();
    expect([r.target_project_id, r.description]).toEqual([null, null]);
    await h.transferRequests.delete(A, r.id);
    expect((await h.transferRequests.create(A, zoneId, null)).isOk()).toBe(true);
  });

  it('refuses read-only and unknown keys with the adapter message', async () => {
    const { h, zoneId } = await setup();
    const e = (await h.transferRequests.create(A, zoneId, untyped({ bogus: 1, key: 'ABCDEFGH', other: 2 })))._unsafeUnwrapErr();
    expect(e.toJSON()).toEqual({
      code: 400,
      type: 'invalid_object',
      message: "Provided object does not match schema. Keys ['bogus', 'key'] are not valid for transfer_request",
    });
    const long = (await h.transferRequests.create(A, zoneId, { description: 'x'.repeat(161) }))._unsafeUnwrapErr();
    expect([long.status, long.type, long.message]).toEqual([
      400,
      'invalid_object',
      'Provided object is not valid. Got a ValueError error with message Value too long for description',
    ]);
  });

  it('ignores a body zone_id (the path wins)', async () => {
    const { h, zoneId } = await setup();
    const r = (await h.transferRequests.create(A, zoneId, { zone_id: '00000000-0000-4000-8000-0000000000ff' }))._unsafeUnwrap();
    expect(r.zone_id).toBe(zoneId);
  });

  it('answers 404 zone_not_found for another project’s zone, also for an admin without all-projects', async () => {
    const { h, zoneId } = await setup();
    for (const who of [B, ADMIN]) {
      const e = (await h.transferRequests.create(who, zoneId))._unsafeUnwrapErr();
      expect(e.toJSON()).toEqual({ code: 404, type: 'zone_not_found', message: 'Could not find Zone' });
    }
    const bad = (await h.transferRequests.create(A, 'nope'))._unsafeUnwrapErr();
    expect(bad.toJSON()).toEqual({ code: 400, type: 'invalid_uuid', message: 'Invalid UUID zone_id: nope' });
  });

  it('lets an all-projects admin create a request owned by the admin project', async () => {
    const { h, zoneId } = await setup();
    const r = (await h.transferRequests.create(ADMIN_ALL, zoneId))._unsafeUnwrap();
    expect(r.project_id).toBe('p-admin');
  });

  it('refuses a second ACTIVE request for the zone with a bare 409', async () => {
    const { h, zoneId } = await setup();
    await h.transferRequests.create(A, zoneId);
    const e = (await h.transferRequests.create(A, zoneId))._unsafeUnwrapErr();
    expect(e.toJSON()).toEqual({ code: 409, type: 'duplicate_zone_transfer_request' });
  });

  it('refuses a deleting zone with 400 Can not transfer a deleting zone', async () => {
    const h = harness({ tasks: 'manual' });
    const zoneId = await zoneOf(h, A, 'example.com.');
    await h.zones.delete(A, zoneId);
    const e = (await h.transferRequests.create(A, zoneId))._unsafeUnwrapErr();
    expect(e.toJSON()).toEqual({ code: 400, type: 'bad_request', message: 'Can not transfer a deleting zone' });
  });

  it('needs a project: 401 missing_project_id for a project-less all-projects admin', async () => {
    const { h, zoneId } = await setup();
    const e = (await h.transferRequests.create({ roles: ['admin'], allProjects: true }, zoneId))._unsafeUnwrapErr();
    expect([e.status, e.type]).toEqual([401, 'missing_project_id']);
  });

  it('refuses an unauthenticated caller', async () => {
    const { h, zoneId } = await setup();
    const e = (await h.transferRequests.create({}, zoneId))._unsafeUnwrapErr();
    expect([e.status, e.type]).toEqual([401, 'authentication_required']);
  });
});

describe('transferRequests.get (reference §6.2, §11.1)', () => {
  async function two() {
    const { h, zoneId } = await setup();
    const targeted = (await h.transferRequests.create(A, zoneId, { target_project_id: 'p-b' }))._unsafeUnwrap();
    const z2 = await zoneOf(h, A, 'other.com.');
    const open = (await h.transferRequests.create(A, z2))._unsafeUnwrap();
    return { h, targeted, open };
  }
  const reduced = (r: { id: string; zone_id: string; description: string | null; status: string; zone_name: string; links: object }) => ({
    id: r.id,
    zone_id: r.zone_id,
    description: r.description,
    status: r.status,
    zone_name: r.zone_name,
    links: r.links,
  });

  it('owner and admin (no all-projects needed) get the full view', async () => {
    const { h, targeted } = await two();
    expect((await h.transferRequests.get(A, targeted.id))._unsafeUnwrap()).toEqual(targeted);
    expect((await h.transferRequests.get(ADMIN, targeted.id))._unsafeUnwrap()).toEqual(targeted);
  });

  it('the target gets the reduced view, without the key', async () => {
    const { h, targeted } = await two();
    const seen = (await h.transferRequests.get(B, targeted.id))._unsafeUnwrap();
    expect(seen).toEqual(reduced(targeted));
    expect(Object.keys(seen)).toEqual(['id', 'zone_id', 'description', 'status', 'zone_name', 'links']);
  });

  it('anyone authenticated reads an untargeted request (reduced); a request targeted elsewhere is 403', async () => {
    const { h, targeted, open } = await two();
    expect((await h.transferRequests.get(C, open.id))._unsafeUnwrap()).toEqual(reduced(open));
    const e = (await h.transferRequests.get(C, targeted.id))._unsafeUnwrapErr();
    expect(e.toJSON()).toEqual({ code: 403, type: 'forbidden' });
  });

  it('uses forbiddenStatus for the refusal', async () => {
    const h = harness({ forbiddenStatus: 401 });
    const zoneId = await zoneOf(h, A, 'example.com.');
    const r = (await h.transferRequests.create(A, zoneId, { target_project_id: 'p-b' }))._unsafeUnwrap();
    expect((await h.transferRequests.get(C, r.id))._unsafeUnwrapErr().toJSON()).toEqual({ code: 401, type: 'forbidden' });
  });

  it('404 for an unknown id, 400 for a malformed one', async () => {
    const { h } = await two();
    expect((await h.transferRequests.get(A, '00000000-0000-4000-8000-0000000000ff'))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 404,
      type: 'zone_transfer_request_not_found',
      message: 'Could not find ZoneTransferRequest',
    });
    expect((await h.transferRequests.get(A, 'x'))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'invalid_uuid',
      message: 'Invalid UUID zone_transfer_request_id: x',
    });
  });
});

describe('transferRequests.list', () => {
  it('lists creator-or-target rows in (created_at, id) order, no metadata; untargeted requests of others are not listed', async () => {
    const h = harness();
    const za = await zoneOf(h, A, 'a.com.');
    const zb = await zoneOf(h, B, 'b.com.');
    const zc = await zoneOf(h, C, 'c.com.');
    h.clock.advance(1000);
    const r1 = (await h.transferRequests.create(A, za, { target_project_id: 'p-b' }))._unsafeUnwrap();
    h.clock.advance(1000);
    const r2 = (await h.transferRequests.create(B, zb))._unsafeUnwrap();
    h.clock.advance(1000);
    const r3 = (await h.transferRequests.create(C, zc))._unsafeUnwrap();
    const listB = (await h.transferRequests.list(B))._unsafeUnwrap();
    expect(listB.transfer_requests.map((r) => r.id)).toEqual([r1.id, r2.id]);
    expect(listB.transfer_requests[0]!.key).toBeUndefined();
    expect(listB.transfer_requests[1]!.key).toBe(r2.key);
    expect(listB).toEqual({ transfer_requests: listB.transfer_requests, links: { self: `${BASE}/v2/zones/tasks/transfer_requests` } });
    expect((await h.transferRequests.list(A))._unsafeUnwrap().transfer_requests.map((r) => r.id)).toEqual([r1.id]);
    // An admin without all-projects lists only its own project's rows; with it, everything, full view.
    expect((await h.transferRequests.list(ADMIN))._unsafeUnwrap().transfer_requests).toEqual([]);
    expect((await h.transferRequests.list(ADMIN_ALL))._unsafeUnwrap().transfer_requests).toEqual([r1, r2, r3]);
    expect((await h.transferRequests.list(ADMIN, { all_projects: 'true' }))._unsafeUnwrap().transfer_requests).toEqual([r1, r2, r3]);
    expect((await h.transferRequests.list(B, { all_projects: '1' }))._unsafeUnwrapErr().toJSON()).toEqual({ code: 403, type: 'forbidden' });
  });

  it('pages over the merged indexes with marker, desc order, filters and other sort keys', async () => {
    const h = harness({ quotas: { zones: 100 } });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const owner = i % 2 === 0 ? A : C;
      const z = await zoneOf(h, owner, `z${i}.com.`);
      h.clock.advance(10);
      const r = (await h.transferRequests.create(owner, z, owner === C ? { target_project_id: 'p-a' } : {}))._unsafeUnwrap();
      ids.push(r.id);
    }
    const first = (await h.transferRequests.list(A, { limit: '3' }))._unsafeUnwrap();
    expect(first.transfer_requests.map((r) => r.id)).toEqual(ids.slice(0, 3));
    expect(first.links.next).toBe(`${BASE}/v2/zones/tasks/transfer_requests?limit=3&marker=${ids[2]}`);
    const second = (await h.transferRequests.list(A, { limit: '3', marker: ids[2]! }))._unsafeUnwrap();
    expect(second.transfer_requests.map((r) => r.id)).toEqual(ids.slice(3, 6));
    const desc = (await h.transferRequests.list(A, { sort_dir: 'desc', limit: '4' }))._unsafeUnwrap();
    expect(desc.transfer_requests.map((r) => r.id)).toEqual([...ids].reverse().slice(0, 4));
    const byId = (await h.transferRequests.list(A, { sort_key: 'id', sort_dir: 'desc' }))._unsafeUnwrap();
    expect(byId.transfer_requests.map((r) => r.id)).toEqual([...ids].sort().reverse());
    expect((await h.transferRequests.list(A, { status: 'COMPLETE' }))._unsafeUnwrap().transfer_requests).toEqual([]);
    expect((await h.transferRequests.list(A, { status: 'active' }))._unsafeUnwrap().transfer_requests).toHaveLength(7);
    expect((await h.transferRequests.list(A, { name: 'x' }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'bad_request',
      message: 'Invalid filters name',
    });
    expect((await h.transferRequests.list(A, { marker: '00000000-0000-4000-8000-0000000000ff' }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'marker_not_found',
      message: 'Marker None could not be found',
    });
  });

  it('a project-less caller without all-projects gets an empty list', async () => {
    const h = harness();
    expect((await h.transferRequests.list({ roles: ['admin'] }))._unsafeUnwrap()).toEqual({
      transfer_requests: [],
      links: { self: `${BASE}/v2/zones/tasks/transfer_requests` },
    });
  });
});

describe('transferRequests.update', () => {
  it('owner updates description and sets a target while unset; 200 full view; event', async () => {
    const { h, zoneId } = await setup();
    const r = (await h.transferRequests.create(A, zoneId))._unsafeUnwrap();
    h.clock.advance(5000);
    const u = (await h.transferRequests.update(A, r.id, { description: 'new', target_project_id: 'p-b' }))._unsafeUnwrap();
    expect(u).toEqual({ ...r, description: 'new', target_project_id: 'p-b', updated_at: '2026-01-01T00:00:05.000000' });
    expect(h.events.at(-1)).toEqual({ type: 'dns.zone_transfer_request.update', payload: u });
    const again = (await h.transferRequests.update(A, r.id, { target_project_id: 'p-c' }))._unsafeUnwrapErr();
    expect(again.message).toBe("Provided object does not match schema. Keys ['target_project_id'] are not valid for transfer_request");
    expect((await h.transferRequests.update(A, r.id, { target_project_id: 'p-b', description: null })).isOk()).toBe(true);
  });

  it('zone_id: same value → 400 invalid_operation; another value → invalid_object', async () => {
    const { h, zoneId } = await setup();
    const r = (await h.transferRequests.create(A, zoneId))._unsafeUnwrap();
    expect((await h.transferRequests.update(A, r.id, { zone_id: zoneId }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'invalid_operation',
      message: 'Zone cannot be changed',
    });
    expect((await h.transferRequests.update(A, r.id, { zone_id: 'other' }))._unsafeUnwrapErr().message).toBe(
      "Provided object does not match schema. Keys ['zone_id'] are not valid for transfer_request",
    );
    expect((await h.transferRequests.update(A, r.id, untyped({ key: 'AAAAAAAA' })))._unsafeUnwrapErr().message).toBe(
      "Provided object does not match schema. Keys ['key'] are not valid for transfer_request",
    );
  });

  it('target and others get 403 (untargeted: others 403 too); admin may update', async () => {
    const { h, zoneId } = await setup();
    const r = (await h.transferRequests.create(A, zoneId, { target_project_id: 'p-b' }))._unsafeUnwrap();
    for (const who of [B, C]) {
      expect((await h.transferRequests.update(who, r.id, { description: 'x' }))._unsafeUnwrapErr().toJSON()).toEqual({
        code: 403,
        type: 'forbidden',
      });
    }
    expect((await h.transferRequests.update(ADMIN, r.id, { description: 'x' }))._unsafeUnwrap().description).toBe('x');
  });

  it('works on a COMPLETE request', async () => {
    const { h, zoneId } = await setup();
    const r = (await h.transferRequests.create(A, zoneId))._unsafeUnwrap();
    (await h.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrap();
    const u = (await h.transferRequests.update(A, r.id, { description: 'after' }))._unsafeUnwrap();
    expect([u.status, u.description]).toEqual(['COMPLETE', 'after']);
  });
});

describe('transferRequests.delete', () => {
  it('owner deletes (hard delete, event); target 403; others 404 even for untargeted', async () => {
    const { h, zoneId } = await setup();
    const r = (await h.transferRequests.create(A, zoneId, { target_project_id: 'p-b' }))._unsafeUnwrap();
    expect((await h.transferRequests.delete(B, r.id))._unsafeUnwrapErr().toJSON()).toEqual({ code: 403, type: 'forbidden' });
    expect((await h.transferRequests.delete(C, r.id))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 404,
      type: 'zone_transfer_request_not_found',
      message: 'Could not find ZoneTransferRequest',
    });
    expect((await h.transferRequests.delete(A, r.id)).isOk()).toBe(true);
    expect(h.events.at(-1)).toEqual({ type: 'dns.zone_transfer_request.delete', payload: r });
    expect((await h.transferRequests.get(A, r.id))._unsafeUnwrapErr().status).toBe(404);
    // A new request may be created once none is ACTIVE.
    expect((await h.transferRequests.create(A, zoneId)).isOk()).toBe(true);
    const open = await zoneOf(h, A, 'open.com.');
    const o = (await h.transferRequests.create(A, open))._unsafeUnwrap();
    expect((await h.transferRequests.delete(C, o.id))._unsafeUnwrapErr().status).toBe(404);
  });

  it('an admin deletes only what its scope holds: own project or all-projects', async () => {
    const { h, zoneId } = await setup();
    const r = (await h.transferRequests.create(A, zoneId))._unsafeUnwrap();
    expect((await h.transferRequests.delete(ADMIN, r.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await h.transferRequests.delete(ADMIN_ALL, r.id)).isOk()).toBe(true);
  });
});
