import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import type { ApiError } from './api-error.js';
import { command, type CommandEnv } from './command.js';
import { forbidden, type Caller } from './context.js';
import { listPage, parseListQuery, queryAllProjects, type ListScope, type ListSpec } from './list-query.js';

/** What a list command needs of its service: the pipeline's environment and the base of its links. @internal */
export interface ListEnv extends CommandEnv {
  readonly baseUrl: string;
}

/**
 * The caller of a list command: `all_projects`/`all_tenants` in the query string elevates it
 * like the header does, for admins only (the real service consumes the flag before listing).
 * @internal
 */
export function listCaller(deps: ListEnv, caller: Caller, query: unknown): Result<Caller, ApiError> {
  if (!queryAllProjects(query)) return ok(caller);
  if (!caller.isAdmin) return err(forbidden(deps.forbiddenStatus, 'all_tenants'));
  return ok({ ...caller, allProjects: true });
}

/**
 * The documented envelope of a list answer: the page under its collection's name, `links`
 * (`self`, and `next` whenever the page is full) and `metadata.total_count`.
 *
 * @category Zones
 */
export type ListEnvelope<K extends string, T> = { readonly [P in K]: T[] } & {
  /** `self`, and `next` whenever the page is full. */
  readonly links: {
    /** This page's URL, query parameters echoed. */
    readonly self: string;
    /** The next page's URL: present whenever this page is full (even when it is the last, as in the real service). */
    readonly next?: string;
  };
  /** How many match the filters in the caller's scope, ignoring paging. */
  readonly metadata: {
    /** The count, ignoring `limit` and `marker`. */
    readonly total_count: number;
  };
};

/**
 * The list command of a resource that belongs to one project (zones, imports, exports): the
 * caller's own, in (created_at, id) order from its project index, or everyone's with
 * all-projects (admin only), from the global index: `scopeOf` is the repository's answer to
 * where a project's (or, for `null`, everyone's) entities are read.
 * @internal
 */
export function listOwned<L, E extends { readonly id: string }>(
  deps: ListEnv,
  ctx: unknown,
  query: unknown,
  spec: ListSpec<E>,
  scopeOf: (projectId: string | null) => ListScope<E>,
): ResultAsync<L, ApiError> {
  return command(deps, ctx, {
    parse: (resolved) =>
      listCaller(deps, resolved, query).andThen((caller) => parseListQuery(spec, query, caller.allProjects).map((q) => ({ caller, q }))),
    transaction: async ({ tx }, _resolved, { caller, q }) => {
      const project = caller.projectId;
      if (!caller.allProjects && project === null) {
        return ok({ [spec.envelope]: [], links: { self: `${deps.baseUrl}${spec.path}` }, metadata: { total_count: 0 } } as L);
      }
      return (await listPage(tx, spec, scopeOf(caller.allProjects ? null : project), q, deps.baseUrl)) as Result<L, ApiError>;
    },
  });
}
