import { err, ok, type Result } from 'neverthrow';
import type { IndexKeys, StorageTransaction } from '../../ports/storage.js';
import type { ApiError } from '../../kernel/api-error.js';
import { tupleKey } from '../../kernel/keys.js';
import type { ListScope } from '../../kernel/list-query.js';
import { isInteger, isString, oneOf, orNull, repository, shapeCheck, type Collection } from '../../kernel/stored.js';
import { formatTimestamp } from '../kernel/time.js';
import { invalidKeys, ownEntries, stringField } from '../../kernel/validation.js';

/**
 * The state of a transfer request: `ACTIVE` until accepted, then `COMPLETE`. The real service's
 * enum has more values that it never sets; they are kept so stored data from elsewhere still reads.
 *
 * @category Transfers
 */
export type TransferRequestStatus = 'ACTIVE' | 'COMPLETE' | 'PENDING' | 'DELETED' | 'ERROR';

/**
 * A zone transfer request as the API answers it, keys in the real service's order.
 *
 * The fields marked "owner view" are present only for the project that created the request and
 * for admins; every other caller gets `id, zone_id, description, status, zone_name, links`, so a
 * target project never learns the key through the API.
 *
 * @category Transfers
 */
export interface TransferRequestBody {
  /** The request's UUID. */
  readonly id: string;
  /** The zone being offered. */
  readonly zone_id: string;
  /** Owner view: the project that created the request (not necessarily the zone's owner). */
  readonly project_id?: string;
  /** Owner view: the only project allowed to accept, or null when any project may. */
  readonly target_project_id?: string | null;
  /** Free text (at most 160 characters), or null. */
  readonly description: string | null;
  /** Owner view: the 8-character secret the acceptor must present. */
  readonly key?: string;
  /** `ACTIVE`, then `COMPLETE` once accepted. */
  readonly status: TransferRequestStatus;
  /** The zone's name when the request was created (a copy; it does not follow the zone). */
  readonly zone_name: string;
  /** Owner view: `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC. */
  readonly created_at?: string;
  /** Owner view: null until the first change. */
  readonly updated_at?: string | null;
  /** `self`: always the fixed `/v2/zones/tasks/transfer_requests/{id}` path. */
  readonly links: {
    /** The request's absolute URL. */
    readonly self: string;
  };
}

/**
 * What `transferRequests.create` and `transferRequests.update` accept. Read-only keys of
 * {@link TransferRequestBody} are refused with `invalid_object` unless they repeat the stored value.
 *
 * @category Transfers
 */
export interface TransferRequestInput {
  /** The only project allowed to accept; null or absent = any project. On update settable only while still null. */
  readonly target_project_id?: string | null;
  /** Free text, at most 160 characters, or null. */
  readonly description?: string | null;
  /** Ignored on create (the path's zone wins); on update any value is refused (`Zone cannot be changed`). */
  readonly zone_id?: string;
}

/** A transfer request as stored (timestamps as epoch microseconds). @internal */
export interface StoredTransferRequest {
  /** The request's UUID. */
  readonly id: string;
  /** The offered zone; the request outlives the zone (only a purge would cascade). */
  readonly zoneId: string;
  /** The zone's name at creation, copied so the request reads without the zone. */
  readonly zoneName: string;
  /** The creating project (an all-projects admin's own project, not necessarily the zone owner's). */
  readonly projectId: string;
  /** The only project that may accept, or null for any. */
  readonly targetProjectId: string | null;
  /** Free text or null. */
  readonly description: string | null;
  /** The secret; stored in clear because the owner may read it back at any time. */
  readonly key: string;
  /** ACTIVE until accepted. */
  readonly status: TransferRequestStatus;
  /** Epoch microseconds. */
  readonly createdAt: number;
  /** Epoch microseconds, or null before the first change. */
  readonly updatedAt: number | null;
}

/** The transfer requests collection. @internal */
export const TRANSFER_REQUESTS = 'dns.transferRequests';
/** Index: requests by creating project in (created_at, id) order. */
const REQ_BY_CREATOR = 'creator';
/**
 * Index: requests by target project in (created_at, id) order. A request targeted at its own
 * creator is left out, so merging this index with {@link REQ_BY_CREATOR} never yields a row twice.
 */
