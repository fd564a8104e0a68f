import { describe, expect, it } from 'vitest';
import { createDnsService, createQuotaService, memoryStorage, type RequestContext } from '../../src/index.js';
import { inspectDns, inspectQuotas, manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';

const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const bob: RequestContext = { projectId: 'bob', roles: ['member'] };
const admin: RequestContext = { projectId: 'ops', roles: ['admin'], allProjects: true };
const serviceAdmin: RequestContext = { projectId: 'ops', roles: ['key-manager:service-admin'] };
const FILE = `$ORIGIN imported.com.
$TTL 300
imported.com. IN SOA ns1.imported.com. admin.imported.com. 1 7200 3600 2419200 10800
imported.com. IN NS ns1.imported.com.
www IN A 192.0.2.1
`;

async function populated(options: { tasks?: 'auto' | 'manual'; baseUrl?: string } = {}) {
  const storage = memoryStorage();
  const dns = createDnsService({
    storage,
    clock: manualClock('2026-01-01T00:00:00Z'),
    ids: sequentialIds(),
    random: seededRandom(1),
    ...options,
  });
  const a = (await dns.zones.create(alice, { name: 'a.com.', email: 'h@a.com' }))._unsafeUnwrap();
  const b = (await dns.zones.create(bob, { name: 'b.com.', email: 'h@b.com' }))._unsafeUnwrap();
  const request = (await dns.transferRequests.create(alice, a.id, { target_project_id: 'bob' }))._unsafeUnwrap();
  await dns.imports.create(bob, FILE, 'text/dns');
  await dns.exports.create(bob, b.id);
  await dns.quotas.set(admin, 'bob', { zones: 3 });
  return { storage, dns, a, b, request };
}

describe('inspectDns', () => {
  it('reads every project past policies, as the API bodies an all-projects admin would get', async () => {
    const { storage, dns, a, b, request } = await populated();
    await dns.tasks.settle();
    const view = inspectDns(storage);
    const all = admin;
    const zones = await view.zones();
    expect(zones.map((z) => z.name)).toEqual(['a.com.', 'b.com.', 'imported.com.']);
    for (const z of zones) expect(z).toEqual((await dns.zones.get(all, z.id))._unsafeUnwrap());
    expect(await view.zone(a.id)).toEqual((await dns.zones.get(alice, a.id))._unsafeUnwrap());
    expect(await view.zone('00000000-0000-4000-8000-00000000ffff')).toBeUndefined();

    const requests = await view.transferRequests();
    expect(requests).toEqual([(await dns.transferRequests.get(alice, request.id))._unsafeUnwrap()]);
    expect(requests[0]?.key).toBe(request.key);

    const imports = await view.imports();
    expect(imports).toHaveLength(1);
    expect(imports[0]).toEqual((await dns.imports.get(bob, imports[0]!.id))._unsafeUnwrap());
    expect(imports[0]?.status).toBe('COMPLETE');
    const exports = await view.exports();
    expect(exports).toEqual([(await dns.exports.get(bob, exports[0]!.id))._unsafeUnwrap()]);

    const imported = zones[2]!;
    const listed = (await dns.recordsets.list(bob, imported.id))._unsafeUnwrap() as { recordsets: unknown[] };
    expect(await view.recordsets(imported.id)).toEqual(listed.recordsets);
    const listedA = (await dns.recordsets.list(alice, a.id))._unsafeUnwrap() as { recordsets: unknown[] };
    expect(await view.recordsets(a.id)).toEqual(listedA.recordsets);
    expect((await view.recordsets()).length).toBe(2 + 2 + listed.recordsets.length);

    expect(await view.quotas()).toEqual({ bob: (await dns.quotas.get(admin, 'bob'))._unsafeUnwrap() });
    expect(await view.tasks()).toEqual([]);
    expect(b.project_id).toBe('bob');
  });

  it('accepts are listed once a transfer is accepted', async () => {
    const { storage, dns, request } = await populated();
    const accept = (await dns.transferAccepts.create(bob, { zone_transfer_request_id: request.id, key: request.key }))._unsafeUnwrap();
    const accepts = await inspectDns(storage).transferAccepts();
    expect(accepts).toEqual([(await dns.transferAccepts.get(bob, accept.id))._unsafeUnwrap()]);
  });

  it('shows pending tasks and PENDING resources in manual mode', async () => {
    const { storage } = await populated({ tasks: 'manual' });
    const state = await inspectDns(storage).state();
    expect(state.tasks.map((t) => t.kind)).toEqual(['zone.push', 'zone.push', 'zone.import', 'zone.export']);
    expect(state.zones.map((z) => z.status)).toEqual(['PENDING', 'PENDING']);
    expect(state.imports.map((i) => i.status)).toEqual(['PENDING']);
    expect(state.exports.map((e) => e.status)).toEqual(['PENDING']);
  });

  it('reads a snapshot the same way as the live storage', async () => {
    const { storage, dns } = await populated();
    await dns.tasks.settle();
    const live = await inspectDns(storage).state();
    const fromSnapshot = await inspectDns(await dns.snapshot()).state();
    expect(fromSnapshot).toEqual(live);
    const json = JSON.parse(JSON.stringify(await dns.snapshot()));
    expect(await inspectDns(json).state()).toEqual(live);
  });

  it('answers deeply frozen copies', async () => {
    const { storage } = await populated();
    const state = await inspectDns(storage).state();
    expect(Object.isFrozen(state)).toBe(true);
    expect(Object.isFrozen(state.zones[0])).toBe(true);
    expect(Object.isFrozen(state.zones[0]?.links)).toBe(true);
    expect(Object.isFrozen(state.quotas)).toBe(true);
  });

  it('follows the service options it is given (baseUrl, quotas)', async () => {
    const { storage } = await populated({ baseUrl: 'https://dns.test/' });
    const view = inspectDns(storage, { baseUrl: 'https://dns.test/', quotas: { zone_records: 7 } });
    expect((await view.zones())[0]?.links.self).toMatch(/^https:\/\/dns\.test\/v2\/zones\//);
    expect((await view.quotas())['bob']?.zone_records).toBe(7);
  });

  it('a project id like __proto__ is an own key of the quota map', async () => {
    const storage = memoryStorage();
    const dns = createDnsService({ storage });
    (await dns.quotas.set(admin, '__proto__', { zones: 1 }))._unsafeUnwrap();
    const quotas = await inspectDns(storage).quotas();
    expect(Object.hasOwn(quotas, '__proto__')).toBe(true);
    expect(quotas['__proto__']?.zones).toBe(1);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('refuses what is neither a storage nor a DNS snapshot', async () => {
    const quotaSnapshot = await createQuotaService().snapshot();
    expect(() => inspectDns(quotaSnapshot as never)).toThrow(TypeError);
    expect(() => inspectDns(null as never)).toThrow(TypeError);
  });
});

describe('inspectQuotas', () => {
  it('reads the configured records in list order, from the storage or a snapshot', async () => {
    const storage = memoryStorage();
    const quotas = createQuotaService({ storage });
    await quotas.projectQuotas.set(serviceAdmin, 'p2', { project_quotas: { secrets: 5 } });
    await quotas.projectQuotas.set(serviceAdmin, 'p1', { project_quotas: { orders: 1 } });
    const listed = (await quotas.projectQuotas.list(serviceAdmin))._unsafeUnwrap().project_quotas;
    const live = await inspectQuotas(storage).projectQuotas();
    expect(live).toEqual(listed);
    expect(Object.isFrozen(live[0]?.project_quotas)).toBe(true);
    expect(await inspectQuotas(await quotas.snapshot()).projectQuotas()).toEqual(listed);
  });

  it('refuses what is neither a storage nor a quota snapshot', () => {
    expect(() => inspectQuotas({ version: 2 } as never)).toThrow(TypeError);
  });
});
