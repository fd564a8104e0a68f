/**
 * SECONDARY zones, zoneward against the real service, both transferring from one real master
 * (NSD on 127.0.0.1): the zone after each step (create, pool push, transfer, its push, xfr with
 * an unchanged serial), the events of each step, the recordsets before and after the transfer,
 * and the refusals of xfr. The real side is test/oracle/secondary_oracle.py (the designate
 * oracle with the worker's real GetZoneSerial and ZoneXfr tasks).
 */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axfrMasters } from '../../src/adapters/axfr/index.js';
import { createDnsService, type ZoneBody } from '../../src/index.js';
import { nsdRequirement, startNsd, type RunningNsd } from '../dns/secondary/nsd.js';
import { describeWith } from '../support/requires.js';
import { oracleDir, oracleRequirement } from './oracle-process.js';

const ZONE = `$ORIGIN example.com.
$TTL 3600
@ IN SOA ns1.example.com. hostmaster.example.com. 2024010101 7200 3600 1209600 300
@ 86400 IN NS ns1
@ 86400 IN NS ns2.example.net.
@ 300 IN MX 10 mail
@ 300 IN TXT "v=spf1 mx -all"
ns1 300 IN A 192.0.2.53
mail IN A 192.0.2.25
mail IN AAAA 2001:db8::25
www 600 IN CNAME mail
_sip._tcp 300 IN SRV 10 5 5060 sip
sip 300 IN A 192.0.2.60
`;

interface Step {
  step: string;
  zone: { status: string; action: string; version: number; serial: number; transferred_at: string | null };
  events: string[];
}
interface Recordset {
  name: string;
  type: string;
  ttl: number | null;
  records: string[];
}
interface Real {
  steps: Step[];
  recordsets_before: Recordset[];
  recordsets: Recordset[];
  xfr_primary: { error_type: string; code: number; message: string };
  xfr_other_project: { error_type: string; code: number };
  failures: { label: string; zone: Step['zone']; events: string[] }[];
}

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'secondary_oracle.py');
const p1 = { projectId: 'p1', roles: ['member', 'reader'] };
const p2 = { projectId: 'p2', roles: ['member', 'reader'] };
/** The refresh of an SOA is random on both sides. */
const maskRefresh = (r: Recordset): Recordset => ({ ...r, records: r.records.map((d) => (r.type === 'SOA' ? d.replace(/^(\S+ \S+ \d+) \d+/, '$1 R') : d)) });
const comparable = (rs: readonly Recordset[]) => rs.map(maskRefresh).map((r) => ({ ...r, records: [...r.records].sort() })).sort((a, b) => `${a.name} ${a.type}`.localeCompare(`${b.name} ${b.type}`));

