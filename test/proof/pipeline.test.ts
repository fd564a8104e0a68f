/**
 * Proof of the one command pipeline (issue #18): every command and the task runner wait for a
 * restore, a failed restore is never answered as an empty service, `settle()` never returns with
 * work left, an id source can neither overwrite stored data nor hand out ids that cannot be read
 * back, and an empty body is the real service's `empty_request_body`.
 */
import { describe, expect, it } from 'vitest';
import { createDnsService, memoryStorage, type RequestContext, type ServiceSnapshot, type Storage } from '../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';

const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const admin: RequestContext = { projectId: 'ops', roles: ['admin'], allProjects: true };
const T0 = '2026-01-01T00:00:00Z';
// `'inline'`: a create's answer is the zone as it stays, so a later read can be compared with it.
const fixed = (ids = sequentialIds()) => ({ clock: manualClock(T0), ids, random: seededRandom(1), tasks: 'inline' as const });

/** A memory storage whose transactions can be made to reject: `fail(n)` fails the next n, `fail(Infinity)` all. */
function switchableStorage(): Storage & { fail(n: number): void; failures(): number } {
  const inner = memoryStorage();
  let left = 0;
  let failed = 0;
  return {
    transaction(work) {
      if (left > 0) {
        left -= 1;
        failed += 1;
        return Promise.reject(new Error('injected: storage unreachable'));
      }
      return inner.transaction(work);
    },
    fail(n) {
      left = n;
    },
    failures: () => failed,
  };
}

async function snapshotWithPendingZone(): Promise<{ snapshot: ServiceSnapshot; zoneId: string }> {
  const dns = createDnsService({ ...fixed(), tasks: 'manual' });
  const zone = (await dns.zones.create(alice, { name: 'pending.com.', email: 'h@pending.com' }))._unsafeUnwrap();
  expect(zone.status).toBe('PENDING');
  return { snapshot: await dns.snapshot(), zoneId: zone.id };
}

describe('defect 1: DNS quota commands wait for the restore', () => {
  it('a set right after createDnsService({ from }) is not undone by the restore, and a get answers the restored value', async () => {
    const source = createDnsService(fixed());
    (await source.quotas.set(admin, 'alice', { zones: 3 }))._unsafeUnwrap();
    const snapshot = await source.snapshot();

    const reader = createDnsService({ ...fixed(), from: snapshot });
    expect((await reader.quotas.get(admin, 'alice'))._unsafeUnwrap().zones).toBe(3);

    const writer = createDnsService({ ...fixed(), from: snapshot });
    expect((await writer.quotas.set(admin, 'alice', { zones: 7 }))._unsafeUnwrap().zones).toBe(7);
    await writer.tasks.settle();
    expect((await writer.quotas.get(admin, 'alice'))._unsafeUnwrap().zones).toBe(7);
    const reset = createDnsService({ ...fixed(), from: snapshot });
    (await reset.quotas.reset(admin, 'alice'))._unsafeUnwrap();
    expect((await reset.quotas.get(admin, 'alice'))._unsafeUnwrap().zones).toBe(10);
  });
});

describe('defect 2: the task runner waits for the restore', () => {
  it('manual mode: pending() counts the restored task at once and runNext() runs it', async () => {
    const { snapshot, zoneId } = await snapshotWithPendingZone();
    const dns = createDnsService({ ...fixed(sequentialIds('b')), from: snapshot, tasks: 'manual' });
    expect(dns.tasks.pending()).toBe(1);
    expect(await dns.tasks.runNext()).toBe(true);
    expect((await dns.zones.get(alice, zoneId))._unsafeUnwrap().status).toBe('ACTIVE');
  });

  it('manual mode: settle() runs the restored task', async () => {
    const { snapshot, zoneId } = await snapshotWithPendingZone();
    const dns = createDnsService({ ...fixed(sequentialIds('b')), from: snapshot, tasks: 'manual' });
    await dns.tasks.settle();
    expect(dns.tasks.pending()).toBe(0);
    expect((await dns.zones.get(alice, zoneId))._unsafeUnwrap().status).toBe('ACTIVE');
  });

  it('auto mode: settle() returns only once the restored task ran', async () => {
    const { snapshot, zoneId } = await snapshotWithPendingZone();
    const dns = createDnsService({ ...fixed(sequentialIds('b')), from: snapshot, tasks: 'auto' });
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zoneId))._unsafeUnwrap().status).toBe('ACTIVE');
  });
});

