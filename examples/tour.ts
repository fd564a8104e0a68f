/**
 * `npm start`: a short tour of zoneward. Two projects create zones, each sees only its own,
 * one zone is updated, one deleted, one abandoned by an admin; every answer is the documented
 * JSON body (or error body) the real service would send.
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
show('alice creates example.com.', example);
clock.advance(1000);
show('bob creates example.org.', await dns.zones.create(bob, { name: 'example.org.', email: 'dns@example.org' }));
show('bob cannot take a name alice owns', await dns.zones.create(bob, { name: 'www.example.com.', email: 'dns@example.org' }));

show('alice lists her zones', await dns.zones.list(alice, { limit: '10' }));
if (example.isOk()) {
  const id = example.value.id;
  show('bob asks for alice’s zone: 404, nothing leaks', await dns.zones.get(bob, id));
  show('alice’s zone: its SOA and NS recordsets', await dns.recordsets.list(alice, id));
  clock.advance(60_000);
  show('alice updates the TTL (serial and version go up)', await dns.zones.update(alice, id, { ttl: 600, description: 'updated' }));
  show('alice deletes it (answered DELETE/PENDING)', await dns.zones.delete(alice, id));
  show('…and it is gone', await dns.zones.get(alice, id));
}
const orgs = await dns.zones.list(admin, { name: '*.org.' });
show('an admin with all-projects lists *.org.', orgs);
const bobZone = (orgs.isOk() ? (orgs.value as { zones: { id: string }[] }).zones[0]?.id : undefined) ?? '';
show('bob may not abandon a zone (admin only)', await dns.zones.abandon(bob, bobZone));
show('the admin abandons bob’s zone', await dns.zones.abandon(admin, bobZone));
show('nothing is left', await dns.zones.list(admin));