describeWith([nsdRequirement, oracleRequirement()], 'SECONDARY zones: zoneward and the real service, one real master', () => {
  let nsd: RunningNsd;
  let real: Real;
  // Two hostile masters: one accepts and never answers, one answers a framed message of garbage.
  const silent = createServer(() => undefined);
  const garbage = createServer((socket) => socket.end(Buffer.from([0, 5, 1, 2, 3, 4, 5])));
  const portOf = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  let ports: [number, number];
  beforeAll(async () => {
    nsd = await startNsd('example.com.', ZONE);
    ports = [await portOf(silent), await portOf(garbage)];
    // spawn, not spawnSync: the hostile masters answer from this process's event loop.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('/usr/bin/python3', [SCRIPT, oracleDir(), String(nsd.port), String(ports[0]), String(ports[1])], { timeout: 150_000 });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    if (run.status !== 0) throw new Error(`secondary_oracle.py: ${run.stderr.slice(-2000)}`);
    real = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Real;
  }, 180_000);
  afterAll(async () => {
    silent.close();
    garbage.close();
    await nsd?.stop();
  });

  it('answers every step, event and recordset as the real service does', async () => {
    const dns = createDnsService({ masters: axfrMasters({ timeoutMs: 5000 }), tasks: 'manual' });
    const events: string[] = [];
    dns.events.subscribe((e) => {
      if (/^dns\.(domain|zone)\./.test(e.type)) events.push(e.type);
    });
    const steps: Step[] = [];
    const zone: ZoneBody = (await dns.zones.create(p1, { name: 'example.com.', type: 'SECONDARY', masters: [`127.0.0.1:${nsd.port}`] }))._unsafeUnwrap();
    const record = async (step: string) => {
      const z = (await dns.zones.get(p1, zone.id))._unsafeUnwrap();
      steps.push({ step, zone: { status: z.status, action: z.action, version: z.version, serial: z.serial, transferred_at: z.transferred_at }, events: events.splice(0) });
    };
    const list = async () => (await dns.recordsets.list(p1, zone.id))._unsafeUnwrap().recordsets.map(({ name, type, ttl, records }) => ({ name, type, ttl, records: [...records] }));

    const before = await list();
    await record('create');
    expect(await dns.tasks.runNext()).toBe(true);
    await record('push');
    expect(await dns.tasks.runNext()).toBe(true);
    await record('transfer');
    expect(await dns.tasks.runNext()).toBe(true);
    await record('push after transfer');
    const after = await list();
    (await dns.zones.xfr(p1, zone.id))._unsafeUnwrap();
    await dns.tasks.settle();
    await record('xfr with the same serial');

    // transferred_at: whole seconds on both sides (the real column drops the fraction).
    const seconds = (t: string | null) => (t === null ? null : t.replace(/\.000000$/, '').replace(/T.*/, 'T…'));
    const shape = (s: Step[]) => s.map((x) => ({ ...x, zone: { ...x.zone, transferred_at: seconds(x.zone.transferred_at) } }));
    expect(shape(steps)).toEqual(shape(real.steps.map(({ step, zone: z, events: e }) => ({ step, zone: z, events: e }))));
    for (const s of steps) if (s.zone.transferred_at !== null) expect(s.zone.transferred_at).toMatch(/\.000000$/);
    expect(comparable(before)).toEqual(comparable(real.recordsets_before));
    expect(comparable(after)).toEqual(comparable(real.recordsets));

    const primary = (await dns.zones.create(p1, { name: 'p.org.', email: 'a@p.org' }))._unsafeUnwrap();
    const e = (await dns.zones.xfr(p1, primary.id))._unsafeUnwrapErr();
    expect({ error_type: e.type, code: e.status, message: e.message }).toEqual({ error_type: real.xfr_primary.error_type, code: real.xfr_primary.code, message: real.xfr_primary.message });
    const hidden = (await dns.zones.xfr(p2, zone.id))._unsafeUnwrapErr();
    expect({ error_type: hidden.type, code: hidden.status }).toEqual({ error_type: real.xfr_other_project.error_type, code: real.xfr_other_project.code });
  });

  it('leaves what the real service leaves after a failed transfer: the zone as it was, no event', async () => {
    const dns = createDnsService({ masters: axfrMasters({ timeoutMs: 2000 }), tasks: 'manual' });
    const events: string[] = [];
    dns.events.subscribe((e) => {
      if (/^dns\.(domain|zone)\./.test(e.type)) events.push(e.type);
    });
    const failures: Real['failures'] = [];
    for (const [label, port] of [['refused', nsd.port], ['silent', ports[0]], ['garbage', ports[1]]] as const) {
      const zone = (await dns.zones.create(p1, { name: `${label}.example.net.`, type: 'SECONDARY', masters: [`127.0.0.1:${port}`] }))._unsafeUnwrap();
      expect(await dns.tasks.runNext()).toBe(true); // the push
      events.length = 0;
      expect(await dns.tasks.runNext()).toBe(true); // the transfer, which fails
      await dns.tasks.settle();
      const z = (await dns.zones.get(p1, zone.id))._unsafeUnwrap();
      failures.push({ label, zone: { status: z.status, action: z.action, version: z.version, serial: z.serial, transferred_at: z.transferred_at }, events: events.splice(0) });
    }
    expect(real.failures).toHaveLength(3);
    expect(failures).toEqual(real.failures);
  });
});