describe('defect 3: a failed restore is not answered as an empty service', () => {
  it('every command answers 500 storage_failure naming the restore; settle, snapshot and reset reject', async () => {
    const { snapshot } = await snapshotWithPendingZone();
    const storage = switchableStorage();
    storage.fail(1);
    const dns = createDnsService({ ...fixed(sequentialIds('b')), storage, from: snapshot, tasks: 'manual' });
    const listed = await dns.zones.list(alice);
    expect(listed.isErr()).toBe(true);
    expect(listed._unsafeUnwrapErr()).toMatchObject({ status: 500, type: 'storage_failure' });
    expect(listed._unsafeUnwrapErr().message).toMatch(/restor/i);
    const created = await dns.zones.create(alice, { name: 'x.com.', email: 'h@x.com' });
    expect(created._unsafeUnwrapErr()).toMatchObject({ status: 500, type: 'storage_failure' });
    expect((await dns.quotas.get(admin, 'alice'))._unsafeUnwrapErr()).toMatchObject({ status: 500, type: 'storage_failure' });
    await expect(dns.tasks.settle()).rejects.toThrow(/restor/i);
    await expect(dns.tasks.runNext()).rejects.toThrow(/restor/i);
    await expect(dns.snapshot()).rejects.toThrow(/restor/i);
    await expect(dns.reset()).rejects.toThrow(/restor/i);
  });
});

describe('defect 4: settle() never returns with work left', () => {
  it('a one-off storage fault during a task is retried within settle()', async () => {
    const storage = switchableStorage();
    const dns = createDnsService({ ...fixed(), storage, tasks: 'manual' });
    const zone = (await dns.zones.create(alice, { name: 'retry.com.', email: 'h@retry.com' }))._unsafeUnwrap();
    storage.fail(1);
    await dns.tasks.settle();
    expect(storage.failures()).toBe(1);
    expect(dns.tasks.pending()).toBe(0);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap().status).toBe('ACTIVE');
  });

  it('auto mode: a fault while the worker runs the task is retried by settle()', async () => {
    const storage = switchableStorage();
    const targets = { createZone: () => Promise.resolve(), updateZone: () => Promise.resolve(), deleteZone: () => Promise.resolve() };
    const dns = createDnsService({ ...fixed(), storage, poolTargets: targets });
    const zone = (await dns.zones.create(alice, { name: 'auto.com.', email: 'h@auto.com' }))._unsafeUnwrap();
    storage.fail(1); // the worker's first read of the queue, started by the commit
    await dns.tasks.settle();
    expect(dns.tasks.pending()).toBe(0);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap().status).toBe('ACTIVE');
  });

  it('a storage that keeps failing makes settle() reject and say why, with the task still queued', async () => {
    const storage = switchableStorage();
    const dns = createDnsService({ ...fixed(), storage, tasks: 'manual' });
    const zone = (await dns.zones.create(alice, { name: 'down.com.', email: 'h@down.com' }))._unsafeUnwrap();
    storage.fail(Infinity);
    await expect(dns.tasks.settle()).rejects.toThrow(/storage.*injected: storage unreachable/is);
    expect(dns.tasks.pending()).toBe(1);
    storage.fail(0);
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap().status).toBe('ACTIVE');
  });
});