const REQ_BY_TARGET = 'target';
/** Partial index: ACTIVE requests by zone, for the one-active-request-per-zone rule. */
const REQ_ACTIVE_BY_ZONE = 'activeZone';
/** Index: all requests in (created_at, id) order, for the all-projects list. */
const REQ_BY_CREATED = 'created';

/** The index keys of a stored request. @internal */
export function transferRequestKeys(r: StoredTransferRequest): IndexKeys {
  return {
    [REQ_BY_CREATOR]: tupleKey(r.projectId, r.createdAt),
    [REQ_BY_TARGET]:
      r.targetProjectId === null || r.targetProjectId === r.projectId ? undefined : tupleKey(r.targetProjectId, r.createdAt),
    [REQ_ACTIVE_BY_ZONE]: r.status === 'ACTIVE' ? tupleKey(r.zoneId) : undefined,
    [REQ_BY_CREATED]: tupleKey(r.createdAt),
  };
}

const collection: Collection<StoredTransferRequest> = {
  name: TRANSFER_REQUESTS,
  problem: shapeCheck({
    id: isString,
    zoneId: isString,
    zoneName: isString,
    projectId: isString,
    targetProjectId: orNull(isString),
    description: orNull(isString),
    key: isString,
    status: oneOf('ACTIVE', 'COMPLETE', 'PENDING', 'DELETED', 'ERROR'),
    createdAt: isInteger,
    updatedAt: orNull(isInteger),
  }),
  idOf: (r) => r.id,
  keys: transferRequestKeys,
};

const store = repository(collection);

