import { err, ok, safeTry, type Result, type ResultAsync } from 'neverthrow';
import type { DnsDeps } from '../kernel/deps.js';
import { listCaller } from '../../kernel/list-command.js';
import { checkZoneQuota, readZoneQuotas } from '../kernel/zone-quotas.js';
import type { CompleteTransaction, StorageTransaction } from '../../ports/storage.js';
import type { ApiError } from '../../kernel/api-error.js';
import { command } from '../../kernel/command.js';
import type { RequestBody } from '../kernel/body.js';
import { requireProject, type Caller, type RequestContext } from '../../kernel/context.js';
import { uuidParam } from '../../kernel/errors.js';
import { emptyRequestBody } from '../../kernel/validation.js';
import { listArray, listPage, parseListQuery, type ListQuery, type ListSpec } from '../../kernel/list-query.js';
import { toMicros } from '../kernel/time.js';
import { visibleZone } from '../kernel/zone-operations.js';
import type { Zone } from '../kernel/zone.js';
import { zoneNotFound } from '../kernel/zone-errors.js';
import { transferred } from '../kernel/zone-lifecycle.js';
import { moveRecordsets } from '../kernel/recordset-store.js';
import { zoneRepository as zones } from '../kernel/zone-store.js';
import {
  parseTransferAcceptBody,
  presentTransferAccept,
  transferAcceptRepository as accepts,
  type StoredTransferAccept,
  type TransferAcceptBody,
  type TransferAcceptInput,
} from './transfer-accept.js';
import {
  detailedView,
  generateKey,
  keysMatch,
  parseTransferRequestBody,
  presentTransferRequest,
  transferRequestRepository as requests,
  type StoredTransferRequest,
  type TransferRequestBody,
  type TransferRequestInput,
} from './transfer-request.js';
import {
  acceptNotFound,
  duplicateTransferRequest,
  keyMismatch,
  requestInvalid,
  requestNotFound,
  requestUsed,
  transferringDeletingZone,
  zoneCannotChange,
} from './transfer-errors.js';
import { authorizeTransfer, inScope } from './transfer-policy.js';

/**
 * One page of transfer requests. There is no `metadata`: the real service does not count them.
 *
 * @category Transfers
 */
export interface TransferRequestList {
  /** The page, each request in the view the caller is entitled to. */
  readonly transfer_requests: readonly TransferRequestBody[];
  /** `self`, and `next` whenever the page is full. */
  readonly links: {
    /** This page's URL, query parameters echoed. */
    readonly self: string;
    /** The next page's URL: present whenever this page is full (even when it is the last, as in the real service). */
    readonly next?: string;
  };
}

/**
 * One page of transfer accepts.
 *
 * @category Transfers
 */
export interface TransferAcceptList {
  /** The page; `key` is null in every item. */
  readonly transfer_accepts: readonly TransferAcceptBody[];
  /** `self`, and `next` whenever the page is full. */
  readonly links: {
    /** This page's URL, query parameters echoed. */
    readonly self: string;
    /** The next page's URL: present whenever this page is full (even when it is the last, as in the real service). */
    readonly next?: string;
  };
  /** How many accepts match the filters in the caller's scope, ignoring paging. */
  readonly metadata: {
    /** The count, ignoring `limit` and `marker`. */
    readonly total_count: number;
  };
}

/**
 * `dns.transferRequests`: offering a zone to another project.
 *
 * @category Transfers
 */
