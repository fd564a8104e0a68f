/**
 * The zone state machine table (ZONE_TRANSITIONS, reference §4.8 and §4.9) is what the
 * transition functions do: every row, from every state it names, gives its next state, serial
 * rule and version step. A row that no longer matches its function fails here.
 */
import { describe, expect, it } from 'vitest';
import type { Zone, ZoneAction, ZoneStatus } from '../../../src/dns/kernel/zone.js';
import {
  applyReport,
  markedForDeletion,
  refreshedFromMaster,
  softDeleted,
  transferred,
  updated,
  ZONE_TRANSITIONS,
  type ZoneTransition,
} from '../../../src/dns/kernel/zone-lifecycle.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const LATER = new Date('2026-01-02T00:00:00Z');
const SERIAL = Math.floor(T0.getTime() / 1000);
// A master behind the zone: its serial is lower, which the zone takes all the same.
const MASTER = { serial: 7, ttl: 300, email: 'h@example.com', retry: 60, expire: 600, recordsetCount: 3, recordCount: 4 };

const zoneIn = (state: string): Zone => {
  const [action, status] = state.split('/') as [ZoneAction, ZoneStatus];
  return Object.freeze({
    id: '00000000-0000-4000-8000-000000000001',
    poolId: 'pool',
    projectId: 'alice',
    name: 'example.com.',
    email: 'h@example.com',
    description: null,
    ttl: 3600,
    serial: SERIAL,
    status,
    action,
    version: 3,
    attributes: {},
    type: 'PRIMARY',
    masters: [],
    createdAt: T0.getTime() * 1000,
    updatedAt: null,
    transferredAt: null,
    refresh: 3500,
    retry: 600,
    expire: 86400,
    minimum: 3600,
    parentZoneId: null,
    soaRecordsetId: 'soa',
    nsRecordsetId: 'ns',
    recordsetCount: 0,
    recordCount: 0,
  });
};

const ALL: string[] = ['CREATE', 'UPDATE', 'DELETE', 'NONE'].flatMap((a) => ['PENDING', 'ACTIVE', 'ERROR'].map((s) => `${a}/${s}`));
const other = (a: ZoneAction): ZoneAction => (a === 'UPDATE' ? 'CREATE' : 'UPDATE');

/** The function behind each event of the table. */
const EVENTS: Record<string, (z: Zone) => Zone | 'gone'> = {
  'update (PATCH, re-parenting)': (z) => updated(z, LATER, {}),
  delete: (z) => markedForDeletion(z, LATER),
  abandon: (z) => softDeleted(z),
  'transfer accept': (z) => transferred(z, 'bob', LATER),
  'transfer from a master (SECONDARY)': (z) => refreshedFromMaster({ ...z, type: 'SECONDARY' }, LATER, MASTER),
  "report, action other than the zone's": (z) => applyReport(z, { action: other(z.action), outcome: 'SUCCESS', serial: z.serial }, LATER),
  'report SUCCESS, serial >= zone serial': (z) => applyReport(z, { action: z.action, outcome: 'SUCCESS', serial: z.serial }, LATER),
  'report SUCCESS, serial < zone serial': (z) => applyReport(z, { action: z.action, outcome: 'SUCCESS', serial: z.serial - 1 }, LATER),
  'report (any outcome) on a delete': (z) => applyReport(z, { action: 'DELETE', outcome: 'ERROR', serial: 0 }, LATER),
  'report SUCCESS on a failed delete, serial >= zone serial': (z) => applyReport(z, { action: 'DELETE', outcome: 'SUCCESS', serial: z.serial }, LATER),
  'report ERROR, serial >= zone serial or 0': (z) => applyReport(z, { action: z.action, outcome: 'ERROR', serial: 0 }, LATER),
};

const cases = ZONE_TRANSITIONS.flatMap((row: ZoneTransition) => (row.from === 'any' ? ALL : row.from).map((from) => [row.event, from, row] as const));

describe('the zone state machine table', () => {
  it('names a function for every event', () => {
    for (const row of ZONE_TRANSITIONS) expect(EVENTS[row.event], row.event).toBeDefined();
  });

  it.each(cases)('%s from %s', (event, from, row) => {
    const zone = zoneIn(from);
    const next = EVENTS[event]!(zone);
    if (row.to === 'removed') {
      // A report answers 'gone'; abandon answers the soft-deleted zone its events carry.
      if (next !== 'gone') expect(`${next.action}/${next.status}`).toBe('NONE/DELETED');
      return;
    }
    expect(next).not.toBe('gone');
    const z = next as Zone;
    expect(`${z.action}/${z.status}`).toBe(row.to === 'unchanged' ? from : row.to);
    expect(z.version).toBe(zone.version + 1);
    if (row.serial === 'raised') expect(z.serial).toBeGreaterThan(zone.serial);
    else if (row.serial === 'master') expect(z.serial).toBe(MASTER.serial);
    else expect(z.serial).toBe(zone.serial);
    expect(Object.isFrozen(z)).toBe(true);
    expect(zone).toEqual(zoneIn(from)); // the recipe never touches the zone it was given
  });
});
