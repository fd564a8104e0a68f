import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import { ApiError } from '../../kernel/api-error.js';
import { command } from '../../kernel/command.js';
import { forbidden, type Caller } from '../../kernel/context.js';
import { uuidParam } from '../../kernel/errors.js';
import { listPage, parseListQuery, type ListQuery, type ListSpec } from '../../kernel/list-query.js';
import { coerceString, emptyRequestBody, invalidKeys, invalidValue, isCleanText, ownEntries, schemaErrors } from '../../kernel/validation.js';
import type { DnsDeps } from './deps.js';
import { touchNamePolicy, type NameRuleRepository } from './name-policy.js';
import { formatTimestamp, toMicros } from './time.js';

/**
 * The commands of the admin-only rules on zone names (`/v2/tlds`, `/v2/blacklists`): the same
 * CRUD shape for both in the real service, so one factory, told by a spec what differs (the
 * unique field, its rule, the names in errors, policies and events).
 */

/** A stored TLD or blacklist entry, seen through its unique field. @internal */
export interface NameRule {
  readonly id: string;
  readonly description: string | null;
  readonly createdAt: number;
  readonly updatedAt: number | null;
}

/** What differs between the TLD and blacklist commands. @internal */
export interface NameRuleSpec<T extends NameRule> {
  /** `tld`, `blacklist`: the policy rules' and events' names (`create_tld`, `dns.tld.create`). */
  readonly kind: 'tld' | 'blacklist';
  /** How the real service names it in errors: `Tld`, `Blacklist`. */
  readonly title: string;
  /** `/v2/tlds`. */
  readonly path: string;
  /** The list envelope: `tlds`. */
  readonly envelope: string;
  /** The unique field: `name`, `pattern`. */
  readonly field: string;
  readonly repository: NameRuleRepository<T>;
  /** The unique field of a stored entity. */
  readonly unique: (e: T) => string;
  /** Checks the unique field's value after its string coercion; the real ValueError text, or undefined. */
  readonly uniqueProblem: (value: string) => string | undefined;
  /** Checks a non-null description likewise. */
  readonly descriptionProblem: (value: string) => string | undefined;
  readonly make: (fields: { id: string; unique: string; description: string | null; createdAt: number; updatedAt: number | null }) => T;
}

/** The API body: `id`, the unique field, `description`, timestamps, `links.self`. @internal */
export function presentNameRule<T extends NameRule>(spec: NameRuleSpec<T>, e: T, baseUrl: string): object {
  return {
    id: e.id,
    [spec.field]: spec.unique(e),
    description: e.description,
    created_at: formatTimestamp(e.createdAt),
    updated_at: e.updatedAt === null ? null : formatTimestamp(e.updatedAt),
    links: { self: `${baseUrl}${spec.path}/${e.id}` },
  };
}

/** Longest unique field and description, as the real objects declare them. */
const MAX_UNIQUE = 255;
const MAX_DESCRIPTION = 160;

interface Fields {
  readonly unique?: string;
  readonly description?: string | null;
}

/** Reads a create or PATCH body: unknown keys first, then the required field, then each value. */
function parseBody<T extends NameRule>(spec: NameRuleSpec<T>, body: unknown, creating: boolean): Result<Fields, ApiError> {
  if (body === undefined || body === null) return err(emptyRequestBody());
  const entries = ownEntries(body);
  if (entries.isErr()) return err(entries.error);
  const fields = entries.value;
  const unknown = Object.keys(fields).filter((k) => k !== spec.field && k !== 'description');
  if (unknown.length > 0) return err(invalidKeys(unknown, spec.kind));
  if (creating && !Object.hasOwn(fields, spec.field)) {
    return err(schemaErrors([{ path: `records.0.${spec.field}`, message: `'${spec.field}' is a required property` }]));
  }
  const out: { unique?: string; description?: string | null } = {};
  if (Object.hasOwn(fields, spec.field)) {
    const v = text(fields[spec.field], spec.field, MAX_UNIQUE, spec.uniqueProblem);
    if (v.isErr()) return err(v.error);
    out.unique = v.value;
  }
  if (Object.hasOwn(fields, 'description')) {
    const d = fields['description'];
    if (d === null) out.description = null;
    else {
      const v = text(d, 'description', MAX_DESCRIPTION, spec.descriptionProblem);
      if (v.isErr()) return err(v.error);
      out.description = v.value;
    }
  }
  return ok(out);
}

function text(value: unknown, field: string, max: number, problem: (v: string) => string | undefined): Result<string, ApiError> {
  const s = coerceString(value, field, max);
  if (s.isErr()) return s;
  if (!isCleanText(s.value)) return err(invalidValue('ValueError', `Field ${field} must be UTF-8 text without NUL characters or lone surrogates`));
  const why = problem(s.value);
  return why === undefined ? ok(s.value) : err(invalidValue('ValueError', why));
}

/** The `create_*`, `get_*`, `find_*s`, `update_*`, `delete_*` rules: admin only. */
const adminOnly = (deps: DnsDeps, caller: Caller, rule: string): Result<void, ApiError> =>
  caller.isAdmin ? ok(undefined) : err(forbidden(deps.forbiddenStatus, rule));

