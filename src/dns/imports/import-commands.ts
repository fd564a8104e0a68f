import { err, ok, safeTry, type Result, type ResultAsync } from 'neverthrow';
import type { DnsDeps } from '../kernel/deps.js';
import { listOwned, type ListEnvelope } from '../../kernel/list-command.js';
import { checkZoneQuota, readZoneQuotas } from '../kernel/zone-quotas.js';
import { buildBlocks, drawSortedPacked, sortedIdAt, sortedIdCount, takeSmallest, type SortedIds } from '../kernel/blocks.js';
import { storeImported } from '../kernel/recordset-store.js';
import type { ApiError } from '../../kernel/api-error.js';
import { command, runInTransaction, type UnitOfWork } from '../../kernel/command.js';
import { uuidParam } from '../../kernel/errors.js';
import { emptyRequestBody } from '../../kernel/validation.js';
import { checkNameSyntax, emailProblem } from '../kernel/zone-rules.js';
import { requireProject, type Caller } from '../../kernel/context.js';
import type { ListSpec } from '../../kernel/list-query.js';
import { enqueueTask, finishTask, type StoredTask } from '../kernel/tasks.js';
import { toMicros } from '../kernel/time.js';
import { drawRefresh, insertZone } from '../kernel/zone-operations.js';
import type { Zone } from '../kernel/zone.js';
import { zoneRepository } from '../kernel/zone-store.js';
import { canSee } from '../kernel/zone-policy.js';
import { withImportedCounts } from '../kernel/zone-lifecycle.js';
import {
  fileNotClean,
  fileNotText,
  fileNotUtf8,
  fileTooLarge,
  importFailed as failure,
  importNotFound,
  unsupportedContentType,
} from './import-errors.js';
import { DEFAULT_IMPORT_RECORD_TYPES, IMPORT_MESSAGES, planImport, undefinedError, type ZoneImportOptions } from '../kernel/import-plan.js';
import { drawOwnerKey } from '../kernel/owner-index.js';
import { importRepository as imports, presentImport, type StoredImport, type ZoneImportBody } from './zone-import.js';

/** Task kind that processes a zone import. @category Imports */
export const ZONE_IMPORT_TASK = 'zone.import';

function emitImport(deps: DnsDeps, uow: UnitOfWork, verb: 'create' | 'update' | 'delete', i: StoredImport): void {
  const body = presentImport(i, deps.baseUrl);
  uow.afterCommit(() => deps.events.emit(`dns.zone_import.${verb}`, body));
}

/**
 * The rule of `isCleanText` (no NUL, no lone surrogate) for a whole file: its loop over every
 * UTF-16 unit takes a quarter to half a second on a 56 MB file, the engine's own searches a few
 * milliseconds. `isWellFormed` is Node 20's, newer than the ES2023 library typed here.
 */
const isCleanFile = (text: string): boolean =>
  !text.includes('\0') && (text as string & { isWellFormed(): boolean }).isWellFormed();

/** The media type of a Content-Type header, lower-cased, parameters dropped. */
const mediaType = (value: unknown): string =>
  typeof value === 'string' ? (value.split(';')[0] ?? '').trim().toLowerCase() : '';

/** The zone file of a create: text (or UTF-8 bytes) the service can store and parse. */
function parseZoneFile(deps: DnsDeps, text: unknown, contentType: unknown): Result<string, ApiError> {
  if (mediaType(contentType) !== 'text/dns') return err(unsupportedContentType());
  let body: string;
  if (text instanceof Uint8Array) {
    try {
      body = new TextDecoder('utf-8', { fatal: true }).decode(text);
    } catch {
      return err(fileNotUtf8());
    }
  } else if (typeof text === 'string') body = text;
  else if (text === undefined || text === null) body = '';
  else return err(fileNotText());
  if (body.trim() === '') return err(emptyRequestBody());
  if (!isCleanFile(body)) return err(fileNotClean());
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > deps.limits.maxZoneFileBytes) return err(fileTooLarge(bytes, deps.limits.maxZoneFileBytes));
  return ok(body);
}

/** `POST /v2/zones/tasks/imports`. @internal */
export function createImport(deps: DnsDeps, ctx: unknown, text: unknown, contentType: unknown): ResultAsync<ZoneImportBody, ApiError> {
  return command(deps, ctx, {
    body: text,
    parse: () => parseZoneFile(deps, text, contentType),
    // create_zone_import: admin or owner, the owner being the caller's project.
    authorize: (caller) => requireProject(caller),
    transaction: async (uow, caller, body) => {
      const stored: StoredImport = Object.freeze({
        id: deps.ids(),
        projectId: caller.projectId!,
        status: 'PENDING',
        message: null,
        zoneId: null,
        createdAt: toMicros(deps.clock()),
        updatedAt: null,
        version: 1,
      });
      await imports.insert(uow.tx, stored);
      // The random draw the zone's creation needs is made now and queued with the file, so a
      // snapshot taken before the task ran restores to the same zone (the restored service has
      // its own random source).
      await enqueueTask(uow.tx, deps.ids(), ZONE_IMPORT_TASK, stored.id, { text: body, admin: caller.isAdmin ? 1 : 0, refresh: drawRefresh(deps) });
      emitImport(deps, uow, 'create', stored);
      uow.afterCommit(() => deps.tasks.queued());
      return ok(presentImport(stored, deps.baseUrl));
    },
  });
}

