/**
 * The state the storage proofs (faults.test.ts, corrupt-values.test.ts) run every command against,
 * and the commands: one call of each command of the DNS service and of the quota service.
 */
import type { ResultAsync } from 'neverthrow';
import {
  createDnsService,
  memoryStorage,
  type ApiError,
  type DnsService,
  type QuotaService,
  type RequestContext,
  type ServiceSnapshot,
  type Storage,
} from '../../src/index.js';
import { manualClock, scriptedMaster, seededRandom, sequentialIds } from '../../src/testing/index.js';

export const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
export const bob: RequestContext = { projectId: 'bob', roles: ['member'] };
export const admin: RequestContext = { projectId: 'ops', roles: ['admin'], allProjects: true };
export const quotaAdmin: RequestContext = { projectId: 'ops', roles: ['key-manager:service-admin'] };
const T0 = '2026-01-01T00:00:00Z';
export const FILE = (origin: string) => `$ORIGIN ${origin}
$TTL 300
${origin} IN SOA ns1.${origin} admin.${origin} 1 7200 3600 2419200 10800
${origin} IN NS ns1.${origin}
www IN A 192.0.2.1
mail IN MX 10 mail.${origin}
`;

export const options = (prefix: string, storage: Storage) => ({
  storage,
  clock: manualClock(T0),
  ids: sequentialIds(prefix),
  random: seededRandom(prefix),
  // Serves nothing: a transfer fails and changes nothing, but zones.xfr still queues its task.
  masters: scriptedMaster(),
});

export interface Fixture {
  snapshot: ServiceSnapshot;
  zoneA: string; // alice's zone, with an ACTIVE transfer request to bob
  zoneA2: string; // alice's zone without a request
  zoneB: string; // bob's zone, with a COMPLETE export
  zoneS: string; // alice's SECONDARY zone
  imported: string; // bob's zone created by an import
  recordset: string; // a recordset of the imported zone
  request: { id: string; key: string };
  accept: string;
  importId: string;
  exportId: string;
  tld: string; // the TLD com
  blacklist: string; // the pattern ^blocked\.
}

/** Filled by {@link buildFixture} (in a beforeAll); the commands below read it when they run. */
export const fx = {} as Fixture;

/** A service with some of everything: zones, requests, an accept, an import, an export, quotas. */
export async function buildFixture(): Promise<void> {
  const dns = createDnsService(options('', memoryStorage()));
  const ok = <T>(r: Awaited<ResultAsync<T, ApiError>>): T => r._unsafeUnwrap();
  const zoneA = ok(await dns.zones.create(alice, { name: 'a.com.', email: 'h@a.com' })).id;
  const zoneA2 = ok(await dns.zones.create(alice, { name: 'a2.com.', email: 'h@a.com' })).id;
  const zoneB = ok(await dns.zones.create(bob, { name: 'b.com.', email: 'h@b.com' })).id;
  const zoneT = ok(await dns.zones.create(alice, { name: 't.com.', email: 'h@a.com' })).id;
  const zoneS = ok(await dns.zones.create(alice, { name: 's.com.', type: 'SECONDARY', masters: ['192.0.2.1'] })).id;
  const done = ok(await dns.transferRequests.create(alice, zoneT, { target_project_id: 'bob' }));
  const accept = ok(await dns.transferAccepts.create(bob, { zone_transfer_request_id: done.id, key: done.key })).id;
  const request = ok(await dns.transferRequests.create(alice, zoneA, { target_project_id: 'bob' }));
  const importId = ok(await dns.imports.create(bob, FILE('imp.com.'), 'text/dns')).id;
  const exportId = ok(await dns.exports.create(bob, zoneB)).id;
  await dns.tasks.settle();
  ok(await dns.quotas.set(admin, 'bob', { zones: 7 }));
  const imported = ok(await dns.imports.get(bob, importId)).zone_id!;
  const rs = ok(await dns.recordsets.list(bob, imported)) as { recordsets: { id: string; type: string }[] };
  // After the zones, all under com: the commands below create under it too.
  const tld = ok(await dns.tlds.create(admin, { name: 'com' })).id;
  const blacklist = ok(await dns.blacklists.create(admin, { pattern: '^blocked\\.' })).id;
  Object.assign(fx, {
    tld,
    blacklist,
    snapshot: await dns.snapshot(),
    zoneA,
    zoneA2,
    zoneB,
    zoneS,
    imported,
    recordset: rs.recordsets.find((r) => r.type === 'A')!.id,
    request: { id: request.id, key: request.key! },
    accept,
    importId,
    exportId,
  });
}