export interface TransferRequestCommands {
  /**
   * `POST /v2/zones/{zone_id}/tasks/transfer_requests` (201): owner view with the key; a missing body is `{}`.
   * @errors `invalid_uuid` 400, `invalid_object` 400, `bad_request` 400, `zone_not_found` 404, `duplicate_zone_transfer_request` 409
   */
  create<B = unknown>(ctx: RequestContext, zoneId: string, body?: RequestBody<TransferRequestInput, B>): ResultAsync<TransferRequestBody, ApiError>;
  /**
   * `GET /v2/zones/tasks/transfer_requests/{id}`: any project for an untargeted request (reduced view).
   * @errors `invalid_uuid` 400, `zone_transfer_request_not_found` 404
   */
  get(ctx: RequestContext, id: string): ResultAsync<TransferRequestBody, ApiError>;
  /**
   * `GET /v2/zones/tasks/transfer_requests`: requests the caller created or is targeted by.
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  list(ctx: RequestContext, query?: ListQuery): ResultAsync<TransferRequestList, ApiError>;
  /**
   * `PATCH /v2/zones/tasks/transfer_requests/{id}` (200): description, and the target while unset.
   * @errors `invalid_uuid` 400, `invalid_object` 400, `invalid_operation` 400, `zone_transfer_request_not_found` 404
   */
  update<B = unknown>(ctx: RequestContext, id: string, body: RequestBody<TransferRequestInput, B>): ResultAsync<TransferRequestBody, ApiError>;
  /**
   * `DELETE /v2/zones/tasks/transfer_requests/{id}` (204): creator or admin; the target gets 403.
   * @errors `invalid_uuid` 400, `zone_transfer_request_not_found` 404
   */
  delete(ctx: RequestContext, id: string): ResultAsync<void, ApiError>;
}

/**
 * `dns.transferAccepts`: taking over a zone with a request's key.
 *
 * @category Transfers
 */
