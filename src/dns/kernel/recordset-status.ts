import type { RecordsetMeta } from './recordset.js';
import type { Zone } from './zone.js';

// What status and action a recordset shows: derived from its zone's state and, for a recordset
// written through the API, the serial its write made, where the real service stores them on each
// row and updates the rows as the zone changes.

const status = (zone: Zone): { status: string; action: string } => ({
  status: zone.status,
  action: zone.action,
});

const SERVED = Object.freeze({ status: 'ACTIVE', action: 'NONE' });

/**
 * Whether the zone is being deleted (not yet gone). The real service leaves every recordset as
 * it was then: served, or waiting when the pool had not served its write (see `unserved`).
 */
const deleting = (zone: Zone): boolean => zone.action === 'DELETE' && zone.status !== 'DELETED';

/**
 * Status and action of what the zone's creation wrote (imported recordsets, the NS recordset):
 * pending with the zone's first push, then served for good, since later pushes do not touch
 * them (checked against the real service).
 * @internal
 */
export const createdWithZone = (zone: Zone): { status: string; action: string } => (zone.action === 'CREATE' || zone.status === 'DELETED' ? status(zone) : SERVED);

/**
 * Whether the pool has not served serial `serial` of a PRIMARY zone that it served before (its
 * writes raise the serial; a SECONDARY zone's leave the master's, which tells nothing).
 */
const unserved = (zone: Zone, serial: number): boolean => zone.type === 'PRIMARY' && zone.servedSerial !== undefined && serial > zone.servedSerial;

/**
 * Status and action of the SOA recordset: every change of the zone rewrites it (its serial), so it
 * follows the zone, but not into a delete, which leaves it as it was (waiting, when a raise of
 * the serial had not been served).
 * @internal
 */
export const soaState = (zone: Zone): { status: string; action: string } =>
  deleting(zone) ? (unserved(zone, zone.serial) ? { status: 'PENDING', action: 'UPDATE' } : SERVED) : status(zone);

/**
 * Whether the written recordsets of a zone that wait for the pool show the zone's status (else
 * every written recordset is served, ACTIVE): the order a `status` page relies on.
 * @internal
 */
export const writesPending = (zone: Zone): boolean => zone.status !== 'ACTIVE' && !deleting(zone);

/**
 * Whether the pool served a write before the zone's current change: a PRIMARY zone's writes
 * raise its serial, so one at or below the last serial served was served (a SECONDARY zone's
 * writes leave the serial as the master's, which tells nothing).
 */
const servedBefore = (zone: Zone, m: RecordsetMeta): boolean => zone.type === 'PRIMARY' && zone.servedSerial !== undefined && !unserved(zone, m.serial);

/**
 * Whether a pending zone may hold written recordsets that are served (see `servedBefore`) beside
 * pending ones: then the index of written recordsets by status, which tells only writes of no
 * records (served) from others, does not give a `status` page's order.
 * @internal
 */
export const mixedStatuses = (zone: Zone): boolean => zone.status !== 'ACTIVE' && zone.status !== 'DELETED' && zone.type === 'PRIMARY' && zone.servedSerial !== undefined;

/**
 * Status and action of a written recordset, from its own write and the zone's state: pending
 * until the zone has been served at (or past) the serial the write made, then served for good
 * (a later change that waits leaves it so, as the real service marks its row), failed with the
 * zone.
 * @internal
 */
export function writtenState(m: RecordsetMeta, zone: Zone): { status: string; action: string } {
  if (m.action === 'NONE') return SERVED;
  if (zone.status === 'DELETED') return { status: 'DELETED', action: zone.action };
  // A delete leaves every recordset as it was: a write the pool had not served stays waiting.
  if (deleting(zone)) return unserved(zone, m.serial) ? { status: 'PENDING', action: m.action } : SERVED;
  if ((zone.status === 'ACTIVE' && zone.serial >= m.serial) || servedBefore(zone, m)) return SERVED;
  return { status: zone.status === 'ERROR' ? 'ERROR' : 'PENDING', action: m.action };
}
