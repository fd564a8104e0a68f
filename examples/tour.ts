/**
 * `npm start`: a short tour of zoneward. Two projects create zones, each sees only its own,
 * one zone is updated, one deleted, one abandoned by an admin; a zone file is imported, the zone
 * given to another project, a record set added to it and the zone exported. Every answer is the
 * documented JSON body (or error body) the real service would send.
 */
import { createDnsService, type RequestContext } from '../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../src/testing/index.js';

const clock = manualClock('2026-11-22T09:00:00Z');
const dns = createDnsService({ clock, ids: sequentialIds(), random: seededRandom('tour') });

const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const bob: RequestContext = { projectId: 'bob', roles: ['member'] };
const admin: RequestContext = { projectId: 'ops', roles: ['admin'], allProjects: true };

const show = (title: string, result: { isOk(): boolean; value?: unknown; error?: { toJSON(): object } }): void => {
  const body = result.isOk() ? result.value : { status: 'error', body: result.error?.toJSON() };
  console.log(`\n# ${title}\n${JSON.stringify(body ?? null, null, 2)}`);
};

const example = await dns.zones.create(alice, { name: 'example.com.', email: 'hostmaster@example.com', ttl: 3600, description: 'Alice’s zone' });
show('alice creates example.com. (answered PENDING, as the real service: the push to the DNS servers follows)', example);
await dns.tasks.settle();
if (example.isOk()) show('…a moment later it is ACTIVE', await dns.zones.get(alice, example.value.id));
clock.advance(1000);
show('bob creates example.org.', await dns.zones.create(bob, { name: 'example.org.', email: 'dns@example.org' }));
show('bob cannot take a name alice owns', await dns.zones.create(bob, { name: 'www.example.com.', email: 'dns@example.org' }));

show('alice lists her zones', await dns.zones.list(alice, { limit: '10' }));
if (example.isOk()) {
  const id = example.value.id;
  show('bob asks for alice’s zone: 404, nothing leaks', await dns.zones.get(bob, id));
  show('alice’s zone: its SOA and NS recordsets', await dns.recordsets.list(alice, id));
  clock.advance(60_000);
  show('alice updates the TTL (serial and version go up; PENDING until pushed)', await dns.zones.update(alice, id, { ttl: 600, description: 'updated' }));
  show('alice deletes it (answered DELETE/PENDING)', await dns.zones.delete(alice, id));
  await dns.tasks.settle();
  show('…and once the DNS servers dropped it, it is gone', await dns.zones.get(alice, id));
}
const orgs = await dns.zones.list(admin, { name: '*.org.' });
show('an admin with all-projects lists *.org.', orgs);
const bobZone = (orgs.isOk() ? (orgs.value as { zones: { id: string }[] }).zones[0]?.id : undefined) ?? '';
show('bob may not abandon a zone (admin only)', await dns.zones.abandon(bob, bobZone));
show('the admin abandons bob’s zone', await dns.zones.abandon(admin, bobZone));
show('nothing is left', await dns.zones.list(admin));

// A zone file in, a zone moved to another project, a zone file out.
const file = `$ORIGIN shop.example.\n$TTL 3600\n@ IN SOA ns1.shop.example. admin.shop.example. 2026112201 7200 900 1209600 300\n@ IN NS ns1.shop.example.\nwww 300 IN A 192.0.2.10\n@ IN MX 10 mail\n`;
const imported = await dns.imports.create(alice, file, 'text/dns');
show('alice imports a zone file (answered PENDING)', imported);
await dns.tasks.settle();
if (imported.isOk()) {
  const done = await dns.imports.get(alice, imported.value.id);
  show('…processed as a task', done);
  const zoneId = done.isOk() ? done.value.zone_id ?? '' : '';
  const request = await dns.transferRequests.create(alice, zoneId, { target_project_id: 'bob', description: 'yours now' });
  show('alice offers the zone to bob (only alice sees the key)', request);
  show('bob reads the request: the reduced view', await dns.transferRequests.get(bob, request.isOk() ? request.value.id : ''));
  const key = request.isOk() ? (request.value.key ?? '') : '';
  show('bob accepts with the key', await dns.transferAccepts.create(bob, { zone_transfer_request_id: request.isOk() ? request.value.id : '', key }));
  clock.advance(60_000);
  show('bob adds a record set: two addresses for api.shop.example.', await dns.recordsets.create(bob, zoneId, { name: 'api.shop.example.', type: 'A', records: ['192.0.2.20', '192.0.2.21'], ttl: 300 }));
  show('a CNAME beside other data is refused, as by every DNS server', await dns.recordsets.create(bob, zoneId, { name: 'api.shop.example.', type: 'CNAME', records: ['www.shop.example.'] }));
  show('alice no longer sees the zone she gave away', await dns.recordsets.list(alice, zoneId));
  const exported = await dns.exports.create(bob, zoneId);
  await dns.tasks.settle();
  if (exported.isOk()) {
    const text = await dns.exports.file(bob, exported.value.id);
    console.log(`\n# bob exports the zone file\n${text.isOk() ? text.value : JSON.stringify(text.error.toJSON())}`);
  }
}
