/**
 * `npm start`: a short tour of zoneward. Two projects create zones, each sees only its own,
 * one zone is updated, one deleted, one abandoned by an admin; a zone file is imported, the zone
 * given to another project, a record set added to it and the zone exported. Each call is printed
 * with a short answer (the commands answer the documented JSON bodies, which the tour abbreviates).
 * Last, the rest of the v2 API an admin runs: TLDs and blacklists (and what they refuse), a TSIG
 * key, the pools, the limits and the service statuses.
 */
import { createDnsService, type RequestContext } from '../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../src/testing/index.js';

const clock = manualClock('2026-11-22T09:00:00Z');
const dns = createDnsService({ clock, ids: sequentialIds(), random: seededRandom('tour') });

const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const bob: RequestContext = { projectId: 'bob', roles: ['member'] };
const admin: RequestContext = { projectId: 'ops', roles: ['admin'], allProjects: true };

/** A body in a few words: what a reader of the tour needs, not the whole JSON. */
function summary(body: unknown): string {
  if (body === undefined || body === null) return 'done (no body)';
  const b = body as Record<string, unknown>;
  const list = ['zones', 'recordsets', 'pools', 'service_statuses'].find((k) => Array.isArray(b[k]));
  if (list !== undefined) {
    const items = b[list] as Record<string, unknown>[];
    const names = items.map((i) =>
      list === 'recordsets' ? `${String(i['name'])} ${String(i['type'])}` : list === 'service_statuses' ? `${String(i['service_name'])} ${String(i['status'])}` : String(i['name']),
    );
    return `${items.length} ${list}${names.length > 0 ? `: ${names.join(', ')}` : ''}`;
  }
  const parts: string[] = [];
  for (const k of ['status', 'action', 'name', 'pattern', 'type', 'serial', 'ttl', 'records', 'zone_name', 'key', 'zone_id', 'algorithm', 'scope', 'message']) {
    const v = b[k];
    if (v !== undefined && v !== null && v !== 'NONE') parts.push(`${k} ${Array.isArray(v) ? v.join(' ') : typeof v === 'string' ? v : JSON.stringify(v)}`);
  }
  return parts.join(', ');
}

/** One call and its answer, on one line: `call → answer`. */
const show = (call: string, result: { isOk(): boolean; value?: unknown; error?: { status: number; type: string; message: string } }, note = ''): void => {
  const answer = result.isOk() ? `ok: ${summary(result.value)}` : `${result.error!.status} ${result.error!.type}: ${result.error!.message}`;
  console.log(`${call}\n    → ${answer}${note === '' ? '' : `   (${note})`}`);
};
const say = (text: string): void => console.log(`\n# ${text}`);

const example = await dns.zones.create(alice, { name: 'example.com.', email: 'hostmaster@example.com', ttl: 3600, description: 'Alice’s zone' });
say('Two projects, alice and bob, each with their own zones');
show("dns.zones.create(alice, { name: 'example.com.', email: 'hostmaster@example.com', ttl: 3600 })", example, 'as the real service: the push to the DNS servers follows');
await dns.tasks.settle();
if (example.isOk()) show('await dns.tasks.settle(); dns.zones.get(alice, id)', await dns.zones.get(alice, example.value.id));
clock.advance(1000);
show("dns.zones.create(bob, { name: 'example.org.', email: 'dns@example.org' })", await dns.zones.create(bob, { name: 'example.org.', email: 'dns@example.org' }));
show("dns.zones.create(bob, { name: 'www.example.com.', … })", await dns.zones.create(bob, { name: 'www.example.com.', email: 'dns@example.org' }), 'a subzone of a zone alice owns');

show("dns.zones.list(alice, { limit: '10' })", await dns.zones.list(alice, { limit: '10' }));
if (example.isOk()) {
  const id = example.value.id;
  show('dns.zones.get(bob, aliceZoneId)', await dns.zones.get(bob, id), 'another project’s zone: 404, nothing leaks');
  show('dns.recordsets.list(alice, id)', await dns.recordsets.list(alice, id));
  clock.advance(60_000);
  show("dns.zones.update(alice, id, { ttl: 600, description: 'updated' })", await dns.zones.update(alice, id, { ttl: 600, description: 'updated' }), 'the serial goes up');
  show('dns.zones.delete(alice, id)', await dns.zones.delete(alice, id));
  await dns.tasks.settle();
  show('await dns.tasks.settle(); dns.zones.get(alice, id)', await dns.zones.get(alice, id), 'gone once the DNS servers dropped it');
}
const orgs = await dns.zones.list(admin, { name: '*.org.' });
say('An admin');
show("dns.zones.list({ roles: ['admin'], allProjects: true, … }, { name: '*.org.' })", orgs);
const bobZone = (orgs.isOk() ? (orgs.value as { zones: { id: string }[] }).zones[0]?.id : undefined) ?? '';
show('dns.zones.abandon(bob, bobZoneId)', await dns.zones.abandon(bob, bobZone), 'admin only');
show('dns.zones.abandon(admin, bobZoneId)', await dns.zones.abandon(admin, bobZone));
show('dns.zones.list(admin)', await dns.zones.list(admin));

