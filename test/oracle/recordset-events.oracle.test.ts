/**
 * What recordset writes announce, and the statuses they leave, zoneward against the real service:
 * the same scenario on both sides (a zone created and served; a recordset created, changed,
 * described and deleted, an empty one created, each write then served; the zone's TTL changed
 * and served; the zone deleted; a zone imported, then served), and after each step the events, the zone's status, action and version, and every
 * recordset's status, action and version. The real side is test/oracle/recordset_events_oracle.py
 * (the designate oracle, whose settle_all plays the worker's pushes).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { createDnsService } from '../../src/index.js';
import { describeWith } from '../support/requires.js';
import { oracleDir, oracleRequirement } from './oracle-process.js';

interface Step {
  step: string;
  zone: { status: string; action: string; version: number };
  events: string[];
  recordsets: string[];
}

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'recordset_events_oracle.py');
const p1 = { projectId: 'p1', roles: ['member', 'reader'] };
const IMPORT = '$ORIGIN imp.test.\n$TTL 300\n@ IN SOA ns1.example.org. h.imp.test. 1 3600 600 86400 300\n@ IN NS ns1.example.org.\nwww IN A 192.0.2.1\nalias IN CNAME www\n';

describeWith(oracleRequirement(), 'recordset writes: events and statuses as the real service', () => {
  let real: Step[];
  beforeAll(() => {
    const run = spawnSync('/usr/bin/python3', [SCRIPT, oracleDir()], { encoding: 'utf8', timeout: 120_000 });
    if (run.status !== 0) throw new Error(`recordset_events_oracle.py: ${run.stderr.slice(-2000)}`);
    real = (JSON.parse(run.stdout) as { steps: Step[] }).steps;
  }, 150_000);

  it('announces each write and each push, and shows the statuses, as the real service does', async () => {
    const dns = createDnsService({ tasks: 'manual', pools: [{ id: 'default', nameservers: [{ hostname: 'ns1.example.org.', priority: 1 }] }] });
    const events: string[] = [];
    dns.events.subscribe((e) => events.push(e.type));
    const steps: Step[] = [];
    const record = async (step: string, zoneId: string) => {
      const z = (await dns.zones.get(p1, zoneId))._unsafeUnwrap();
      const page = (await dns.recordsets.list(p1, zoneId, { limit: 'max' }))._unsafeUnwrap();
      const recordsets = page.recordsets.map((r) => `${r.name} ${r.type} ${r.status}/${r.action} v${r.version}`).sort();
      steps.push({ step, zone: { status: z.status, action: z.action, version: z.version }, events: events.splice(0), recordsets });
    };
    const zone = (await dns.zones.create(p1, { name: 'example.com.', email: 'a@example.com' }))._unsafeUnwrap();
    const z = zone.id;
    await record('zone create', z);
    await dns.tasks.settle();
    await record('zone served', z);
    const rs = (await dns.recordsets.create(p1, z, { name: 'www.example.com.', type: 'A', records: ['192.0.2.1'] }))._unsafeUnwrap();
    await record('recordset create', z);
    await dns.tasks.settle();
    await record('create served', z);
    (await dns.recordsets.update(p1, z, rs.id, { records: ['192.0.2.2', '192.0.2.3'], ttl: 600 }))._unsafeUnwrap();
    await record('recordset update', z);
    await dns.tasks.settle();
    await record('update served', z);
    (await dns.recordsets.update(p1, z, rs.id, { description: 'only this' }))._unsafeUnwrap();
    await record('description update', z);
    await dns.tasks.settle();
    await record('description served', z);
    (await dns.recordsets.create(p1, z, { name: 'empty.example.com.', type: 'TXT', records: [] }))._unsafeUnwrap();
    await record('empty create', z);
    await dns.tasks.settle();
    await record('empty served', z);
    (await dns.recordsets.delete(p1, z, rs.id))._unsafeUnwrap();
    await record('recordset delete', z);
    await dns.tasks.settle();
    await record('delete served', z);
    (await dns.zones.update(p1, z, { ttl: 600 }))._unsafeUnwrap();
    await record('zone update', z);
    await dns.tasks.settle();
    await record('zone update served', z);
    (await dns.zones.delete(p1, z))._unsafeUnwrap();
    await record('zone delete', z);
    await dns.tasks.settle();
    events.splice(0);
    const imp = (await dns.imports.create(p1, IMPORT, 'text/dns'))._unsafeUnwrap();
    // The import's own task, then the zone's first push waits: the real import leaves it PENDING.
    expect(await dns.tasks.runNext()).toBe(true);
    const imported = (await dns.imports.get(p1, imp.id))._unsafeUnwrap().zone_id!;
    await record('import', imported);
    await dns.tasks.settle();
    await record('import served', imported);
    // The imported zone PENDING again: its imported recordsets stay served; one of them changed.
    (await dns.recordsets.create(p1, imported, { name: 'mail.imp.test.', type: 'A', records: ['192.0.2.5'] }))._unsafeUnwrap();
    await record('write in import', imported);
    await dns.tasks.settle();
    await record('write in import served', imported);
    const www = ((await dns.recordsets.list(p1, imported, { name: 'www.imp.test.', type: 'A' }))._unsafeUnwrap().recordsets[0]!).id;
    (await dns.recordsets.update(p1, imported, www, { records: ['192.0.2.9'] }))._unsafeUnwrap();
    await record('imported recordset update', imported);
    await dns.tasks.settle();
    await record('imported update served', imported);
    (await dns.recordsets.create(p1, imported, { name: 'late.imp.test.', type: 'TXT', records: ['"late"'] }))._unsafeUnwrap();
    (await dns.zones.delete(p1, imported))._unsafeUnwrap();
    await record('zone delete with a write waiting', imported);

    expect(steps).toEqual(real);
  });
});
