import { describe, expect, it } from 'vitest';
import { createDnsService, type RequestContext } from '../../src/index.js';
import { controllablePoolTargets, manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';

const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const zone = (name: string) => ({ name, email: 'h@example.com' });
const service = (targets: ReturnType<typeof controllablePoolTargets>) =>
  createDnsService({ poolTargets: targets, clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1) });
const tick = () => new Promise((r) => setImmediate(r));

describe('controllablePoolTargets', () => {
  it('succeeds by default and records every call with the zone pushed', async () => {
    const targets = controllablePoolTargets();
    const dns = service(targets);
    const z = (await dns.zones.create(alice, zone('a.com.')))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, z.id))._unsafeUnwrap().status).toBe('ACTIVE');
    await dns.zones.update(alice, z.id, { ttl: 600 });
    await dns.tasks.settle();
    await dns.zones.delete(alice, z.id);
    await dns.tasks.settle();
    const calls = targets.calls();
    expect(calls.map((c) => [c.method, c.outcome, c.zone.name])).toEqual([
      ['createZone', 'succeeded', 'a.com.'],
      ['updateZone', 'succeeded', 'a.com.'],
      ['deleteZone', 'succeeded', 'a.com.'],
    ]);
    expect(calls[1]?.zone.ttl).toBe(600);
    expect(Object.isFrozen(calls[0]?.zone)).toBe(true);
    expect((await dns.zones.get(alice, z.id))._unsafeUnwrapErr().status).toBe(404);
  });

  it('fail() leaves the zone in ERROR', async () => {
    const targets = controllablePoolTargets().fail();
    const dns = service(targets);
    const z = (await dns.zones.create(alice, zone('a.com.')))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, z.id))._unsafeUnwrap().status).toBe('ERROR');
    expect(targets.calls()[0]?.outcome).toBe('failed');
  });

  it('hang() keeps the zone PENDING until released; release("fail") ends it in ERROR', async () => {
    const targets = controllablePoolTargets().hang({ method: 'createZone' });
    const dns = service(targets);
    const a = (await dns.zones.create(alice, zone('a.com.')))._unsafeUnwrap();
    expect(a.status).toBe('PENDING');
    await tick();
    expect(targets.hanging()).toBe(1);
    expect(targets.calls()[0]?.outcome).toBe('hanging');
    expect((await dns.zones.get(alice, a.id))._unsafeUnwrap().status).toBe('PENDING');
    expect(targets.release('fail')).toBe(1);
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, a.id))._unsafeUnwrap().status).toBe('ERROR');
    expect(targets.calls()[0]?.outcome).toBe('failed');
  });

  it('release() succeeds the held calls; the zone goes ACTIVE', async () => {
    const targets = controllablePoolTargets().hang();
    const dns = service(targets);
    const a = (await dns.zones.create(alice, zone('a.com.')))._unsafeUnwrap();
    await tick();
    expect(targets.release()).toBe(1);
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, a.id))._unsafeUnwrap().status).toBe('ACTIVE');
    expect(targets.calls()[0]?.outcome).toBe('succeeded');
  });

  it('times and method narrow a behaviour; newest first; a bare call replaces all', async () => {
    const targets = controllablePoolTargets().fail({ method: 'createZone', times: 1, error: new Error('x') });
    const dns = service(targets);
    const a = (await dns.zones.create(alice, zone('a.com.')))._unsafeUnwrap();
    await dns.tasks.settle();
    const b = (await dns.zones.create(alice, zone('b.com.')))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, a.id))._unsafeUnwrap().status).toBe('ERROR');
    expect((await dns.zones.get(alice, b.id))._unsafeUnwrap().status).toBe('ACTIVE');

    targets.fail().succeed({ method: 'updateZone' });
    await expect(targets.updateZone(a)).resolves.toBeUndefined();
    await expect(targets.deleteZone(a)).rejects.toThrow();
    targets.succeed();
    await expect(targets.deleteZone(a)).resolves.toBeUndefined();
  });

  it('refuses malformed behaviours', () => {
    expect(() => controllablePoolTargets().fail({ times: 0 })).toThrow(RangeError);
    expect(() => controllablePoolTargets().hang({ method: 'nope' as never })).toThrow(RangeError);
  });
});
