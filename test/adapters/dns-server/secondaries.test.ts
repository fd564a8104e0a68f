/**
 * Real secondaries: BIND 9.18 and Knot 3.2, configured once as consumers of zoneward's catalog
 * zone, are the pool targets (`secondaryTargets`). Creating, updating, importing, transferring
 * between projects and deleting zones through the API is reflected by `dig` against both, and
 * a zone's status follows what they serve: ACTIVE once both serve its serial; with one stopped,
 * PENDING, then ERROR at the targets' deadline.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWith, requirement } from '../../support/requires.js';
import { secondaryTargets, serveDns, type DnsServer } from '../../../src/adapters/dns-server/index.js';
import { createDnsService, type DnsService } from '../../../src/index.js';
import { freePort } from '../../dns/secondary/nsd.js';
import { bindAvailable, knotAvailable, startBind, startKnot, type Secondary } from './secondaries.js';

const run = promisify(execFile);
const digAvailable = await run('dig', ['-v']).then(
  () => true,
  () => false,
);
const needs = [
  requirement('named', bindAvailable, 'apt-get install bind9'),
  requirement('knotd', knotAvailable, 'apt-get install knot'),
  requirement('dig', digAvailable, 'apt-get install dnsutils'),
];

const alice = { projectId: 'alice', roles: ['member'] };
const bob = { projectId: 'bob', roles: ['member'] };
const TIMEOUT_MS = 8000;

/** `dig +short` against a secondary: the answer lines, or the status when there is no answer. */
async function dig(server: Secondary, name: string, type: string): Promise<string> {
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(server.port), '+norec', '+time=2', '+tries=1', '+noall', '+answer', '+comments', name, type]);
  const status = /status: (\w+)/.exec(stdout)?.[1] ?? 'NO ANSWER';
  const answers = stdout
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith(';'))
    .map((l) => l.split(/\s+/).slice(4).join(' '));
  return answers.length > 0 ? answers.join('\n') : status;
}

describeWith(needs, 'BIND and Knot as catalog-zone secondaries of zoneward', () => {
  let dns: DnsService;
  let server: DnsServer;
  let bind: Secondary;
  let knot: Secondary;
  const both = async (name: string, type: string) => [await dig(bind, name, type), await dig(knot, name, type)];
  const status = async (id: string) => (await dns.zones.get(alice, id)).map((z) => z.status).unwrapOr('GONE');

  beforeAll(async () => {
    const [bindPort, knotPort] = [await freePort(), await freePort()];
    const targets = secondaryTargets({ servers: [`127.0.0.1:${bindPort}`, `127.0.0.1:${knotPort}`], timeoutMs: TIMEOUT_MS, pollMs: 100 });
    dns = createDnsService({ poolTargets: targets });
    server = await serveDns({ dns, targets });
    bind = startBind(bindPort, server.port, server.catalog);
    knot = startKnot(knotPort, server.port, server.catalog);
  });
  afterAll(async () => {
    await bind?.dispose();
    await knot?.dispose();
    await server?.close();
  });

  it('a created zone is ACTIVE once both serve it; a record added is served with the new serial', async () => {
    const zone = (await dns.zones.create(alice, { name: 'created.test.', email: 'a@created.test' }))._unsafeUnwrap();
    expect(zone.status).toBe('PENDING');
    await dns.tasks.settle();
    expect(await status(zone.id), `${bind.log()}\n${knot.log()}`).toBe('ACTIVE');
    const serial = (await dns.zones.get(alice, zone.id))._unsafeUnwrap().serial;
    for (const soa of await both('created.test.', 'SOA')) expect(soa.split(' ')[2]).toBe(String(serial));

    (await dns.recordsets.create(alice, zone.id, { name: 'www.created.test.', type: 'A', records: ['192.0.2.10'] }))._unsafeUnwrap();
    await dns.tasks.settle();
    expect(await status(zone.id)).toBe('ACTIVE');
    expect(await both('www.created.test.', 'A')).toEqual(['192.0.2.10', '192.0.2.10']);
  });

  it('an imported zone is served with its records; a zone given to another project stays served', async () => {
    const text = '$ORIGIN imported.test.\n$TTL 300\n@ IN SOA ns1.example.org. h.imported.test. 7 3600 600 86400 300\n@ IN NS ns1.example.org.\nmail IN A 192.0.2.25\n@ IN MX 10 mail\n';
    const job = (await dns.imports.create(alice, text, 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    const done = (await dns.imports.get(alice, job.id))._unsafeUnwrap();
    expect(done.status, String(done.message)).toBe('COMPLETE');
    expect(await both('imported.test.', 'MX')).toEqual(['10 mail.imported.test.', '10 mail.imported.test.']);
    expect(await status(done.zone_id!)).toBe('ACTIVE');

    const request = (await dns.transferRequests.create(alice, done.zone_id!, { target_project_id: 'bob' }))._unsafeUnwrap();
    (await dns.transferAccepts.create(bob, { zone_transfer_request_id: request.id, key: request.key }))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.zones.get(bob, done.zone_id!))._unsafeUnwrap().status).toBe('ACTIVE');
    expect(await both('mail.imported.test.', 'A')).toEqual(['192.0.2.25', '192.0.2.25']);
  });

  it('a deleted zone is gone from both once the delete completes', async () => {
    const zone = (await dns.zones.create(alice, { name: 'deleted.test.', email: 'a@deleted.test' }))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await both('deleted.test.', 'SOA')).every((a) => a.includes('ns1.example.org.'))).toBe(true);
    (await dns.zones.delete(alice, zone.id))._unsafeUnwrap();
    await dns.tasks.settle();
    expect(await status(zone.id)).toBe('GONE');
    expect(await both('deleted.test.', 'SOA')).toEqual(['REFUSED', 'REFUSED']);
  });

  it('with one secondary stopped, a new zone stays PENDING, then goes to ERROR at the deadline', async () => {
    await knot.stop();
    try {
      const zone = (await dns.zones.create(alice, { name: 'stopped.test.', email: 'a@stopped.test' }))._unsafeUnwrap();
      await new Promise((r) => setTimeout(r, 1500));
      expect(await status(zone.id)).toBe('PENDING');
      expect(await dig(bind, 'stopped.test.', 'SOA')).toContain('ns1.example.org.');
      await dns.tasks.settle();
      expect(await status(zone.id)).toBe('ERROR');
    } finally {
      knot.start();
    }
  });
});
