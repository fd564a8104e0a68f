import { err, ok, safeTry, type Result, type ResultAsync } from 'neverthrow';
import { zonePool, type DnsDeps } from '../kernel/deps.js';
import { listOwned, type ListEnvelope } from '../../kernel/list-command.js';
import { checkZoneQuota, readZoneQuotas } from '../kernel/zone-quotas.js';
import type { StorageTransaction } from '../../ports/storage.js';
import { typeAt } from '../kernel/recordset.js';
import { managedCount, managedRecordsets } from '../kernel/recordset-body.js';
import { creationOrder } from '../kernel/recordset-pages.js';
import type { ApiError } from '../../kernel/api-error.js';
import { command, runInTransaction, type UnitOfWork } from '../../kernel/command.js';
import { uuidParam } from '../../kernel/errors.js';
import { requireProject, type Caller } from '../../kernel/context.js';
import type { ListSpec } from '../../kernel/list-query.js';
import { enqueueTask, finishTask, type StoredTask } from '../kernel/tasks.js';
import { toMicros } from '../kernel/time.js';
import { visibleZone } from '../kernel/zone-operations.js';
import type { Zone } from '../kernel/zone.js';
import { canSee } from '../kernel/zone-policy.js';
import { exportNotFound, notExportedYet, unsupportedAccept } from './export-errors.js';
import { zoneRepository as zones } from '../kernel/zone-store.js';
import { exportRepository, presentExport, type StoredExport, type ZoneExportBody } from './zone-export.js';

/** Task kind that processes a zone export. @category Exports */
export const ZONE_EXPORT_TASK = 'zone.export';

function emitExport(deps: DnsDeps, uow: UnitOfWork, verb: 'create' | 'update' | 'delete', e: StoredExport): void {
  const body = presentExport(e, deps.baseUrl);
  uow.afterCommit(() => deps.events.emit(`dns.zone_export.${verb}`, body));
}

/** `POST /v2/zones/{zone_id}/tasks/export`. @internal */
export function createExport(deps: DnsDeps, ctx: unknown, zoneId: unknown): ResultAsync<ZoneExportBody, ApiError> {
  return command(deps, ctx, {
    parse: () => uuidParam('zone_id', zoneId),
    transaction: (uow, caller, id) =>
      safeTry(async function* () {
        const zone = yield* await visibleZone(uow.tx, caller, id);
        // create_zone_export: admin or owner, the owner being the caller's project.
        const projectId = yield* requireProject(caller);
        const stored: StoredExport = Object.freeze({
          id: deps.ids(),
          projectId,
          zoneId: zone.id,
          status: 'PENDING',
          message: null,
          location: null,
          createdAt: toMicros(deps.clock()),
          updatedAt: null,
          version: 1,
        });
        await exportRepository.insert(uow.tx, stored);
        await enqueueTask(uow.tx, deps.ids(), ZONE_EXPORT_TASK, stored.id, {});
        emitExport(deps, uow, 'create', stored);
        uow.afterCommit(() => deps.tasks.queued());
        return ok(presentExport(stored, deps.baseUrl));
      }),
  });
}

async function visibleExport(tx: StorageTransaction, caller: Caller, id: string): Promise<Result<StoredExport, ApiError>> {
  const found = await exportRepository.get(tx, id);
  if (found === undefined || !canSee(caller, found.projectId)) return err(exportNotFound());
  return ok(found);
}