/** Every command of the DNS service, on the fixture. */
export const dnsCommands: [string, (dns: DnsService) => ResultAsync<unknown, ApiError>][] = [
  ['zones.create', (d) => d.zones.create(alice, { name: 'new.com.', email: 'h@new.com' })],
  ['zones.create (subzone of own zone)', (d) => d.zones.create(alice, { name: 'sub.a.com.', email: 'h@a.com' })],
  ['zones.get', (d) => d.zones.get(alice, fx.zoneA)],
  ['zones.list', (d) => d.zones.list(alice)],
  ['zones.list (all projects, paged)', (d) => d.zones.list(admin, { limit: '2', sort_key: 'name' })],
  ['zones.update', (d) => d.zones.update(alice, fx.zoneA, { ttl: 900, description: 'changed' })],
  ['zones.delete', (d) => d.zones.delete(alice, fx.zoneA2)],
  ['zones.delete (zone with recordsets)', (d) => d.zones.delete(bob, fx.imported)],
  ['zones.abandon', (d) => d.zones.abandon(admin, fx.imported)],
  ['zones.nameservers', (d) => d.zones.nameservers(alice, fx.zoneA)],
  ['zones.xfr', (d) => d.zones.xfr(alice, fx.zoneS)],
  ['zones.create (SECONDARY: its transfer queued)', (d) => d.zones.create(alice, { name: 'sec.com.', type: 'SECONDARY', masters: ['192.0.2.1'] })],
  ['transferRequests.create', (d) => d.transferRequests.create(alice, fx.zoneA2, {})],
  ['transferRequests.get', (d) => d.transferRequests.get(alice, fx.request.id)],
  ['transferRequests.list', (d) => d.transferRequests.list(bob)],
  ['transferRequests.update', (d) => d.transferRequests.update(alice, fx.request.id, { description: 'x' })],
  ['transferRequests.delete', (d) => d.transferRequests.delete(alice, fx.request.id)],
  ['transferAccepts.create', (d) => d.transferAccepts.create(bob, { zone_transfer_request_id: fx.request.id, key: fx.request.key })],
  ['transferAccepts.get', (d) => d.transferAccepts.get(bob, fx.accept)],
  ['transferAccepts.list', (d) => d.transferAccepts.list(admin)], // admin only (find_zone_transfer_accepts)
  ['recordsets.list', (d) => d.recordsets.list(bob, fx.imported)],
  ['recordsets.get', (d) => d.recordsets.get(bob, fx.imported, fx.recordset)],
  ['recordsets.create', (d) => d.recordsets.create(bob, fx.imported, { name: 'new.imp.com.', type: 'TXT', records: ['"x"'] })],
  ['recordsets.update', (d) => d.recordsets.update(bob, fx.imported, fx.recordset, { records: ['192.0.2.9'], description: 'd' })],
  ['recordsets.delete', (d) => d.recordsets.delete(bob, fx.imported, fx.recordset)],
  ['recordsets.listAll', (d) => d.recordsets.listAll(bob, { type: 'A' })],
  ['quotas.get', (d) => d.quotas.get(admin, 'bob')],
  ['quotas.set', (d) => d.quotas.set(admin, 'alice', { zones: 3, zone_records: 10 })],
  ['quotas.reset', (d) => d.quotas.reset(admin, 'bob')],
  ['imports.create', (d) => d.imports.create(alice, FILE('new-import.com.'), 'text/dns')],
  ['imports.get', (d) => d.imports.get(bob, fx.importId)],
  ['imports.list', (d) => d.imports.list(bob)],
  ['imports.delete', (d) => d.imports.delete(bob, fx.importId)],
  ['exports.create', (d) => d.exports.create(alice, fx.zoneA)],
  ['exports.get', (d) => d.exports.get(bob, fx.exportId)],
  ['exports.list', (d) => d.exports.list(bob)],
  ['exports.delete', (d) => d.exports.delete(bob, fx.exportId)],
  ['exports.file', (d) => d.exports.file(bob, fx.exportId)],
  ['recordsets.find', (d) => d.recordsets.find(bob, fx.recordset)],
  ['tlds.create', (d) => d.tlds.create(admin, { name: 'net' })],
  ['tlds.get', (d) => d.tlds.get(admin, fx.tld)],
  ['tlds.list', (d) => d.tlds.list(admin, { limit: '1' })],
  ['tlds.update', (d) => d.tlds.update(admin, fx.tld, { description: 'x' })],
  ['tlds.delete', (d) => d.tlds.delete(admin, fx.tld)],
  ['blacklists.create', (d) => d.blacklists.create(admin, { pattern: 'evil' })],
  ['blacklists.get', (d) => d.blacklists.get(admin, fx.blacklist)],
  ['blacklists.list', (d) => d.blacklists.list(admin, { limit: '1' })],
  ['blacklists.update', (d) => d.blacklists.update(admin, fx.blacklist, { pattern: 'x' })],
  ['blacklists.delete', (d) => d.blacklists.delete(admin, fx.blacklist)],
];


/** Every command of the quota service, on projects p1, p2 and p3 holding quotas. */
export const quotaCommands: [string, (q: QuotaService) => ResultAsync<unknown, ApiError>][] = [
  ['effective', (q) => q.effective({ projectId: 'p1', roles: ['member'] })],
  ['projectQuotas.list', (q) => q.projectQuotas.list(quotaAdmin, { limit: '2', offset: '1' })],
  ['projectQuotas.get', (q) => q.projectQuotas.get(quotaAdmin, 'p2')],
  ['projectQuotas.set (new record)', (q) => q.projectQuotas.set(quotaAdmin, 'p9', { project_quotas: { cas: 1 } })],
  ['projectQuotas.set (merge)', (q) => q.projectQuotas.set(quotaAdmin, 'p1', { project_quotas: { cas: 1 } })],
  ['projectQuotas.delete', (q) => q.projectQuotas.delete(quotaAdmin, 'p3')],
  ['enforce', (q) => q.enforce('p1', 'secrets', { inUse: 1 })],
];
