import { expect, it } from 'vitest';
import { createDnsService, type DnsServiceOptions, type RequestContext, type ZoneBody } from '../../../src/index.js';
import { postgresStorage, type PostgresStorage } from '../../../src/adapters/postgres/index.js';
import { faultyStorage, manualClock, seededRandom, sequentialIds } from '../../../src/testing/index.js';
import { freshPostgresStorage, freshSchemaName, postgresRequirement, testPool } from './helpers.js';
import { servicesShareNameRules } from '../../support/shared-name-rules.js';
import { describeWith } from '../../support/requires.js';

// The zone commands over PostgreSQL: the scenarios of test/dns/zones/zones.test.ts that exercise
// storage (paging, prefix counts, subtree checks, rollbacks, the task queue), each on an empty schema.

const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const bob: RequestContext = { projectId: 'bob', roles: ['member'] };
const admin: RequestContext = { projectId: 'ops', roles: ['admin'] };
const T0 = '2026-01-01T00:00:00Z';
const T0_SECONDS = Date.parse(T0) / 1000;
const body = (name = 'example.com.') => ({ name, email: 'admin@example.com' });
type ZoneList = { zones: ZoneBody[]; links: { self: string; next?: string }; metadata: { total_count: number } };

const service = async (options: DnsServiceOptions = {}) => {
  const storage = await freshPostgresStorage();
  const clock = manualClock(T0);
  return { storage, clock, dns: createDnsService({ storage, clock, ids: sequentialIds(), random: seededRandom(1), tasks: 'inline', ...options }) };
};

