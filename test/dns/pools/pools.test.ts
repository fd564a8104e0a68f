import { describe, expect, it } from 'vitest';
import { createDnsService, type DnsEvent } from '../../../src/index.js';
import { manualClock, sequentialIds } from '../../../src/testing/index.js';

/** A body with keys the command's input type does not name, sent as a server would. */
const unknownBody = (body: object): unknown => body;
const admin = { projectId: 'p-admin', roles: ['admin'] };
const member = { projectId: 'p1', roles: ['member'] };
const DEFAULT = '794ccc2c-d751-44fe-b57f-8894c9f5c842';

const service = (options: Parameters<typeof createDnsService>[0] = {}) => {
  const clock = manualClock('2026-01-01T00:00:00.000Z');
  const dns = createDnsService({ clock, ids: sequentialIds(), baseUrl: 'http://dns.test', ...options });
  const events: DnsEvent[] = [];
  dns.events.subscribe((e) => events.push(e));
  return { dns, clock, events };
};

describe('dns.pools', () => {
  it('shows the configured default pool as the real service does', async () => {
    const { dns } = service();
    const expected = {
      id: DEFAULT,
      project_id: null,
      name: 'default',
      description: null,
      attributes: {},
      ns_records: [{ priority: 1, hostname: 'ns1.example.org.' }],
      created_at: null,
      updated_at: null,
      links: { self: `http://dns.test/v2/pools/${DEFAULT}` },
    };
    expect((await dns.pools.get(admin, DEFAULT))._unsafeUnwrap()).toEqual(expected);
    expect((await dns.pools.list(admin))._unsafeUnwrap()).toEqual({ pools: [expected], links: { self: 'http://dns.test/v2/pools' } });
  });

  it('lists configured pools with their description and attributes, filtered by name', async () => {
    const { dns } = service({
      pools: [
        { id: DEFAULT, name: 'default', nameservers: [{ hostname: 'ns1.a.', priority: 1 }] },
        { id: '11111111-1111-4111-8111-111111111111', name: 'gold', description: 'fast', attributes: { tier: 'gold' }, nameservers: [{ hostname: 'ns1.b.', priority: 1 }] },
      ],
    });
    const gold = (await dns.pools.list(admin, { name: 'gold' }))._unsafeUnwrap().pools;
    expect(gold).toHaveLength(1);
    expect(gold[0]).toMatchObject({ description: 'fast', attributes: { tier: 'gold' } });
  });

  it('creates, updates and deletes pools; reset brings the configuration back', async () => {
    const { dns, clock, events } = service();
    const made = (await dns.pools.create(admin, { name: 'p2', ns_records: [{ hostname: 'ns2.example.org.', priority: 1 }] }))._unsafeUnwrap();
    expect(made).toMatchObject({ project_id: 'p-admin', name: 'p2', created_at: '2026-01-01T00:00:00.000000', updated_at: null });
    expect((await dns.pools.create(admin, { name: 'p2' }))._unsafeUnwrapErr()).toMatchObject({ status: 409, type: 'duplicate_pool' });
    expect((await dns.pools.create(admin, { name: 'default' }))._unsafeUnwrapErr()).toMatchObject({ status: 409 });
    clock.advance(1000);
    const changed = (await dns.pools.update(admin, DEFAULT, { description: 'd' }))._unsafeUnwrap();
    expect(changed).toMatchObject({ description: 'd', updated_at: '2026-01-01T00:00:01.000000', created_at: null });
    expect((await dns.pools.update(admin, made.id, { project_id: 'other' }))._unsafeUnwrapErr().message).toBe(
      "Provided object does not match schema. Keys ['project_id'] are not valid for pool",
    );
    expect((await dns.pools.delete(admin, made.id)).isOk()).toBe(true);
    expect((await dns.pools.get(admin, made.id))._unsafeUnwrapErr()).toMatchObject({ status: 404, type: 'pool_not_found', message: 'Could not find Pool' });
    expect((await dns.pools.delete(admin, DEFAULT)).isOk()).toBe(true);
    expect((await dns.pools.list(admin))._unsafeUnwrap().pools).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['dns.pool.create', 'dns.pool.update', 'dns.pool.delete', 'dns.pool.delete']);
    await dns.reset();
    expect((await dns.pools.get(admin, DEFAULT))._unsafeUnwrap().description).toBeNull();
  });

  it('refuses to delete a pool that holds zones', async () => {
    const { dns } = service();
    await dns.zones.create(member, { name: 'example.com.', email: 'a@example.com' });
    expect((await dns.pools.delete(admin, DEFAULT))._unsafeUnwrapErr()).toMatchObject({ status: 400, type: 'invalid_operation', message: 'pool must not contain zones' });
  });

  it('reads ns_records and attributes as the real adapters do', async () => {
    const { dns } = service();
    const refusal = async (body: unknown) => (await dns.pools.create(admin, body))._unsafeUnwrapErr().message;
    expect(await refusal({ name: 'p', ns_records: 'x' })).toContain("'str' object has no attribute 'items'");
    expect(await refusal({ name: 'p', ns_records: [{ hostname: 'nsx', priority: 2 }] })).toContain('Domain nsx does not end with a dot');
    expect(await refusal({ name: 'p', ns_records: [{ priority: 2 }] })).toContain('Provided object does not match schema');
    expect(await refusal({ name: 'p', ns_records: [5] })).toContain("'int' object has no attribute 'items'");
    expect(await refusal({ name: 'p', attributes: [1] })).toContain("'list' object has no attribute 'items'");
    expect((await dns.pools.create(admin, { name: 'p', attributes: { a: 5 } }))._unsafeUnwrap().attributes).toEqual({ a: '5' });
  });

  it('is admin only, after the body checks on create', async () => {
    const { dns } = service();
    expect((await dns.pools.list(member))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await dns.pools.get(member, DEFAULT))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await dns.pools.create(member, unknownBody({ bogus: 1 })))._unsafeUnwrapErr().type).toBe('invalid_object');
    expect((await dns.pools.create(member, { name: 'x' }))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await dns.pools.delete(member, DEFAULT))._unsafeUnwrapErr().type).toBe('forbidden');
  });

  describe('a change of ns_records rewrites the zones of the pool, as the real central does', () => {
    const ns = (...names: string[]) => names.map((hostname, i) => ({ hostname, priority: i + 1 }));
    const managed = async (dns: ReturnType<typeof service>['dns'], zoneId: string) => {
      const sets = (await dns.recordsets.list(member, zoneId))._unsafeUnwrap().recordsets;
      const pick = (type: string) => sets.find((r) => r.type === type)!;
      return { soa: pick('SOA'), ns: pick('NS') };
    };

    it('adds and drops host names in every zone: serial raised per name, SOA and NS rewritten, pending until served', async () => {
      const { dns, clock } = service({ tasks: 'manual' });
      const zone = (await dns.zones.create(member, { name: 'example.com.', email: 'a@example.com' }))._unsafeUnwrap();
      await dns.tasks.settle();
      const before = await managed(dns, zone.id);
      expect(before.ns).toMatchObject({ records: ['ns1.example.org.'], version: 1, updated_at: null });

      clock.advance(1000);
      expect((await dns.pools.update(admin, DEFAULT, { ns_records: ns('ns1.example.org.', 'ns2.example.org.') })).isOk()).toBe(true);
      const added = (await dns.zones.get(member, zone.id))._unsafeUnwrap();
      expect(added).toMatchObject({ status: 'PENDING', action: 'UPDATE', version: zone.version + 2 });
      expect(added.serial).toBeGreaterThan(zone.serial);
      const mid = await managed(dns, zone.id);
      expect(mid.ns).toMatchObject({ records: ['ns1.example.org.', 'ns2.example.org.'], version: 2, status: 'PENDING', action: 'UPDATE', updated_at: '2026-01-01T00:00:01.000000' });
      expect(mid.soa.version).toBe(before.soa.version + 1);
      expect(mid.soa.records[0]).toMatch(/^ns1\.example\.org\. /);

      await dns.tasks.settle();
      expect((await dns.zones.get(member, zone.id))._unsafeUnwrap().status).toBe('ACTIVE');
      expect((await managed(dns, zone.id)).ns).toMatchObject({ status: 'ACTIVE', action: 'NONE' });

      // Dropping ns1 and adding ns3 are two steps: two serial raises; the SOA's MNAME is the first left.
      clock.advance(1000);
      await dns.pools.update(admin, DEFAULT, { ns_records: ns('ns2.example.org.', 'ns3.example.org.') });
      const after = await managed(dns, zone.id);
      expect(after.ns).toMatchObject({ records: ['ns2.example.org.', 'ns3.example.org.'], version: 4 });
      expect(after.soa.records[0]).toMatch(/^ns2\.example\.org\. /);
      expect((await dns.zones.nameservers(member, zone.id))._unsafeUnwrap().nameservers.map((n) => n.hostname)).toEqual(['ns2.example.org.', 'ns3.example.org.']);

      // Zones made after the change take the pool's new list.
      const later = (await dns.zones.create(member, { name: 'later.com.', email: 'a@later.com' }))._unsafeUnwrap();
      expect((await managed(dns, later.id)).ns).toMatchObject({ records: ['ns2.example.org.', 'ns3.example.org.'], version: 1 });
    });

    it('a change of priority only, or of other fields, rewrites no zone', async () => {
      const { dns } = service();
      const zone = (await dns.zones.create(member, { name: 'example.com.', email: 'a@example.com' }))._unsafeUnwrap();
      await dns.tasks.settle();
      const settled = (await dns.zones.get(member, zone.id))._unsafeUnwrap();
      await dns.pools.update(admin, DEFAULT, { ns_records: [{ hostname: 'ns1.example.org.', priority: 5 }] });
      await dns.pools.update(admin, DEFAULT, { description: 'x' });
      expect((await dns.zones.get(member, zone.id))._unsafeUnwrap()).toEqual(settled);
    });

    it('refuses to drop the last nameserver and writes nothing', async () => {
      const { dns, events } = service();
      const zone = (await dns.zones.create(member, { name: 'example.com.', email: 'a@example.com' }))._unsafeUnwrap();
      await dns.tasks.settle();
      const settled = (await dns.zones.get(member, zone.id))._unsafeUnwrap();
      const seen = events.length;
      expect((await dns.pools.update(admin, DEFAULT, { ns_records: [] }))._unsafeUnwrapErr()).toMatchObject({
        status: 400,
        type: 'last_server_delete_not_allowed',
        message: 'Not allowed to delete last of servers',
      });
      expect((await dns.pools.get(admin, DEFAULT))._unsafeUnwrap().ns_records).toEqual([{ priority: 1, hostname: 'ns1.example.org.' }]);
      expect((await dns.zones.get(member, zone.id))._unsafeUnwrap()).toEqual(settled);
      expect(events.length).toBe(seen);
    });

    it('survives a snapshot and is undone by reset()', async () => {
      const { dns } = service();
      await dns.pools.update(admin, DEFAULT, { ns_records: ns('ns9.example.org.') });
      const copy = createDnsService({ ids: sequentialIds(), baseUrl: 'http://dns.test', from: await dns.snapshot() });
      const zone = (await copy.zones.create(member, { name: 'example.com.', email: 'a@example.com' }))._unsafeUnwrap();
      expect((await copy.zones.nameservers(member, zone.id))._unsafeUnwrap().nameservers.map((n) => n.hostname)).toEqual(['ns9.example.org.']);
      await copy.reset();
      const fresh = (await copy.zones.create(member, { name: 'example.com.', email: 'a@example.com' }))._unsafeUnwrap();
      expect((await copy.zones.nameservers(member, fresh.id))._unsafeUnwrap().nameservers.map((n) => n.hostname)).toEqual(['ns1.example.org.']);
    });
  });
});
