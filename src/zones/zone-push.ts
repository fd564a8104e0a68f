import type { DnsDeps } from '../dns/deps.js';
import { ok } from 'neverthrow';
import { runInTransaction } from '../shared/command.js';
import { finishTask, type StoredTask } from '../shared/tasks.js';
import { toMicros } from '../shared/time.js';
import { emitZoneEvent, putZone, removeZone } from './zone-commands.js';
import { presentZone, ZONES, type Zone, type ZoneAction } from './zone.js';

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

/**
 * The task that pushes a zone to the pool targets and applies their answer. A target that
 * rejects leaves the zone in ERROR; a storage failure while applying the answer is retried once
 * as a plain ERROR report so the zone never stays PENDING for a push that has ended. With the
 * default targets (which always succeed at once) read, push and report are one transaction.
 * @internal
 */
export function zonePushHandler(deps: DnsDeps): (task: StoredTask) => Promise<boolean> {
  const apply = (task: StoredTask, report: (zone: Zone) => Promise<PushReport>) =>
    runInTransaction(deps.storage, async (uow) => {
      const current = (await uow.tx.get(ZONES, task.subject)) as Zone | undefined;
      if (current !== undefined) {
        const next = applyReport(current, await report(current), deps.clock());
        if (next === 'gone') {
          await removeZone(uow.tx, current);
          emitZoneEvent(deps, uow, 'update', Object.freeze({ ...current, action: 'NONE', status: 'DELETED', version: current.version + 1 }));
        } else {
          await putZone(uow.tx, next);
          emitZoneEvent(deps, uow, 'update', next);
        }
      }
      await finishTask(uow.tx, task);
      return ok(undefined);
    });

  return async (task) => {
    const action = task.data['action'] as ZoneAction;
    const serial = Number(task.data['serial']);
    if (deps.inlinePush) {
      const done = await apply(task, () => Promise.resolve({ action, outcome: 'SUCCESS', serial }));
      return done.isOk();
    }
    const zone = (await deps.storage.transaction((tx) => tx.get(ZONES, task.subject))) as Zone | undefined;
    if (zone === undefined) return false;
    let outcome: PushReport['outcome'] = 'SUCCESS';
    try {
      const body = presentZone(zone, deps.baseUrl);
      if (action === 'CREATE') await deps.poolTargets.createZone(body);
      else if (action === 'UPDATE') await deps.poolTargets.updateZone(body);
      else await deps.poolTargets.deleteZone(body);
    } catch {
      outcome = 'ERROR';
    }
    const applied = await apply(task, () => Promise.resolve({ action, outcome, serial }));
    if (applied.isOk()) return true;
    const fallback = await apply(task, () => Promise.resolve({ action, outcome: 'ERROR', serial }));
    return fallback.isOk();
  };
}
