import { produce } from 'immer';
import { toMicros, unixSeconds } from './time.js';
import { nextSerial, type Zone, type ZoneAction, type ZoneStatus } from './zone.js';

/**
 * Every transition of a zone after its creation, in one place: each a named function, written as
 * an immer recipe over the one zone it changes (never over a collection), answering the next
 * frozen zone (the backend report, on the hot path of every create, is a plain frozen copy: see
 * {@link applyReport}). Commands and tasks call these and store what they answer; nothing else builds a
 * changed zone. New transitions (SECONDARY transfers, recordset writes) belong here too.
 *
 * The state machine, as reference §4.8 gives it, is {@link ZONE_TRANSITIONS}; its test
 * (test/dns/zones/zone-lifecycle.test.ts) checks each row against these functions.
 * @module
 */

/** One row of the state machine: an event, the (action, status) it applies to, the result. @internal */
export interface ZoneTransition {
  readonly event: string;
  /** The states it applies to; `'any'` for every state. */
  readonly from: 'any' | readonly `${ZoneAction}/${ZoneStatus}`[];
  /** The next (action, status), `'unchanged'`, or `'removed'` (soft-deleted, then invisible). */
  readonly to: `${ZoneAction}/${ZoneStatus}` | 'unchanged' | 'removed';
  /** Whether a PRIMARY zone's serial is raised, kept, or taken from the master (SECONDARY). */
  readonly serial: 'raised' | 'kept' | 'master';
  /** Change of `version`: every write of the zone row is +1. */
  readonly version: '+1';
}

/** The zone state machine of reference §4.8 (and §4.9 for serial and version). @internal */
export const ZONE_TRANSITIONS: readonly ZoneTransition[] = [
  { event: 'update (PATCH, re-parenting)', from: 'any', to: 'UPDATE/PENDING', serial: 'raised', version: '+1' },
  { event: 'delete', from: 'any', to: 'DELETE/PENDING', serial: 'kept', version: '+1' },
  { event: 'abandon', from: 'any', to: 'removed', serial: 'kept', version: '+1' },
  { event: 'transfer accept', from: 'any', to: 'unchanged', serial: 'kept', version: '+1' },
  { event: 'transfer from a master (SECONDARY)', from: 'any', to: 'UPDATE/PENDING', serial: 'master', version: '+1' },
  { event: 'report, action other than the zone\'s', from: 'any', to: 'unchanged', serial: 'kept', version: '+1' },
  { event: 'report SUCCESS, serial >= zone serial', from: ['CREATE/PENDING', 'CREATE/ERROR', 'UPDATE/PENDING', 'UPDATE/ERROR'], to: 'NONE/ACTIVE', serial: 'kept', version: '+1' },
  { event: 'report SUCCESS, serial < zone serial', from: ['CREATE/PENDING', 'UPDATE/PENDING'], to: 'unchanged', serial: 'kept', version: '+1' },
  { event: 'report (any outcome) on a delete', from: ['DELETE/PENDING'], to: 'removed', serial: 'kept', version: '+1' },
  { event: 'report SUCCESS on a failed delete, serial >= zone serial', from: ['DELETE/ERROR'], to: 'removed', serial: 'kept', version: '+1' },
  { event: 'report ERROR, serial >= zone serial or 0', from: ['CREATE/PENDING'], to: 'CREATE/ERROR', serial: 'kept', version: '+1' },
  { event: 'report ERROR, serial >= zone serial or 0', from: ['UPDATE/PENDING'], to: 'UPDATE/ERROR', serial: 'kept', version: '+1' },
];

/** What the pool targets reported for one push. @internal */
export interface PushReport {
  readonly action: ZoneAction;
  readonly outcome: 'SUCCESS' | 'ERROR';
  readonly serial: number;
}

/** A write that changes the zone's data: UPDATE/PENDING, serial raised (PRIMARY), version +1. @internal */
export const updated = (zone: Zone, now: Date, changes: Partial<Zone>): Zone =>
  produce(zone, (z) => {
    const micros = toMicros(now);
    Object.assign(z, changes);
    z.action = 'UPDATE';
    z.status = 'PENDING';
    if (zone.type === 'PRIMARY') {
      z.serial = nextSerial(zone.serial, unixSeconds(micros));
      // The real service rewrites the SOA recordset with every serial it raises.
      z.soaVersion = (zone.soaVersion ?? 1) + 1;
      z.soaUpdatedAt = micros;
    }
    z.version = zone.version + 1;
    z.updatedAt = micros;
  });