export interface TransferAcceptCommands {
  /**
   * `POST /v2/zones/tasks/transfer_accepts` (201): moves the zone, closes the request, all or nothing.
   * @errors `empty_request_body` 400, `invalid_object` 400, `invalid_zone_transfer_request` 400, `bad_request` 400, `invalid_key` 401/403, `zone_transfer_request_not_found` 404, `zone_not_found` 404
   */
  create<B = unknown>(ctx: RequestContext, body: RequestBody<TransferAcceptInput, B>): ResultAsync<TransferAcceptBody, ApiError>;
  /**
   * `GET /v2/zones/tasks/transfer_accepts/{id}`: the accepting project's own (others 404); `key` null.
   * @errors `invalid_uuid` 400, `zone_transfer_accept_not_found` 404
   */
  get(ctx: RequestContext, id: string): ResultAsync<TransferAcceptBody, ApiError>;
  /**
   * `GET /v2/zones/tasks/transfer_accepts`: admin only; without all-projects only the admin's project.
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  list(ctx: RequestContext, query?: ListQuery): ResultAsync<TransferAcceptList, ApiError>;
}

/** Reads a request across projects and applies the read policy (404, then 403). */
async function readableRequest(
  deps: DnsDeps,
  tx: StorageTransaction,
  caller: Caller,
  id: string,
): Promise<Result<StoredTransferRequest, ApiError>> {
  const r = await requests.get(tx, id);
  if (r === undefined) return err(requestNotFound());
  return authorizeTransfer('get_zone_transfer_request', deps.forbiddenStatus, caller, r).map(() => r);
}

/** Whether an ACTIVE request for the zone exists among those the caller's scope holds (the real check). */
async function activeRequestVisible(tx: StorageTransaction, caller: Caller, zoneId: string): Promise<boolean> {
  // The partial index holds only ACTIVE requests, normally at most one per zone.
  return (await requests.activeOfZone(tx, zoneId)).some((r) => inScope(caller, r));
}


const requestListSpec = (present: (r: StoredTransferRequest) => object): ListSpec<StoredTransferRequest> => ({
  path: '/v2/zones/tasks/transfer_requests',
  envelope: 'transfer_requests',
  metadata: false,
  filters: { status: (r) => r.status },
  sortKeys: { created_at: (r) => r.createdAt, id: (r) => r.id, updated_at: (r) => r.updatedAt },
  present,
});

const acceptListSpec = (baseUrl: string): ListSpec<StoredTransferAccept> => ({
  path: '/v2/zones/tasks/transfer_accepts',
  envelope: 'transfer_accepts',
  metadata: true,
  filters: { status: (a) => a.status },
  sortKeys: { created_at: (a) => a.createdAt, id: (a) => a.id, updated_at: (a) => a.updatedAt },
  present: (a) => presentTransferAccept(a, baseUrl),
});

/** Lists the caller's requests: all of them with all-projects, else creator-or-target. */
async function listRequests(
  deps: DnsDeps,
  tx: StorageTransaction,
  caller: Caller,
  query: unknown,
): Promise<Result<TransferRequestList, ApiError>> {
  const spec = requestListSpec((r) => presentTransferRequest(r, deps.baseUrl, detailedView(caller.isAdmin, caller.projectId, r)));
  const parsed = parseListQuery(spec, query, caller.allProjects);
  if (parsed.isErr()) return err(parsed.error);
  if (caller.allProjects) {
    return (await listPage(tx, spec, requests.everyone, parsed.value, deps.baseUrl)) as Result<TransferRequestList, ApiError>;
  }
  const project = caller.projectId;
  if (project === null) return ok({ transfer_requests: [], links: { self: `${deps.baseUrl}${spec.path}` } });
  // Creator OR target: one page from each index (both keyed (project, created_at), so one marker
  // position serves both), merged and cut to one page. The cost follows the caller's own
  // requests and the page size, never the number of other projects' requests.
  const raw = requestListSpec((r) => r);
  const merged: StoredTransferRequest[] = [];
  for (const scope of requests.ofProject(project)) {
    const page = await listPage(tx, raw, scope, parsed.value, deps.baseUrl);
    if (page.isErr()) return err(page.error);
    merged.push(...((page.value as { transfer_requests: StoredTransferRequest[] }).transfer_requests));
  }
  const marker = parsed.value.marker === undefined ? undefined : await requests.get(tx, parsed.value.marker);
  return listArray(spec, merged, parsed.value, true, marker, deps.baseUrl) as Result<TransferRequestList, ApiError>;
}

/**
 * Builds the transfer request commands over the service's dependencies.
 *
 * @param deps - the DNS service's injected dependencies
 * @returns `create`, `get`, `list`, `update`, `delete`; each answers a `ResultAsync` that never rejects
 * @category Transfers
 * @internal
 */
export function createTransferRequestCommands(deps: DnsDeps): TransferRequestCommands {
  return {
    create: (ctx, zoneId, body) =>
      command(deps, ctx, {
        body,
        ids: () => uuidParam('zone_id', zoneId),
        parse: () => uuidParam('zone_id', zoneId).andThen((id) => parseTransferRequestBody(body, undefined, deps.baseUrl).map((input) => ({ id, input }))),
        transaction: (uow, caller, { id, input }) =>
          safeTry(async function* () {
            const zone = yield* await visibleZone(uow.tx, caller, id);
            if (zone.action === 'DELETE') return err(transferringDeletingZone());
            yield* authorizeTransfer('create_zone_transfer_request', deps.forbiddenStatus, caller, zone.projectId);
            const key = generateKey(deps.random);
            const projectId = yield* requireProject(caller);
            if (await activeRequestVisible(uow.tx, caller, zone.id)) return err(duplicateTransferRequest());
            const request: StoredTransferRequest = Object.freeze({
              id: deps.ids(),
              zoneId: zone.id,
              zoneName: zone.name,
              projectId,
              targetProjectId: input.targetProjectId ?? null,
              description: input.description ?? null,
              key,
              status: 'ACTIVE',
              createdAt: toMicros(deps.clock()),
              updatedAt: null,
            });
            await requests.insert(uow.tx, request);
            const shown = presentTransferRequest(request, deps.baseUrl, true);
            uow.afterCommit(() => deps.events.emit('dns.zone_transfer_request.create', shown));
            return ok(shown);
          }),
      }),

    get: (ctx, id) =>
      command(deps, ctx, {
        parse: () => uuidParam('zone_transfer_request_id', id),
        transaction: async ({ tx }, caller, requestId) =>
          (await readableRequest(deps, tx, caller, requestId)).map((r) =>
            presentTransferRequest(r, deps.baseUrl, detailedView(caller.isAdmin, caller.projectId, r)),
          ),
      }),

    list: (ctx, query) =>
      command(deps, ctx, {
        parse: (resolved) => listCaller(deps, resolved, query),
        transaction: ({ tx }, _resolved, caller) => listRequests(deps, tx, caller, query),
      }),

    update: (ctx, id, body) =>
      command(deps, ctx, {
        body,
        ids: () => uuidParam('zone_transfer_request_id', id),
        parse: () => uuidParam('zone_transfer_request_id', id),
        transaction: (uow, caller, requestId) =>
          safeTry(async function* () {
            const current = yield* await readableRequest(deps, uow.tx, caller, requestId);
            const input = yield* parseTransferRequestBody(body, current, deps.baseUrl);
            if (input.zoneIdGiven) return err(zoneCannotChange());
            yield* authorizeTransfer('update_zone_transfer_request', deps.forbiddenStatus, caller, current);
            const next: StoredTransferRequest = Object.freeze({
              ...current,
              ...(input.targetProjectId === undefined ? {} : { targetProjectId: input.targetProjectId }),
              ...(input.description === undefined ? {} : { description: input.description }),
              updatedAt: toMicros(deps.clock()),
            });
            await requests.put(uow.tx, next);
            const shown = presentTransferRequest(next, deps.baseUrl, true);
            uow.afterCommit(() => deps.events.emit('dns.zone_transfer_request.update', shown));
            return ok(shown);
          }),
      }),

    delete: (ctx, id) =>
      command(deps, ctx, {
        parse: () => uuidParam('zone_transfer_request_id', id),
        transaction: (uow, caller, requestId) =>
          safeTry(async function* () {
            const r = await requests.get(uow.tx, requestId);
            if (r === undefined || !inScope(caller, r)) return err(requestNotFound());
            yield* authorizeTransfer('delete_zone_transfer_request', deps.forbiddenStatus, caller, r);
            await requests.delete(uow.tx, r.id);
            const shown = presentTransferRequest(r, deps.baseUrl, true);
            uow.afterCommit(() => deps.events.emit('dns.zone_transfer_request.delete', shown));
            return ok(undefined);
          }),
      }),
  };
}

/** The accept flow of the real service, first failure wins; runs inside one transaction. */
function acceptTransfer(
  deps: DnsDeps,
  tx: CompleteTransaction,
  caller: Caller,
  requestId: string | undefined,
  key: string,
): ResultAsync<{ accept: StoredTransferAccept; request: StoredTransferRequest; zone: Zone }, ApiError> {
  return safeTry(async function* () {
    if (requestId === undefined) return err(requestNotFound());
    const request = yield* await readableRequest(deps, tx, caller, requestId);
    if (request.status === 'COMPLETE') return err(requestUsed());
    if (request.status !== 'ACTIVE') return err(requestInvalid());
    if (!keysMatch(key, request.key)) return err(keyMismatch(deps.forbiddenStatus));
    yield* authorizeTransfer('create_zone_transfer_accept', deps.forbiddenStatus, caller, request);
    const acceptor = yield* requireProject(caller);
    const zone = await zones.byId(tx, request.zoneId);
    if (zone === undefined) return err(zoneNotFound());
    if (zone.action === 'DELETE') return err(transferringDeletingZone());
    // The zone changes project: its name's ownership and the acceptor's count move.
    const owned = await zones.countBeforeTaking(tx, zone, acceptor);
    const quotas = await readZoneQuotas(tx, acceptor, deps.quotaDefaults);
    yield* checkZoneQuota(quotas, 'zones', owned + 1);
    return ok(await moveZone(deps, tx, zone, request, acceptor));
  });
}

/** The writes of an accept: the zone to its new project, the request closed, the accept recorded. */
async function moveZone(
  deps: DnsDeps,
  tx: CompleteTransaction,
  zone: Zone,
  request: StoredTransferRequest,
  acceptor: string,
): Promise<{ accept: StoredTransferAccept; request: StoredTransferRequest; zone: Zone }> {
  const at = deps.clock();
  const now = toMicros(at);
  // Ownership only: status, action, serial and transferred_at (a SECONDARY zone's AXFR time) stay.
  const moved = transferred(zone, acceptor, at);
  await zones.put(tx, moved);
  // The recordsets name their zone's project for the cross-zone list.
  await moveRecordsets(tx, zone.id, acceptor);
  const closed: StoredTransferRequest = Object.freeze({ ...request, status: 'COMPLETE', updatedAt: now });
  await requests.put(tx, closed);
  const accept: StoredTransferAccept = Object.freeze({
    id: deps.ids(),
    requestId: request.id,
    projectId: acceptor,
    status: 'COMPLETE',
    zoneId: zone.id,
    createdAt: now,
    updatedAt: now,
  });
  await accepts.insert(tx, accept);
  return { accept, request: closed, zone: moved };
}

/**
 * Builds the transfer accept commands over the service's dependencies.
 *
 * @param deps - the DNS service's injected dependencies
 * @returns `create`, `get`, `list`; each answers a `ResultAsync` that never rejects
 * @category Transfers
 * @internal
 */
export function createTransferAcceptCommands(deps: DnsDeps): TransferAcceptCommands {
  return {
    create: (ctx, body) =>
      command(deps, ctx, {
        body,
        parse: () => (body === undefined || body === null ? err(emptyRequestBody()) : parseTransferAcceptBody(body)),
        transaction: (uow, caller, { requestId, key }) =>
          safeTry(async function* () {
            const done = yield* acceptTransfer(deps, uow.tx, caller, requestId, key);
            const shown = presentTransferAccept(done.accept, deps.baseUrl, key);
            uow.afterCommit(() => deps.events.emit('dns.zone_transfer_accept.create', shown));
            return ok(shown);
          }),
      }),

    get: (ctx, id) =>
      command(deps, ctx, {
        parse: () => uuidParam('transfer_accept_id', id),
        transaction: async ({ tx }, caller, acceptId): Promise<Result<TransferAcceptBody, ApiError>> => {
          const a = await accepts.get(tx, acceptId);
          if (a === undefined || !(caller.allProjects || caller.projectId === a.projectId)) return err(acceptNotFound());
          return authorizeTransfer('get_zone_transfer_accept', deps.forbiddenStatus, caller, a.projectId).map(() =>
            presentTransferAccept(a, deps.baseUrl),
          );
        },
      }),

    list: (ctx, query) =>
      command(deps, ctx, {
        // The real controller validates paging parameters before central applies the policy.
        parse: (resolved) =>
          listCaller(deps, resolved, query).andThen((caller) =>
            parseListQuery(acceptListSpec(deps.baseUrl), query, caller.allProjects).map((q) => ({ caller, q })),
          ),
        authorize: (_resolved, { caller }) => authorizeTransfer('find_zone_transfer_accepts', deps.forbiddenStatus, caller, undefined),
        transaction: async ({ tx }, _resolved, { caller, q }) => {
          const spec = acceptListSpec(deps.baseUrl);
          const project = caller.projectId;
          if (!caller.allProjects && project === null) {
            return ok({ transfer_accepts: [], links: { self: `${deps.baseUrl}${spec.path}` }, metadata: { total_count: 0 } });
          }
          return (await listPage(tx, spec, accepts.listScope(caller.allProjects ? null : project), q, deps.baseUrl)) as Result<TransferAcceptList, ApiError>;
        },
      }),
  };
}