describe('defect 5: an id source that repeats a stored id never overwrites', () => {
  it('a restored fixture and a fresh sequentialIds(): 500 naming the id source, the fixture zone intact', async () => {
    const source = createDnsService(fixed());
    const fixture = (await source.zones.create(alice, { name: 'fixture.com.', email: 'h@fixture.com' }))._unsafeUnwrap();
    const dns = createDnsService({ ...fixed(), from: await source.snapshot() });
    const created = await dns.zones.create(alice, { name: 'new.com.', email: 'h@new.com' });
    expect(created.isErr()).toBe(true);
    const e = created._unsafeUnwrapErr();
    expect(e).toMatchObject({ status: 500, type: 'duplicate_id' });
    expect(e.message).toContain(fixture.id);
    expect(e.message).toMatch(/`ids`/);
    expect((await dns.zones.get(alice, fixture.id))._unsafeUnwrap()).toEqual(fixture);
    expect((await dns.zones.list(alice))._unsafeUnwrap().zones).toHaveLength(1);
  });

  it('the safe pattern of docs/testing.md: a prefix of its own for the restored service', async () => {
    const source = createDnsService(fixed());
    (await source.zones.create(alice, { name: 'fixture.com.', email: 'h@fixture.com' }))._unsafeUnwrap();
    const dns = createDnsService({ ...fixed(sequentialIds('1')), from: await source.snapshot() });
    (await dns.zones.create(alice, { name: 'new.com.', email: 'h@new.com' }))._unsafeUnwrap();
    expect((await dns.zones.list(alice))._unsafeUnwrap().zones).toHaveLength(2);
  });
});

describe('defect 7: an empty body is 400 empty_request_body', () => {
  const EMPTY = { status: 400, type: 'empty_request_body', message: 'Request Body is empty' };
  it.each([undefined, null])('zones.create, zones.update and transferAccepts.create with %s', async (body) => {
    const dns = createDnsService(fixed());
    expect((await dns.zones.create(alice, body))._unsafeUnwrapErr()).toMatchObject(EMPTY);
    const zone = (await dns.zones.create(alice, { name: 'e.com.', email: 'h@e.com' }))._unsafeUnwrap();
    expect((await dns.zones.update(alice, zone.id, body))._unsafeUnwrapErr()).toMatchObject(EMPTY);
    expect((await dns.transferAccepts.create(alice, body))._unsafeUnwrapErr()).toMatchObject(EMPTY);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toEqual(zone);
  });
});

describe('defect 10: an id source must give UUID-shaped ids', () => {
  it('refused at first use with a 500 naming the option, nothing stored', async () => {
    const dns = createDnsService({ ...fixed(), ids: () => 'zone-1' });
    const created = await dns.zones.create(alice, { name: 'bad.com.', email: 'h@bad.com' });
    const e = created._unsafeUnwrapErr();
    expect(e).toMatchObject({ status: 500, type: 'invalid_id_source' });
    expect(e.message).toContain("'zone-1'");
    expect(e.message).toMatch(/`ids`/);
    expect((await dns.zones.list(alice))._unsafeUnwrap().zones).toHaveLength(0);
  });
});

describe('typed inputs beside unknown bodies', () => {
  it('a misspelt key in an object literal is a compile error; parsed JSON (unknown) is accepted as is', async () => {
    const dns = createDnsService(fixed());
    // The directives below fail `npm run typecheck` if the typo ever compiles again.
    // @ts-expect-error `emial` is not a key of ZoneCreateInput
    const typo = await dns.zones.create(alice, { name: 'typo.com.', emial: 'h@typo.com' });
    expect(typo._unsafeUnwrapErr().type).toBe('invalid_object');
    const parsed: unknown = JSON.parse('{"name":"typo.com.","emial":"h@typo.com"}');
    expect((await dns.zones.create(alice, parsed))._unsafeUnwrapErr().type).toBe('invalid_object');
    const zone = (await dns.zones.create(alice, { name: 'typed.com.', email: 'h@typed.com', ttl: 600 }))._unsafeUnwrap();
    // @ts-expect-error `tll` is not a key of ZoneUpdateInput
    await dns.zones.update(alice, zone.id, { tll: 300 });
    // @ts-expect-error `zone` is not a key of DNS quota input
    await dns.quotas.set(admin, 'alice', { zone: 3 });
    // @ts-expect-error `keys` is not a key of TransferAcceptInput
    await dns.transferAccepts.create(alice, { keys: 'x' });
  });
});