// A zone file in, a zone moved to another project, a zone file out.
const file = `$ORIGIN shop.example.\n$TTL 3600\n@ IN SOA ns1.shop.example. admin.shop.example. 2026112201 7200 900 1209600 300\n@ IN NS ns1.shop.example.\nwww 300 IN A 192.0.2.10\n@ IN MX 10 mail\n`;
const imported = await dns.imports.create(alice, file, 'text/dns');
say('A zone file in, a zone given to another project, a zone file out');
show("dns.imports.create(alice, file, 'text/dns')", imported);
await dns.tasks.settle();
if (imported.isOk()) {
  const done = await dns.imports.get(alice, imported.value.id);
  show('await dns.tasks.settle(); dns.imports.get(alice, importId)', done);
  const zoneId = done.isOk() ? done.value.zone_id ?? '' : '';
  const request = await dns.transferRequests.create(alice, zoneId, { target_project_id: 'bob', description: 'yours now' });
  show("dns.transferRequests.create(alice, zoneId, { target_project_id: 'bob' })", request, 'only alice sees the key');
  show('dns.transferRequests.get(bob, requestId)', await dns.transferRequests.get(bob, request.isOk() ? request.value.id : ''), 'the reduced view: no key');
  const key = request.isOk() ? (request.value.key ?? '') : '';
  show('dns.transferAccepts.create(bob, { zone_transfer_request_id, key })', await dns.transferAccepts.create(bob, { zone_transfer_request_id: request.isOk() ? request.value.id : '', key }));
  clock.advance(60_000);
  show("dns.recordsets.create(bob, zoneId, { name: 'api.shop.example.', type: 'A', records: ['192.0.2.20', '192.0.2.21'] })", await dns.recordsets.create(bob, zoneId, { name: 'api.shop.example.', type: 'A', records: ['192.0.2.20', '192.0.2.21'], ttl: 300 }));
  show("dns.recordsets.create(bob, zoneId, { name: 'api.shop.example.', type: 'CNAME', … })", await dns.recordsets.create(bob, zoneId, { name: 'api.shop.example.', type: 'CNAME', records: ['www.shop.example.'] }), 'a CNAME beside other data, refused as by every DNS server');
  show('dns.recordsets.list(alice, zoneId)', await dns.recordsets.list(alice, zoneId), 'alice gave the zone away');
  const exported = await dns.exports.create(bob, zoneId);
  await dns.tasks.settle();
  if (exported.isOk()) {
    const text = await dns.exports.file(bob, exported.value.id);
    console.log(`dns.exports.create(bob, zoneId); await dns.tasks.settle(); dns.exports.file(bob, exportId)\n${text.isOk() ? text.value.replace(/^/gm, '    ') : JSON.stringify(text.error.toJSON())}`);
  }
}

say('The rest of the v2 API: TLDs, blacklists, TSIG keys, pools, limits, service statuses (admin only)');
show("dns.tlds.create(alice, { name: 'test' })", await dns.tlds.create(alice, { name: 'test' }), 'admin only');
show("dns.tlds.create(admin, { name: 'test' })", await dns.tlds.create(admin, { name: 'test' }));
show("dns.zones.create(alice, { name: 'shop.example.net.', … })", await dns.zones.create(alice, { name: 'shop.example.net.', email: 'a@example.com' }), 'once a TLD exists, a zone must be under one');
show("dns.zones.create(alice, { name: 'shop.test.', … })", await dns.zones.create(alice, { name: 'shop.test.', email: 'a@example.com' }));
show("dns.blacklists.create(admin, { pattern: '^db\\.', description: 'no database zones' })", await dns.blacklists.create(admin, { pattern: '^db\\.', description: 'no database zones' }));
show("dns.zones.create(alice, { name: 'db.test.', … })", await dns.zones.create(alice, { name: 'db.test.', email: 'a@example.com' }), 'a Python regular expression, searched');
show("dns.zones.create(admin, { name: 'db.test.', … })", await dns.zones.create(admin, { name: 'db.test.', email: 'a@example.com' }), 'the policy lets an admin through');
const pools = await dns.pools.list(admin);
show('dns.pools.list(admin)', pools);
const poolId = pools.isOk() ? ((pools.value as { pools: { id: string }[] }).pools[0]?.id ?? '') : '';
show(
  "dns.tsigkeys.create(admin, { name: 'xfr', algorithm: 'hmac-sha256', secret, scope: 'POOL', resource_id: poolId })",
  await dns.tsigkeys.create(admin, { name: 'xfr', algorithm: 'hmac-sha256', secret: 'c2VjcmV0LWtleQ==', scope: 'POOL', resource_id: poolId }),
);
const limits = await dns.limits.get(alice);
console.log(`dns.limits.get(alice)\n    → ${limits.isOk() ? Object.entries(limits.value).map(([k, v]) => `${k} ${String(v)}`).join(', ') : limits.error.type}`);
show('dns.serviceStatuses.list(admin)', await dns.serviceStatuses.list(admin));
