import { describe, expect, it } from 'vitest';
import { createDnsService, type RequestContext } from '../../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../../src/testing/index.js';

const admin: RequestContext = { projectId: 'ops', roles: ['admin'] };
const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const service = () => {
  const clock = manualClock('2026-01-01T00:00:00Z');
  const dns = createDnsService({ clock, ids: sequentialIds(), random: seededRandom(1), tasks: 'inline', forbiddenStatus: 403 });
  const events: string[] = [];
  dns.events.subscribe((e) => events.push(`${e.type} ${String((e.payload as { name?: string }).name)}`));
  return { dns, clock, events };
};
const error = (r: { _unsafeUnwrapErr(): { status: number; type: string; message: string } }): string => {
  const e = r._unsafeUnwrapErr();
  return `${e.status} ${e.type}: ${e.message}`;
};

describe('dns.tlds', () => {
  it('creates, reads, lists, updates and deletes with the real bodies and events', async () => {
    const { dns, clock, events } = service();
    const com = (await dns.tlds.create(admin, { name: 'com', description: 'c' }))._unsafeUnwrap();
    expect(com).toEqual({
      id: '00000000-0000-4000-8000-000000000001',
      name: 'com',
      description: 'c',
      created_at: '2026-01-01T00:00:00.000000',
      updated_at: null,
      links: { self: 'http://localhost:9001/v2/tlds/00000000-0000-4000-8000-000000000001' },
    });
    expect((await dns.tlds.get(admin, com.id))._unsafeUnwrap()).toEqual(com);
    // Case-sensitive, as the real service: COM is another TLD.
    const upper = (await dns.tlds.create(admin, { name: 'COM' }))._unsafeUnwrap();
    expect(upper.description).toBeNull();
    const page = (await dns.tlds.list(admin, { limit: '1' }))._unsafeUnwrap();
    expect(page.tlds.map((t) => t.name)).toEqual(['com']);
    expect(page.links.next).toBe(`http://localhost:9001/v2/tlds?limit=1&marker=${com.id}`);
    expect(Object.keys(page)).toEqual(['tlds', 'links']);
    // Names sort with case folded (the production database's collation, as every list here), ties by id.
    expect((await dns.tlds.list(admin, { sort_key: 'name', sort_dir: 'desc' }))._unsafeUnwrap().tlds.map((t) => t.name)).toEqual(['COM', 'com']);
    clock.advance(1000);
    const changed = (await dns.tlds.update(admin, com.id, {}))._unsafeUnwrap();
    expect(changed.updated_at).toBe('2026-01-01T00:00:01.000000');
    expect(error(await dns.tlds.update(admin, com.id, { name: 'COM' }))).toBe('409 duplicate_tld: Duplicate Tld');
    (await dns.tlds.delete(admin, upper.id))._unsafeUnwrap();
    expect(error(await dns.tlds.get(admin, upper.id))).toBe('404 tld_not_found: Could not find Tld');
    expect(events).toEqual(['dns.tld.create com', 'dns.tld.create COM', 'dns.tld.update com', 'dns.tld.delete COM']);
  });

  it('refuses bad input with the real errors, in the real order', async () => {
    const { dns } = service();
    (await dns.tlds.create(admin, { name: 'com' }))._unsafeUnwrap();
    expect(error(await dns.tlds.create(admin, { name: 'com' }))).toBe('409 duplicate_tld: Duplicate Tld');
    expect(error(await dns.tlds.create(admin, { name: '-bad' }))).toBe('400 invalid_object: Provided object is not valid. Got a ValueError error with message -bad is not a TLD');
    expect(error(await dns.tlds.create(admin, { name: 'co.uk.' }))).toBe('400 invalid_object: Provided object is not valid. Got a ValueError error with message co.uk. is not a TLD');
    expect(error(await dns.tlds.create(admin, { name: 'ok', extra: 1 }))).toBe(
      "400 invalid_object: Provided object does not match schema. Keys ['extra'] are not valid for tld",
    );
    expect((await dns.tlds.create(admin, {}))._unsafeUnwrapErr().errors).toEqual([{ path: 'records.0.name', message: "'name' is a required property" }]);
    expect(error(await dns.tlds.create(admin, { name: 'x', description: 'd'.repeat(161) }))).toBe(
      '400 invalid_object: Provided object is not valid. Got a ValueError error with message Value too long for description',
    );
    expect((await dns.tlds.create(admin, { name: 5 }))._unsafeUnwrap().name).toBe('5');
    // The body before the policy on create; the policy before the lookup on get, update, delete.
    expect(error(await dns.tlds.create(alice, { bad: 1 }))).toMatch(/^400 invalid_object/);
    expect((await dns.tlds.create(alice, { name: 'org' }))._unsafeUnwrapErr().status).toBe(403);
    expect((await dns.tlds.update(alice, '00000000-0000-4000-8000-00000000000f', { bad: 1 }))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await dns.tlds.list(alice))._unsafeUnwrapErr().type).toBe('forbidden');
    expect(error(await dns.tlds.get(admin, 'nope'))).toBe('400 invalid_uuid: Invalid UUID tld_id: nope');
    expect(error(await dns.tlds.delete(admin, '00000000-0000-4000-8000-00000000000f'))).toBe('404 tld_not_found: Could not find Tld');
    expect(error(await dns.tlds.list(admin, { description: 'c' }))).toBe('400 bad_request: Invalid filters description');
  });

  it('once a TLD exists, zones must be under a known TLD and not be one; imports too', async () => {
    const { dns } = service();
    expect((await dns.zones.create(alice, { name: 'example.net.', email: 'h@example.net' })).isOk()).toBe(true);
    (await dns.tlds.create(admin, { name: 'com' }))._unsafeUnwrap();
    (await dns.tlds.create(admin, { name: 'co.uk' }))._unsafeUnwrap();
    expect(error(await dns.zones.create(alice, { name: 'example.org.', email: 'h@example.org' }))).toBe('400 invalid_zone_name: Invalid TLD');
    expect(error(await dns.zones.create(alice, { name: 'com.', email: 'h@example.org' }))).toBe('400 invalid_zone_name: More than one label is required');
    expect(error(await dns.zones.create(alice, { name: 'co.uk.', email: 'h@example.org' }))).toBe('400 invalid_zone_name: Zone name cannot be the same as a TLD');
    expect((await dns.zones.create(alice, { name: 'example.co.uk.', email: 'h@example.org' })).isOk()).toBe(true);
    expect(error(await dns.zones.create(alice, { name: 'sec.org.', type: 'SECONDARY', masters: ['192.0.2.1'] }))).toBe('400 invalid_zone_name: Invalid TLD');
    const file = '$ORIGIN imp.org.\n$TTL 300\n@ IN SOA ns1.example.org. h.imp.org. 1 3600 600 86400 300\n@ IN NS ns1.example.org.\n';
    const imp = (await dns.imports.create(alice, file, 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.imports.get(alice, imp.id))._unsafeUnwrap()).toMatchObject({ status: 'ERROR', message: 'An undefined error occurred. Invalid TLD' });
    // A change of the TLDs is seen by the next create.
    (await dns.tlds.create(admin, { name: 'org' }))._unsafeUnwrap();
    expect((await dns.zones.create(alice, { name: 'example.org.', email: 'h@example.org' })).isOk()).toBe(true);
    const all = (await dns.tlds.list(admin))._unsafeUnwrap().tlds;
    for (const t of all) (await dns.tlds.delete(admin, t.id))._unsafeUnwrap();
    expect((await dns.zones.create(alice, { name: 'anything.test.', email: 'h@example.org' })).isOk()).toBe(true);
  });

  it('are in snapshots, restored, and gone after reset()', async () => {
    const { dns } = service();
    (await dns.tlds.create(admin, { name: 'com' }))._unsafeUnwrap();
    const copy = createDnsService({ from: await dns.snapshot(), tasks: 'inline' });
    expect((await copy.tlds.list(admin))._unsafeUnwrap().tlds.map((t) => t.name)).toEqual(['com']);
    expect(error(await copy.zones.create(alice, { name: 'a.org.', email: 'h@a.org' }))).toBe('400 invalid_zone_name: Invalid TLD');
    await copy.reset();
    expect((await copy.tlds.list(admin))._unsafeUnwrap().tlds).toEqual([]);
    expect((await copy.zones.create(alice, { name: 'a.org.', email: 'h@a.org' })).isOk()).toBe(true);
  });
});