/** DELETE: marked DELETE/PENDING until the targets confirm; serial kept. @internal */
export const markedForDeletion = (zone: Zone, now: Date): Zone =>
  produce(zone, (z) => {
    z.action = 'DELETE';
    z.status = 'PENDING';
    z.version = zone.version + 1;
    z.updatedAt = toMicros(now);
  });

/** The last state of a zone that goes (abandon, a completed delete): NONE/DELETED, what its events carry. @internal */
export const softDeleted = (zone: Zone): Zone =>
  produce(zone, (z) => {
    z.action = 'NONE';
    z.status = 'DELETED';
    z.version = zone.version + 1;
  });

/** A transfer accept: ownership only; action, status, serial and `transferredAt` stay. @internal */
export const transferred = (zone: Zone, projectId: string, now: Date): Zone =>
  produce(zone, (z) => {
    z.projectId = projectId;
    z.version = zone.version + 1;
    z.updatedAt = toMicros(now);
  });

/** What a SECONDARY zone takes from its master's transfer: the SOA's fields and the counts of what it stored. @internal */
export interface MasterCopy {
  readonly serial: number;
  readonly ttl: number;
  readonly email: string;
  readonly retry: number;
  readonly expire: number;
  readonly recordsetCount: number;
  readonly recordCount: number;
}

/**
 * A SECONDARY zone replaced by its master's copy: UPDATE/PENDING and version +1 like any update,
 * but the serial is the master's (the service never raises a SECONDARY zone's serial itself), and
 * the master's SOA, stored with the other records, takes the place of the service's own.
 * @internal
 */
export const refreshedFromMaster = (zone: Zone, now: Date, copy: MasterCopy): Zone =>
  produce(zone, (z) => {
    const micros = toMicros(now);
    Object.assign(z, copy);
    z.action = 'UPDATE';
    z.status = 'PENDING';
    z.version = zone.version + 1;
    z.updatedAt = micros;
    // The real service stores the transfer time to the second.
    z.transferredAt = micros - (micros % 1_000_000);
    z.soaRecordsetId = null;
  });

/** The counts an import stores with the zone it created, in the same transaction (no new version). @internal */
export const withImportedCounts = (zone: Zone, recordsetCount: number, recordCount: number): Zone =>
  produce(zone, (z) => {
    z.recordsetCount = recordsetCount;
    z.recordCount = recordCount;
  });

/**
 * The backend-report transition of the real service (reference §4.8): the zone's next state, or
 * `'gone'` when a delete completed. Every report re-saves the zone (version +1).
 * @internal
 */
export function applyReport(zone: Zone, report: PushReport, now: Date): Zone | 'gone' {
  // The one transition not written with immer: in inline mode every create and update applies a
  // report inside its own command, and a produce() costs about 3 µs more than this copy (about a
  // fifth of a create, bench/pipeline.bench.ts), for four scalar fields of a zone already frozen.
  const saved = (action: ZoneAction, status: ZoneStatus): Zone =>
    Object.freeze({ ...zone, action, status, version: zone.version + 1, updatedAt: toMicros(now) });
  const same = (): Zone => saved(zone.action, zone.status);
  if (report.action !== zone.action) return same();
  if (zone.action === 'DELETE') {
    if (zone.status !== 'ERROR') return 'gone';
    return report.outcome === 'SUCCESS' && report.serial >= zone.serial ? 'gone' : same();
  }
  if (report.outcome === 'SUCCESS') {
    const leaves = (zone.status === 'PENDING' || zone.status === 'ERROR') && report.serial >= zone.serial;
    if (!leaves) return same();
    // Served through its serial: recordsets written up to it stay served while a later change waits.
    return Object.freeze({ ...zone, action: 'NONE', status: 'ACTIVE', version: zone.version + 1, updatedAt: toMicros(now), servedSerial: zone.serial });
  }
  if (zone.status === 'PENDING' && (report.serial >= zone.serial || report.serial === 0)) return saved(zone.action, 'ERROR');
  return same();
}