/** An import the caller may see, or 404. */
async function visibleImport(uow: UnitOfWork, caller: Caller, id: string): Promise<Result<StoredImport, ApiError>> {
  const found = await imports.get(uow.tx, id);
  return found === undefined || !canSee(caller, found.projectId) ? err(importNotFound()) : ok(found);
}

/** `GET /v2/zones/tasks/imports/{id}`. @internal */
export function getImport(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<ZoneImportBody, ApiError> {
  return command(deps, ctx, {
    parse: () => uuidParam('import_id', id),
    transaction: async (uow, caller, importId) => (await visibleImport(uow, caller, importId)).map((i) => presentImport(i, deps.baseUrl)),
  });
}

const importListSpec = (baseUrl: string): ListSpec<StoredImport> => ({
  path: '/v2/zones/tasks/imports',
  envelope: 'imports',
  metadata: true,
  filters: {
    status: (i) => i.status,
    message: (i) => i.message,
    zone_id: (i) => i.zoneId,
  },
  sortKeys: {
    created_at: (i) => i.createdAt,
    id: (i) => i.id,
    updated_at: (i) => i.updatedAt,
    status: (i) => i.status,
    tenant_id: (i) => i.projectId,
  },
  present: (i) => presentImport(i, baseUrl),
});

/**
 * One page of imports (`GET /v2/zones/tasks/imports`).
 *
 * @category Imports
 */
export type ZoneImportList = ListEnvelope<'imports', ZoneImportBody>;

/** `GET /v2/zones/tasks/imports`. @internal */
export function listImports(deps: DnsDeps, ctx: unknown, query: unknown): ResultAsync<ZoneImportList, ApiError> {
  return listOwned<ZoneImportList, StoredImport>(deps, ctx, query, importListSpec(deps.baseUrl), imports.listScope);
}

/** `DELETE /v2/zones/tasks/imports/{id}`: removes the import record only; its zone stays. @internal */
export function deleteImport(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<void, ApiError> {
  return command(deps, ctx, {
    parse: () => uuidParam('zone_import_id', id),
    transaction: (uow, caller, importId) =>
      safeTry(async function* () {
        const found = yield* await visibleImport(uow, caller, importId);
        await imports.delete(uow.tx, importId);
        emitImport(deps, uow, 'delete', found);
        return ok(undefined);
      }),
  });
}

/** The outcome message of a zone-creation error (reference §8.4). */
function creationMessage(error: ApiError): string {
  if (error.type === 'over_quota') return IMPORT_MESSAGES.quota;
  if (error.type === 'duplicate_zone') return IMPORT_MESSAGES.duplicate;
  if (error.type === 'invalid_ttl') return error.message;
  return undefinedError(error.message);
}

/**
 * The real service creates an imported zone's SOA and NS recordsets before the file's, and lists
 * recordsets by created_at, then id: SOA, NS, then the file's. Here they all share the zone's
 * created_at, so the ids decide: of the SOA's, the NS's and the drawn ones (ascending), the two
 * smallest go to the SOA and the NS, the others, still ascending, to the file's recordsets.
 * O(recordsets), no id drawn twice.
 */
function managedFirst(zone: Zone, drawn: SortedIds): { managed: Pick<Zone, 'soaRecordsetId' | 'nsRecordsetId'>; imported: SortedIds } {
  const own = [zone.soaRecordsetId, zone.nsRecordsetId].filter((id): id is string => id !== null).sort();
  if (own.length === 0 || sortedIdCount(drawn) === 0 || own[own.length - 1]! < sortedIdAt(drawn, 0)) {
    return { managed: { soaRecordsetId: zone.soaRecordsetId, nsRecordsetId: zone.nsRecordsetId }, imported: drawn };
  }
  const { smallest, rest } = takeSmallest(drawn, own);
  return { managed: { soaRecordsetId: smallest[0]!, nsRecordsetId: zone.nsRecordsetId === null ? null : smallest[1]! }, imported: rest };
}

/**
 * The task that processes an import: parse, convert, then create the zone and every recordset in
 * one transaction (or nothing), and write the outcome.
 *
 * @param deps - the service's dependencies
 * @param options - which record types an import may store
 * @returns the handler to register under {@link ZONE_IMPORT_TASK}
 * @category Imports
 */
export function importTaskHandler(deps: DnsDeps, options: ZoneImportOptions = {}): (task: StoredTask) => Promise<void> {
  const allowed = new Set((options.recordTypes ?? DEFAULT_IMPORT_RECORD_TYPES).map((t) => t.toUpperCase()));
  return async (task) => {
    const text = String(task.data['text'] ?? '');
    const isAdmin = task.data['admin'] === 1;
    // A task queued by a version that did not draw it: drawn when the zone is created.
    const refresh = task.data['refresh'];
    // Parsing needs no storage; an import deleted before its task ran is noticed inside the transactions.
    const plan = planImport(text, deps.limits.maxZoneFileBytes, allowed, drawOwnerKey(deps.random));

    const finish = (uow: UnitOfWork, current: StoredImport, status: 'COMPLETE' | 'ERROR', message: string, zoneId: string | null) => {
      const next: StoredImport = Object.freeze({
        ...current,
        status,
        message: message.slice(0, 160),
        zoneId,
        version: current.version + 1,
        updatedAt: toMicros(deps.clock()),
      });
      emitImport(deps, uow, 'update', next);
      return imports.put(uow.tx, next);
    };

    const writeError = (message: string) =>
      runInTransaction(deps.storage, async (uow) => {
        const current = await imports.get(uow.tx, task.subject);
        if (current !== undefined) await finish(uow, current, 'ERROR', message, null);
        await finishTask(uow.tx, task);
        return ok(undefined);
      });

    if ('error' in plan) {
      await writeError(plan.error);
      return;
    }
    const p = plan.ok;
    const created = await runInTransaction(deps.storage, async (uow): Promise<Result<string, ApiError>> => {
      const { tx } = uow;
      const current = await imports.get(tx, task.subject);
      if (current === undefined) {
        await finishTask(tx, task);
        return ok('');
      }
      if (checkNameSyntax(p.name).isErr()) return err(failure(undefinedError(`Domain ${p.name} is invalid`)));
      const badEmail = emailProblem(p.email);
      if (badEmail !== undefined) return err(failure(undefinedError(badEmail)));
      let ttl = p.ttl;
      if (ttl === 0) {
        if (deps.limits.minTtl === null) return err(failure(undefinedError('The SOA record has TTL 0 and no minimum TTL is configured')));
        ttl = deps.limits.minTtl;
      }
      const caller: Caller = {
        projectId: current.projectId,
        originalProjectId: current.projectId,
        roles: isAdmin ? ['admin'] : [],
        isAdmin,
        allProjects: false,
      };
      const inserted = await insertZone(deps, uow, caller, {
        projectId: current.projectId,
        name: p.name,
        email: p.email,
        description: null,
        ttl,
        type: 'PRIMARY',
        masters: [],
        attributes: {},
        serial: p.serial,
        retry: p.retry,
        expire: p.expire,
        ...(Number.isSafeInteger(refresh) ? { refresh: refresh as number } : {}),
        extraRecordsets: p.recordsetCount,
      });
      if (inserted.isErr()) return err(failure(creationMessage(inserted.error)));
      // The zone is in; the real service then writes its own SOA record, whose serial field
      // starts at 1, so a serial of 0 fails there (after the zone's checks, before the quotas of
      // the recordsets), though the zone itself takes 0.
      if (p.serial === 0) return err(failure(undefinedError('Value must be >= 1 for field serial')));
      const zone = inserted.value.zone;
      const quotas = await readZoneQuotas(tx, current.projectId, deps.quotaDefaults);
      if (checkZoneQuota(quotas, 'zone_records', p.recordCount).isErr()) return err(failure(IMPORT_MESSAGES.quota));
      const perSet = quotas.recordset_records;
      if (perSet >= 0 && p.largestRecordset > perSet) return err(failure(IMPORT_MESSAGES.quota));
      const ids = managedFirst(zone, drawSortedPacked(p.recordsetCount, deps.ids));
      const blocks = buildBlocks(zone.id, zone.projectId, zone.createdAt, ids.imported, p.blocks);
      await storeImported(tx, zone, zone.createdAt, blocks, p.ownerHashes, p.ownerKey);
      const counted: Zone = Object.freeze({ ...withImportedCounts(zone, p.recordsetCount, p.recordCount), ...ids.managed });
      await zoneRepository.put(tx, counted);
      await finish(uow, current, 'COMPLETE', `${zone.name} imported`, zone.id);
      await finishTask(tx, task);
      return ok(zone.id);
    });
    if (created.isErr()) {
      const e = created.error;
      await writeError(e.type === 'import_failed' ? e.message : undefinedError(e.message));
    }
  };
}

