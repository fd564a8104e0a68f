import { err, ok, safeTry, type ResultAsync } from 'neverthrow';
import type { DnsDeps } from '../kernel/deps.js';
import { DEFAULT_IMPORT_RECORD_TYPES, type ZoneImportOptions } from '../kernel/import-plan.js';
import { drawOwnerKey, type OwnerKey } from '../kernel/owner-index.js';
import { buildBlocks, drawSortedIds } from '../kernel/blocks.js';
import type { ApiError } from '../../kernel/api-error.js';
import { command, runInTransaction } from '../../kernel/command.js';
import { finishTask, type StoredTask, type TaskHandler } from '../kernel/tasks.js';
import { toMicros } from '../kernel/time.js';
import { removeRecordsets, storeImported, zoneBlocks } from '../kernel/recordset-store.js';
import { checkedImportedZone, idAt, RECORDSET_ZONES, typeAt } from '../kernel/recordset.js';
import { requestTransfer, saveAndPush, visibleZone, zoneIdParam } from '../kernel/zone-operations.js';
import { refreshedFromMaster } from '../kernel/zone-lifecycle.js';
import { xfrOfPrimary } from './secondary-errors.js';
import { authorizeZone } from '../kernel/zone-policy.js';
import { emailProblem } from '../kernel/zone-rules.js';
import type { Zone } from '../kernel/zone.js';
import { zoneRepository as zones } from '../kernel/zone-store.js';
import { masterAddress, type MasterAddress, type MasterPort, type TransferLimits } from './master-port.js';
import { keptKey, placeTransfer, TransferCollector, type TransferPlan } from './transfer-plan.js';

// The task kind lives with zones, which queue it on create and update.
export { ZONE_XFR_TASK } from '../kernel/zone-operations.js';

/**
 * `POST /v2/zones/{id}/tasks/xfr` (HTTP 202 with an empty body): visibility (404), policy
 * `xfr_zone` (admin or owner), then 400 for a zone that is not SECONDARY. The serial check and
 * the transfer run as a task, so the answer never waits for a master.
 * @internal
 */
