import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import type { ApiError } from '../shared/api-error.js';
import { fromSafePromise, runInTransaction } from '../shared/command.js';
import { forbidden, resolveCaller, type Caller } from '../shared/context.js';
import { tupleKey } from '../shared/keys.js';
import { listPage, parseListQuery, queryAllProjects, type ListSpec } from '../shared/list-query.js';
import type { DnsDeps } from './deps.js';

/**
 * Wraps a DNS command body: waits for a snapshot restore, authenticates the caller, and turns a
 * defect into a 500 so the command never rejects.
 * @internal
 */
export function dnsCommand<T>(
  deps: DnsDeps,
  ctx: unknown,
  body: (caller: Caller) => Promise<Result<T, ApiError>>,
): ResultAsync<T, ApiError> {
  return fromSafePromise(
    (async (): Promise<Result<T, ApiError>> => {
      await deps.ready;
      const caller = resolveCaller(ctx, deps.forbiddenStatus);
      if (caller.isErr()) return err(caller.error);
      return body(caller.value);
    })(),
  );
}

/**
 * The caller of a list command: `all_projects`/`all_tenants` in the query string elevates it
 * like the header does, for admins only (the real service consumes the flag before listing).
 * @internal
 */
export function listCaller(deps: DnsDeps, caller: Caller, query: unknown): Result<Caller, ApiError> {
  if (!queryAllProjects(query)) return ok(caller);
  if (!caller.isAdmin) return err(forbidden(deps.forbiddenStatus, 'all_tenants'));
  return ok({ ...caller, allProjects: true });
}

/** What a project-owned resource needs to be listed by {@link listOwned}. @internal */
export interface Owned {
  readonly id: string;
  readonly projectId: string;
  readonly createdAt: number;
}

/**
 * The list command of a resource that belongs to one project (zones, imports, exports): the
 * caller's own, in (created_at, id) order from its project index, or everyone's with
 * all-projects (admin only), from the global index.
 * @internal
 */
export function listOwned<E extends Owned>(
  deps: DnsDeps,
  ctx: unknown,
  query: unknown,
  spec: ListSpec<E>,
  indexes: { readonly byProject: string; readonly byCreated: string },
): ResultAsync<object, ApiError> {
  return dnsCommand(deps, ctx, async (resolved): Promise<Result<object, ApiError>> => {
    const elevated = listCaller(deps, resolved, query);
    if (elevated.isErr()) return err(elevated.error);
    const caller = elevated.value;
    const parsed = parseListQuery(spec, query, caller.allProjects);
    if (parsed.isErr()) return err(parsed.error);
    const project = caller.projectId;
    if (!caller.allProjects && project === null) {
      const empty: Record<string, unknown> = { [spec.envelope]: [], links: { self: `${deps.baseUrl}${spec.path}` } };
      if (spec.metadata) empty['metadata'] = { total_count: 0 };
      return ok(empty);
    }
    const scope =
      caller.allProjects || project === null
        ? { index: indexes.byCreated, prefix: '', keyOf: (e: E) => tupleKey(e.createdAt) }
        : { index: indexes.byProject, prefix: tupleKey(project), keyOf: (e: E) => tupleKey(project, e.createdAt) };
    return runInTransaction(deps.storage, ({ tx }) => listPage(tx, spec, scope, parsed.value, deps.baseUrl));
  });
}
