/**
 * Recordset writes without the real service: the rules the oracle suite settled, pinned as
 * examples, and what the writes must do to everything else (serial, exports, transfers, zone
 * delete, snapshots, blocks, other projects).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDnsService, memoryStorage, type DnsService, type RequestContext } from '../../../src/index.js';
import { countingStorage } from './counting-storage.js';
import { manualClock, scriptedMaster, seededRandom, sequentialIds } from '../../../src/testing/index.js';
import { BLOCK_RECORDSETS } from '../../../src/dns/kernel/blocks.js';
import { RECORDSET_OWNERS } from '../../../src/dns/kernel/owner-index.js';
import { RECORDSETS } from '../../../src/dns/kernel/recordset.js';


const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const bob: RequestContext = { projectId: 'bob', roles: ['member'] };
const adminEm: RequestContext = { projectId: 'alice', roles: ['admin'], editManagedRecords: true };

const service = (quotas?: Record<string, number>): DnsService =>
  createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1), forbiddenStatus: 403, tasks: 'inline', ...(quotas ? { quotas } : {}) });

async function zoneOf(dns: DnsService, name = 'example.com.'): Promise<string> {
  return (await dns.zones.create(alice, { name, email: 'a@example.com' }))._unsafeUnwrap().id;
}

const error = (r: { isErr(): boolean; _unsafeUnwrapErr(): { status: number; type: string; message: string } }): string => {
  const e = r._unsafeUnwrapErr();
  return `${e.status} ${e.type}: ${e.message}`;
};

describe('recordset writes', () => {
  it('create keeps records as a set, bumps the zone, and shows in get, lists and the export', async () => {
    const dns = service();
    const z = await zoneOf(dns);
    const before = (await dns.zones.get(alice, z))._unsafeUnwrap();
    const rs = (await dns.recordsets.create(alice, z, { name: 'www.example.com.', type: 'A', records: ['192.0.2.1', '192.0.2.2', '192.0.2.1'], ttl: 300, description: 'web' }))._unsafeUnwrap();
    expect([rs.records, rs.ttl, rs.description, rs.version, rs.status]).toEqual([['192.0.2.1', '192.0.2.2'], 300, 'web', 1, 'ACTIVE']);
    const after = (await dns.zones.get(alice, z))._unsafeUnwrap();
    expect(after.serial).toBeGreaterThan(before.serial);
    expect(after.version).toBeGreaterThan(before.version);
    expect((await dns.recordsets.get(alice, z, rs.id))._unsafeUnwrap()).toEqual(rs);
    const list = (await dns.recordsets.list(alice, z, { data: '192.0.2.2' }))._unsafeUnwrap() as { recordsets: { id: string }[] };
    expect(list.recordsets.map((r) => r.id)).toEqual([rs.id]);
    const all = (await dns.recordsets.listAll(alice, { type: 'A' }))._unsafeUnwrap() as { recordsets: { id: string }[] };
    expect(all.recordsets.map((r) => r.id)).toEqual([rs.id]);
    const exp = (await dns.exports.create(alice, z))._unsafeUnwrap();
    await dns.tasks.settle();
    const file = (await dns.exports.file(alice, exp.id))._unsafeUnwrap();
    expect(file).toContain('www.example.com. 300 IN A 192.0.2.1\nwww.example.com. 300 IN A 192.0.2.2\n');
  });

  it('answers the real service errors for the rules it settled', async () => {
    const dns = service();
    const z = await zoneOf(dns);
    await dns.recordsets.create(alice, z, { name: 'c.example.com.', type: 'CNAME', records: ['x.example.net.'] });
    expect(error(await dns.recordsets.create(alice, z, { name: 'c.example.com.', type: 'A', records: ['192.0.2.1'] }))).toBe(
      "400 invalid_recordset_location: CNAME recordsets may not share a name with any other records",
    );
    expect(error(await dns.recordsets.create(alice, z, { name: 'example.com.', type: 'CNAME', records: ['x.example.net.'] }))).toBe(
      '400 invalid_recordset_location: CNAME recordsets may not be created at the zone apex',
    );
    expect(error(await dns.recordsets.create(alice, z, { name: 'd.example.com.', type: 'CNAME', records: ['a.example.', 'b.example.'] }))).toBe(
      '400 bad_request: CNAME recordsets may not have more than 1 record',
    );
    await dns.recordsets.create(alice, z, { name: 'a.example.com.', type: 'TXT', records: ['"x"'] });
    expect(error(await dns.recordsets.create(alice, z, { name: 'a.example.com.', type: 'TXT', records: ['"y"'] }))).toBe('409 duplicate_recordset: Duplicate RecordSet');
    expect(error(await dns.recordsets.create(alice, z, { name: 'a.example.org.', type: 'A', records: ['192.0.2.1'] }))).toBe(
      "400 invalid_recordset_location: RecordSet is not contained within it's parent zone",
    );
    expect(error(await dns.recordsets.create(alice, z, { name: 'x.example.com.', type: 'SOA', records: ['a. b. 1 2 3 4 5'] }))).toBe(
      '400 bad_request: Creating a SOA recordset is not allowed',
    );
    expect(error(await dns.recordsets.create(alice, z, JSON.parse('{"name":"x.example.com.","type":"A","records":["192.0.2.1"],"ttl":1,"foo":2}') as unknown))).toBe(
      "400 invalid_object: Provided object does not match schema. Keys ['foo'] are not valid for recordset",
    );
    const bad = (await dns.recordsets.create(alice, z, { name: 'x.example.com.', type: 'MX', records: ['10 mx.example.com', '10 mx.example.com.'] }))._unsafeUnwrapErr();
    expect(bad.toJSON()).toEqual({ code: 400, type: 'invalid_object', errors: { errors: [{ path: ['records', '0'], message: "'10 mx.example.com' is not a 'MX' Record" }] } });
  });

  it('sub zones take their names; managed records need an admin with editManagedRecords', async () => {
    const dns = service();
    const z = await zoneOf(dns);
    await zoneOf(dns, 'sub.example.com.');
    expect(error(await dns.recordsets.create(alice, z, { name: 'www.sub.example.com.', type: 'A', records: ['192.0.2.1'] }))).toBe(
      '400 invalid_recordset_location: RecordSet belongs in a child zone: sub.example.com.',
    );
    const list = (await dns.recordsets.list(alice, z))._unsafeUnwrap() as { recordsets: { id: string; type: string }[] };
    const ns = list.recordsets.find((r) => r.type === 'NS')!.id;
    const soa = list.recordsets.find((r) => r.type === 'SOA')!.id;
    expect(error(await dns.recordsets.delete(alice, z, ns))).toBe('400 bad_request: Managed records may not be deleted');
    expect(error(await dns.recordsets.update(alice, z, soa, { ttl: 5 }))).toBe('400 bad_request: Managed records may not be updated');
    expect(error(await dns.recordsets.get({ ...alice, editManagedRecords: true }, z, ns))).toBe('403 forbidden: Policy does not allow edit_managed_records to be performed.');
    expect(error(await dns.recordsets.delete(adminEm, z, soa))).toBe('400 bad_request: Deleting a SOA recordset is not allowed');
    expect(error(await dns.recordsets.update(adminEm, z, ns, {}))).toBe('400 bad_request: Updating a root zone NS record is not allowed');
    expect((await dns.recordsets.delete(adminEm, z, ns))._unsafeUnwrap()).toMatchObject({ type: 'NS', status: 'PENDING', action: 'DELETE', version: 2 });
    expect(error(await dns.recordsets.get(alice, z, ns))).toBe('404 recordset_not_found: Could not find RecordSet');
    expect((await dns.zones.nameservers(alice, z))._unsafeUnwrap().nameservers).toHaveLength(1);
  });

  it('update bumps versions even for {}, refuses name and type changes; delete is gone at once', async () => {
    const dns = service();
    const z = await zoneOf(dns);
    const rs = (await dns.recordsets.create(alice, z, { name: 'www.example.com.', type: 'A', records: ['192.0.2.1'] }))._unsafeUnwrap();
    const serial = (await dns.zones.get(alice, z))._unsafeUnwrap().serial;
    const same = (await dns.recordsets.update(alice, z, rs.id, {}))._unsafeUnwrap();
    expect(same.version).toBe(2);
    expect((await dns.zones.get(alice, z))._unsafeUnwrap().serial).toBeGreaterThan(serial);
    expect(error(await dns.recordsets.update(alice, z, rs.id, { name: 'w.example.com.' }))).toBe(
      "400 invalid_object: Provided object does not match schema. Keys ['name'] are not valid for recordset",
    );
    const changed = (await dns.recordsets.update(alice, z, rs.id, { records: ['192.0.2.9'], description: 'd', type: 'A' }))._unsafeUnwrap();
    expect([changed.records, changed.description, changed.version]).toEqual([['192.0.2.9'], 'd', 3]);
    const gone = (await dns.recordsets.delete(alice, z, rs.id))._unsafeUnwrap();
    expect([gone.status, gone.action, gone.version]).toEqual(['PENDING', 'DELETE', 4]);
    expect(error(await dns.recordsets.get(alice, z, rs.id))).toBe('404 recordset_not_found: Could not find RecordSet');
  });

  it('another project sees and changes nothing: 404s as the real service', async () => {
    const dns = service();
    const z = await zoneOf(dns);
    const rs = (await dns.recordsets.create(alice, z, { name: 'www.example.com.', type: 'A', records: ['192.0.2.1'] }))._unsafeUnwrap();
    expect(error(await dns.recordsets.create(bob, z, { name: 'x.example.com.', type: 'A', records: ['192.0.2.1'] }))).toBe('404 zone_not_found: Could not find Zone');
    expect(error(await dns.recordsets.list(bob, z))).toBe('404 zone_not_found: Could not find Zone');
    for (const r of [await dns.recordsets.get(bob, z, rs.id), await dns.recordsets.update(bob, z, rs.id, { ttl: 5 }), await dns.recordsets.delete(bob, z, rs.id)]) {
      expect(error(r)).toBe('404 recordset_not_found: Could not find RecordSet');
    }
    expect(((await dns.recordsets.listAll(bob))._unsafeUnwrap() as { recordsets: unknown[] }).recordsets).toEqual([]);
    expect(((await dns.recordsets.listAll({ projectId: 'ops', roles: ['admin'] }))._unsafeUnwrap() as { recordsets: unknown[] }).recordsets).toEqual([]);
    expect((await dns.recordsets.get(alice, z, rs.id))._unsafeUnwrap()).toEqual(rs);
  });

  it('a recordset URL never tells whether its zone exists: unknown, deleted and foreign zones are all recordset_not_found', async () => {
    const dns = service();
    const z = await zoneOf(dns);
    const gone = await zoneOf(dns, 'gone.example.');
    await dns.zones.delete(alice, gone);
    await dns.tasks.settle();
    const rs = '00000000-0000-4000-8000-000000000001';
    for (const [who, zone] of [[alice, '00000000-0000-4000-8000-000000000000'], [alice, gone], [bob, z]] as const) {
      for (const r of [await dns.recordsets.get(who, zone, rs), await dns.recordsets.update(who, zone, rs, { ttl: 600 }), await dns.recordsets.delete(who, zone, rs)]) {
        expect(error(r)).toBe('404 recordset_not_found: Could not find RecordSet');
      }
    }
  });

  it('quotas: zone_recordsets, zone_records and recordset_records are 413', async () => {
    const dns = service({ zone_recordsets: 3, zone_records: 3, recordset_records: 2 });
    const z = await zoneOf(dns);
    expect(error(await dns.recordsets.create(alice, z, { name: 'a.example.com.', type: 'A', records: ['192.0.2.1', '192.0.2.2', '192.0.2.3'] }))).toBe(
      '413 over_quota: Quota exceeded for recordset_records.',
    );
    expect((await dns.recordsets.create(alice, z, { name: 'a.example.com.', type: 'A', records: ['192.0.2.1', '192.0.2.2'] })).isOk()).toBe(true);
    expect(error(await dns.recordsets.create(alice, z, { name: 'b.example.com.', type: 'A', records: ['192.0.2.1'] }))).toBe('413 over_quota: Quota exceeded for zone_recordsets.');
  });

  it('zone delete removes written recordsets; a transfer moves them; a snapshot carries them', async () => {
    const dns = service();
    const z = await zoneOf(dns);
    const rs = (await dns.recordsets.create(alice, z, { name: 'www.example.com.', type: 'TXT', records: ['"v=1"'] }))._unsafeUnwrap();
    const copy = createDnsService({ from: await dns.snapshot() });
    expect((await copy.recordsets.get(alice, z, rs.id))._unsafeUnwrap().records).toEqual(['"v=1"']);
    const req = (await dns.transferRequests.create(alice, z, {}))._unsafeUnwrap();
    (await dns.transferAccepts.create(bob, { zone_transfer_request_id: req.id, key: req.key }))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.recordsets.get(bob, z, rs.id))._unsafeUnwrap().project_id).toBe('bob');
    expect(error(await dns.recordsets.get(alice, z, rs.id))).toBe('404 recordset_not_found: Could not find RecordSet');
    await dns.zones.delete(bob, z);
    await dns.tasks.settle();
    expect(((await dns.recordsets.listAll(bob))._unsafeUnwrap() as { recordsets: unknown[] }).recordsets).toEqual([]);
  });

  it('a snapshot whose blocks are of an earlier layout (no project, an array of types) is refused as another version, a spoiled one as not a block', async () => {
    const dns = service();
    const z = await zoneOf(dns);
    (await dns.recordsets.create(alice, z, { name: 'www.example.com.', type: 'TXT', records: ['"v=1"'] }))._unsafeUnwrap();
    const snap = await dns.snapshot();
    const blocks = snap.collections['dns.recordset_blocks']!;
    expect(blocks.length).toBeGreaterThan(0);
    const withBlocks = (value: (b: Record<string, unknown>) => unknown): typeof snap => ({
      ...snap,
      collections: { ...snap.collections, 'dns.recordset_blocks': blocks.map((r) => ({ ...r, value: value(r.value as Record<string, unknown>) })) },
    });
    const older = withBlocks(({ projectId: _dropped, ...rest }) => rest);
    expect(() => createDnsService({ from: older })).toThrow(/taken by another version/);
    // Types in an array of their own, as blocks held them before `typeCodes`.
    const arrays = withBlocks(({ typeNames, typeCodes: _codes, ...rest }) => ({ ...rest, types: typeNames }));
    expect(() => createDnsService({ from: arrays })).toThrow(/taken by another version/);
    const spoiled = withBlocks((b) => ({ ...b, names: 7 }));
    expect(() => createDnsService({ from: spoiled })).toThrow(/a recordset block that is not one \(.*names/);
  });

  it('an imported zone: its names count for the CNAME and duplicate rules; writes announce themselves', async () => {
    // Ids that fall as they are drawn, so that id order is the reverse of creation order.
    let next = 0xffffff;
    const falling = (): string => `00000000-0000-4000-8000-${(next--).toString(16).padStart(12, '0')}`;
    const clock = manualClock('2026-01-01T00:00:00Z');
    const dns = createDnsService({ clock, ids: falling, random: seededRandom(1), tasks: 'inline' });
    const file = '$ORIGIN imp.test.\n$TTL 300\n@ IN SOA ns1.example.org. h.imp.test. 1 3600 600 86400 300\n@ IN NS ns1.example.org.\nwww IN A 192.0.2.1\nalias IN CNAME www\n';
    const imp = (await dns.imports.create(alice, file, 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    const z = (await dns.imports.get(alice, imp.id))._unsafeUnwrap().zone_id!;
    clock.advance(1);
    const events: string[] = [];
    dns.events.subscribe((e) => events.push(`${e.type} ${String((e.payload as { name?: string }).name)}`));
    expect(error(await dns.recordsets.create(alice, z, { name: 'www.imp.test.', type: 'A', records: ['192.0.2.9'] }))).toBe('409 duplicate_recordset: Duplicate RecordSet');
    expect(error(await dns.recordsets.create(alice, z, { name: 'alias.imp.test.', type: 'TXT', records: ['"x"'] }))).toBe(
      '400 invalid_recordset_location: CNAME recordsets may not share a name with any other records',
    );
    const txt = (await dns.recordsets.create(alice, z, { name: 'www.imp.test.', type: 'TXT', records: ['"x"'] }))._unsafeUnwrap();
    (await dns.recordsets.update(alice, z, txt.id, { ttl: 60 }))._unsafeUnwrap();
    (await dns.recordsets.delete(alice, z, txt.id))._unsafeUnwrap();
    // Deleted, the name is free again for that type; the imported A is still there.
    expect((await dns.recordsets.create(alice, z, { name: 'www.imp.test.', type: 'TXT', records: ['"y"'] })).isOk()).toBe(true);
    expect(error(await dns.recordsets.create(alice, z, { name: 'www.imp.test.', type: 'A', records: ['192.0.2.9'] }))).toBe('409 duplicate_recordset: Duplicate RecordSet');
    expect(events.filter((e) => e.startsWith('dns.recordset.'))).toEqual([
      'dns.recordset.create www.imp.test.',
      'dns.recordset.update www.imp.test.',
      'dns.recordset.delete www.imp.test.',
      'dns.recordset.create www.imp.test.',
    ]);
    expect(events.filter((e) => e.startsWith('dns.zone.update')).length).toBeGreaterThanOrEqual(4);
    // The export lists recordsets in creation order (reference §9.3): imported ones, then written ones.
    clock.advance(1);
    (await dns.recordsets.create(alice, z, { name: 'a.imp.test.', type: 'A', records: ['192.0.2.7'] }))._unsafeUnwrap();
    const exp = (await dns.exports.create(alice, z))._unsafeUnwrap();
    await dns.tasks.settle();
    const lines = (await dns.exports.file(alice, exp.id))._unsafeUnwrap().split('\n').filter((l) => /^(www|alias|a)\.imp/.test(l));
    expect(lines).toEqual(['www.imp.test. 300 IN A 192.0.2.1', 'alias.imp.test. 300 IN CNAME www.imp.test.', 'www.imp.test.  IN TXT "y"', 'a.imp.test.  IN A 192.0.2.7']);
  });

  it('an imported zone of many blocks: the rules see every name, and a write reads the blocks of its name, never the zone (model)', async () => {
    // Owners of one to three types, some spelled in capitals, spread over several blocks (an
    // owner's recordsets may straddle two); the model is name -> types.
    const lines = ['$ORIGIN big.test.', '$TTL 300', '@ IN SOA ns1.example.org. h.big.test. 1 3600 600 86400 300', '@ IN NS ns1.example.org.'];
    const model = new Map<string, string[]>();
    const owners = 700;
    for (let i = 0; i < owners; i++) {
      const label = i % 7 === 0 ? `Host${i}` : `host${i}`;
      const types = i % 11 === 0 ? ['CNAME'] : ['A', ...(i % 3 === 0 ? ['TXT'] : []), ...(i % 5 === 0 ? ['MX'] : [])];
      for (const t of types) lines.push(`${label} IN ${t} ${t === 'A' ? '192.0.2.1' : t === 'TXT' ? '"t"' : t === 'MX' ? '10 mx.example.' : 'target.example.'}`);
      model.set(`${label}.big.test.`, types);
    }
    const storage = countingStorage(memoryStorage());
    const dns = createDnsService({ storage, ids: sequentialIds(), quotas: { zone_recordsets: -1, zone_records: -1 }, tasks: 'inline' });
    const imp = (await dns.imports.create(alice, lines.join('\n'), 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    const z = (await dns.imports.get(alice, imp.id))._unsafeUnwrap().zone_id!;
    const names = [...model.keys()];
    const arbName = fc.oneof(fc.nat(owners - 1).map((i) => names[i]!), fc.nat(owners - 1).map((i) => `HOST${i}.big.test.`), fc.nat(50).map((i) => `new${i}.big.test.`));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(arbName, fc.constantFrom('A', 'TXT', 'MX', 'CNAME'), fc.boolean()), { minLength: 1, maxLength: 30 }), async (ops) => {
        for (const [name, type, remove] of ops) {
          const here = model.get(name) ?? [];
          const expected =
            type === 'CNAME' ? (here.length > 0 ? 400 : 200) : here.includes('CNAME') ? 400 : here.includes(type) ? 409 : 200;
          storage.reads.clear();
          const created = await dns.recordsets.create(alice, z, { name, type, records: [type === 'A' ? '192.0.2.9' : type === 'TXT' ? '"x"' : type === 'MX' ? '10 mx.example.' : 'other.example.'] });
          expect({ name, type, status: created.isOk() ? 200 : created._unsafeUnwrapErr().status }).toEqual({ name, type, status: expected });
          // One owner row (two where a run of the name's hash spans rows), the blocks that hold the
          // name (two where its recordsets straddle blocks), the written ones at it: never the zone.
          expect(storage.reads.get(RECORDSET_OWNERS) ?? 0).toBeLessThanOrEqual(2);
          expect(storage.reads.get(RECORDSETS) ?? 0).toBeLessThanOrEqual(2 + 4);
          if (created.isErr()) continue;
          model.set(name, [...here, type]);
          if (!remove) continue;
          // Delete one of the name's recordsets, imported or written: its type is free again.
          const list = (await dns.recordsets.list(alice, z, { name }))._unsafeUnwrap() as { recordsets: { id: string; name: string; type: string }[] };
          const victim = list.recordsets.find((r) => r.name === name)!;
          storage.reads.clear();
          (await dns.recordsets.delete(alice, z, victim.id))._unsafeUnwrap();
          expect(storage.reads.get(RECORDSETS) ?? 0).toBeLessThanOrEqual(2);
          const rest = model.get(name)!.filter((t) => t !== victim.type);
          if (rest.length === 0) model.delete(name);
          else model.set(name, rest);
        }
      }),
      { numRuns: 20, seed: 19 },
    );
  }, 120_000);

  it("a SECONDARY zone's names are the last transfer's: the rules follow each transfer", async () => {
    const master = scriptedMaster();
    const dns = createDnsService({ masters: master, ids: sequentialIds() });
    const head = (serial: number): string => `$ORIGIN sec.test.\n@ 3600 IN SOA ns1.sec.test. h.sec.test. ${serial} 7200 3600 1209600 300\n@ 3600 IN NS ns1\n`;
    master.serve('sec.test.', `${head(1)}old 300 IN A 192.0.2.1\n`);
    const z = (await dns.zones.create(alice, { name: 'sec.test.', type: 'SECONDARY', masters: ['192.0.2.1'] }))._unsafeUnwrap().id;
    await dns.tasks.settle();
    const a = { type: 'A', records: ['192.0.2.9'] };
    expect(error(await dns.recordsets.create(alice, z, { name: 'old.sec.test.', ...a }))).toBe('409 duplicate_recordset: Duplicate RecordSet');
    master.serve('sec.test.', `${head(2)}new 300 IN CNAME old\n`);
    (await dns.zones.xfr(alice, z))._unsafeUnwrap();
    await dns.tasks.settle();
    expect(error(await dns.recordsets.create(alice, z, { name: 'new.sec.test.', ...a }))).toBe(
      '400 invalid_recordset_location: CNAME recordsets may not share a name with any other records',
    );
    expect((await dns.recordsets.create(alice, z, { name: 'old.sec.test.', ...a })).isOk()).toBe(true);
  });

  it('a snapshot of imported recordsets without their owner index (an earlier layout) is refused as another version', async () => {
    const dns = service();
    const file = '$ORIGIN imp.test.\n$TTL 300\n@ IN SOA ns1.example.org. h.imp.test. 1 3600 600 86400 300\n@ IN NS ns1.example.org.\nwww IN A 192.0.2.1\n';
    (await dns.imports.create(alice, file, 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    const snap = await dns.snapshot();
    expect(() => createDnsService({ from: snap })).not.toThrow();
    const zones = snap.collections['dns.recordset_zones']!;
    expect(zones).toHaveLength(1);
    // The earlier layout: no owner rows, and the zone's row does not count them.
    const collections: Record<string, readonly unknown[]> = { ...snap.collections };
    delete collections[RECORDSET_OWNERS];
    collections['dns.recordset_zones'] = zones.map((r) => {
      const { ownerBits: _dropped, ...rest } = r.value as Record<string, unknown>;
      return { ...r, value: rest };
    });
    const older = { ...snap, collections } as typeof snap;
    expect(() => createDnsService({ from: older })).toThrow(/taken by another version/);
  });

  it('a served write stays ACTIVE while a later one waits; status pages sort such a zone whole', async () => {
    const dns = createDnsService({ tasks: 'manual', clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1) });
    const z = await zoneOf(dns);
    await dns.tasks.settle();
    const served = (await dns.recordsets.create(alice, z, { name: 'a.example.com.', type: 'A', records: ['192.0.2.1'] }))._unsafeUnwrap();
    const empty = (await dns.recordsets.create(alice, z, { name: 'e.example.com.', type: 'TXT', records: [] }))._unsafeUnwrap();
    await dns.tasks.settle();
    const waiting = (await dns.recordsets.create(alice, z, { name: 'b.example.com.', type: 'A', records: ['192.0.2.2'] }))._unsafeUnwrap();
    const state = async (id: string): Promise<string> => {
      const r = (await dns.recordsets.get(alice, z, id))._unsafeUnwrap();
      return `${r.status}/${r.action}`;
    };
    expect([await state(served.id), await state(empty.id), await state(waiting.id)]).toEqual(['ACTIVE/NONE', 'ACTIVE/NONE', 'PENDING/CREATE']);
    for (const sort_dir of ['asc', 'desc']) {
      const page = (await dns.recordsets.list(alice, z, { sort_key: 'status', sort_dir }))._unsafeUnwrap();
      // What a filter matching everything answers: the whole zone sorted as the list sorts.
      const whole = (await dns.recordsets.list(alice, z, { sort_key: 'status', sort_dir, name: '*' }))._unsafeUnwrap();
      expect(page.recordsets.map((r) => `${r.name} ${r.status}`)).toEqual(whole.recordsets.map((r) => `${r.name} ${r.status}`));
      expect(page.recordsets.filter((r) => r.status === 'PENDING').map((r) => r.name).sort()).toEqual(['b.example.com.', 'example.com.']);
    }
    await dns.tasks.settle();
    expect(await state(waiting.id)).toBe('ACTIVE/NONE');
  });

  it('blocks split and stay ordered: every written recordset is found, listed and paged (model)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.nat(10_000)), { minLength: 1, maxLength: 40 }), async (ops) => {
        const dns = createDnsService({ ids: sequentialIds(), quotas: { zone_recordsets: -1, zone_records: -1 } });
        const z = await zoneOf(dns);
        // Enough to split a block: the model is a map from id to name.
        const model = new Map<string, string>();
        for (let i = 0; i < BLOCK_RECORDSETS + 10; i++) {
          const r = (await dns.recordsets.create(alice, z, { name: `n${i}.example.com.`, type: 'A', records: ['192.0.2.1'] }))._unsafeUnwrap();
          model.set(r.id, r.name);
        }
        let k = 0;
        for (const [op, pick] of ops) {
          const ids = [...model.keys()];
          const id = ids[pick % ids.length]!;
          if (op === 0) {
            const r = (await dns.recordsets.create(alice, z, { name: `m${k++}.example.com.`, type: 'TXT', records: ['"t"'] }))._unsafeUnwrap();
            model.set(r.id, r.name);
          } else if (op === 1) {
            expect((await dns.recordsets.update(alice, z, id, { ttl: 60 }))._unsafeUnwrap().ttl).toBe(60);
          } else if (ids.length > 1) {
            (await dns.recordsets.delete(alice, z, id))._unsafeUnwrap();
            model.delete(id);
          }
        }
        for (const [id, name] of model) expect((await dns.recordsets.get(alice, z, id))._unsafeUnwrap().name).toBe(name);
        const seen: string[] = [];
        let marker: string | undefined;
        for (;;) {
          const page = (await dns.recordsets.list(alice, z, { limit: '100', ...(marker ? { marker } : {}) }))._unsafeUnwrap() as {
            recordsets: { id: string; type: string }[];
            metadata: { total_count: number };
          };
          seen.push(...page.recordsets.filter((r) => r.type !== 'SOA' && r.type !== 'NS').map((r) => r.id));
          expect(page.metadata.total_count).toBe(model.size + 2);
          if (page.recordsets.length < 100) break;
          marker = page.recordsets[page.recordsets.length - 1]!.id;
        }
        expect(seen.sort()).toEqual([...model.keys()].sort());
      }),
      { numRuns: 5, seed: 19 },
    );
  }, 120_000);
});
