import { toMicros } from '../shared/time.js';
import type { Zone, ZoneAction } from './zone.js';

/** What the pool targets reported for one push. @internal */
export interface PushReport {
  readonly action: ZoneAction;
  readonly outcome: 'SUCCESS' | 'ERROR';
  readonly serial: number;
}

/**
 * The backend-report transition of the real service (reference §4.8): the zone's next state, or
 * `'gone'` when a delete completed. Every report re-saves the zone (version +1).
 * @internal
 */
export function applyReport(zone: Zone, report: PushReport, now: Date): Zone | 'gone' {
  const saved = (changes: Partial<Zone>): Zone =>
    Object.freeze({ ...zone, ...changes, version: zone.version + 1, updatedAt: toMicros(now) });
  if (report.action !== zone.action) return saved({});
  if (zone.action === 'DELETE') {
    if (zone.status !== 'ERROR') return 'gone';
    return report.outcome === 'SUCCESS' && report.serial >= zone.serial ? 'gone' : saved({});
  }
  if (report.outcome === 'SUCCESS') {
    const leaves = (zone.status === 'PENDING' || zone.status === 'ERROR') && report.serial >= zone.serial;
    return leaves ? saved({ action: 'NONE', status: 'ACTIVE' }) : saved({});
  }
  if (zone.status === 'PENDING' && (report.serial >= zone.serial || report.serial === 0)) return saved({ status: 'ERROR' });
  return saved({});
}

