import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import type { DnsDeps } from '../dns/deps.js';
import { dnsCommand, listCaller } from '../dns/command.js';
import { checkZoneQuota, readZoneQuotas } from '../dns-quotas/index.js';
import type { StorageTransaction } from '../ports/storage.js';
import { ApiError } from '../shared/api-error.js';
import { runInTransaction } from '../shared/command.js';
import { forbidden, requireProject, type Caller, type RequestContext } from '../shared/context.js';
import { tupleKey } from '../shared/keys.js';
import { listArray, listPage, parseListQuery, type ListQuery, type ListScope, type ListSpec } from '../shared/list-query.js';
import { toMicros } from '../shared/time.js';
import { isUuidLike } from '../shared/uuid.js';
import { adminOrOwner, invalidUuid, putZone, visibleZone, zoneNotFound } from '../zones/zone-commands.js';
import { BY_PROJECT, ZONES, type Zone } from '../zones/zone.js';
import {
  ACC_BY_CREATED,
  ACC_BY_PROJECT,
  parseTransferAcceptBody,
  presentTransferAccept,
  TRANSFER_ACCEPTS,
  transferAcceptKeys,
  type StoredTransferAccept,
  type TransferAcceptBody,
} from './transfer-accept.js';
import {
  detailedView,
  generateKey,
  keysMatch,
  parseTransferRequestBody,
  presentTransferRequest,
  REQ_ACTIVE_BY_ZONE,
  REQ_BY_CREATED,
  REQ_BY_CREATOR,
  REQ_BY_TARGET,
  TRANSFER_REQUESTS,
  transferRequestKeys,
  type StoredTransferRequest,
  type TransferRequestBody,
} from './transfer-request.js';

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
  /** `POST /v2/zones/{zone_id}/tasks/transfer_requests` (201): owner view with the key; a missing body is `{}`. */
  create(ctx: RequestContext, zoneId: string, body?: unknown): ResultAsync<TransferRequestBody, ApiError>;
  /** `GET /v2/zones/tasks/transfer_requests/{id}`: any project for an untargeted request (reduced view). */
  get(ctx: RequestContext, id: string): ResultAsync<TransferRequestBody, ApiError>;
  /** `GET /v2/zones/tasks/transfer_requests`: requests the caller created or is targeted by. */
  list(ctx: RequestContext, query?: ListQuery): ResultAsync<TransferRequestList, ApiError>;
  /** `PATCH /v2/zones/tasks/transfer_requests/{id}` (200): description, and the target while unset. */
  update(ctx: RequestContext, id: string, body: unknown): ResultAsync<TransferRequestBody, ApiError>;
  /** `DELETE /v2/zones/tasks/transfer_requests/{id}` (204): creator or admin; the target gets 403. */
  delete(ctx: RequestContext, id: string): ResultAsync<void, ApiError>;
}

/**
 * `dns.transferAccepts`: taking over a zone with a request's key.
 *
 * @category Transfers
 */
export interface TransferAcceptCommands {
  /** `POST /v2/zones/tasks/transfer_accepts` (201): moves the zone, closes the request, all or nothing. */
  create(ctx: RequestContext, body: unknown): ResultAsync<TransferAcceptBody, ApiError>;
  /** `GET /v2/zones/tasks/transfer_accepts/{id}`: the accepting project's own (others 404); `key` null. */
  get(ctx: RequestContext, id: string): ResultAsync<TransferAcceptBody, ApiError>;
  /** `GET /v2/zones/tasks/transfer_accepts`: admin only; without all-projects only the admin's project. */
  list(ctx: RequestContext, query?: ListQuery): ResultAsync<TransferAcceptList, ApiError>;
}

const requestNotFound = (): ApiError => new ApiError(404, 'zone_transfer_request_not_found', 'Could not find ZoneTransferRequest');
const acceptNotFound = (): ApiError => new ApiError(404, 'zone_transfer_accept_not_found', 'Could not find ZoneTransferAccept');
const deletingZone = (): ApiError => new ApiError(400, 'bad_request', 'Can not transfer a deleting zone');

const isCreator = (caller: Caller, r: StoredTransferRequest): boolean => caller.projectId !== null && caller.projectId === r.projectId;
const isTarget = (caller: Caller, r: StoredTransferRequest): boolean =>
  caller.projectId !== null && caller.projectId === r.targetProjectId;

/** Policy `get_zone_transfer_request`: admin, creator, target, or anyone when untargeted. */
const mayRead = (caller: Caller, r: StoredTransferRequest): boolean =>
  caller.isAdmin || isCreator(caller, r) || isTarget(caller, r) || r.targetProjectId === null;

