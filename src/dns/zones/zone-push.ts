import type { DnsDeps } from '../kernel/deps.js';
import { ok } from 'neverthrow';
import { transact } from '../../kernel/command.js';
import { finishTask, type StoredTask } from '../kernel/tasks.js';
import { emitZoneEvent, removeZone } from '../kernel/zone-operations.js';
import { presentZone, type Zone, type ZoneAction } from '../kernel/zone.js';
import { zoneRepository as zones } from '../kernel/zone-store.js';
import { applyReport, softDeleted, type PushReport } from '../kernel/zone-lifecycle.js';

const isPushAction = (a: unknown): a is ZoneAction => a === 'CREATE' || a === 'UPDATE' || a === 'DELETE';

/**
 * The task that pushes a zone to the pool targets and applies their answer. A target that
 * rejects leaves the zone in ERROR; a storage failure while applying the answer keeps the task
 * queued (`'retry'`), so the push is made again and its answer applied by a later run: the
 * targets take a repeated push as the real pool manager's periodic sync does. With the default
 * targets (which always succeed at once) read, push and report are one transaction.
 * @internal
 */
export function zonePushHandler(deps: DnsDeps): (task: StoredTask) => Promise<boolean | 'retry'> {
  const apply = (task: StoredTask, report: (zone: Zone) => Promise<PushReport>) =>
    transact(deps.storage, async (uow) => {
      const current = await zones.byId(uow.tx, task.subject);
      if (current !== undefined) {
        const next = applyReport(current, await report(current), deps.clock());
        if (next === 'gone') {
          await removeZone(uow.tx, current);
          emitZoneEvent(deps, uow, 'update', softDeleted(current));
        } else {
          await zones.put(uow.tx, next);
          emitZoneEvent(deps, uow, 'update', next);
        }
      }
      await finishTask(uow.tx, task);
      return ok(undefined);
    });

  return async (task) => {
    const action = task.data['action'];
    const serial = Number(task.data['serial']);
    // Not a push this service queued: the runner removes it, as it does a task of unknown kind.
    if (!isPushAction(action)) return false;
    if (deps.instantTargets) {
      const done = await apply(task, () => Promise.resolve({ action, outcome: 'SUCCESS', serial }));
      return done.isOk() ? true : 'retry';
    }
    let zone: Zone | undefined;
    try {
      zone = await deps.storage.transaction((tx) => zones.byId(tx, task.subject));
    } catch {
      return 'retry'; // nothing was pushed yet: the zone stays PENDING with its push queued
    }
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
    return applied.isOk() ? true : 'retry';
  };
}
