import { err, ok, type ResultAsync } from 'neverthrow';
import { ApiError } from '../../kernel/api-error.js';
import { command } from '../../kernel/command.js';
import type { RequestContext } from '../../kernel/context.js';
import { ownEntries } from '../../kernel/validation.js';
import type { DnsDeps } from '../kernel/deps.js';

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
   * `PATCH /v2/reverse/floatingips/{region}:{id}`: 400 for a malformed key or body, else 404.
   * @errors `bad_request` 400, `invalid_object` 400, `not_found` 404
   */
  set(ctx: RequestContext, key: string, body: unknown): ResultAsync<never, ApiError>;
}

const FIP_KEY = /^([A-Za-z0-9._-]{1,100}):([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** The region and id of a floating IP key, or the real service's refusal of its form. */
function parseKey(key: unknown): { region: string; id: string } | ApiError {
  const m = typeof key === 'string' ? FIP_KEY.exec(key) : null;
  if (m === null) return new ApiError(400, 'bad_request', `Floating IP ${String(key).slice(0, 200)} is not in the format of <region>:<uuid>`);
  return { region: m[1]!, id: m[2]! };
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
    set: (ctx, key, body) =>
      command(deps, ctx, {
        parse: () => {
          const k = parseKey(key);
          if (k instanceof ApiError) return err(k);
          // The real controller takes a missing body as an empty one.
          return body === undefined || body === null ? ok(k) : ownEntries(body).map(() => k);
        },
        transaction: (_uow, caller, k) => Promise.resolve(err(notAssociated(k.region, k.id, caller.projectId))),
      }),
  };
}
