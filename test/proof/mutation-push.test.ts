/**
 * The zone push task against steerable pool targets: which target method each action calls, and
 * the event a completed delete emits (pins what the service-level suites let through).
 */
import { describe, expect, it } from 'vitest';
import { createDnsService, type DnsEvent, type RequestContext } from '../../src/index.js';
import { controllablePoolTargets, manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';

const alice: RequestContext = { projectId: 'alice', roles: ['member'] };

describe('zone push task', () => {
  it('calls createZone, updateZone and deleteZone for the matching actions, with the zone as it stands', async () => {
    const targets = controllablePoolTargets();
    const dns = createDnsService({ poolTargets: targets, clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1) });
    const events: DnsEvent[] = [];
    dns.events.subscribe((e) => events.push(e));
    const zone = (await dns.zones.create(alice, { name: 'a.com.', email: 'h@a.com' }))._unsafeUnwrap();
    await dns.tasks.settle();
    await dns.zones.update(alice, zone.id, { ttl: 700 });
    await dns.tasks.settle();
    await dns.zones.delete(alice, zone.id);
    await dns.tasks.settle();
    expect(targets.calls().map((c) => [c.method, c.zone.ttl, c.outcome])).toEqual([
      ['createZone', 3600, 'succeeded'],
      ['updateZone', 700, 'succeeded'],
      ['deleteZone', 700, 'succeeded'],
    ]);
    const last = events[events.length - 1]!;
    const payload = last.payload as { status: string; action: string; version: number };
    expect(last.type).toBe('dns.zone.update');
    expect(payload).toMatchObject({ status: 'DELETED', action: 'NONE' });
    const beforeDelete = events.filter((e) => (e.payload as { action: string }).action === 'DELETE').at(-1)!;
    expect(payload.version).toBe((beforeDelete.payload as { version: number }).version + 1);
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrapErr().status).toBe(404);
  });

  it('a failed update push leaves the zone in ERROR with the update still its action', async () => {
    const targets = controllablePoolTargets().fail({ method: 'updateZone' });
    const dns = createDnsService({ poolTargets: targets, clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1) });
    const zone = (await dns.zones.create(alice, { name: 'a.com.', email: 'h@a.com' }))._unsafeUnwrap();
    await dns.tasks.settle();
    await dns.zones.update(alice, zone.id, { ttl: 700 });
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zone.id))._unsafeUnwrap()).toMatchObject({ status: 'ERROR', action: 'UPDATE' });
    expect(targets.calls().map((c) => c.method)).toEqual(['createZone', 'updateZone']);
  });
});
