import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import type { ApiError } from '../../kernel/api-error.js';
import { command } from '../../kernel/command.js';
import { forbidden, type Caller, type RequestContext } from '../../kernel/context.js';
import { uuidParam } from '../../kernel/errors.js';
import { listCaller, type ListEnvelope } from '../../kernel/list-command.js';
import { listPage, parseListQuery, type ListQuery, type ListSpec } from '../../kernel/list-query.js';
import { emptyRequestBody, nullRefusedByStore } from '../../kernel/validation.js';
import type { RequestBody } from '../kernel/body.js';
import type { DnsDeps } from '../kernel/deps.js';
import { toMicros } from '../kernel/time.js';
import { duplicateTsigkey, tsigkeyNotFound } from './tsigkey-errors.js';
import { parseTsigkeyBody, presentTsigkey, tsigkeyRepository as keys, type StoredTsigkey, type TsigkeyBody, type TsigkeyInput } from './tsigkey.js';

/**
 * One page of TSIG keys. There is no `metadata`: the real service does not count them.
 *
 * @category TSIG keys
 */
export type TsigkeyList = Omit<ListEnvelope<'tsigkeys', TsigkeyBody>, 'metadata'>;

/**
 * `dns.tsigkeys`: the TSIG keys of the service (`/v2/tsigkeys`), for admins only (the real
 * policy's `create_tsigkey`, `find_tsigkeys`, `get_tsigkey`, `update_tsigkey`, `delete_tsigkey`
 * in legacy mode). A refusal comes after the body's checks on create, as in the real service,
 * whose central applies the policy.
 *
 * @category TSIG keys
 */
export interface TsigkeyCommands {
  /**
   * `POST /v2/tsigkeys` (201): all five fields; 409 `duplicate_tsigkey` for a name in use.
   * @errors `empty_request_body` 400, `invalid_object` 400, `duplicate_tsigkey` 409
   */
  create<B = unknown>(ctx: RequestContext, body: RequestBody<TsigkeyInput, B>): ResultAsync<TsigkeyBody, ApiError>;
  /**
   * `GET /v2/tsigkeys/{id}`: 404 `tsigkey_not_found`.
   * @errors `invalid_uuid` 400, `tsigkey_not_found` 404
   */
  get(ctx: RequestContext, id: string): ResultAsync<TsigkeyBody, ApiError>;
  /**
   * `GET /v2/tsigkeys`: filters `name`, `algorithm`, `scope`; sort keys `created_at`, `id`, `updated_at`, `name`.
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  list(ctx: RequestContext, query?: ListQuery): ResultAsync<TsigkeyList, ApiError>;
  /**
   * `PATCH /v2/tsigkeys/{id}` (200): any of the five fields; every update, even `{}`, sets `updated_at`.
   * @errors `invalid_uuid` 400, `empty_request_body` 400, `invalid_object` 400, `tsigkey_not_found` 404, `duplicate_tsigkey` 409
   */
  update<B = unknown>(ctx: RequestContext, id: string, body: RequestBody<TsigkeyInput, B>): ResultAsync<TsigkeyBody, ApiError>;
  /**
   * `DELETE /v2/tsigkeys/{id}` (204).
   * @errors `invalid_uuid` 400, `tsigkey_not_found` 404
   */
  delete(ctx: RequestContext, id: string): ResultAsync<void, ApiError>;
}

type TsigkeyRule = 'create_tsigkey' | 'find_tsigkeys' | 'get_tsigkey' | 'update_tsigkey' | 'delete_tsigkey';

/** Every TSIG key rule is `rule:admin` in the real service's legacy defaults. */
const adminOnly = (deps: DnsDeps, rule: TsigkeyRule, caller: Caller): Result<void, ApiError> =>
  caller.isAdmin ? ok(undefined) : err(forbidden(deps.forbiddenStatus, rule));

const listSpec = (baseUrl: string): ListSpec<StoredTsigkey> => ({
  path: '/v2/tsigkeys',
  envelope: 'tsigkeys',
  metadata: false,
  filters: { name: (k) => k.name, algorithm: (k) => k.algorithm, scope: (k) => k.scope },
  sortKeys: { created_at: (k) => k.createdAt, id: (k) => k.id, updated_at: (k) => k.updatedAt, name: (k) => k.name },
  present: (k) => presentTsigkey(k, baseUrl),
});

/** Whether another key than `id` holds `name`. */
const nameTaken = async (tx: Parameters<typeof keys.named>[0], name: string, id: string | undefined): Promise<boolean> =>
  (await keys.named(tx, name)).some((k) => k.id !== id);