/** The storage scoping of request lists and deletes: creator or target, unless all-projects. */
const inScope = (caller: Caller, r: StoredTransferRequest): boolean => caller.allProjects || isCreator(caller, r) || isTarget(caller, r);

const readRequest = async (tx: StorageTransaction, id: string): Promise<StoredTransferRequest | undefined> =>
  (await tx.get(TRANSFER_REQUESTS, id)) as StoredTransferRequest | undefined;

const putRequest = (tx: StorageTransaction, r: StoredTransferRequest): Promise<void> =>
  tx.put(TRANSFER_REQUESTS, r.id, r, transferRequestKeys(r));

/** Reads a request across projects and applies the read policy (404, then 403). */
async function readableRequest(
  deps: DnsDeps,
  tx: StorageTransaction,
  caller: Caller,
  id: string,
): Promise<Result<StoredTransferRequest, ApiError>> {
  const r = await readRequest(tx, id);
  if (r === undefined) return err(requestNotFound());
  if (!mayRead(caller, r)) return err(forbidden(deps.forbiddenStatus, 'get_zone_transfer_request'));
  return ok(r);
}

/** Whether an ACTIVE request for the zone exists among those the caller's scope holds (the real check). */
async function activeRequestVisible(tx: StorageTransaction, caller: Caller, zoneId: string): Promise<boolean> {
  // The partial index holds only ACTIVE requests, normally at most one per zone.
  const active = await tx.range(TRANSFER_REQUESTS, REQ_ACTIVE_BY_ZONE, { prefix: tupleKey(zoneId) });
  return active.some((e) => inScope(caller, e.value as StoredTransferRequest));
}


const requestListSpec = (present: (r: StoredTransferRequest) => object): ListSpec<StoredTransferRequest> => ({
  collection: TRANSFER_REQUESTS,
  path: '/v2/zones/tasks/transfer_requests',
  envelope: 'transfer_requests',
  metadata: false,
  filters: { status: (r) => r.status },
  sortKeys: { created_at: (r) => r.createdAt, id: (r) => r.id, updated_at: (r) => r.updatedAt },
  present,
});

