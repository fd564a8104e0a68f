import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../src/adapters/memory/memory-storage.js';
import { faultyStorage } from '../../../src/testing/index.js';
import { admin, alice, bob, exportText, FIXTURE, generatedZone, harness, importAndSettle } from './harness.js';
import { genZone, renderZone } from './zone-arbitraries.js';
import { itWith, requirement } from '../../support/requires.js';

const newZone = async (h: ReturnType<typeof harness>, name = 'example.com.') =>
  (await h.zones.create(alice, { name, email: 'admin@example.com', ttl: 3600 }))._unsafeUnwrap();

describe('exports', () => {
  it('answers PENDING, then COMPLETE with location and links.export', async () => {
    const h = harness();
    const zone = await newZone(h);
    const created = (await h.exports.create(alice, zone.id))._unsafeUnwrap();
    expect(created).toMatchObject({ status: 'PENDING', message: null, location: null, zone_id: zone.id, project_id: 'alice', version: 1, updated_at: null });
    expect(created.links).toEqual({ self: `http://localhost:9001/v2/zones/tasks/exports/${created.id}` });
    await h.tasks.settle();
    const got = (await h.exports.get(alice, created.id))._unsafeUnwrap();
    expect(got).toMatchObject({ status: 'COMPLETE', message: null, location: `designate://v2/zones/tasks/exports/${created.id}/export`, version: 2 });
    expect(got.links.export).toBe(`http://localhost:9001/v2/zones/tasks/exports/${created.id}/export`);
    expect(h.events.filter((e) => e.type.startsWith('dns.zone_export')).map((e) => e.type)).toEqual(['dns.zone_export.create', 'dns.zone_export.update']);
  });

  it('an empty zone yields $ORIGIN, $TTL, blank line, SOA, NS and two blank lines', async () => {
    const h = harness();
    const zone = await newZone(h);
    const text = await exportText(h, zone.id);
    expect(text).toBe(
      `$ORIGIN example.com.\n$TTL 3600\n\nexample.com.  IN SOA ns1.example.org. admin.example.com. ${zone.serial} 3550 600 86400 3600\nexample.com.  IN NS ns1.example.org.\n\n\n`,
    );
  });

  it('ERROR Zone is too large to export when recordsets (SOA and NS included) exceed api_export_size', async () => {
    const h = harness({ quotas: { api_export_size: 9 } });
    const done = await importAndSettle(h, FIXTURE); // 8 stored + SOA + NS = 10
    const created = (await h.exports.create(alice, done.zone_id!))._unsafeUnwrap();
    await h.tasks.settle();
    expect((await h.exports.get(alice, created.id))._unsafeUnwrap()).toMatchObject({ status: 'ERROR', message: 'Zone is too large to export', location: null });
    const file = await h.exports.file(alice, created.id);
    expect(file._unsafeUnwrapErr()).toMatchObject({ status: 400, type: 'bad_request', message: 'Zone can not be exported synchronously' });
    const ok = harness({ quotas: { api_export_size: 10 } });
    const z = await importAndSettle(ok, FIXTURE);
    expect((await exportText(ok, z.zone_id!)).startsWith('$ORIGIN example.com.\n')).toBe(true);
  });

  it('file(): 400 while PENDING, 406 for another accept, 404 once the zone has gone', async () => {
    const h = harness({ mode: 'manual' });
    const zone = (await h.zones.create(alice, { name: 'example.com.', email: 'a@example.com' }))._unsafeUnwrap();
    const created = (await h.exports.create(alice, zone.id))._unsafeUnwrap();
    expect((await h.exports.file(alice, created.id))._unsafeUnwrapErr().message).toBe('Zone can not be exported synchronously');
    await h.tasks.settle();
    expect((await h.exports.file(alice, created.id, 'application/json'))._unsafeUnwrapErr()).toMatchObject({ status: 406, type: 'unsupported_accept' });
    expect((await h.exports.file(alice, created.id, '*/*')).isOk()).toBe(true);
    expect((await h.exports.file(alice, created.id, 'text/dns')).isOk()).toBe(true);
    expect((await h.exports.file(bob, created.id))._unsafeUnwrapErr().type).toBe('zone_export_not_found');
    await h.zones.delete(alice, zone.id);
    await h.tasks.settle();
    expect((await h.exports.file(alice, created.id))._unsafeUnwrapErr()).toMatchObject({ status: 404, type: 'zone_not_found' });
  });

  it('renders at call time, omits a null or 0 TTL', async () => {
    const h = harness();
    const done = await importAndSettle(h, '$ORIGIN example.com.\n@ 600 IN SOA a b 1 2 3 4 5\nzero 0 IN A 192.0.2.1\nten 10 IN A 192.0.2.2\n');
    const text = await exportText(h, done.zone_id!);
    expect(text).toContain('\nzero.example.com.  IN A 192.0.2.1\nten.example.com. 10 IN A 192.0.2.2\n\n\n');
  });

  it('create: 404 for a zone the caller cannot see, 400 for a bad id; get/list/delete by project', async () => {
    const h = harness();
    const zone = await newZone(h);
    expect((await h.exports.create(bob, zone.id))._unsafeUnwrapErr().type).toBe('zone_not_found');
    expect((await h.exports.create(alice, 'x'))._unsafeUnwrapErr().type).toBe('invalid_uuid');
    const created = (await h.exports.create(alice, zone.id))._unsafeUnwrap();
    await h.tasks.settle();
    const adminExport = (await h.exports.create({ ...admin, allProjects: true }, zone.id))._unsafeUnwrap();
    expect(adminExport.project_id).toBe('ops');
    await h.tasks.settle();
    const list = (await h.exports.list(alice))._unsafeUnwrap() as { exports: { id: string }[]; metadata: { total_count: number } };
    expect(list.exports.map((e) => e.id)).toEqual([created.id]);
    expect(((await h.exports.list(alice, { zone_id: zone.id, status: 'COMPLETE' }))._unsafeUnwrap() as { exports: unknown[] }).exports).toHaveLength(1);
    expect((await h.exports.get(bob, created.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await h.exports.delete(bob, created.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await h.exports.delete(alice, created.id)).isOk()).toBe(true);
    expect((await h.exports.delete(alice, created.id))._unsafeUnwrapErr().type).toBe('zone_export_not_found');
    expect((await h.exports.file(alice, created.id))._unsafeUnwrapErr().status).toBe(404);
    expect((await h.zones.get(alice, zone.id)).isOk()).toBe(true);
  });

  it('ends in ERROR when storage fails inside the task', async () => {
    let failing = false;
    let puts = 0;
    // Only the first write of the outcome fails; the handler's fallback then writes ERROR.
    const storage = faultyStorage(memoryStorage(), (op) => failing && op === 'put' && ++puts === 1);
    const h = harness({ storage });
    const zone = await newZone(h);
    await h.tasks.settle(); // the zone's own push, so that the failing write is the export's
    const created = (await h.exports.create(alice, zone.id))._unsafeUnwrap();
    failing = true;
    await h.tasks.settle();
    failing = false;
    const got = (await h.exports.get(alice, created.id))._unsafeUnwrap();
    expect(got.status).toBe('ERROR');
    expect(got.location).toBeNull();
  });
});

const hasTool = (name: string): boolean => {
  try {
    execFileSync('which', [name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('exported files load in real nameservers', () => {
  const bind = requirement('named-checkzone', hasTool('named-checkzone'), 'apt-get install bind9-utils');
  const knot = requirement('kzonecheck', hasTool('kzonecheck'), 'apt-get install knot-dnssecutils');
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'zoneward-export-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const sample = async (): Promise<string> => {
    const h = harness({ quotas: { zone_recordsets: -1, zone_records: -1, recordset_records: -1, api_export_size: -1 } });
    const generated = generatedZone(400, 7);
    const done = await importAndSettle(h, generated);
    expect(done.status, String(done.message)).toBe('COMPLETE');
    // The fixture too (relative MX targets, multi-string TXT, delegation).
    const fixture = await importAndSettle(h, `${FIXTURE.replaceAll('example.com.', 'example.net.')}ns1 IN A 192.0.2.53\n`);
    expect(fixture.status).toBe('COMPLETE');
    return (await exportText(h, done.zone_id!)) + '\n' + (await exportText(h, fixture.zone_id!));
  };

  itWith(bind, 'named-checkzone accepts an exported generated zone and the fixture', async () => {
    const [first, second] = (await sample()).split('\n$ORIGIN ');
    const dir = tempDir();
    writeFileSync(join(dir, 'a.zone'), first!);
    writeFileSync(join(dir, 'b.zone'), `$ORIGIN ${second!}`);
    execFileSync('named-checkzone', ['-i', 'local', 'example.com', join(dir, 'a.zone')], { stdio: 'pipe' });
    execFileSync('named-checkzone', ['-i', 'local', 'example.net', join(dir, 'b.zone')], { stdio: 'pipe' });
  });

  itWith(knot, 'kzonecheck accepts an exported generated zone and the fixture', async () => {
    const [first, second] = (await sample()).split('\n$ORIGIN ');
    const dir = tempDir();
    writeFileSync(join(dir, 'a.zone'), first!);
    writeFileSync(join(dir, 'b.zone'), `$ORIGIN ${second!}`);
    const run = (origin: string, path: string) => {
      try {
        execFileSync('kzonecheck', ['-o', origin, path], { stdio: 'pipe', encoding: 'utf8' });
      } catch (e) {
        throw new Error(`kzonecheck failed: ${String((e as { stdout?: string }).stdout)}${String((e as { stderr?: string }).stderr)}`);
      }
    };
    run('example.com.', join(dir, 'a.zone'));
    run('example.net.', join(dir, 'b.zone'));
  });

  itWith([bind, knot], 'both load the export of any zone of the default types (fast-check)', async () => {
    const dir = tempDir();
    const load = (tool: string, args: string[]): void => {
      try {
        execFileSync(tool, args, { stdio: 'pipe', encoding: 'utf8' });
      } catch (e) {
        throw new Error(`${tool} refused the export: ${String((e as { stdout?: string }).stdout)}${String((e as { stderr?: string }).stderr)}`);
      }
    };
    let n = 0;
    await fc.assert(
      fc.asyncProperty(genZone, async (z) => {
        const h = harness({ quotas: { zone_recordsets: -1, zone_records: -1, recordset_records: -1, api_export_size: -1 } });
        const done = await importAndSettle(h, renderZone(z));
        expect(done.status, String(done.message)).toBe('COMPLETE');
        const path = join(dir, `${n++}.zone`);
        writeFileSync(path, await exportText(h, done.zone_id!));
        load('named-checkzone', ['-i', 'local', z.origin, path]);
        load('kzonecheck', ['-o', z.origin, path]);
      }),
      { numRuns: 25 },
    );
  });
});