/**
 * Builds the TSIG key commands over the service's dependencies.
 *
 * @param deps - the DNS service's injected dependencies
 * @returns `create`, `get`, `list`, `update`, `delete`; each answers a `ResultAsync` that never rejects
 * @category TSIG keys
 * @internal
 */
export function createTsigkeyCommands(deps: DnsDeps): TsigkeyCommands {
  const emit = (type: string, body: TsigkeyBody) => () => deps.events.emit(type, body);
  return {
    create: (ctx, body) =>
      command(deps, ctx, {
        body,
        parse: () => (body === undefined || body === null ? err(emptyRequestBody()) : parseTsigkeyBody(body, undefined)),
        authorize: (caller) => adminOnly(deps, 'create_tsigkey', caller),
        transaction: async (uow, _caller, input) => {
          if (input.idNull) return err(nullRefusedByStore('id', 'TSIG key'));
          if (await nameTaken(uow.tx, input.name, undefined)) return err(duplicateTsigkey());
          const key: StoredTsigkey = {
            id: deps.ids(),
            name: input.name,
            algorithm: input.algorithm,
            secret: input.secret,
            scope: input.scope,
            resourceId: input.resourceId,
            createdAt: input.createdAtNull ? null : toMicros(deps.clock()),
            updatedAt: null,
          };
          await keys.insert(uow.tx, key);
          const shown = presentTsigkey(key, deps.baseUrl);
          uow.afterCommit(emit('dns.tsigkey.create', shown));
          return ok(shown);
        },
      }),
    get: (ctx, id) =>
      command(deps, ctx, {
        parse: () => uuidParam('tsigkey_id', id),
        authorize: (caller) => adminOnly(deps, 'get_tsigkey', caller),
        transaction: async ({ tx }, _caller, kid) => {
          const key = await keys.get(tx, kid);
          return key === undefined ? err(tsigkeyNotFound()) : ok(presentTsigkey(key, deps.baseUrl));
        },
      }),
    list: (ctx, query) =>
      command(deps, ctx, {
        parse: (resolved) => listCaller(deps, resolved, query).andThen((caller) => parseListQuery(listSpec(deps.baseUrl), query, caller.allProjects)),
        authorize: (caller) => adminOnly(deps, 'find_tsigkeys', caller),
        transaction: async ({ tx }, _caller, q) => (await listPage(tx, listSpec(deps.baseUrl), keys.everyone, q, deps.baseUrl)) as Result<TsigkeyList, ApiError>,
      }),
    update: (ctx, id, body) =>
      command(deps, ctx, {
        // The real controller reads the body before it fetches the key.
        body,
        ids: () => uuidParam('tsigkey_id', id),
        parse: () => uuidParam('tsigkey_id', id).andThen((kid) => (body === undefined || body === null ? err(emptyRequestBody()) : ok(kid))),
        authorize: (caller) => adminOnly(deps, 'get_tsigkey', caller),
        transaction: async (uow, caller, kid) => {
          const current = await keys.get(uow.tx, kid);
          if (current === undefined) return err(tsigkeyNotFound());
          const input = parseTsigkeyBody(body, current);
          if (input.isErr()) return err(input.error);
          const allowed = adminOnly(deps, 'update_tsigkey', caller);
          if (allowed.isErr()) return err(allowed.error);
          const { name, algorithm, secret, scope, resourceId } = input.value;
          if (await nameTaken(uow.tx, name, kid)) return err(duplicateTsigkey());
          const key: StoredTsigkey = { ...current, name, algorithm, secret, scope, resourceId, updatedAt: toMicros(deps.clock()) };
          await keys.put(uow.tx, key);
          const shown = presentTsigkey(key, deps.baseUrl);
          uow.afterCommit(emit('dns.tsigkey.update', shown));
          return ok(shown);
        },
      }),
    delete: (ctx, id) =>
      command(deps, ctx, {
        parse: () => uuidParam('tsigkey_id', id),
        authorize: (caller) => adminOnly(deps, 'delete_tsigkey', caller),
        transaction: async (uow, _caller, kid) => {
          const key = await keys.get(uow.tx, kid);
          if (key === undefined) return err(tsigkeyNotFound());
          await keys.delete(uow.tx, kid);
          uow.afterCommit(emit('dns.tsigkey.delete', presentTsigkey(key, deps.baseUrl)));
          return ok(undefined);
        },
      }),
  };
}