describeWith(postgresRequirement, 'zone commands on postgresStorage', () => {
  it('creates: the documented body, ACTIVE in inline mode, with SOA and NS recordsets', async () => {
    const { dns } = await service();
    const zone = (await dns.zones.create(alice, { ...body(), ttl: 600, description: 'd' }))._unsafeUnwrap();
    expect(zone).toMatchObject({
      id: '00000000-0000-4000-8000-000000000001',
      project_id: 'alice',
      name: 'example.com.',
      serial: T0_SECONDS,
      status: 'ACTIVE',
      action: 'NONE',
      created_at: '2026-01-01T00:00:00.000000',
    });
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toEqual(zone);
    const list = (await dns.recordsets.list(alice, zone.id))._unsafeUnwrap();
    expect(list.recordsets.map((r) => r.type)).toEqual(['SOA', 'NS']);
    expect(list.recordsets[1]!.records).toEqual(['ns1.example.org.']);
  });

  it('creates CREATE/PENDING in manual mode, ACTIVE once the queued task ran', async () => {
    const { dns } = await service({ tasks: 'manual' });
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect(zone).toMatchObject({ status: 'PENDING', action: 'CREATE', version: 1 });
    expect(dns.tasks.pending()).toBe(1);
    expect(await dns.tasks.runNext()).toBe(true);
    expect(await dns.tasks.runNext()).toBe(false);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ status: 'ACTIVE', action: 'NONE', version: 2 });
  });

  it('refuses bad input and stores nothing', async () => {
    const { dns } = await service();
    for (const input of [{ email: 'a@b.com' }, { name: 'com.', email: 'a@b.com' }, { ...body(), description: 'a\u0000b' }, { ...body(), description: '\ud800' }]) {
      expect((await dns.zones.create(alice, input))._unsafeUnwrapErr().status).toBe(400);
    }
    expect(((await dns.zones.list(alice))._unsafeUnwrap() as ZoneList).zones).toEqual([]);
  });

  it('enforces duplicate, child and parent rules across projects, case-insensitively', async () => {
    const { dns } = await service();
    (await dns.zones.create(alice, body('example.com.')))._unsafeUnwrap();
    expect((await dns.zones.create(alice, body('EXAMPLE.com.')))._unsafeUnwrapErr()).toMatchObject({ status: 409, type: 'duplicate_zone' });
    expect((await dns.zones.create(bob, body('example.com.')))._unsafeUnwrapErr().message).toBe('Zone already exists, owned by a different tenant');
    expect((await dns.zones.create(bob, body('a.b.example.com.')))._unsafeUnwrapErr()).toMatchObject({ status: 401, type: 'illegal_child' });
    (await dns.zones.create(bob, body('x.example.org.')))._unsafeUnwrap();
    expect((await dns.zones.create(alice, body('example.org.')))._unsafeUnwrapErr()).toMatchObject({ status: 401, type: 'illegal_parent' });
    expect((await dns.zones.create(alice, body('sub.example.com.'))).isOk()).toBe(true);
  });

  it('enforces the zones quota with 413 over_quota, per project', async () => {
    const { dns } = await service({ quotas: { zones: 2 } });
    (await dns.zones.create(alice, body('a.com.')))._unsafeUnwrap();
    (await dns.zones.create(alice, body('b.com.')))._unsafeUnwrap();
    expect((await dns.zones.create(alice, body('c.com.')))._unsafeUnwrapErr().toJSON()).toEqual({ code: 413, type: 'over_quota', message: 'Quota exceeded for zones.' });
    expect((await dns.zones.create(bob, body('c.com.'))).isOk()).toBe(true);
  });

  it('hides other projects\' zones (404)', async () => {
    const { dns } = await service();
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect((await dns.zones.get(bob, zone.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await dns.zones.get({ ...admin, allProjects: true }, zone.id)).isOk()).toBe(true);
  });

  it('pages with limit and marker, sorts, filters and counts', async () => {
    const { dns, clock } = await service();
    const ids: string[] = [];
    for (const n of ['a', 'b', 'c', 'd', 'e']) {
      ids.push((await dns.zones.create(alice, body(`${n}.com.`)))._unsafeUnwrap().id);
      clock.advance(1000);
    }
    (await dns.zones.create(bob, body('bob.com.')))._unsafeUnwrap();
    const first = (await dns.zones.list(alice, { limit: '2' }))._unsafeUnwrap() as ZoneList;
    expect(first.zones.map((z) => z.id)).toEqual(ids.slice(0, 2));
    expect(first.links.next).toBe(`http://localhost:9001/v2/zones?limit=2&marker=${ids[1]}`);
    expect(first.metadata).toEqual({ total_count: 5 });
    const second = (await dns.zones.list(alice, { limit: '2', marker: ids[1] }))._unsafeUnwrap() as ZoneList;
    expect(second.zones.map((z) => z.id)).toEqual(ids.slice(2, 4));
    const last = (await dns.zones.list(alice, { limit: '2', marker: ids[3] }))._unsafeUnwrap() as ZoneList;
    expect(last.zones.map((z) => z.id)).toEqual([ids[4]]);
    expect(last.links.next).toBeUndefined();
    const desc = (await dns.zones.list(alice, { sort_key: 'name', sort_dir: 'desc', limit: '3' }))._unsafeUnwrap() as ZoneList;
    expect(desc.zones.map((z) => z.name)).toEqual(['e.com.', 'd.com.', 'c.com.']);
    const filtered = (await dns.zones.list(alice, { name: 'b*' }))._unsafeUnwrap() as ZoneList;
    expect(filtered.zones.map((z) => z.name)).toEqual(['b.com.']);
    expect(filtered.metadata.total_count).toBe(1);
    const all = (await dns.zones.list({ ...admin, allProjects: true }))._unsafeUnwrap() as ZoneList;
    expect(all.metadata.total_count).toBe(6);
    expect((await dns.zones.list(alice, { marker: '00000000-0000-4000-8000-00000000ffff' }))._unsafeUnwrapErr().type).toBe('marker_not_found');
  });

  it('updates, raising serial and version; refusals change nothing', async () => {
    const { dns, clock } = await service();
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    clock.advance(10_000);
    const updated = (await dns.zones.update(alice, zone.id, { ttl: 300, description: 'x' }))._unsafeUnwrap();
    expect(updated).toMatchObject({ ttl: 300, description: 'x', serial: T0_SECONDS + 10, status: 'ACTIVE', version: zone.version + 2 });
    expect((await dns.zones.update(alice, zone.id, { name: 'example.com.' }))._unsafeUnwrapErr().message).toBe('Renaming a zone is not allowed');
    expect((await dns.zones.update(bob, zone.id, { ttl: 1 }))._unsafeUnwrapErr().status).toBe(404);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toEqual(updated);
  });

  it('deletes asynchronously, refuses updates while deleting, and frees the name', async () => {
    const { dns } = await service({ tasks: 'manual' });
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect((await dns.zones.delete(alice, zone.id))._unsafeUnwrap()).toMatchObject({ action: 'DELETE', status: 'PENDING' });
    expect((await dns.zones.update(alice, zone.id, {}))._unsafeUnwrapErr().message).toBe('Can not update a deleting zone');
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await dns.zones.create(alice, body())).isOk()).toBe(true);
  });

  it('refuses to delete a zone with subzones', async () => {
    const { dns } = await service();
    const parent = (await dns.zones.create(alice, body('example.com.')))._unsafeUnwrap();
    const child = (await dns.zones.create(alice, body('sub.example.com.')))._unsafeUnwrap();
    expect((await dns.zones.delete(alice, parent.id))._unsafeUnwrapErr().type).toBe('zone_has_sub_zone');
    (await dns.zones.delete(alice, child.id))._unsafeUnwrap();
    expect((await dns.zones.delete(alice, parent.id)).isOk()).toBe(true);
  });

  it('abandons for admins only, at once', async () => {
    const { dns } = await service();
    const zone = (await dns.zones.create(alice, body()))._unsafeUnwrap();
    expect((await dns.zones.abandon(alice, zone.id))._unsafeUnwrapErr()).toMatchObject({ status: 401, type: 'forbidden' });
    expect((await dns.zones.abandon({ ...admin, allProjects: true }, zone.id)).isOk()).toBe(true);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrapErr().status).toBe(404);
  });

  it('emits the reference\'s events in order, once each, after commit', async () => {
    const { dns } = await service();
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

  it('answers 500 storage_failure and leaves the state as it was, at every step of a create', async () => {
    const storage: PostgresStorage = await freshPostgresStorage();
    const setup = createDnsService({ storage, clock: manualClock(T0), ids: sequentialIds('a'), tasks: 'inline' });
    (await setup.zones.create(alice, body('first.com.')))._unsafeUnwrap();
    const before = await setup.snapshot();
    let failures = 0;
    for (let failAt = 0; failAt < 60; failAt++) {
      let index = 0;
      const dns = createDnsService({ storage: faultyStorage(storage, () => index++ === failAt), clock: manualClock(T0), ids: sequentialIds('b'), tasks: 'manual' });
      const result = await dns.zones.create(alice, body('second.com.'));
      if (result.isOk()) break; // failAt is past the last operation of the command
      failures++;
      expect(result.error).toMatchObject({ status: 500, type: 'storage_failure' });
      expect(await setup.snapshot()).toEqual(before);
    }
    expect(failures).toBeGreaterThan(5);
    expect(((await setup.zones.list(alice))._unsafeUnwrap() as ZoneList).zones.map((z) => z.name)).toEqual(['first.com.', 'second.com.']);
  });

  it('serializes concurrent commands: one of many racing creates of a name wins; racing creates never pass the quota', async () => {
    const { dns } = await service({ quotas: { zones: 3 }, ids: () => crypto.randomUUID() });
    const same = await Promise.all(Array.from({ length: 6 }, () => dns.zones.create(alice, body('race.com.'))));
    expect(same.filter((r) => r.isOk())).toHaveLength(1);
    expect(same.filter((r) => r.isErr()).map((r) => r._unsafeUnwrapErr().type)).toEqual(Array(5).fill('duplicate_zone'));
    const quota = await Promise.all(Array.from({ length: 6 }, (_, n) => dns.zones.create(bob, body(`q${n}.com.`))));
    expect(quota.filter((r) => r.isOk())).toHaveLength(3);
    expect(quota.filter((r) => r.isErr()).map((r) => r._unsafeUnwrapErr().type)).toEqual(Array(3).fill('over_quota'));
    expect(((await dns.zones.list(bob))._unsafeUnwrap() as ZoneList).metadata.total_count).toBe(3);
  });
});

describeWith(postgresRequirement, 'TLDs and blacklist on postgresStorage', () => {
  it('two services over one database see each other’s TLD and blacklist changes', async () => {
    const schema = freshSchemaName();
    const a = postgresStorage({ pool: testPool(), schema });
    await a.migrate();
    await servicesShareNameRules([a, postgresStorage({ pool: testPool(), schema })]);
  });
});
