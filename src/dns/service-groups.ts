import type { ResultAsync } from 'neverthrow';
import type { ApiError } from '../kernel/api-error.js';
import type { RequestContext } from '../kernel/context.js';
import type { ListQuery } from '../kernel/list-query.js';
import type { RequestBody } from './kernel/body.js';
import type { NameserversBody } from './kernel/deps.js';
import type { DnsEventListener } from './kernel/events.js';
import type { RecordsetBody } from './kernel/recordset-body.js';
import type { ZoneBody } from './kernel/zone.js';
import type { ZoneQuotaLimits } from './quotas/index.js';
import type { RecordsetList } from './recordsets/recordset-commands.js';
import type { ZoneList } from './zones/zone-commands.js';
import type { ZoneCreateInput, ZoneUpdateInput } from './zones/zone-input.js';

/**
 * The command groups of {@link DnsService} that have no concept folder of their own to hold
 * their interface. Every command can also answer the codes any command answers (the caller:
 * `authentication_required`, `missing_project_id`, `forbidden`; the storage: `storage_failure`,
 * `unknown`); each `@errors` tag lists the others, and docs/errors.md gathers them in one table.
 * @module
 */

/**
 * The `dns.zones` command group: `/v2/zones`.
 *
 * @category Zones
 */
export interface ZoneCommands {
  /**
   * `POST /v2/zones`: creates a zone; `PENDING` until its push ran (`ACTIVE` at once in `'inline'`
   * mode with the default targets).
   *
   * @errors `invalid_object` 400, `empty_request_body` 400, `invalid_zone_name` 400, `invalid_ttl` 400, `bad_request` 400, `illegal_child` 401/403, `illegal_parent` 401/403, `duplicate_zone` 409, `over_quota` 413, `no_servers_configured` 500
   */
  create<B = unknown>(ctx: RequestContext, body: RequestBody<ZoneCreateInput, B>): ResultAsync<ZoneBody, ApiError>;
  /**
   * `GET /v2/zones/{id}`: 404 for another project's zone.
   *
   * @errors `invalid_uuid` 400, `zone_not_found` 404
   */
  get(ctx: RequestContext, id: string): ResultAsync<ZoneBody, ApiError>;
  /**
   * `GET /v2/zones`: `{ zones, links, metadata }`, with `limit`, `marker`, `sort_key`, `sort_dir` and filters.
   *
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  list(ctx: RequestContext, query?: ListQuery): ResultAsync<ZoneList, ApiError>;
  /**
   * `PATCH /v2/zones/{id}`: email, description, ttl, masters, attributes.
   *
   * @errors `invalid_uuid` 400, `invalid_object` 400, `empty_request_body` 400, `invalid_ttl` 400, `bad_request` 400, `zone_not_found` 404
   */
  update<B = unknown>(ctx: RequestContext, id: string, body: RequestBody<ZoneUpdateInput, B>): ResultAsync<ZoneBody, ApiError>;
  /**
   * `DELETE /v2/zones/{id}`: answered `DELETE/PENDING`; the zone goes once the targets removed it.
   *
   * @errors `invalid_uuid` 400, `zone_has_sub_zone` 400, `zone_not_found` 404
   */
  delete(ctx: RequestContext, id: string): ResultAsync<ZoneBody, ApiError>;
  /**
   * `POST /v2/zones/{id}/tasks/abandon`: admin only; removed at once, targets untouched.
   *
   * @errors `invalid_uuid` 400, `zone_has_sub_zone` 400, `zone_not_found` 404
   */
  abandon(ctx: RequestContext, id: string): ResultAsync<void, ApiError>;
  /**
   * `GET /v2/zones/{id}/nameservers`.
   *
   * @errors `invalid_uuid` 400, `zone_not_found` 404
   */
  nameservers(ctx: RequestContext, id: string): ResultAsync<NameserversBody, ApiError>;
  /**
   * `POST /v2/zones/{id}/tasks/xfr` (HTTP 202, empty body): asks a master of a SECONDARY zone
   * for its serial and transfers the zone when it is newer, as a task (`dns.tasks`).
   *
   * @errors `invalid_uuid` 400, `bad_request` 400 (a PRIMARY zone), `zone_not_found` 404
   */
  xfr(ctx: RequestContext, id: string): ResultAsync<void, ApiError>;
}

/**
 * What a recordset create body sets (`POST /v2/zones/{zone_id}/recordsets`); anything else in
 * the body is a 400, as in the real service.
 *
 * @category Recordsets
 */
export interface RecordsetCreateInput {
  /** Fully qualified, in the zone (or the zone's name itself). */
  readonly name: string;
  /** `A`, `AAAA`, `CNAME`, `MX`, `TXT`, `SRV`, `NS`, `PTR`, `CAA`, `SSHFP`, `NAPTR`, `SPF`, `CERT`. */
  readonly type: string;
  /** The records' data, in presentation form, each checked for the type. */
  readonly records?: readonly string[];
  /** Null: the zone's TTL applies. */
  readonly ttl?: number | null;
  /** Free text, at most 160 characters, or null. */
  readonly description?: string | null;
}

