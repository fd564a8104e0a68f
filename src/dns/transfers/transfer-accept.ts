import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { isInteger, isString, oneOf, orNull, ownedRepository } from '../../kernel/stored.js';
import { formatTimestamp } from '../kernel/time.js';
import { invalidKeys, invalidValue, ownEntries, pythonUuidText, pyTypeName, schemaErrors, stringField } from '../../kernel/validation.js';

/**
 * The state of a transfer accept. Accepts are recorded only when the move succeeded (a failed
 * move rolls everything back), so `COMPLETE` is what callers see; `ERROR` exists for data
 * written by a service that records failed moves.
 *
 * @category Transfers
 */
export type TransferAcceptStatus = 'COMPLETE' | 'ERROR';

/**
 * A zone transfer accept as the API answers it, keys in the real service's order.
 *
 * @category Transfers
 */
export interface TransferAcceptBody {
  /** The accept's UUID. */
  readonly id: string;
  /** The request that was accepted. */
  readonly zone_transfer_request_id: string;
  /** The accepting project: the zone's owner from now on. */
  readonly project_id: string;
  /** The presented key in the create answer only; null afterwards, because it is never stored. */
  readonly key: string | null;
  /** `COMPLETE` once the zone has moved. */
  readonly status: TransferAcceptStatus;
  /** The zone that moved. */
  readonly zone_id: string;
  /** `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC. */
  readonly created_at: string;
  /** When the accept was closed as `COMPLETE` (in the same transaction as its creation). */
  readonly updated_at: string | null;
  /** `self`: the accept's URL; `zone`: the transferred zone's URL. */
  readonly links: {
    /** The accept's absolute URL. */
    readonly self: string;
    /** The transferred zone's absolute URL. */
    readonly zone: string;
  };
}

/**
 * What `transferAccepts.create` accepts; any other key is refused unless it is null.
 *
 * @category Transfers
 */
export interface TransferAcceptInput {
  /** The request to accept; absent or unknown → 404 `zone_transfer_request_not_found`. */
  readonly zone_transfer_request_id?: string;
  /** The request's key, exactly as its owner received it (case-sensitive, at most 160 characters). */
  readonly key: string;
}

/** An accept as stored; the key is deliberately absent. @internal */
export interface StoredTransferAccept {
  /** The accept's UUID. */
  readonly id: string;
  /** The accepted request. */
  readonly requestId: string;
  /** The accepting project, which scopes who may read the accept. */
  readonly projectId: string;
  /** COMPLETE: failed moves are rolled back, not recorded. */
  readonly status: TransferAcceptStatus;
  /** The moved zone, for `links.zone`. */
  readonly zoneId: string;
  /** Epoch microseconds. */
  readonly createdAt: number;
  /** Epoch microseconds; set at creation, because the accept is closed in the same transaction. */
  readonly updatedAt: number | null;
}

/** The transfer accepts collection. @internal */
export const TRANSFER_ACCEPTS = 'dns.transferAccepts';

/** The stored accepts, read (checked) and written only through here. @internal */
export const transferAcceptRepository = ownedRepository<StoredTransferAccept>(TRANSFER_ACCEPTS, {
  id: isString,
  requestId: isString,
  projectId: isString,
  status: oneOf('COMPLETE', 'ERROR'),
  zoneId: isString,
  createdAt: isInteger,
  updatedAt: orNull(isInteger),
});

/** The API body of a stored accept; `key` is only known to the create answer. @internal */
export function presentTransferAccept(a: StoredTransferAccept, baseUrl: string, key: string | null = null): TransferAcceptBody {
  return {
    id: a.id,
    zone_transfer_request_id: a.requestId,
    project_id: a.projectId,
    key,
    status: a.status,
    zone_id: a.zoneId,
    created_at: formatTimestamp(a.createdAt),
    updated_at: a.updatedAt === null ? null : formatTimestamp(a.updatedAt),
    links: { self: `${baseUrl}/v2/zones/tasks/transfer_accepts/${a.id}`, zone: `${baseUrl}/v2/zones/${a.zoneId}` },
  };
}

/** Longest key the accept schema lets through (the stored keys are 8 characters). @internal */
const MAX_KEY = 160;

/** A parsed accept body. @internal */
export interface ParsedTransferAccept {
  /** Undefined when the body had none: the lookup then fails with 404, as in the real service. */
  readonly requestId: string | undefined;
  /** The presented key, compared later in constant time. */
  readonly key: string;
}

/** Parses an accept body with the real service's errors, in its order. @internal */
export function parseTransferAcceptBody(body: unknown): Result<ParsedTransferAccept, ApiError> {
  const entries = ownEntries(body ?? {});
  if (entries.isErr()) return err(entries.error);
  const bad: string[] = [];
  let requestId: string | undefined;
  let key: unknown;
  for (const [name, value] of Object.entries(entries.value)) {
    if (name === 'zone_transfer_request_id') {
      if (value === null) continue;
      if (typeof value !== 'string') {
        return err(invalidValue('ValueError', `A string is required in field zone_transfer_request_id, not a ${pyTypeName(value)}`));
      }
      // A UUID field: its text is read (and refused) as Python's uuid reads it, in body order.
      const id = pythonUuidText(value);
      if (id.isErr()) return err(id.error);
      requestId = id.value;
    } else if (name === 'key') {
      key = value;
    } else if (value !== null) {
      bad.push(name);
    }
  }
  if (bad.length > 0) return err(invalidKeys(bad, 'transfer_accept'));
  if (key === undefined || key === null) {
    return err(schemaErrors([{ path: 'records.0.key', message: "'key' is a required property" }]));
  }
  const k = stringField(key, 'key', MAX_KEY);
  if (k.isErr()) return err(k.error);
  return ok({ requestId, key: k.value });
}
