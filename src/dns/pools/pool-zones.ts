import { produce } from 'immer';
import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import type { UnitOfWork } from '../../kernel/command.js';
import { zonePool, type DnsDeps, type Nameserver } from '../kernel/deps.js';
import { writePoolNameservers } from '../kernel/name-policy.js';
import { toMicros } from '../kernel/time.js';
import { updated } from '../kernel/zone-lifecycle.js';
import { saveAndPush } from '../kernel/zone-operations.js';
import { zoneRepository } from '../kernel/zone-store.js';
import { lastServerDeleteNotAllowed } from './pool-errors.js';

/**
 * What a change of a pool's `ns_records` does to the zones in it, as the real central's pool
 * update does: host names are compared (a change of priority alone rewrites no zone); each host
 * name added is appended to every zone's NS recordset, each one dropped is taken out of it, and
 * every such step raises the zone's serial and rewrites its SOA (whose MNAME is the first
 * nameserver left), leaving the zone `UPDATE`/`PENDING` until the pool serves it. Zones being
 * deleted are left as they are (the real service would turn their pending delete into an update
 * when a name is dropped); SECONDARY zones have no NS recordset of the service's to rewrite.
 * Zones created later take the new list.
 * @param before - the pool's NS records before the update
 * @param after - the NS records the update gives it
 * @returns an error, and nothing written, when the update drops every nameserver
 * @internal
 */
export async function rewriteZoneNameservers(
  deps: DnsDeps,
  uow: UnitOfWork,
  poolId: string,
  before: readonly Nameserver[],
  after: readonly Nameserver[],
): Promise<Result<void, ApiError>> {
  const wanted = new Set(after.map((n) => n.hostname));
  const had = new Set(before.map((n) => n.hostname));
  const dropped = before.some((n) => !wanted.has(n.hostname));
  if (dropped && after.length === 0) return err(lastServerDeleteNotAllowed());
  if (sameList(before, after)) return ok(undefined);
  await writePoolNameservers(uow.tx, poolId, after, deps.ids());
  if (!dropped && after.every((n) => had.has(n.hostname))) return ok(undefined);

  const now = deps.clock();
  for (const zone of await zoneRepository.owned(uow.tx, null)) {
    if (zone.poolId !== poolId || zone.nsRecordsetId === null || zone.action === 'DELETE' || zone.status === 'DELETED') continue;
    const current = zonePool(deps, zone).nameservers;
    const kept = current.filter((n) => wanted.has(n.hostname));
    const keptNames = new Set(kept.map((n) => n.hostname));
    const added: Nameserver[] = [];
    for (const n of after) if (!keptNames.has(n.hostname) && !added.some((a) => a.hostname === n.hostname)) added.push(n);
    const steps = added.length + (current.length - kept.length);
    if (steps === 0) continue;
    let next = zone;
    for (let i = 0; i < steps; i++) next = updated(next, now, {});
    const serial = next.serial;
    next = produce(next, (z) => {
      z.nameservers = [...kept, ...added];
      z.nsWrite = { version: (zone.nsWrite?.version ?? 1) + steps, updatedAt: toMicros(now), serial };
    });
    await saveAndPush(deps, uow, next, null, 'UPDATE');
  }
  return ok(undefined);
}

const sameList = (a: readonly Nameserver[], b: readonly Nameserver[]): boolean =>
  a.length === b.length && a.every((n, i) => n.hostname === b[i]!.hostname && n.priority === b[i]!.priority);