export function xfrZone(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<void, ApiError> {
  return command(deps, ctx, {
    parse: () => zoneIdParam(id),
    transaction: (uow, caller, zoneId) =>
      safeTry(async function* () {
        const zone = yield* await visibleZone(uow.tx, caller, zoneId);
        yield* authorizeZone('xfr_zone', deps.forbiddenStatus, caller, zone.projectId);
        if (zone.type !== 'SECONDARY') return err(xfrOfPrimary());
        await requestTransfer(deps, uow, zone.id, true);
        return ok(undefined);
      }),
  });
}

/** The masters in a random order drawn from the service's random source (Fisher–Yates). */
function shuffled(masters: readonly MasterAddress[], random: () => number): MasterAddress[] {
  const out = [...masters];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * One master's transfer, read page by page into a plan; a page that breaks a rule or a limit
 * ends the iteration there (`for await` calls the iterator's `return()`, so the adapter can close
 * its connection), and whatever the master does wrong becomes an error, never a throw.
 */
async function transferFrom(
  port: MasterPort,
  master: MasterAddress,
  zoneName: string,
  limits: TransferLimits,
  allowed: ReadonlySet<string>,
  key: OwnerKey,
): Promise<{ ok: TransferPlan } | { error: string }> {
  const collector = new TransferCollector(zoneName, limits);
  try {
    for await (const page of port.transfer(master, zoneName, limits)) {
      const problem = collector.add(page);
      if (problem !== undefined) return { error: problem };
    }
  } catch (e) {
    return { error: `the master failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  return collector.finish(allowed, key);
}

/**
 * The ceiling of one transfer when the service's options set none: far above real zones (the
 * largest hosted zones hold a few hundred thousand records), low enough that a hostile master
 * cannot make the service hold gigabytes.
 * @internal
 */
export const DEFAULT_TRANSFER_LIMITS: TransferLimits = Object.freeze({ maxRecords: 1_000_000, maxBytes: 128 * 1024 * 1024 });

/** The ids of a zone's recordsets by name and type ({@link keptKey}): what a transfer keeps. */
async function keptIds(tx: Parameters<typeof zoneBlocks>[0], zone: Zone): Promise<Map<string, string>> {
  const kept = new Map<string, string>();
  // The service's own SOA of a zone never transferred: the master's SOA takes its place, and its id.
  if (zone.soaRecordsetId !== null) kept.set(keptKey(zone.name, 'SOA'), zone.soaRecordsetId);
  for await (const { block } of zoneBlocks(tx, zone.id)) {
    for (let i = 0; i < block.names.length; i++) kept.set(keptKey(block.names[i]!, typeAt(block, i)), idAt(block, i));
  }
  return kept;
}

/**
 * The zone after a transfer, as the real service's worker updates it from the master's SOA
 * (serial, retry, expire, the SOA's TTL and RNAME as email) with `transferred_at` set: in whole
 * seconds, as the real service's column keeps it.
 */
function transferred(deps: DnsDeps, zone: Zone, plan: TransferPlan, now: Date): Zone {
  return refreshedFromMaster(zone, now, {
    serial: plan.serial,
    ttl: plan.ttl === 0 ? (deps.limits.minTtl ?? zone.ttl) : plan.ttl,
    email: emailProblem(plan.email) === undefined ? plan.email : zone.email,
    retry: plan.retry,
    expire: plan.expire,
    recordsetCount: plan.recordsetCount,
    recordCount: plan.recordCount,
  });
}

/**
 * The task that transfers a SECONDARY zone from its masters (reference §4.10, the real worker's
 * `ZoneXfr` and central's `xfr_zone`): with `ifNewer`, one master drawn at random is asked for
 * its serial first and nothing happens unless it is larger than the zone's. Then the masters are
 * tried in a random order until one gives a transfer that passes every rule; the zone's
 * recordsets are replaced by it in one transaction, with the zone's update and push; a recordset
 * whose name and type survive keeps its id, as the real service's storage updates it in place.
 * No project quota applies (the real service applies none), only `limits`, against hostile
 * masters. When no master gives one, nothing changes at all (no status, no event), as in the
 * real service.
 *
 * Masters are reached outside any storage transaction, so a slow one holds no lock; the task is
 * registered as concurrent, so it holds no other zone's tasks either.
 * @param deps - the service's dependencies
 * @param options - which record types a transfer may store (the import's list)
 * @param limits - the ceiling of one transfer
 * @returns the handler to register under {@link ZONE_XFR_TASK}
 * @internal
 */
export function zoneXfrHandler(deps: DnsDeps, options: ZoneImportOptions = {}, limits: TransferLimits = DEFAULT_TRANSFER_LIMITS): TaskHandler {
  const allowed = new Set((options.recordTypes ?? DEFAULT_IMPORT_RECORD_TYPES).map((t) => t.toUpperCase()));
  return async (task: StoredTask) => {
    const port = deps.masters;
    let zone: Zone | undefined;
    try {
      zone = await deps.storage.transaction((tx) => zones.byId(tx, task.subject));
    } catch {
      return 'retry';
    }
    // `false`: the runner removes the task, nothing else changes.
    if (port === undefined || zone === undefined || zone.type !== 'SECONDARY' || zone.action === 'DELETE') return false;
    const masters = zone.masters.map(masterAddress);
    if (masters.length === 0) return false;
    if (task.data['ifNewer'] === 1) {
      const asked = masters[Math.min(masters.length - 1, Math.floor(deps.random() * masters.length))]!;
      let serial: unknown = null;
      try {
        serial = await port.serial(asked, zone.name);
      } catch {
        serial = null;
      }
      if (typeof serial !== 'number' || !(serial > zone.serial)) return false;
    }
    let plan: TransferPlan | undefined;
    for (const master of shuffled(masters, deps.random)) {
      const got = await transferFrom(port, master, zone.name, limits, allowed, drawOwnerKey(deps.random));
      if ('ok' in got) {
        plan = got.ok;
        break;
      }
    }
    if (plan === undefined) return false;
    const p = plan;
    const applied = await runInTransaction(deps.storage, async (uow) => {
      const { tx } = uow;
      const current = await zones.byId(tx, task.subject);
      if (current !== undefined && current.type === 'SECONDARY' && current.action !== 'DELETE') {
        const now = deps.clock();
        const placed = placeTransfer(p, await keptIds(tx, current), (n) => drawSortedIds(n, deps.ids));
        // A zone's stored recordsets share one created_at: the first transfer's, so the kept ones keep theirs.
        const before = await tx.get(RECORDSET_ZONES, current.id);
        const createdAt = before === undefined ? toMicros(now) : checkedImportedZone(current.id, before).createdAt;
        await removeRecordsets(tx, current.id);
        const blocks = buildBlocks(current.id, current.projectId, createdAt, placed.ids, placed.blocks);
        await storeImported(tx, current, createdAt, blocks, placed.ownerHashes, p.ownerKey);
        const next = transferred(deps, current, p, now);
        await saveAndPush(deps, uow, next, 'update', 'UPDATE');
      }
      await finishTask(tx, task);
      return ok(undefined);
    });
    return applied.isOk() ? true : 'retry';
  };
}