const acceptListSpec = (baseUrl: string): ListSpec<StoredTransferAccept> => ({
  collection: TRANSFER_ACCEPTS,
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
    const scope: ListScope<StoredTransferRequest> = { index: REQ_BY_CREATED, prefix: '', keyOf: (r) => tupleKey(r.createdAt) };
    return (await listPage(tx, spec, scope, parsed.value, deps.baseUrl)) as Result<TransferRequestList, ApiError>;
  }
  const project = caller.projectId;
  if (project === null) return ok({ transfer_requests: [], links: { self: `${deps.baseUrl}${spec.path}` } });
  // Creator OR target: one page from each index (both keyed (project, created_at), so one marker
  // position serves both), merged and cut to one page. The cost follows the caller's own
  // requests and the page size, never the number of other projects' requests.
  const raw = requestListSpec((r) => r);
  const keyOf = (r: StoredTransferRequest): string => tupleKey(project, r.createdAt);
  const merged: StoredTransferRequest[] = [];
  for (const index of [REQ_BY_CREATOR, REQ_BY_TARGET]) {
    const page = await listPage(tx, raw, { index, prefix: tupleKey(project), keyOf }, parsed.value, deps.baseUrl);
    if (page.isErr()) return err(page.error);
    merged.push(...((page.value as { transfer_requests: StoredTransferRequest[] }).transfer_requests));
  }
  const marker = parsed.value.marker === undefined ? undefined : await readRequest(tx, parsed.value.marker);
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
      dnsCommand(deps, ctx, async (caller) => {
        if (!isUuidLike(zoneId)) return err(invalidUuid('zone_id', zoneId));
        const parsed = parseTransferRequestBody(body, undefined, deps.baseUrl);
        if (parsed.isErr()) return err(parsed.error);
        return runInTransaction(deps.storage, async (uow): Promise<Result<TransferRequestBody, ApiError>> => {
          const zone = await visibleZone(uow.tx, caller, zoneId);
          if (zone.isErr()) return err(zone.error);
          if (zone.value.action === 'DELETE') return err(deletingZone());
          if (!adminOrOwner(caller, zone.value.projectId)) return err(forbidden(deps.forbiddenStatus, 'create_zone_transfer_request'));
          const key = generateKey(deps.random);
          const project = requireProject(caller);
          if (project.isErr()) return err(project.error);
          if (await activeRequestVisible(uow.tx, caller, zone.value.id)) {
            return err(new ApiError(409, 'duplicate_zone_transfer_request', 'Duplicate Zone Transfer Request', { showMessage: false }));
          }
          const request: StoredTransferRequest = Object.freeze({
            id: deps.ids(),
            zoneId: zone.value.id,
            zoneName: zone.value.name,
            projectId: project.value,
            targetProjectId: parsed.value.targetProjectId ?? null,
            description: parsed.value.description ?? null,
            key,
            status: 'ACTIVE',
            createdAt: toMicros(deps.clock()),
            updatedAt: null,
          });
          await putRequest(uow.tx, request);
          const shown = presentTransferRequest(request, deps.baseUrl, true);
          uow.afterCommit(() => deps.events.emit('dns.zone_transfer_request.create', shown));
          return ok(shown);
        });
      }),

    get: (ctx, id) =>
      dnsCommand(deps, ctx, async (caller) => {
        if (!isUuidLike(id)) return err(invalidUuid('zone_transfer_request_id', id));
        return runInTransaction(deps.storage, async ({ tx }) =>
          (await readableRequest(deps, tx, caller, id)).map((r) =>
            presentTransferRequest(r, deps.baseUrl, detailedView(caller.isAdmin, caller.projectId, r)),
          ),
        );
      }),

    list: (ctx, query) =>
      dnsCommand(deps, ctx, async (resolved) => {
        const elevated = listCaller(deps, resolved, query);
        if (elevated.isErr()) return err(elevated.error);
        const caller = elevated.value;
        return runInTransaction(deps.storage, ({ tx }) => listRequests(deps, tx, caller, query));
      }),

    update: (ctx, id, body) =>
      dnsCommand(deps, ctx, async (caller) => {
        if (!isUuidLike(id)) return err(invalidUuid('zone_transfer_request_id', id));
        return runInTransaction(deps.storage, async (uow): Promise<Result<TransferRequestBody, ApiError>> => {
          const found = await readableRequest(deps, uow.tx, caller, id);
          if (found.isErr()) return err(found.error);
          const current = found.value;
          const parsed = parseTransferRequestBody(body, current, deps.baseUrl);
          if (parsed.isErr()) return err(parsed.error);
          if (parsed.value.zoneIdGiven) return err(new ApiError(400, 'invalid_operation', 'Zone cannot be changed'));
          if (!adminOrOwner(caller, current.projectId)) return err(forbidden(deps.forbiddenStatus, 'update_zone_transfer_request'));
          const next: StoredTransferRequest = Object.freeze({
            ...current,
            ...(parsed.value.targetProjectId === undefined ? {} : { targetProjectId: parsed.value.targetProjectId }),
            ...(parsed.value.description === undefined ? {} : { description: parsed.value.description }),
            updatedAt: toMicros(deps.clock()),
          });
          await putRequest(uow.tx, next);
          const shown = presentTransferRequest(next, deps.baseUrl, true);
          uow.afterCommit(() => deps.events.emit('dns.zone_transfer_request.update', shown));
          return ok(shown);
        });
      }),

    delete: (ctx, id) =>
      dnsCommand(deps, ctx, async (caller) => {
        if (!isUuidLike(id)) return err(invalidUuid('zone_transfer_request_id', id));
        return runInTransaction(deps.storage, async (uow): Promise<Result<void, ApiError>> => {
          const r = await readRequest(uow.tx, id);
          if (r === undefined || !inScope(caller, r)) return err(requestNotFound());
          if (!adminOrOwner(caller, r.projectId)) return err(forbidden(deps.forbiddenStatus, 'delete_zone_transfer_request'));
          await uow.tx.delete(TRANSFER_REQUESTS, r.id);
          const shown = presentTransferRequest(r, deps.baseUrl, true);
          uow.afterCommit(() => deps.events.emit('dns.zone_transfer_request.delete', shown));
          return ok(undefined);
        });
      }),
  };
}