/** The stored transfer requests, read (checked) and written only through here. @internal */
export const transferRequestRepository = {
  ...store,
  /** The ACTIVE requests of a zone (normally at most one), from the partial index. */
  activeOfZone: async (tx: StorageTransaction, zoneId: string): Promise<StoredTransferRequest[]> =>
    (await store.range(tx, REQ_ACTIVE_BY_ZONE, { prefix: tupleKey(zoneId) })).map((e) => e.value),
  /** Every project's requests (all-projects lists). */
  everyone: { collection, index: REQ_BY_CREATED, prefix: '', keyOf: (r) => tupleKey(r.createdAt) } satisfies ListScope<StoredTransferRequest>,
  /**
   * A project's requests as creator and as target: two scopes keyed (project, created_at), so one
   * marker position serves both.
   */
  ofProject: (project: string): readonly ListScope<StoredTransferRequest>[] =>
    [REQ_BY_CREATOR, REQ_BY_TARGET].map((index) => ({ collection, index, prefix: tupleKey(project), keyOf: (r) => tupleKey(project, r.createdAt) })),
};

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Length of a generated key (the real service's). @internal */
export const KEY_LENGTH = 8;

/** A fresh key: 8 characters drawn uniformly from A–Z0–9 with the injected randomness. @internal */
export function generateKey(random: () => number): string {
  let key = '';
  for (let i = 0; i < KEY_LENGTH; i++) {
    // min() guards against a source that returns exactly 1 despite its [0, 1) contract.
    key += KEY_ALPHABET[Math.min(Math.floor(random() * 36), 35)]!;
  }
  return key;
}

/**
 * Compares a presented key with the stored one in time that depends only on the stored key's
 * length, so response timing reveals nothing about how many leading characters were right.
 * @internal
 */
export function keysMatch(given: string, stored: string): boolean {
  let diff = given.length ^ stored.length;
  for (let i = 0; i < stored.length; i++) {
    // charCodeAt past the end is NaN, which `| 0` turns into 0: no branch on the given length.
    diff |= (given.charCodeAt(i) | 0) ^ stored.charCodeAt(i);
  }
  return diff === 0;
}

/** Whether the caller gets the owner view (policy `get_zone_transfer_request_detailed`). @internal */
export const detailedView = (isAdmin: boolean, callerProject: string | null, r: StoredTransferRequest): boolean =>
  isAdmin || (callerProject !== null && callerProject === r.projectId);

/** The API body of a stored request, full or reduced. @internal */
export function presentTransferRequest(r: StoredTransferRequest, baseUrl: string, detailed: boolean): TransferRequestBody {
  const self = { self: `${baseUrl}/v2/zones/tasks/transfer_requests/${r.id}` };
  if (!detailed) {
    return { id: r.id, zone_id: r.zoneId, description: r.description, status: r.status, zone_name: r.zoneName, links: self };
  }
  return {
    id: r.id,
    zone_id: r.zoneId,
    project_id: r.projectId,
    target_project_id: r.targetProjectId,
    description: r.description,
    key: r.key,
    status: r.status,
    zone_name: r.zoneName,
    created_at: formatTimestamp(r.createdAt),
    updated_at: r.updatedAt === null ? null : formatTimestamp(r.updatedAt),
    links: self,
  };
}

/** The longest description the real service stores. @internal */
export const MAX_DESCRIPTION = 160;
/** Target project ids are free strings; this only bounds what we store. @internal */
const MAX_TARGET = 255;

/** The validated changes of a create or update body. @internal */
export interface ParsedTransferRequest {
  /** Present when the body set the target (null = untargeted). */
  readonly targetProjectId?: string | null;
  /** Present when the body set the description. */
  readonly description?: string | null;
  /** Set when the body carried `zone_id` (update refuses it later, after the policy checks). */
  readonly zoneIdGiven: boolean;
}

const nullableString = (value: unknown, field: string, max: number): Result<string | null, ApiError> =>
  value === null ? ok(null) : stringField(value, field, max);

/**
 * Parses a request body the way the real service's adapter does: keys in body order, unknown
 * keys collected, the first read-only key whose value differs from the stored one stops parsing
 * and joins them in one `invalid_object`.
 *
 * @param current - the stored request (update) or undefined (create)
 * @internal
 */
export function parseTransferRequestBody(
  body: unknown,
  current: StoredTransferRequest | undefined,
  baseUrl: string,
): Result<ParsedTransferRequest, ApiError> {
  const entries = ownEntries(body ?? {});
  if (entries.isErr()) return err(entries.error);
  const shown = current === undefined ? undefined : (presentTransferRequest(current, baseUrl, true) as unknown as Record<string, unknown>);
  const bad: string[] = [];
  let targetProjectId: string | null | undefined;
  let description: string | null | undefined;
  let targetRaw: unknown;
  let descriptionRaw: unknown;
  let zoneIdGiven = false;
  for (const [name, value] of Object.entries(entries.value)) {
    if (name === 'description') {
      descriptionRaw = value;
      description = null;
    } else if (name === 'target_project_id') {
      // Settable on create, and on update only while no target is set yet.
      if (current !== undefined && current.targetProjectId !== null && value !== current.targetProjectId) {
        bad.push(name);
        break;
      }
      targetRaw = value;
      targetProjectId = null;
    } else if (name === 'zone_id') {
      // On create the path's zone overwrites it; on update only the same value gets this far.
      if (current !== undefined && value !== current.zoneId) {
        bad.push(name);
        break;
      }
      zoneIdGiven = current !== undefined;
    } else if (['id', 'project_id', 'key', 'status', 'zone_name', 'created_at', 'updated_at', 'links'].includes(name)) {
      if (shown === undefined || JSON.stringify(shown[name]) !== JSON.stringify(value)) {
        bad.push(name);
        break;
      }
    } else {
      bad.push(name);
    }
  }
  if (bad.length > 0) return err(invalidKeys(bad, 'transfer_request'));
  if (targetProjectId !== undefined) {
    const t = nullableString(targetRaw, 'target_project_id', MAX_TARGET);
    if (t.isErr()) return err(t.error);
    targetProjectId = t.value;
  }
  if (description !== undefined) {
    const d = nullableString(descriptionRaw, 'description', MAX_DESCRIPTION);
    if (d.isErr()) return err(d.error);
    description = d.value;
  }
  return ok({
    ...(targetProjectId === undefined ? {} : { targetProjectId }),
    ...(description === undefined ? {} : { description }),
    zoneIdGiven,
  });
}
