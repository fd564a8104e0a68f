import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import { ApiError } from '../../kernel/api-error.js';
import { command } from '../../kernel/command.js';
import { forbidden, type Caller, type RequestContext } from '../../kernel/context.js';
import { uuidParam } from '../../kernel/errors.js';
import { listCaller } from '../../kernel/list-command.js';
import { listArray, parseListQuery, type ListQuery, type ListSpec } from '../../kernel/list-query.js';
import type { DnsDeps } from '../kernel/deps.js';
import { formatTimestamp, toMicros } from '../kernel/time.js';

/**
 * The status a service reports of itself, as `/v2/service_statuses` shows it.
 *
 * @category Service statuses
 */
export interface ServiceStatusBody {
  /** The report's UUID: fixed per service, so a client may read one again. */
  readonly id: string;
  /** The host the service runs on. */
  readonly hostname: string;
  /** `api`, `central`, `mdns`, `worker` or `producer`. */
  readonly service_name: string;
  /** Always `UP`: the services are this process, answering. */
  readonly status: 'UP' | 'DOWN' | 'WARNING';
  /** What the service reports of its work; empty, as the real services report it. */
  readonly stats: Readonly<Record<string, unknown>>;
  /** What the service can do; empty, as the real services report it. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** When the service last reported: now, on the service's clock. */
  readonly heartbeated_at: string;
  /** On the service's clock, as `heartbeated_at`. */
  readonly created_at: string;
  /** On the service's clock, as `heartbeated_at`. */
  readonly updated_at: string;
  /** `self`: `/v2/service_statuses/{id}`. */
  readonly links: {
    /** The report's absolute URL. */
    readonly self: string;
  };
}

/**
 * The service statuses. Not paged: the real service answers every report, whatever `limit` and
 * `marker` say (it checks them and passes them on to nobody), with only a `self` link.
 *
 * @category Service statuses
 */
export interface ServiceStatusList {
  /** Every report that passes the filters. */
  readonly service_statuses: readonly ServiceStatusBody[];
  /** `self`: the list's URL, parameters echoed. */
  readonly links: {
    /** The list's URL. */
    readonly self: string;
  };
}

/**
 * `dns.serviceStatuses`: what the deployment's services report (`/v2/service_statuses`), admin
 * only (the real policy's `find_service_statuses` and `find_service_status` in legacy mode).
 * The five services of a Designate deployment are this one service, so each is `UP`, its
 * heartbeat now on the injected clock.
 *
 * @category Service statuses
 */
export interface ServiceStatusCommands {
  /**
   * `GET /v2/service_statuses/{id}`: 404 `service_status_not_found`.
   * @errors `invalid_uuid` 400, `service_status_not_found` 404
   */
  get(ctx: RequestContext, id: string): ResultAsync<ServiceStatusBody, ApiError>;
  /**
   * `GET /v2/service_statuses`: filters `hostname`, `service_name`, `status`.
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  list(ctx: RequestContext, query?: ListQuery): ResultAsync<ServiceStatusList, ApiError>;
}

/** The services a Designate deployment runs, each with the fixed id of its report. */
const SERVICES: readonly (readonly [name: string, id: string])[] = [
  ['api', '5a1d3b3c-8f7e-4c55-9b1e-0c3f2f6a0a01'],
  ['central', '5a1d3b3c-8f7e-4c55-9b1e-0c3f2f6a0a02'],
  ['mdns', '5a1d3b3c-8f7e-4c55-9b1e-0c3f2f6a0a03'],
  ['worker', '5a1d3b3c-8f7e-4c55-9b1e-0c3f2f6a0a04'],
  ['producer', '5a1d3b3c-8f7e-4c55-9b1e-0c3f2f6a0a05'],
];

/** The host every report names. */
const HOSTNAME = 'zoneward';

interface Report {
  readonly id: string;
  readonly name: string;
  readonly at: number;
}

const present = (r: Report, baseUrl: string): ServiceStatusBody => {
  const at = formatTimestamp(r.at);
  return {
    id: r.id,
    hostname: HOSTNAME,
    service_name: r.name,
    status: 'UP',
    stats: {},
    capabilities: {},
    heartbeated_at: at,
    created_at: at,
    updated_at: at,
    links: { self: `${baseUrl}/v2/service_statuses/${r.id}` },
  };
};

const listSpec = (baseUrl: string): ListSpec<Report> => ({
  path: '/v2/service_statuses',
  envelope: 'service_statuses',
  metadata: false,
  filters: { hostname: () => HOSTNAME, service_name: (r) => r.name, status: () => 'UP' },
  sortKeys: { created_at: (r) => r.at, id: (r) => r.id, updated_at: (r) => r.at, hostname: () => HOSTNAME, service_name: (r) => r.name, status: () => 'UP' },
  present: (r) => present(r, baseUrl),
});

const adminOnly = (deps: DnsDeps, rule: string, caller: Caller): Result<void, ApiError> =>
  caller.isAdmin ? ok(undefined) : err(forbidden(deps.forbiddenStatus, rule));

const notFound = (): ApiError => new ApiError(404, 'service_status_not_found', 'Could not find ServiceStatus');

const reports = (deps: DnsDeps): Report[] => {
  const at = toMicros(deps.clock());
  return SERVICES.map(([name, id]) => ({ id, name, at }));
};

/**
 * Builds the service status commands over the service's dependencies.
 *
 * @param deps - the DNS service's injected dependencies
 * @returns `get` and `list`; each answers a `ResultAsync` that never rejects
 * @category Service statuses
 * @internal
 */
export function createServiceStatusCommands(deps: DnsDeps): ServiceStatusCommands {
  return {
    get: (ctx, id) =>
      command(deps, ctx, {
        parse: () => uuidParam('service_id', id),
        authorize: (caller) => adminOnly(deps, 'find_service_status', caller),
        transaction: (_uow, _caller, sid) => {
          const found = reports(deps).find((r) => r.id === sid.toLowerCase());
          return Promise.resolve(found === undefined ? err(notFound()) : ok(present(found, deps.baseUrl)));
        },
      }),
    list: (ctx, query) =>
      command(deps, ctx, {
        parse: (resolved) => listCaller(deps, resolved, query).andThen((caller) => parseListQuery(listSpec(deps.baseUrl), query, caller.allProjects)),
        authorize: (caller) => adminOnly(deps, 'find_service_statuses', caller),
        transaction: (_uow, _caller, q) => {
          // Every report: the real list ignores marker, limit and sort, so no `next` link either.
          const all = listArray(listSpec(deps.baseUrl), reports(deps), { ...q, marker: undefined, limit: Number.MAX_SAFE_INTEGER, sortKey: 'created_at', sortDir: 'asc' }, true, undefined, deps.baseUrl);
          return Promise.resolve(all as Result<ServiceStatusList, ApiError>);
        },
      }),
  };
}
