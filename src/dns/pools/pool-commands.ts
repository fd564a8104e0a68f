import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { command } from '../../kernel/command.js';
import { forbidden, type Caller, type RequestContext } from '../../kernel/context.js';
import { uuidParam } from '../../kernel/errors.js';
import { listCaller, type ListEnvelope } from '../../kernel/list-command.js';
import { listArray, parseListQuery, type ListQuery, type ListSpec } from '../../kernel/list-query.js';
import { emptyRequestBody } from '../../kernel/validation.js';
import type { StorageTransaction } from '../../ports/storage.js';
import type { RequestBody } from '../kernel/body.js';
import type { DnsDeps } from '../kernel/deps.js';
import { toMicros } from '../kernel/time.js';
import { zoneRepository } from '../kernel/zone-store.js';
import { duplicatePool, poolHasZones, poolNotFound } from './pool-errors.js';
import { configuredPool, parsePoolBody, poolIdNull, poolRepository as stored, presentPool, type PoolBody, type PoolInput, type StoredPool } from './pool.js';

/**
 * One page of pools. There is no `metadata`: the real service does not count them.
 *
 * @category Pools
 */
export type PoolList = Omit<ListEnvelope<'pools', PoolBody>, 'metadata'>;

/**
 * `dns.pools`: the service's pools (`/v2/pools`), admin only (the real policy's `find_pools`,
 * `get_pool`, `create_pool`, `update_pool`, `delete_pool` in legacy mode). The pools of the
 * `pools` option are listed as configured; create, update and delete answer as the real v2 API
 * (its deprecated pool writes) and are kept in storage, so `reset()` brings the configuration
 * back. Zones take their nameservers from the configured pools.
 *
 * @category Pools
 */
export interface PoolCommands {
  /**
   * `GET /v2/pools/{id}`: 404 `pool_not_found`.
   * @errors `invalid_uuid` 400, `pool_not_found` 404
   */
  get(ctx: RequestContext, id: string): ResultAsync<PoolBody, ApiError>;
  /**
   * `GET /v2/pools`: filter `name`; sort keys `created_at`, `id`, `updated_at`, `name`.
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  list(ctx: RequestContext, query?: ListQuery): ResultAsync<PoolList, ApiError>;
  /**
   * `POST /v2/pools` (201): `name` required; 409 `duplicate_pool` for a name in use.
   * @errors `empty_request_body` 400, `invalid_object` 400, `duplicate_pool` 409
   */
  create<B = unknown>(ctx: RequestContext, body: RequestBody<PoolInput, B>): ResultAsync<PoolBody, ApiError>;
  /**
   * `PATCH /v2/pools/{id}` (HTTP 202, as the real service).
   * @errors `invalid_uuid` 400, `empty_request_body` 400, `invalid_object` 400, `pool_not_found` 404, `duplicate_pool` 409
   */
  update<B = unknown>(ctx: RequestContext, id: string, body: RequestBody<PoolInput, B>): ResultAsync<PoolBody, ApiError>;
  /**
   * `DELETE /v2/pools/{id}` (204): 400 `invalid_operation` while zones are in the pool.
   * @errors `invalid_uuid` 400, `invalid_operation` 400, `pool_not_found` 404
   */
  delete(ctx: RequestContext, id: string): ResultAsync<void, ApiError>;
}

type PoolRule = 'find_pools' | 'get_pool' | 'create_pool' | 'update_pool' | 'delete_pool';

const adminOnly = (deps: DnsDeps, rule: PoolRule, caller: Caller): Result<void, ApiError> =>
  caller.isAdmin ? ok(undefined) : err(forbidden(deps.forbiddenStatus, rule));

const listSpec = (baseUrl: string): ListSpec<StoredPool> => ({
  path: '/v2/pools',
  envelope: 'pools',
  metadata: false,
  filters: { name: (p) => p.name },
  sortKeys: { created_at: (p) => p.createdAt, id: (p) => p.id, updated_at: (p) => p.updatedAt, name: (p) => p.name },
  present: (p) => presentPool(p, baseUrl),
});

/** The pools the service has now: the configured ones as changed through the API, and those made through it. */
async function currentPools(deps: DnsDeps, tx: StorageTransaction): Promise<StoredPool[]> {
  const changed = await stored.all(tx);
  const byId = new Map(changed.map((p) => [p.id, p]));
  const out: StoredPool[] = [];
  for (const p of deps.pools) if (!byId.has(p.id)) out.push(configuredPool(p));
  for (const p of changed) if (!p.deleted) out.push(p);
  return out;
}

/** A pool by id, or undefined when it does not exist (deleted included). */
async function poolById(deps: DnsDeps, tx: StorageTransaction, id: string): Promise<StoredPool | undefined> {
  const own = await stored.get(tx, id);
  if (own !== undefined) return own.deleted ? undefined : own;
  const configured = deps.pools.find((p) => p.id === id);
  return configured === undefined ? undefined : configuredPool(configured);
}