/** The accept flow of the real service, first failure wins; runs inside one transaction. */
async function acceptTransfer(
  deps: DnsDeps,
  tx: StorageTransaction,
  caller: Caller,
  requestId: string | undefined,
  key: string,
): Promise<Result<{ accept: StoredTransferAccept; request: StoredTransferRequest; zone: Zone }, ApiError>> {
  if (requestId === undefined) return err(requestNotFound());
  const found = await readableRequest(deps, tx, caller, requestId);
  if (found.isErr()) return err(found.error);
  const request = found.value;
  if (request.status === 'COMPLETE') {
    return err(new ApiError(400, 'invalid_zone_transfer_request', 'Zone Transfer Request has been used'));
  }
  if (request.status !== 'ACTIVE') return err(new ApiError(400, 'invalid_zone_transfer_request', 'Zone Transfer Request Invalid'));
  if (!keysMatch(key, request.key)) {
    return err(new ApiError(deps.forbiddenStatus, 'invalid_key', 'Key does not match stored key for request'));
  }
  // Policy `create_zone_transfer_accept`: unlike reading, the request's creator is not enough.
  if (!(caller.isAdmin || request.targetProjectId === null || isTarget(caller, request))) {
    return err(forbidden(deps.forbiddenStatus, 'create_zone_transfer_accept'));
  }
  const project = requireProject(caller);
  if (project.isErr()) return err(project.error);
  const acceptor = project.value;
  const zone = (await tx.get(ZONES, request.zoneId)) as Zone | undefined;
  if (zone === undefined) return err(zoneNotFound());
  if (zone.action === 'DELETE') return err(deletingZone());
  const quotas = await readZoneQuotas(tx, acceptor, deps.quotaDefaults);
  const owned = await tx.count(ZONES, BY_PROJECT, tupleKey(acceptor));
  const quota = checkZoneQuota(quotas, 'zones', owned + 1);
  if (quota.isErr()) return err(quota.error);

  const now = toMicros(deps.clock());
  // Ownership only: status, action, serial and transferred_at (a SECONDARY zone's AXFR time) stay.
  // Recordsets carry no project of their own, so they move with this one write.
  const moved: Zone = Object.freeze({ ...zone, projectId: acceptor, version: zone.version + 1, updatedAt: now });
  await putZone(tx, moved);
  const closed: StoredTransferRequest = Object.freeze({ ...request, status: 'COMPLETE', updatedAt: now });
  await putRequest(tx, closed);
  const accept: StoredTransferAccept = Object.freeze({
    id: deps.ids(),
    requestId: request.id,
    projectId: acceptor,
    status: 'COMPLETE',
    zoneId: zone.id,
    createdAt: now,
    updatedAt: now,
  });
  await tx.put(TRANSFER_ACCEPTS, accept.id, accept, transferAcceptKeys(accept));
  return ok({ accept, request: closed, zone: moved });
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
      dnsCommand(deps, ctx, async (caller) => {
        const parsed = parseTransferAcceptBody(body);
        if (parsed.isErr()) return err(parsed.error);
        const { requestId, key } = parsed.value;
        return runInTransaction(deps.storage, async (uow): Promise<Result<TransferAcceptBody, ApiError>> => {
          const done = await acceptTransfer(deps, uow.tx, caller, requestId, key);
          if (done.isErr()) return err(done.error);
          const shown = presentTransferAccept(done.value.accept, deps.baseUrl, key);
          uow.afterCommit(() => deps.events.emit('dns.zone_transfer_accept.create', shown));
          return ok(shown);
        });
      }),

    get: (ctx, id) =>
      dnsCommand(deps, ctx, async (caller) => {
        if (!isUuidLike(id)) return err(invalidUuid('transfer_accept_id', id));
        return runInTransaction(deps.storage, async ({ tx }): Promise<Result<TransferAcceptBody, ApiError>> => {
          const a = (await tx.get(TRANSFER_ACCEPTS, id)) as StoredTransferAccept | undefined;
          if (a === undefined || !(caller.allProjects || caller.projectId === a.projectId)) return err(acceptNotFound());
          if (!adminOrOwner(caller, a.projectId)) return err(forbidden(deps.forbiddenStatus, 'get_zone_transfer_accept'));
          return ok(presentTransferAccept(a, deps.baseUrl));
        });
      }),

    list: (ctx, query) =>
      dnsCommand(deps, ctx, async (resolved) => {
        const elevated = listCaller(deps, resolved, query);
        if (elevated.isErr()) return err(elevated.error);
        const caller = elevated.value;
        const spec = acceptListSpec(deps.baseUrl);
        // The real controller validates paging parameters before central applies the policy.
        const parsed = parseListQuery(spec, query, caller.allProjects);
        if (parsed.isErr()) return err(parsed.error);
        if (!caller.isAdmin) return err(forbidden(deps.forbiddenStatus, 'find_zone_transfer_accepts'));
        const project = caller.projectId;
        if (!caller.allProjects && project === null) {
          return ok({ transfer_accepts: [], links: { self: `${deps.baseUrl}${spec.path}` }, metadata: { total_count: 0 } });
        }
        const scope: ListScope<StoredTransferAccept> =
          caller.allProjects || project === null
            ? { index: ACC_BY_CREATED, prefix: '', keyOf: (a) => tupleKey(a.createdAt) }
            : { index: ACC_BY_PROJECT, prefix: tupleKey(project), keyOf: (a) => tupleKey(project, a.createdAt) };
        return runInTransaction(
          deps.storage,
          async ({ tx }) => (await listPage(tx, spec, scope, parsed.value, deps.baseUrl)) as Result<TransferAcceptList, ApiError>,
        );
      }),
  };
}
