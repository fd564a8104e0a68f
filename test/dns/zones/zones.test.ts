import { describe, expect, it } from 'vitest';
import { createDnsService, memoryStorage, type DnsServiceOptions, type RequestContext } from '../../../src/index.js';
import { faultyStorage, manualClock, seededRandom, sequentialIds } from '../../../src/testing/index.js';

/** A body sent as a server would pass it (`unknown`): deliberately outside the typed input. */
const untyped = (body: unknown): unknown => body;

const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const bob: RequestContext = { projectId: 'bob', roles: ['member'] };
const admin: RequestContext = { projectId: 'ops', roles: ['admin'] };
const T0 = '2026-01-01T00:00:00Z';
const T0_SECONDS = Date.parse(T0) / 1000;

const service = (options: DnsServiceOptions = {}) => {
  const clock = manualClock(T0);
  // `'inline'` unless a test says otherwise: a zone's answer is then the state it stays in.
  return { clock, dns: createDnsService({ clock, ids: sequentialIds(), random: seededRandom(1), tasks: 'inline', ...options }) };
};
const body = (name = 'example.com.') => ({ name, email: 'admin@example.com' });

describe('zones.create', () => {
  it('answers the documented body, ACTIVE in inline mode', async () => {
    const { dns } = service();
    const zone = (await dns.zones.create(alice, { ...body(), ttl: 600, description: 'd' }))._unsafeUnwrap();
    expect(Object.keys(zone)).toEqual([
      'id', 'pool_id', 'project_id', 'name', 'email', 'description', 'ttl', 'serial', 'status', 'action', 'version',
      'attributes', 'type', 'masters', 'created_at', 'updated_at', 'transferred_at', 'links',
    ]);
    expect(zone).toMatchObject({
      id: '00000000-0000-4000-8000-000000000001',
      pool_id: '794ccc2c-d751-44fe-b57f-8894c9f5c842',
      project_id: 'alice',
      name: 'example.com.',
      email: 'admin@example.com',
      description: 'd',
      ttl: 600,
      serial: T0_SECONDS,
      status: 'ACTIVE',
      action: 'NONE',
      attributes: {},
      type: 'PRIMARY',
      masters: [],
      created_at: '2026-01-01T00:00:00.000000',
      transferred_at: null,
      links: { self: 'http://localhost:9001/v2/zones/00000000-0000-4000-8000-000000000001' },
    });
  });

  it('answers CREATE/PENDING version 1 in manual mode, ACTIVE after the task ran', async () => {
    const { dns } = service({ tasks: 'manual' });
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect(zone).toMatchObject({ status: 'PENDING', action: 'CREATE', version: 1, updated_at: null });
    expect(dns.tasks.pending()).toBe(1);
    expect(await dns.tasks.runNext()).toBe(true);
    expect(await dns.tasks.runNext()).toBe(false);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ status: 'ACTIVE', action: 'NONE', version: 2 });
  });

  it('auto mode (the default) answers as the real service: PENDING writes whose push runs by itself', async () => {
    const dns = createDnsService({ clock: manualClock(T0), ids: sequentialIds(), random: seededRandom(1) });
    const served = async (id: string) => {
      // No settle(): the push must run on its own (over PostgreSQL it takes a few round trips).
      for (let i = 0; i < 1000 && dns.tasks.pending() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(dns.tasks.pending()).toBe(0);
      return (await dns.zones.get(alice, id))._unsafeUnwrap();
    };
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect(zone).toMatchObject({ status: 'PENDING', action: 'CREATE', version: 1 });
    expect(await served(zone.id)).toMatchObject({ status: 'ACTIVE', action: 'NONE', version: 2 });
    const changed = (await dns.zones.update(alice, zone.id, { ttl: 900 }))._unsafeUnwrap();
    expect(changed).toMatchObject({ status: 'PENDING', action: 'UPDATE', ttl: 900 });
    expect(await served(zone.id)).toMatchObject({ status: 'ACTIVE', action: 'NONE', ttl: 900 });
    const rs = (await dns.recordsets.create(alice, zone.id, { name: `www.${zone.name}`, type: 'A', records: ['192.0.2.1'] }))._unsafeUnwrap();
    expect(rs).toMatchObject({ status: 'PENDING', action: 'CREATE' });
    await served(zone.id);
    expect((await dns.recordsets.get(alice, zone.id, rs.id))._unsafeUnwrap()).toMatchObject({ status: 'ACTIVE', action: 'NONE' });
    expect((await dns.zones.delete(alice, zone.id))._unsafeUnwrap()).toMatchObject({ status: 'PENDING', action: 'DELETE' });
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrapErr().type).toBe('zone_not_found');
  });

  it('leaves the zone in ERROR when the pool targets fail', async () => {
    const failing = { createZone: () => Promise.reject(new Error('down')), updateZone: () => Promise.resolve(), deleteZone: () => Promise.resolve() };
    const { dns } = service({ poolTargets: failing });
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect(zone.status).toBe('PENDING');
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ action: 'CREATE', status: 'ERROR' });
  });

  it('builds SOA and NS recordsets from the pool', async () => {
    const { dns } = service();
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    const list = (await dns.recordsets.list(alice, zone.id))._unsafeUnwrap();
    expect(list.recordsets.map((r) => r.type)).toEqual(['SOA', 'NS']);
    expect(list.recordsets[0]!.records[0]).toMatch(new RegExp(`^ns1\\.example\\.org\\. admin\\.example\\.com\\. ${T0_SECONDS} 35\\d\\d 600 86400 3600$`));
    expect(list.recordsets[1]!.records).toEqual(['ns1.example.org.']);
  });

  it.each([
    [{ email: 'a@b.com' }, 400, 'invalid_object'],
    [{ name: 'example.com', email: 'a@b.com' }, 400, 'invalid_object'],
    [{ name: 'com.', email: 'a@b.com' }, 400, 'invalid_zone_name'],
    [{ name: 'exa mple.com.', email: 'a@b.com' }, 400, 'invalid_object'],
    [{ name: `${'a'.repeat(64)}.com.`, email: 'a@b.com' }, 400, 'invalid_object'],
    [{ name: 'example.com.', email: 'not-an-email' }, 400, 'invalid_object'],
    [{ name: 'example.com.' }, 400, 'invalid_object'],
    [{ name: 'example.com.', email: 'a@b.com', ttl: -1 }, 400, 'invalid_object'],
    [{ name: 'example.com.', email: 'a@b.com', ttl: 2147483648 }, 400, 'invalid_object'],
    [{ name: 'example.com.', email: 'a@b.com', description: 'x'.repeat(161) }, 400, 'invalid_object'],
    [{ name: 'example.com.', email: 'a@b.com', masters: ['192.0.2.1'] }, 400, 'invalid_object'],
    [{ name: 'example.com.', type: 'SECONDARY' }, 400, 'invalid_object'],
    [{ name: 'example.com.', type: 'SECONDARY', masters: ['192.0.2.1'], email: 'a@b.com' }, 400, 'invalid_object'],
    [{ name: 'example.com.', email: 'a@b.com', serial: 5 }, 400, 'invalid_object'],
    [{ name: 'example.com.', email: 'a@b.com', bogus: 1 }, 400, 'invalid_object'],
    [{ name: 'example.com.', email: 'a@b.com', description: 'a\u0000b' }, 400, 'invalid_object'],
    [{ name: 'example.com.', email: 'a@b.com', description: '\ud800' }, 400, 'invalid_object'],
    [[], 400, 'invalid_object'],
    ['text', 400, 'invalid_object'],
  ])('refuses %j with %i %s and stores nothing', async (input, status, type) => {
    const { dns } = service();
    const error = (await dns.zones.create(alice, input))._unsafeUnwrapErr();
    expect([error.status, error.type]).toEqual([status, type]);
    expect(error.message.length).toBeGreaterThan(0);
    expect(((await dns.zones.list(alice))._unsafeUnwrap() as { zones: unknown[] }).zones).toEqual([]);
  });

  it('gives the real service\'s messages and structured errors', async () => {
    const { dns } = service();
    expect((await dns.zones.create(alice, { name: 'example.com', email: 'a@b.com' }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'invalid_object',
      message: 'Provided object is not valid. Got a ValueError error with message Domain example.com does not end with a dot',
    });
    expect((await dns.zones.create(alice, { name: 'example.com.' }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'invalid_object',
      errors: { errors: [{ path: ['type', 'email'], message: "'email' is a required property" }] },
    });
    expect((await dns.zones.create(alice, untyped({ name: 'example.com.', email: 'a@b.com', foo: 1, bar: 2 })))._unsafeUnwrapErr().message).toBe(
      "Provided object does not match schema. Keys ['foo', 'bar'] are not valid for zone",
    );
    expect((await dns.zones.create(alice, { name: 'com.', email: 'a@b.com' }))._unsafeUnwrapErr().message).toBe('More than one label is required');
  });

  it('coerces integers as the real service does', async () => {
    const { dns } = service();
    expect((await dns.zones.create(alice, { ...body(), ttl: '301' }))._unsafeUnwrap().ttl).toBe(301);
    expect((await dns.zones.create(alice, { ...body('b.com.'), ttl: 300.9 }))._unsafeUnwrap().ttl).toBe(300);
    expect((await dns.zones.create(alice, { ...body('c.com.'), ttl: 'abc' }))._unsafeUnwrapErr().message).toBe(
      "Provided object is not valid. Got a ValueError error with message invalid literal for int() with base 10: 'abc'",
    );
  });

  it('creates SECONDARY zones with masters, email and ttl null in the body', async () => {
    const { dns } = service();
    const zone = (await dns.zones.create(alice, { name: 'sec.com.', type: 'SECONDARY', masters: ['192.0.2.1:53', '192.0.2.2:5353', '2001:db8::1'] }))._unsafeUnwrap();
    expect(zone).toMatchObject({ type: 'SECONDARY', email: null, ttl: null, serial: 1, masters: ['192.0.2.1', '192.0.2.2:5353', '2001:db8::1'] });
  });

  it('answers ttl null with a bare 500 once every other check passed, writing nothing (reference §4.2: the NOT NULL column)', async () => {
    const { dns } = service();
    const before = await dns.snapshot();
    const failed = (await dns.zones.create(alice, { ...body(), ttl: null }))._unsafeUnwrapErr();
    expect([failed.status, failed.toJSON()]).toEqual([500, { code: 500, type: 'unknown' }]);
    expect(await dns.snapshot()).toEqual(before);
    // The checks before the insert still answer first: a bad name, then a duplicate.
    expect((await dns.zones.create(alice, { name: 'com.', email: 'a@b.c', ttl: null }))._unsafeUnwrapErr().type).toBe('invalid_zone_name');
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect((await dns.zones.create(alice, { ...body(), ttl: null }))._unsafeUnwrapErr().type).toBe('duplicate_zone');
    const kept = await dns.snapshot();
    const patched = (await dns.zones.update(alice, zone.id, { ttl: null, description: 'x' }))._unsafeUnwrapErr();
    expect(patched.toJSON()).toEqual({ code: 500, type: 'unknown' });
    expect(await dns.snapshot()).toEqual(kept);
  });

  it('enforces duplicate, child and parent rules across projects, case-insensitively', async () => {
    const { dns } = service();
    (await dns.zones.create(alice, body('example.com.')))._unsafeUnwrap();
    const dup = (await dns.zones.create(alice, body('EXAMPLE.com.')))._unsafeUnwrapErr();
    expect([dup.status, dup.type, dup.message]).toEqual([409, 'duplicate_zone', 'Duplicate Zone']);
    const other = (await dns.zones.create(bob, body('example.com.')))._unsafeUnwrapErr();
    expect([other.status, other.message]).toEqual([409, 'Zone already exists, owned by a different tenant']);
    const child = (await dns.zones.create(bob, body('a.b.example.com.')))._unsafeUnwrapErr();
    expect([child.status, child.type]).toEqual([401, 'illegal_child']);
    (await dns.zones.create(bob, body('x.example.org.')))._unsafeUnwrap();
    const parent = (await dns.zones.create(alice, body('example.org.')))._unsafeUnwrapErr();
    expect([parent.status, parent.type]).toEqual([401, 'illegal_parent']);
    const strict = service({ forbiddenStatus: 403 }).dns;
    (await strict.zones.create(alice, body('example.com.')))._unsafeUnwrap();
    expect((await strict.zones.create(bob, body('a.example.com.')))._unsafeUnwrapErr().status).toBe(403);
    expect((await dns.zones.create(alice, body('sub.example.com.'))).isOk()).toBe(true);
  });

  it('enforces the zones quota with 413 over_quota', async () => {
    const { dns } = service({ quotas: { zones: 2 } });
    (await dns.zones.create(alice, body('a.com.')))._unsafeUnwrap();
    (await dns.zones.create(alice, body('b.com.')))._unsafeUnwrap();
    const error = (await dns.zones.create(alice, body('c.com.')))._unsafeUnwrapErr();
    expect(error.toJSON()).toEqual({ code: 413, type: 'over_quota', message: 'Quota exceeded for zones.' });
    expect((await dns.zones.create(bob, body('c.com.'))).isOk()).toBe(true);
  });

  it('applies the TLD list and blacklist where configured; admins bypass the blacklist', async () => {
    const { dns } = service({ limits: { tlds: ['com', 'co.uk'], blacklist: ['^bad\\.'] } });
    expect((await dns.zones.create(alice, body('example.net.')))._unsafeUnwrapErr().message).toBe('Invalid TLD');
    expect((await dns.zones.create(alice, body('co.uk.')))._unsafeUnwrapErr().message).toBe('Zone name cannot be the same as a TLD');
    expect((await dns.zones.create(alice, body('bad.com.')))._unsafeUnwrapErr().message).toBe('Blacklisted zone name');
    expect((await dns.zones.create(admin, body('bad.com.'))).isOk()).toBe(true);
  });

  it('refuses a TTL below min_ttl for non-admins', async () => {
    const { dns } = service({ limits: { minTtl: 300 } });
    expect((await dns.zones.create(alice, { ...body(), ttl: 299 }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'invalid_ttl',
      message: 'TTL is below the minimum: 300',
    });
  });

  it('needs authentication and a project', async () => {
    const { dns } = service();
    expect((await dns.zones.create({}, body()))._unsafeUnwrapErr().type).toBe('authentication_required');
    expect((await dns.zones.create({ roles: ['admin'] }, body()))._unsafeUnwrapErr()).toMatchObject({ status: 401, type: 'missing_project_id' });
    expect((await dns.zones.create({ ...alice, allProjects: true }, body()))._unsafeUnwrapErr()).toMatchObject({ status: 401, type: 'forbidden' });
    const strict = service({ forbiddenStatus: 403 }).dns;
    expect((await strict.zones.create({ ...alice, sudoProjectId: 'bob' }, body()))._unsafeUnwrapErr()).toMatchObject({ status: 403, type: 'forbidden' });
  });
});

describe('zones.get / list', () => {
  it('hides other projects\' zones (404) and checks UUIDs', async () => {
    const { dns } = service();
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect((await dns.zones.get(bob, zone.id))._unsafeUnwrapErr().toJSON()).toEqual({ code: 404, type: 'zone_not_found', message: 'Could not find Zone' });
    expect((await dns.zones.get(admin, zone.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await dns.zones.get({ ...admin, allProjects: true }, zone.id)).isOk()).toBe(true);
    expect((await dns.zones.get({ ...admin, sudoProjectId: 'alice' }, zone.id)).isOk()).toBe(true);
    expect((await dns.zones.get(alice, 'nope'))._unsafeUnwrapErr().toJSON()).toEqual({ code: 400, type: 'invalid_uuid', message: 'Invalid UUID zone_id: nope' });
  });

  it('pages with limit and marker, links.next whenever a page is full', async () => {
    const { dns, clock } = service();
    const ids: string[] = [];
    for (const n of ['a', 'b', 'c']) {
      ids.push((await dns.zones.create(alice, body(`${n}.com.`)))._unsafeUnwrap().id);
      clock.advance(1000);
    }
    const first = (await dns.zones.list(alice, { limit: '2' }))._unsafeUnwrap() as { zones: { id: string }[]; links: { self: string; next?: string }; metadata: unknown };
    expect(first.zones.map((z) => z.id)).toEqual(ids.slice(0, 2));
    expect(first.links).toEqual({ self: 'http://localhost:9001/v2/zones?limit=2', next: `http://localhost:9001/v2/zones?limit=2&marker=${ids[1]}` });
    expect(first.metadata).toEqual({ total_count: 3 });
    const second = (await dns.zones.list(alice, { limit: '2', marker: ids[1] }))._unsafeUnwrap() as { zones: { id: string }[]; links: { next?: string } };
    expect(second.zones.map((z) => z.id)).toEqual([ids[2]]);
    expect(second.links.next).toBeUndefined();
    const desc = (await dns.zones.list(alice, { sort_key: 'name', sort_dir: 'desc' }))._unsafeUnwrap() as { zones: { name: string }[] };
    expect(desc.zones.map((z) => z.name)).toEqual(['c.com.', 'b.com.', 'a.com.']);
    const filtered = (await dns.zones.list(alice, { name: 'b*' }))._unsafeUnwrap() as { zones: { name: string }[]; metadata: { total_count: number } };
    expect(filtered.zones.map((z) => z.name)).toEqual(['b.com.']);
    expect(filtered.metadata.total_count).toBe(1);
    expect(((await dns.zones.list(bob))._unsafeUnwrap() as { zones: unknown[] }).zones).toEqual([]);
  });

  it.each([
    [{ limit: '0' }, 'invalid_limit'],
    [{ limit: 'x' }, 'invalid_limit'],
    [{ sort_dir: 'up' }, 'invalid_sort_dir'],
    [{ sort_key: 'email' }, 'invalid_sort_key'],
    [{ marker: 'zzz' }, 'invalid_marker'],
    [{ marker: '00000000-0000-4000-8000-00000000ffff' }, 'marker_not_found'],
    [{ colour: 'blue' }, 'bad_request'],
  ])('refuses %j with %s', async (query, type) => {
    const { dns } = service();
    expect((await dns.zones.list(alice, query))._unsafeUnwrapErr()).toMatchObject({ status: 400, type });
  });
});

describe('zones.update / delete / abandon', () => {
  it('updates, raising serial and version', async () => {
    const { dns, clock } = service();
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    clock.advance(10_000);
    const updated = (await dns.zones.update(alice, zone.id, { ttl: 300, description: 'x' }))._unsafeUnwrap();
    expect(updated).toMatchObject({ ttl: 300, description: 'x', serial: T0_SECONDS + 10, status: 'ACTIVE', version: zone.version + 2 });
    const again = (await dns.zones.update(alice, zone.id, {}))._unsafeUnwrap();
    expect(again.serial).toBe(T0_SECONDS + 11);
  });

  it('refuses immutable and unknown keys, renames and other projects', async () => {
    const { dns } = service();
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect((await dns.zones.update(alice, zone.id, { name: 'other.com.' }))._unsafeUnwrapErr().message).toBe(
      "Provided object does not match schema. Keys ['name'] are not valid for zone",
    );
    expect((await dns.zones.update(alice, zone.id, { name: 'example.com.' }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'bad_request',
      message: 'Renaming a zone is not allowed',
    });
    expect((await dns.zones.update(alice, zone.id, { type: 'SECONDARY' }))._unsafeUnwrapErr().type).toBe('invalid_object');
    expect((await dns.zones.update(bob, zone.id, { ttl: 1 }))._unsafeUnwrapErr().status).toBe(404);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toEqual(zone);
  });

  // As the real service (designate-api here): a project_id equal to the zone's own passes the
  // body schema, and central then refuses it after the policy check, before the rename and TTL checks.
  it('refuses project_id, even the zone\'s own, as a move between projects, and changes nothing', async () => {
    const { dns } = service();
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    const moving = { code: 400, type: 'bad_request', message: 'Moving a zone between tenants is not allowed' };
    for (const patch of [{ project_id: alice.projectId }, { project_id: alice.projectId, description: 'x' }, { name: zone.name, project_id: alice.projectId }]) {
      expect((await dns.zones.update(alice, zone.id, untyped(patch)))._unsafeUnwrapErr().toJSON()).toEqual(moving);
    }
    expect((await dns.zones.update({ projectId: 'ops', roles: ['admin'], allProjects: true }, zone.id, untyped({ project_id: alice.projectId })))._unsafeUnwrapErr().toJSON()).toEqual(moving);
    expect((await dns.zones.update(alice, zone.id, untyped({ project_id: alice.projectId, ttl: 'abc' })))._unsafeUnwrapErr().type).toBe('invalid_object');
    expect((await dns.zones.update(alice, zone.id, untyped({ project_id: 'someone-else' })))._unsafeUnwrapErr().type).toBe('invalid_object');
    expect((await dns.zones.update(bob, zone.id, untyped({ project_id: alice.projectId })))._unsafeUnwrapErr().status).toBe(404);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toEqual(zone);
  });

  it('deletes asynchronously and refuses updates while deleting', async () => {
    const { dns } = service({ tasks: 'manual' });
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    const deleting = (await dns.zones.delete(alice, zone.id))._unsafeUnwrap();
    expect(deleting).toMatchObject({ action: 'DELETE', status: 'PENDING', version: 2 });
    expect((await dns.zones.update(alice, zone.id, {}))._unsafeUnwrapErr().message).toBe('Can not update a deleting zone');
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrapErr().status).toBe(404);
  });

  it('refuses to delete a zone with subzones', async () => {
    const { dns } = service();
    const parent = (await dns.zones.create(alice, body('example.com.')))._unsafeUnwrap();
    const child = (await dns.zones.create(alice, body('sub.example.com.')))._unsafeUnwrap();
    expect((await dns.zones.delete(alice, parent.id))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'zone_has_sub_zone',
      message: 'Please delete any subzones before deleting this zone',
    });
    (await dns.zones.delete(alice, child.id))._unsafeUnwrap();
    expect((await dns.zones.delete(alice, parent.id)).isOk()).toBe(true);
  });

  it('abandons for admins only, at once', async () => {
    const { dns } = service();
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect((await dns.zones.abandon(alice, zone.id))._unsafeUnwrapErr()).toMatchObject({ status: 401, type: 'forbidden' });
    // The id is checked before the policy, as the real service's route does.
    expect((await dns.zones.abandon(alice, 'abc'))._unsafeUnwrapErr()).toMatchObject({ status: 400, type: 'invalid_uuid' });
    expect((await dns.zones.abandon(admin, zone.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await dns.zones.abandon({ ...admin, allProjects: true }, zone.id)).isOk()).toBe(true);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrapErr().status).toBe(404);
  });

  it('emits the reference\'s events in order', async () => {
    const { dns } = service();
    const seen: string[] = [];
    dns.events.subscribe((e) => seen.push(`${e.type}:${(e.payload as { status: string }).status}`));
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    await dns.zones.delete(alice, zone.id);
    expect(seen).toEqual([
      'dns.domain.create:PENDING',
      'dns.zone.create:PENDING',
      'dns.domain.update:ACTIVE',
      'dns.zone.update:ACTIVE',
      'dns.domain.delete:PENDING',
      'dns.zone.delete:PENDING',
      'dns.domain.update:DELETED',
      'dns.zone.update:DELETED',
    ]);
  });

  it('lists nameservers of the zone\'s pool', async () => {
    const { dns } = service({ pools: [{ id: '11111111-1111-4111-8111-111111111111', nameservers: [{ hostname: 'b.ns.', priority: 2 }, { hostname: 'a.ns.', priority: 1 }] }] });
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect((await dns.zones.nameservers(alice, zone.id))._unsafeUnwrap()).toEqual({
      nameservers: [{ hostname: 'b.ns.', priority: 2 }, { hostname: 'a.ns.', priority: 1 }],
    });
  });
});

describe('storage failures', () => {
  it('answers 500 storage_failure and leaves the state as it was, at every step of a create', async () => {
    for (let failAt = 0; failAt < 40; failAt++) {
      const inner = memoryStorage();
      const setup = createDnsService({ storage: inner, clock: manualClock(T0), ids: sequentialIds('a') });
      (await setup.zones.create(alice, body('first.com.')))._unsafeUnwrap();
      await setup.tasks.settle(); // its push, which would change the state under the comparison
      const before = await setup.snapshot();
      let index = 0;
      const storage = faultyStorage(inner, () => index++ === failAt);
      const dns = createDnsService({ storage, clock: manualClock(T0), ids: sequentialIds('b'), tasks: 'manual' });
      const result = await dns.zones.create(alice, body('second.com.'));
      if (result.isOk()) break; // failAt is past the last operation of the command
      expect(result.error).toMatchObject({ status: 500, type: 'storage_failure' });
      expect(await setup.snapshot()).toEqual(before);
    }
  });
});