/** The commands of one of the two resources, bound to a service. @internal */
export interface NameRuleCommands {
  create(ctx: unknown, body: unknown): ResultAsync<object, ApiError>;
  get(ctx: unknown, id: unknown): ResultAsync<object, ApiError>;
  list(ctx: unknown, query?: ListQuery): ResultAsync<object, ApiError>;
  update(ctx: unknown, id: unknown, body: unknown): ResultAsync<object, ApiError>;
  delete(ctx: unknown, id: unknown): ResultAsync<void, ApiError>;
}

/** Builds the CRUD commands of TLDs or blacklists with the real service's checks, in its order. @internal */
export function createNameRuleCommands<T extends NameRule>(deps: DnsDeps, spec: NameRuleSpec<T>): NameRuleCommands {
  const { repository, kind } = spec;
  const notFound = (): ApiError => new ApiError(404, `${kind}_not_found`, `Could not find ${spec.title}`);
  const duplicate = (): ApiError => new ApiError(409, `duplicate_${kind}`, `Duplicate ${spec.title}`);
  const idParam = (id: unknown) => uuidParam(`${kind}_id`, id);
  const present = (e: T) => presentNameRule(spec, e, deps.baseUrl);
  const listSpec: ListSpec<T> = {
    path: spec.path,
    envelope: spec.envelope,
    filters: { [spec.field]: spec.unique },
    sortKeys: {
      created_at: (e) => e.createdAt,
      id: (e) => e.id,
      updated_at: (e) => e.updatedAt,
      [spec.field]: spec.unique,
    },
    metadata: false,
    present,
  };

  return {
    // The body is read before the policy, as the real API parses it before central is called.
    create: (ctx, body) =>
      command(deps, ctx, {
        body,
        parse: () => parseBody(spec, body, true),
        authorize: (caller) => adminOnly(deps, caller, `create_${kind}`),
        transaction: async (uow, _caller, fields) => {
          const unique = fields.unique!;
          if ((await repository.byUnique(uow.tx, unique)) !== undefined) return err(duplicate());
          const e = spec.make({ id: deps.ids(), unique, description: fields.description ?? null, createdAt: toMicros(deps.clock()), updatedAt: null });
          await repository.insert(uow.tx, e);
          await touchNamePolicy(uow.tx, deps.ids());
          const body = present(e);
          uow.afterCommit(() => deps.events.emit(`dns.${kind}.create`, body));
          return ok(body);
        },
      }),
    get: (ctx, id) =>
      command(deps, ctx, {
        parse: () => idParam(id),
        authorize: (caller) => adminOnly(deps, caller, `get_${kind}`),
        transaction: async ({ tx }, _caller, key) => {
          const e = await repository.get(tx, key);
          return e === undefined ? err(notFound()) : ok(present(e));
        },
      }),
    list: (ctx, query) =>
      command(deps, ctx, {
        authorize: (caller) => adminOnly(deps, caller, `find_${kind}s`),
        parse: () => parseListQuery(listSpec, query, false),
        transaction: async ({ tx }, _caller, q) => listPage(tx, listSpec, repository.listScope, q, deps.baseUrl),
      }),
    // The real API fetches the entity (policy `get_*`, then 404) before it reads the body.
    update: (ctx, id, body) =>
      command(deps, ctx, {
        body,
        ids: () => idParam(id),
        parse: () => idParam(id),
        authorize: (caller) => adminOnly(deps, caller, `get_${kind}`),
        transaction: async (uow, caller, key) => {
          const current = await repository.get(uow.tx, key);
          if (current === undefined) return err(notFound());
          const fields = parseBody(spec, body, false);
          if (fields.isErr()) return err(fields.error);
          const allowed = adminOnly(deps, caller, `update_${kind}`);
          if (allowed.isErr()) return err(allowed.error);
          const unique = fields.value.unique ?? spec.unique(current);
          if (unique !== spec.unique(current)) {
            const holder = await repository.byUnique(uow.tx, unique);
            if (holder !== undefined && holder.id !== current.id) return err(duplicate());
          }
          const description = fields.value.description === undefined ? current.description : fields.value.description;
          const next = spec.make({ id: current.id, unique, description, createdAt: current.createdAt, updatedAt: toMicros(deps.clock()) });
          await repository.put(uow.tx, next);
          await touchNamePolicy(uow.tx, deps.ids());
          const shown = present(next);
          uow.afterCommit(() => deps.events.emit(`dns.${kind}.update`, shown));
          return ok(shown);
        },
      }),
    delete: (ctx, id) =>
      command(deps, ctx, {
        parse: () => idParam(id),
        authorize: (caller) => adminOnly(deps, caller, `delete_${kind}`),
        transaction: async (uow, _caller, key) => {
          const current = await repository.get(uow.tx, key);
          if (current === undefined) return err(notFound());
          await repository.delete(uow.tx, key);
          await touchNamePolicy(uow.tx, deps.ids());
          const shown = present(current);
          uow.afterCommit(() => deps.events.emit(`dns.${kind}.delete`, shown));
          return ok(undefined);
        },
      }),
  };
}