const nameTaken = async (deps: DnsDeps, tx: StorageTransaction, name: string, id: string | undefined): Promise<boolean> =>
  (await currentPools(deps, tx)).some((p) => p.name === name && p.id !== id);

/**
 * Builds the pool commands over the service's dependencies.
 *
 * @param deps - the DNS service's injected dependencies
 * @returns `get`, `list`, `create`, `update`, `delete`; each answers a `ResultAsync` that never rejects
 * @category Pools
 * @internal
 */
export function createPoolCommands(deps: DnsDeps): PoolCommands {
  const emit = (type: string, body: PoolBody) => () => deps.events.emit(type, body);
  return {
    get: (ctx, id) =>
      command(deps, ctx, {
        parse: () => uuidParam('pool_id', id),
        authorize: (caller) => adminOnly(deps, 'get_pool', caller),
        transaction: async ({ tx }, _caller, pid) => {
          const pool = await poolById(deps, tx, pid);
          return pool === undefined ? err(poolNotFound()) : ok(presentPool(pool, deps.baseUrl));
        },
      }),
    list: (ctx, query) =>
      command(deps, ctx, {
        parse: (resolved) => listCaller(deps, resolved, query).andThen((caller) => parseListQuery(listSpec(deps.baseUrl), query, caller.allProjects)),
        authorize: (caller) => adminOnly(deps, 'find_pools', caller),
        transaction: async ({ tx }, _caller, q) => {
          // A deployment has a handful of pools: the page is cut from all of them.
          const all = await currentPools(deps, tx);
          const marker = q.marker === undefined ? undefined : all.find((p) => p.id === q.marker);
          return listArray(listSpec(deps.baseUrl), all, q, q.marker === undefined || marker !== undefined, marker, deps.baseUrl) as Result<PoolList, ApiError>;
        },
      }),
    create: (ctx, body) =>
      command(deps, ctx, {
        body,
        parse: () => (body === undefined || body === null ? err(emptyRequestBody()) : parsePoolBody(body, undefined)),
        authorize: (caller) => adminOnly(deps, 'create_pool', caller),
        transaction: async (uow, caller, input) => {
          if (input.idNull) return err(poolIdNull());
          if (await nameTaken(deps, uow.tx, input.name, undefined)) return err(duplicatePool());
          const pool: StoredPool = {
            id: deps.ids(),
            projectId: input.projectId ?? caller.projectId,
            name: input.name,
            description: input.description,
            attributes: input.attributes,
            nsRecords: input.nsRecords,
            createdAt: toMicros(deps.clock()),
            updatedAt: null,
            deleted: false,
          };
          await stored.insert(uow.tx, pool);
          const shown = presentPool(pool, deps.baseUrl);
          uow.afterCommit(emit('dns.pool.create', shown));
          return ok(shown);
        },
      }),
    update: (ctx, id, body) =>
      command(deps, ctx, {
        body,
        ids: () => uuidParam('pool_id', id),
        parse: () => uuidParam('pool_id', id).andThen((pid) => (body === undefined || body === null ? err(emptyRequestBody()) : ok(pid))),
        authorize: (caller) => adminOnly(deps, 'get_pool', caller),
        transaction: async (uow, caller, pid) => {
          const current = await poolById(deps, uow.tx, pid);
          if (current === undefined) return err(poolNotFound());
          const input = parsePoolBody(body, current);
          if (input.isErr()) return err(input.error);
          const allowed = adminOnly(deps, 'update_pool', caller);
          if (allowed.isErr()) return err(allowed.error);
          const { projectId, name, description, attributes, nsRecords } = input.value;
          if (await nameTaken(deps, uow.tx, name, pid)) return err(duplicatePool());
          const pool: StoredPool = { ...current, projectId, name, description, attributes, nsRecords, updatedAt: toMicros(deps.clock()) };
          await stored.put(uow.tx, pool);
          const shown = presentPool(pool, deps.baseUrl);
          uow.afterCommit(emit('dns.pool.update', shown));
          return ok(shown);
        },
      }),
    delete: (ctx, id) =>
      command(deps, ctx, {
        parse: () => uuidParam('pool_id', id),
        authorize: (caller) => adminOnly(deps, 'delete_pool', caller),
        transaction: async (uow, _caller, pid) => {
          // The real service looks for the pool's zones first, then for the pool. A rare admin
          // call: it reads every zone's row rather than keep an index by pool for it.
          const zones = await zoneRepository.owned(uow.tx, null);
          if (zones.some((z) => z.poolId === pid && z.action !== 'DELETE')) return err(poolHasZones());
          const pool = await poolById(deps, uow.tx, pid);
          if (pool === undefined) return err(poolNotFound());
          if (deps.pools.some((p) => p.id === pid)) await stored.put(uow.tx, { ...pool, deleted: true });
          else await stored.delete(uow.tx, pid);
          uow.afterCommit(emit('dns.pool.delete', presentPool(pool, deps.baseUrl)));
          return ok(undefined);
        },
      }),
  };
}
