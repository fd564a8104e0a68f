import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import { ApiError } from '../../kernel/api-error.js';
import { command } from '../../kernel/command.js';
import type { RequestContext } from '../../kernel/context.js';
import { coerceString, emptyRequestBody, intField, invalidValue, parseAdapterObject, type AdapterField } from '../../kernel/validation.js';
import type { DnsDeps } from '../kernel/deps.js';
import { checkNameSyntax } from '../kernel/zone-rules.js';

/**
 * The body of `GET /v2/reverse/floatingips`: always empty here, as from a real Designate whose
 * deployment has no network service to ask for floating IPs.
 *
 * @category Reverse DNS
 */
export interface FloatingIpList {
  /** The caller's floating IPs with their PTR records: none without a network service. */
  readonly floatingips: readonly object[];
  /** `self`: the list's URL. */
  readonly links: {
    /** The list's URL. */
    readonly self: string;
  };
}

/**
 * `dns.floatingIps`: PTR records of floating IPs (`/v2/reverse/floatingips`). They need a network
 * service (Neutron) that zoneward does not have, so every call answers as a real Designate
 * without one: an empty list, and 404 for any floating IP, after the real checks of the
 * `<region>:<uuid>` key.
 *
 * @category Reverse DNS
 */
export interface FloatingIpCommands {
  /**
   * `GET /v2/reverse/floatingips`: no floating IPs.
   * @errors none of its own
   */
  list(ctx: RequestContext): ResultAsync<FloatingIpList, ApiError>;
  /**
   * `GET /v2/reverse/floatingips/{region}:{id}`: 400 for a malformed key, else 404.
   * @errors `bad_request` 400, `not_found` 404
   */
  get(ctx: RequestContext, key: string): ResultAsync<never, ApiError>;
  /**
   * `PATCH /v2/reverse/floatingips/{region}:{id}` (HTTP 202): 400 for a malformed body or key; a
   * body that sets no PTR (`{}`, only `description` or `ttl`) changes nothing and answers null, as
   * the real service does; setting `ptrdname` is a 404 (no floating IP is the caller's), and
   * unsetting it (`null`) a 404 (there is no PTR record to remove). Each value is first checked as
   * the real fields coerce it, in body order (`ptrdname` a name, `ttl` 1 to 2³¹−1, `description`
   * up to 160 characters): the first bad one is the answer.
   * @errors `empty_request_body` 400, `bad_request` 400, `invalid_object` 400, `not_found` 404
   */
  set(ctx: RequestContext, key: string, body: unknown): ResultAsync<null, ApiError>;
}

const FIP_KEY = /^([A-Za-z0-9._-]{1,100}):([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** The region and id of a floating IP key, or the real service's refusal of its form. */
function parseKey(key: unknown): { region: string; id: string } | ApiError {
  const m = typeof key === 'string' ? FIP_KEY.exec(key) : null;
  if (m === null) return new ApiError(400, 'bad_request', `Floating IP ${String(key).slice(0, 200)} is not in the format of <region>:<uuid>`);
  return { region: m[1]!, id: m[2]! };
}

/**
 * The keys of a floating IP body as the real adapter knows them: three writable, three read-only
 * that pass only with the value an unsaved floating IP has (null).
 */
const FIELDS: Readonly<Record<string, AdapterField>> = {
  ptrdname: { writable: true },
  description: { writable: true },
  ttl: { writable: true },
  address: { writable: false },
  action: { writable: false },
  status: { writable: false },
};

/** The PTR change a PATCH body asks for, after each value is checked as the real fields coerce it. */
function readPatch(body: unknown): Result<'set' | 'unset' | undefined, ApiError> {
  let ptr: 'set' | 'unset' | undefined;
  const set = (key: string, value: unknown): Result<void, ApiError> => {
    if (key === 'address') {
      // The real address field refuses the null its read-only check let through, with no message.
      return err(invalidValue('ValueError', ''));
    }
    if (value === null || key === 'action' || key === 'status') {
      if (key === 'ptrdname') ptr = 'unset';
      return ok(undefined);
    }
    if (key === 'ttl') return intField(value, 'ttl', 1, 2_147_483_647).map(() => undefined);
    if (key === 'description') return coerceString(value, 'description', 160).map(() => undefined);
    ptr = 'set';
    return coerceString(value, 'ptrdname', Number.POSITIVE_INFINITY).andThen(checkNameSyntax).map(() => undefined);
  };
  return parseAdapterObject(body, FIELDS, () => null, set, 'floatingip').map(() => ptr);
}

/** No network service knows the floating IP, so it is not the caller's: the real wording. */
const notAssociated = (region: string, id: string, project: string | null): ApiError =>
  new ApiError(404, 'not_found', `FloatingIP ${id} in ${region} is not associated for project "${project ?? 'None'}"`);

/**
 * Builds the floating IP commands over the service's dependencies.
 *
 * @param deps - the DNS service's injected dependencies
 * @returns `list`, `get`, `set`; each answers a `ResultAsync` that never rejects
 * @category Reverse DNS
 * @internal
 */
export function createFloatingIpCommands(deps: DnsDeps): FloatingIpCommands {
  return {
    list: (ctx) =>
      command(deps, ctx, {
        transaction: () => Promise.resolve(ok({ floatingips: [], links: { self: `${deps.baseUrl}/v2/reverse/floatingips` } })),
      }),
    get: (ctx, key) =>
      command(deps, ctx, {
        parse: () => {
          const k = parseKey(key);
          return k instanceof ApiError ? err(k) : ok(k);
        },
        transaction: (_uow, caller, k) => Promise.resolve(err(notAssociated(k.region, k.id, caller.projectId))),
      }),
    // The real controller reads the body before the key.
    set: (ctx, key, body) =>
      command(deps, ctx, {
        body,
        parse: () => {
          if (body === undefined || body === null) return err(emptyRequestBody());
          const k = parseKey(key);
          if (k instanceof ApiError) return err(k);
          return readPatch(body).map((ptr) => ({ ...k, ptr }));
        },
        transaction: (_uow, caller, k) =>
          Promise.resolve(
            k.ptr === 'set'
              ? err(notAssociated(k.region, k.id, caller.projectId))
              : k.ptr === 'unset'
                ? err(new ApiError(404, 'not_found', `No such FloatingIP ${k.region}:${k.id}`))
                : ok(null),
          ),
      }),
  };
}
