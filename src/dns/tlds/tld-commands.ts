import type { ResultAsync } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import type { ListQuery } from '../../kernel/list-query.js';
import type { DnsDeps } from '../kernel/deps.js';
import { tldRepository, type StoredTld } from '../kernel/name-policy.js';
import { createNameRuleCommands, type NameRuleSpec } from '../kernel/name-rule-commands.js';

/**
 * A TLD as the API answers it (`/v2/tlds`).
 *
 * @category TLDs and blacklists
 */
export interface TldBody {
  /** The TLD's UUID. */
  readonly id: string;
  /** The TLD without a trailing dot (`com`, `co.uk`), as given: TLDs are compared case-sensitively. */
  readonly name: string;
  /** At most 160 characters, or null. */
  readonly description: string | null;
  /** `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC. */
  readonly created_at: string;
  /** Null until the first update. */
  readonly updated_at: string | null;
  /** `self`: the TLD's URL. */
  readonly links: {
    /** This resource's URL. */
    readonly self: string;
  };
}

/**
 * What `tlds.create` and `tlds.update` accept; any other key is refused.
 *
 * @category TLDs and blacklists
 */
export interface TldInput {
  /** Labels of letters, digits, `_` and `-` joined by dots, no trailing dot; at most 254 characters. Required on create. */
  readonly name?: string;
  /** At most 160 characters, or null. */
  readonly description?: string | null;
}

/**
 * `GET /v2/tlds`: `{ tlds, links }` (no `metadata`, as the real service).
 *
 * @category TLDs and blacklists
 */
export interface TldList {
  /** The page. */
  readonly tlds: TldBody[];
  /** `self`, and `next` whenever the page is full. */
  readonly links: {
    /** This page's URL. */
    readonly self: string;
    /** The next page's URL, when there is one. */
    readonly next?: string;
  };
}

/**
 * The TLD commands (`/v2/tlds`), admin only. Once any TLD exists, every zone create and import
 * must name a zone under a known TLD and not a TLD itself (400 `invalid_zone_name`).
 *
 * @category TLDs and blacklists
 */
export interface TldCommands {
  /**
   * `POST /v2/tlds` (201): 409 `duplicate_tld` for a name already held (case-sensitively).
   * @errors `empty_request_body` 400, `invalid_object` 400, `duplicate_tld` 409
   */
  create(ctx: unknown, body: unknown): ResultAsync<TldBody, ApiError>;
  /**
   * `GET /v2/tlds/{id}`: 404 `tld_not_found`.
   * @errors `invalid_uuid` 400, `tld_not_found` 404
   */
  get(ctx: unknown, id: unknown): ResultAsync<TldBody, ApiError>;
  /**
   * `GET /v2/tlds`: `limit`, `marker`, `sort_key` (`created_at`, `id`, `updated_at`, `name`), `sort_dir`, filter `name`.
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  list(ctx: unknown, query?: ListQuery): ResultAsync<TldList, ApiError>;
  /**
   * `PATCH /v2/tlds/{id}`: `name`, `description`; any update (even `{}`) sets `updated_at`.
   * @errors `invalid_uuid` 400, `empty_request_body` 400, `invalid_object` 400, `tld_not_found` 404, `duplicate_tld` 409
   */
  update(ctx: unknown, id: unknown, body: unknown): ResultAsync<TldBody, ApiError>;
  /**
   * `DELETE /v2/tlds/{id}` (204).
   * @errors `invalid_uuid` 400, `tld_not_found` 404
   */
  delete(ctx: unknown, id: unknown): ResultAsync<void, ApiError>;
}

// The real service's TLD rule (its RE_TLDNAME), in JavaScript's syntax.
const TLD_NAME = /^(?!.{255,})(?:(?!-)[A-Za-z0-9_-]{1,63}(?<!-))(?:\.(?:(?!-)[A-Za-z0-9_-]{1,63}(?<!-)))*$/;

const spec: NameRuleSpec<StoredTld> = {
  kind: 'tld',
  title: 'Tld',
  path: '/v2/tlds',
  envelope: 'tlds',
  field: 'name',
  repository: tldRepository,
  unique: (t) => t.name,
  uniqueProblem: (v) => (TLD_NAME.test(v) ? undefined : `${v} is not a TLD`),
  descriptionProblem: () => undefined,
  make: ({ id, unique, description, createdAt, updatedAt }) => Object.freeze({ id, name: unique, description, createdAt, updatedAt }),
};

/** The TLD commands over a service's deps. @internal */
export function createTldCommands(deps: DnsDeps): TldCommands {
  return createNameRuleCommands(deps, spec) as unknown as TldCommands;
}