/**
 * What a recordset update body sets (`PUT /v2/zones/{zone_id}/recordsets/{id}`): `records`,
 * `ttl` and `description`; `name` and `type` may be sent only with the stored values (a client
 * that sends back what it read), as in the real service.
 *
 * @category Recordsets
 */
export type RecordsetUpdateInput = Partial<RecordsetCreateInput>;

/**
 * The `dns.recordsets` command group: the managed SOA and NS, imported recordsets, and those
 * written through the API.
 *
 * @category Recordsets
 */
export interface RecordsetCommands {
  /**
   * `GET /v2/zones/{zone_id}/recordsets`.
   *
   * @errors `invalid_uuid` 400, `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400, `zone_not_found` 404
   */
  list(ctx: RequestContext, zoneId: string, query?: ListQuery): ResultAsync<RecordsetList, ApiError>;
  /**
   * `GET /v2/zones/{zone_id}/recordsets/{id}`.
   *
   * @errors `invalid_uuid` 400, `zone_not_found` 404, `recordset_not_found` 404
   */
  get(ctx: RequestContext, zoneId: string, id: string): ResultAsync<RecordsetBody, ApiError>;
  /**
   * `POST /v2/zones/{zone_id}/recordsets`: validated per record type as the real service does;
   * raises the zone's serial.
   *
   * @errors `invalid_uuid` 400, `invalid_object` 400, `empty_request_body` 400, `invalid_recordset_name` 400, `invalid_recordset_location` 400, `invalid_ttl` 400, `bad_request` 400, `zone_not_found` 404, `duplicate_recordset` 409, `over_quota` 413
   */
  create<B = unknown>(ctx: RequestContext, zoneId: string, body: RequestBody<RecordsetCreateInput, B>): ResultAsync<RecordsetBody, ApiError>;
  /**
   * `PUT /v2/zones/{zone_id}/recordsets/{id}`: `records`, `ttl`, `description`; any change (even `{}`) raises the serial.
   *
   * @errors `invalid_uuid` 400, `invalid_object` 400, `empty_request_body` 400, `invalid_ttl` 400, `bad_request` 400, `zone_not_found` 404, `recordset_not_found` 404, `over_quota` 413
   */
  update<B = unknown>(ctx: RequestContext, zoneId: string, id: string, body: RequestBody<RecordsetUpdateInput, B>): ResultAsync<RecordsetBody, ApiError>;
  /**
   * `DELETE /v2/zones/{zone_id}/recordsets/{id}`: answered `DELETE`/`PENDING`; gone at once.
   *
   * @errors `invalid_uuid` 400, `bad_request` 400, `zone_not_found` 404, `recordset_not_found` 404
   */
  delete(ctx: RequestContext, zoneId: string, id: string): ResultAsync<RecordsetBody, ApiError>;
  /**
   * `GET /v2/recordsets`: every recordset of the caller's project (all projects with `allProjects`).
   *
   * @errors `bad_request` 400, `invalid_limit` 400, `invalid_marker` 400, `marker_not_found` 400, `invalid_sort_key` 400, `invalid_sort_dir` 400
   */
  listAll(ctx: RequestContext, query?: ListQuery): ResultAsync<object, ApiError>;
  /**
   * `GET /v2/recordsets/{id}`: the recordset wherever it is among the zones the caller may see.
   * The real service answers this path with a 301 to `/v2/zones/{zone_id}/recordsets/{id}`;
   * `zoneward/http` does too, from the body's `zone_id`.
   *
   * @errors `invalid_uuid` 400, `recordset_not_found` 404
   */
  find(ctx: RequestContext, id: string): ResultAsync<RecordsetBody, ApiError>;
}

/**
 * The `dns.quotas` command group: the DNS service's per-project quotas, `/v2/quotas/{project}`.
 *
 * @category Quotas
 */
export interface DnsQuotaCommands {
  /**
   * `GET /v2/quotas/{project_id}`: the project's effective quotas.
   *
   * @errors `invalid_object` 400 (a project id it cannot hold)
   */
  get(ctx: RequestContext, projectId: string): ResultAsync<ZoneQuotaLimits, ApiError>;
  /**
   * `PATCH /v2/quotas/{project_id}`: overrides some; answers the full effective map.
   *
   * @errors `invalid_object` 400, `empty_request_body` 400
   */
  set<B = unknown>(ctx: RequestContext, projectId: string, body: RequestBody<Partial<ZoneQuotaLimits>, B>): ResultAsync<ZoneQuotaLimits, ApiError>;
  /**
   * `DELETE /v2/quotas/{project_id}`: removes the overrides.
   *
   * @errors `invalid_object` 400
   */
  reset(ctx: RequestContext, projectId: string): ResultAsync<void, ApiError>;
}

/**
 * `dns.tasks`: the asynchronous work queue (zone pushes, imports, exports, transfers from masters).
 *
 * @category Zones
 */
export interface DnsTaskQueue {
  /** Resolves when no asynchronous work is left. */
  settle(): Promise<void>;
  /** Tasks queued or running. */
  pending(): number;
  /** Runs the oldest task; false when none waited (what `tasks: 'manual'` steps with). */
  runNext(): Promise<boolean>;
}

/**
 * `dns.events`: notifications after successful changes (`dns.zone.create`, …).
 *
 * @category Zones
 */
export interface DnsEventFeed {
  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: DnsEventListener): () => void;
}