/** `GET /v2/zones/tasks/exports/{id}`. @internal */
export function getExport(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<ZoneExportBody, ApiError> {
  return command(deps, ctx, {
    parse: () => uuidParam('export_id', id),
    transaction: async ({ tx }, caller, exportId) =>
      (await visibleExport(tx, caller, exportId)).map((e) => presentExport(e, deps.baseUrl)),
  });
}

const exportListSpec = (baseUrl: string): ListSpec<StoredExport> => ({
  path: '/v2/zones/tasks/exports',
  envelope: 'exports',
  metadata: true,
  filters: {
    status: (e) => e.status,
    message: (e) => e.message,
    zone_id: (e) => e.zoneId,
  },
  sortKeys: {
    created_at: (e) => e.createdAt,
    id: (e) => e.id,
    updated_at: (e) => e.updatedAt,
    status: (e) => e.status,
    tenant_id: (e) => e.projectId,
  },
  present: (e) => presentExport(e, baseUrl),
});

/**
 * One page of exports (`GET /v2/zones/tasks/exports`).
 *
 * @category Exports
 */
export type ZoneExportList = ListEnvelope<'exports', ZoneExportBody>;

/** `GET /v2/zones/tasks/exports`. @internal */
export function listExports(deps: DnsDeps, ctx: unknown, query: unknown): ResultAsync<ZoneExportList, ApiError> {
  return listOwned<ZoneExportList, StoredExport>(deps, ctx, query, exportListSpec(deps.baseUrl), exportRepository.listScope);
}

/** `DELETE /v2/zones/tasks/exports/{id}`: the export record goes (and its file link with it); the zone stays. @internal */
export function deleteExport(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<void, ApiError> {
  return command(deps, ctx, {
    parse: () => uuidParam('zone_export_id', id),
    transaction: (uow, caller, exportId) =>
      safeTry(async function* () {
        const found = yield* await visibleExport(uow.tx, caller, exportId);
        await exportRepository.delete(uow.tx, exportId);
        emitExport(deps, uow, 'delete', found);
        return ok(undefined);
      }),
  });
}

/** Whether an Accept header allows the zone file's `text/dns` (absent = yes). */
function acceptsZoneFile(accept: unknown): boolean {
  if (accept === undefined || accept === null) return true;
  if (typeof accept !== 'string') return false;
  if (accept.trim() === '') return true;
  return accept.split(',').some((part) => {
    const media = (part.split(';')[0] ?? '').trim().toLowerCase();
    return media === 'text/dns' || media === '*/*';
  });
}

/**
 * The zone file as the real service's template renders it (reference §9.3): `$ORIGIN`, `$TTL`, a
 * blank line, one line per record (SOA, NS, then stored recordsets in creation order; the TTL is
 * left out when null or 0), then two blank lines.
 * @internal
 */
export async function renderZoneFile(deps: DnsDeps, tx: StorageTransaction, zone: Zone): Promise<string> {
  const pool = zonePool(deps, zone);
  const parts: string[] = [`$ORIGIN ${zone.name}\n$TTL ${zone.ttl}\n\n`];
  for (const r of managedRecordsets(zone, pool, deps.baseUrl)) {
    const head = `${r.name} ${r.ttl === null || r.ttl === 0 ? '' : r.ttl} IN ${r.type} `;
    for (const data of r.records) parts.push(`${head}${data}\n`);
  }
  for await (const { block: b, from, to } of creationOrder(tx, zone.id)) {
    const lines: string[] = [];
    let k = from === 0 ? 0 : b.ends[from - 1]!;
    for (let i = from; i < to; i++) {
      const ttl = b.ttls[i];
      const head = `${b.names[i]!} ${ttl === null || ttl === 0 ? '' : ttl} IN ${typeAt(b, i)} `;
      for (const end = b.ends[i]!; k < end; k++) lines.push(head + b.data[k]!);
    }
    if (lines.length > 0) parts.push(`${lines.join('\n')}\n`);
  }
  parts.push('\n\n');
  return parts.join('');
}

/** `GET /v2/zones/tasks/exports/{id}/export`: the file, rendered now from the zone's current data. @internal */
export function exportFile(deps: DnsDeps, ctx: unknown, id: unknown, accept: unknown): ResultAsync<string, ApiError> {
  return command(deps, ctx, {
    parse: () => (acceptsZoneFile(accept) ? uuidParam('export_id', id) : err(unsupportedAccept())),
    transaction: ({ tx }, caller, exportId) =>
      safeTry(async function* () {
        const found = yield* await visibleExport(tx, caller, exportId);
        if (found.location === null || !found.location.startsWith('designate://')) return err(notExportedYet());
        const zone = yield* await visibleZone(tx, caller, found.zoneId);
        return ok(await renderZoneFile(deps, tx, zone));
      }),
  });
}

/**
 * The task that processes an export: `ERROR` `Zone is too large to export` when the zone has more
 * recordsets (SOA and NS included) than the caller's `api_export_size`, else `COMPLETE` with its
 * `location`. A storage failure leaves the export in `ERROR`.
 *
 * @param deps - the service's dependencies
 * @returns the handler to register under {@link ZONE_EXPORT_TASK}
 * @category Exports
 */
export function exportTaskHandler(deps: DnsDeps): (task: StoredTask) => Promise<void> {
  const outcome = (current: StoredExport, status: 'COMPLETE' | 'ERROR', message: string | null, location: string | null): StoredExport =>
    Object.freeze({ ...current, status, message, location, version: current.version + 1, updatedAt: toMicros(deps.clock()) });
  return async (task) => {
    const done = await runInTransaction(deps.storage, async (uow) => {
      const current = await exportRepository.get(uow.tx, task.subject);
      if (current !== undefined) {
        const zone = await zones.byId(uow.tx, current.zoneId);
        let next: StoredExport;
        if (zone === undefined) next = outcome(current, 'ERROR', 'Could not find Zone', null);
        else {
          const size = managedCount(zone) + zone.recordsetCount;
          const quotas = await readZoneQuotas(uow.tx, current.projectId, deps.quotaDefaults);
          next = checkZoneQuota(quotas, 'api_export_size', size).isErr()
            ? outcome(current, 'ERROR', 'Zone is too large to export', null)
            : outcome(current, 'COMPLETE', null, `designate://v2/zones/tasks/exports/${current.id}/export`);
        }
        await exportRepository.put(uow.tx, next);
        emitExport(deps, uow, 'update', next);
      }
      await finishTask(uow.tx, task);
      return ok(undefined);
    });
    if (done.isErr()) {
      await runInTransaction(deps.storage, async (uow) => {
        const current = await exportRepository.get(uow.tx, task.subject);
        if (current !== undefined) {
          const next = outcome(current, 'ERROR', 'An undefined error occurred. The storage failed while exporting the zone.', null);
          await exportRepository.put(uow.tx, next);
          emitExport(deps, uow, 'update', next);
        }
        await finishTask(uow.tx, task);
        return ok(undefined);
      });
    }
  };
}
