import type { ResultAsync } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import type { ListQuery } from '../../kernel/list-query.js';
import type { DnsDeps } from '../kernel/deps.js';
import { blacklistRepository, type StoredBlacklist } from '../kernel/name-policy.js';
import { createNameRuleCommands, type NameRuleSpec } from '../kernel/name-rule-commands.js';
import { compilePattern } from '../kernel/pattern.js';

/**
 * A blacklist entry as the API answers it (`/v2/blacklists`).
 *
 * @category TLDs and blacklists
 */
export interface BlacklistBody {
  /** The entry's UUID. */
  readonly id: string;
  /** A Python regular expression searched for in zone names (with their trailing dot). */
  readonly pattern: string;
  /** Null, or a non-empty valid regular expression too (the real service checks it with the pattern's rule). */
  readonly description: string | null;
  /** `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC. */
  readonly created_at: string;
  /** Null until the first update. */
  readonly updated_at: string | null;
  /** `self`: the entry's URL. */
  readonly links: {
    /** This resource's URL. */
    readonly self: string;
  };
}

/**
 * What `blacklists.create` and `blacklists.update` accept; any other key is refused.
 *
 * @category TLDs and blacklists
 */
export interface BlacklistInput {
  /** A Python regular expression of at most 255 characters. Required on create. */
  readonly pattern?: string;
  /** Null, or at most 160 characters that form a valid regular expression. */
  readonly description?: string | null;
}

/**
 * `GET /v2/blacklists`: `{ blacklists, links }`.
 *
 * @category TLDs and blacklists
 */
export interface BlacklistList {
  /** The page. */
  readonly blacklists: BlacklistBody[];
  /** `self`, and `next` whenever the page is full. */
  readonly links: {
    /** This page's URL. */
    readonly self: string;
    /** The next page's URL, when there is one. */
    readonly next?: string;
  };
}

/**
 * The blacklist commands (`/v2/blacklists`), admin only. A zone create or import whose name
 * matches a pattern (Python's `re.search`) is refused with 400 `invalid_zone_name`
 * `Blacklisted zone name`, unless the caller passes the `use_blacklisted_zone` rule (admins).
 *
 * Patterns run on a linear-time automaton, never on a backtracking engine: a hostile pattern
 * such as `(a+)+$` costs the same as any other. Python constructs no automaton can run
 * (backreferences, lookarounds, atomic groups, possessive quantifiers, inline flags) are
 * refused as invalid regular expressions, although the real service stores them.
 *
 * @category TLDs and blacklists
 */
export interface BlacklistCommands {
  /**
   * `POST /v2/blacklists` (201): 409 `duplicate_blacklist` for a pattern already held.
   * @errors `empty_request_body` 400, `invalid_object` 400, `duplicate_blacklist` 409
   */
  create(ctx: unknown, body: unknown): ResultAsync<BlacklistBody, ApiError>;
  /**
   * `GET /v2/blacklists/{id}`: 404 `blacklist_not_found`.
   * @errors `invalid_uuid` 400, `blacklist_not_found` 404
   */
  get(ctx: unknown, id: unknown): ResultAsync<BlacklistBody, ApiError>;
  /**
   * `GET /v2/blacklists`: `limit`, `marker`, `sort_key` (`created_at`, `id`, `updated_at`, `pattern`), `sort_dir`, filter `pattern`.
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  list(ctx: unknown, query?: ListQuery): ResultAsync<BlacklistList, ApiError>;
  /**
   * `PATCH /v2/blacklists/{id}`: `pattern`, `description`.
   * @errors `invalid_uuid` 400, `empty_request_body` 400, `invalid_object` 400, `blacklist_not_found` 404, `duplicate_blacklist` 409
   */
  update(ctx: unknown, id: unknown, body: unknown): ResultAsync<BlacklistBody, ApiError>;
  /**
   * `DELETE /v2/blacklists/{id}` (204).
   * @errors `invalid_uuid` 400, `blacklist_not_found` 404
   */
  delete(ctx: unknown, id: unknown): ResultAsync<void, ApiError>;
}

const PROBLEMS = {
  invalid: '',
  unsupported: ' for this service: backreferences, lookarounds, atomic groups, possessive quantifiers and inline flags cannot be searched in linear time',
  'too complex': ' for this service: its counted repetitions need too many automaton states',
} as const;

const spec: NameRuleSpec<StoredBlacklist> = {
  kind: 'blacklist',
  title: 'Blacklist',
  path: '/v2/blacklists',
  envelope: 'blacklists',
  field: 'pattern',
  repository: blacklistRepository,
  unique: (b) => b.pattern,
  uniqueProblem: (v) => {
    if (v.length === 0) return ` is not a valid regular expression`;
    const compiled = compilePattern(v);
    return compiled.isOk() ? undefined : `${v} is not a valid regular expression${PROBLEMS[compiled.error]}`;
  },
  // Never searched: only what Python itself refuses is refused.
  descriptionProblem: (v) => (v.length > 0 && compilePattern(v).match(() => true, (p) => p !== 'invalid') ? undefined : `${v} is not a valid regular expression`),
  make: ({ id, unique, description, createdAt, updatedAt }) => Object.freeze({ id, pattern: unique, description, createdAt, updatedAt }),
};

/** The blacklist commands over a service's deps. @internal */
export function createBlacklistCommands(deps: DnsDeps): BlacklistCommands {
  return createNameRuleCommands(deps, spec) as unknown as BlacklistCommands;
}
