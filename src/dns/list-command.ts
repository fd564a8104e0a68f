import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import type { ApiError } from '../shared/api-error.js';
import { fromSafePromise, runInTransaction } from '../shared/command.js';
import { forbidden, resolveCaller } from '../shared/context.js';
import { tupleKey } from '../shared/keys.js';
import { listPage, parseListQuery, queryAllProjects, type ListSpec } from '../shared/list-query.js';
import type { DnsDeps } from './deps.js';

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
  return fromSafePromise(
    (async (): Promise<Result<object, ApiError>> => {
      await deps.ready;
      const resolved = resolveCaller(ctx, deps.forbiddenStatus);
      if (resolved.isErr()) return err(resolved.error);
      let caller = resolved.value;
      if (queryAllProjects(query)) {
        if (!caller.isAdmin) return err(forbidden(deps.forbiddenStatus, 'all_tenants'));
        caller = { ...caller, allProjects: true };
      }
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
    })(),
  );
}
