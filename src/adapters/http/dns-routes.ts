import type { DnsService } from '../../dns/service.js';
import type { ResultAsync } from 'neverthrow';
import { ApiError } from '../../kernel/api-error.js';
import { UnreadBody } from '../../kernel/command.js';
import { ALL_PROJECTS_ASKED, type RequestContext } from '../../kernel/context.js';
import { isUuidLike } from '../../kernel/uuid.js';
import { dnsBytes, dnsJsonBody } from './body.js';
import { methodNotAllowed, missingZoneId } from './http-errors.js';
import { created, json, jsonResponse, noContent, pendingOr, textResponse, type Reply } from './responses.js';
import { NOT_ALLOWED, NOT_FOUND, type RouteTable } from './router.js';
import { lines, type Action, type Exchange, type QueryRecord, type ServiceFace } from './routes.js';
import { isTrueString } from './trusted-headers.js';

/**
 * The DNS service's routes (`/v2`): one line per method and path, each one command call.
 * @module
 */

/** The query flags the handler turns into the context, never passed on as filters. */
const CONTEXT_FLAGS = new Set(['all_projects', 'all_tenants', 'edit_managed_records']);
const ALL_PROJECTS_FLAGS = ['all_projects', 'all_tenants'] as const;

/**
 * `all_projects` / `all_tenants` in the query string override the header, as in the real
 * service, which checks each step: asked for at one and turned off at a later one is still asked.
 */
function dnsContext(x: Exchange, ctx: RequestContext): RequestContext {
  if (x.search === '') return ctx;
  let flag: boolean | undefined;
  let asked = ctx.allProjects === true;
  for (const name of ALL_PROJECTS_FLAGS) {
    const value = x.query.get(name);
    if (value === null) continue;
    flag = isTrueString(value);
    asked ||= flag;
  }
  if (flag === undefined) return ctx;
  if (!asked || flag) return { ...ctx, allProjects: flag };
  const marked: RequestContext & { [ALL_PROJECTS_ASKED]?: true } = { ...ctx, allProjects: false, [ALL_PROJECTS_ASKED]: true };
  return marked;
}

/** The DNS query string as commands take it: repeated keys as arrays, the consumed flags removed. */
function dnsQuery(x: Exchange): QueryRecord {
  const out: QueryRecord = {};
  for (const [name, value] of x.query) {
    if (CONTEXT_FLAGS.has(name)) continue;
    const before = out[name];
    if (before === undefined) out[name] = value;
    else if (typeof before === 'string') out[name] = [before, value];
    else before.push(value);
  }
  return out;
}

/** How the DNS table reaches the service. @internal */
export function dnsFace(dns: DnsService, view: (base: string) => DnsService): ServiceFace<DnsService> {
  return {
    view,
    context: dnsContext,
    listQuery: dnsQuery,
    readJson: (x) => dnsJsonBody(x.request, x.maxBodyBytes),
    // The real service refuses a non-admin's all-projects or sudo before it routes anything.
    gate: async (x) => {
      const ctx = await x.caller();
      if (ctx instanceof ApiError) return undefined;
      const checked = dns.authorize(dnsContext(x, ctx));
      return checked.isErr() && checked.error.type === 'forbidden' ? checked.error : undefined;
    },
  };
}

// ListQuery's values are strings; repeated keys reach the commands as arrays, which they refuse.
type Q = Parameters<DnsService['zones']['list']>[1];
const q = (query: QueryRecord): Q => query as Q;

const ok = json(200);
const accepted = json(202);
const file: Reply<string> = (x, text) => textResponse(x, 200, text, 'text/dns');

/** What {@link dnsRoutes}' `crud` lines call: the shape the admin resources' groups share. */
interface CrudGroup {
  create(ctx: RequestContext, body: unknown): ResultAsync<unknown, ApiError>;
  get(ctx: RequestContext, id: string): ResultAsync<unknown, ApiError>;
  list(ctx: RequestContext, query?: Q): ResultAsync<unknown, ApiError>;
  update(ctx: RequestContext, id: string, body: unknown): ResultAsync<unknown, ApiError>;
  delete(ctx: RequestContext, id: string): ResultAsync<void, ApiError>;
}

/** A command that only ever fails (the floating IPs without a network service), as the table's lines take it. */
const widen = (r: ResultAsync<never, ApiError>): ResultAsync<unknown, ApiError> => r.map((v: unknown) => v);

/**
 * 301 to the body's canonical URL (`links.self`), with the body the real service's framework
 * writes: JSON when the client accepts it, else a short HTML page.
 */
const movedTo: Reply<unknown> = (x, body) => {
  const location = (body as { links?: { self?: unknown } }).links?.self;
  if (typeof location !== 'string') return json(200)(x, body);
  const wantsJson = ((x as Exchange).request.headers.get('accept') ?? '').includes('application/json');
  return wantsJson
    ? jsonResponse(x, 301, { code: 301, title: 'Moved Permanently', description: null }, { location })
    : textResponse(x, 301, movedPage(location), 'text/html; charset=UTF-8', { location });
};
/** The page the real service's framework (WebOb) writes for a 301, the location escaped as it escapes it. */
const movedPage = (location: string): string => {
  const href = location.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
  return `<html>\n <head>\n  <title>301 Moved Permanently</title>\n </head>\n <body>\n  <h1>301 Moved Permanently</h1>\n  The resource has been moved to <a href="${href}">${href}</a>;\nyou should be redirected automatically.\n\n\n </body>\n</html>`;
};

/** The DNS table. @internal */
export function dnsRoutes(face: ServiceFace<DnsService>): RouteTable<Action> {
  const { show, list, withJson, withRequest, refuse } = lines(face);
  /** The five lines of a resource every caller reaches the same way (`/v2/{path}[/{id}]`). */
  const crud = (path: string, group: (d: DnsService) => CrudGroup, updated = 200): RouteTable<Action> => ({
    [`GET /${path}`]: list((d, ctx, query) => group(d).list(ctx, q(query))),
    [`POST /${path}`]: withJson((d, ctx, body) => group(d).create(ctx, body), created(201)),
    [`GET /${path}/{id}`]: show((d, ctx, [id]) => group(d).get(ctx, id!)),
    [`PATCH /${path}/{id}`]: withJson((d, ctx, body, [id]) => group(d).update(ctx, id!, body), json(updated)),
    [`DELETE /${path}/{id}`]: show((d, ctx, [id]) => group(d).delete(ctx, id!), noContent),
  });
  const abandon = show((d, ctx, [id]) => d.zones.abandon(ctx, id!), noContent);
  return {
    'GET /zones': list((d, ctx, query) => d.zones.list(ctx, q(query))),
    'POST /zones': withJson((d, ctx, body) => d.zones.create(ctx, body), created(pendingOr(201))),
    'GET /zones/{id}': show((d, ctx, [id]) => d.zones.get(ctx, id!)),
    'PATCH /zones/{id}': withJson((d, ctx, body, [id]) => d.zones.update(ctx, id!, body), json(pendingOr(200))),
    'DELETE /zones/{id}': show((d, ctx, [id]) => d.zones.delete(ctx, id!), accepted),
    'GET /zones/{id}/nameservers': show((d, ctx, [id]) => d.zones.nameservers(ctx, id!)),
    'POST /zones/{id}/tasks/abandon': abandon,
    // The real router checks the id of a GET here before it finds no GET handler.
    'GET /zones/{id}/tasks/abandon': (x, params) => (isUuidLike(params[0]) ? refuse(() => methodNotAllowed('dns'))(x, params) : abandon(x, params)),
    'POST /zones/{id}/tasks/xfr': show((d, ctx, [id]) => d.zones.xfr(ctx, id!), (x) => ok(x, '')),
    'POST /zones/{id}/tasks/export': show((d, ctx, [id]) => d.exports.create(ctx, id!), created(202)),
    'POST /zones/{id}/tasks/transfer_requests': withJson(
      (d, ctx, body, [id]) => d.transferRequests.create(ctx, id!, emptyAllowed(body)),
      created(201),
    ),
    'GET /zones/{id}/tasks/transfer_requests': NOT_FOUND,

    'GET /zones/{id}/recordsets': list((d, ctx, query, [zoneId]) => d.recordsets.list(ctx, zoneId!, q(query))),
    'POST /zones/{id}/recordsets': withJson((d, ctx, body, [zoneId]) => d.recordsets.create(ctx, zoneId!, body), created(pendingOr(201))),
    'GET /zones/{id}/recordsets/{rid}': show((d, ctx, [zoneId, id]) => d.recordsets.get(ctx, zoneId!, id!)),
    'PUT /zones/{id}/recordsets/{rid}': withJson((d, ctx, body, [zoneId, id]) => d.recordsets.update(ctx, zoneId!, id!, body), json(pendingOr(200))),
    'DELETE /zones/{id}/recordsets/{rid}': show((d, ctx, [zoneId, id]) => d.recordsets.delete(ctx, zoneId!, id!), accepted),
    'GET /recordsets': list((d, ctx, query) => d.recordsets.listAll(ctx, q(query))),

    'GET /zones/tasks/transfer_requests': list((d, ctx, query) => d.transferRequests.list(ctx, q(query))),
    'POST /zones/tasks/transfer_requests': NOT_FOUND,
    'GET /zones/tasks/transfer_requests/{id}': show((d, ctx, [id]) => d.transferRequests.get(ctx, id!)),
    'PATCH /zones/tasks/transfer_requests/{id}': withJson((d, ctx, body, [id]) => d.transferRequests.update(ctx, id!, body), ok),
    'DELETE /zones/tasks/transfer_requests/{id}': show((d, ctx, [id]) => d.transferRequests.delete(ctx, id!), noContent),
    'GET /zones/tasks/transfer_accepts': list((d, ctx, query) => d.transferAccepts.list(ctx, q(query))),
    'POST /zones/tasks/transfer_accepts': withJson((d, ctx, body) => d.transferAccepts.create(ctx, body), created(201)),
    'GET /zones/tasks/transfer_accepts/{id}': show((d, ctx, [id]) => d.transferAccepts.get(ctx, id!)),

    'GET /zones/tasks/imports': list((d, ctx, query) => d.imports.list(ctx, q(query))),
    // An unread body goes to the command as it is (its pipeline answers it), whatever the type says.
    'POST /zones/tasks/imports': withRequest(
      async (d, ctx, x) => d.imports.create(ctx, (await dnsBytes(x.request, x.maxBodyBytes)) as Uint8Array, x.request.headers.get('content-type') ?? ''),
      created(202),
    ),
    'GET /zones/tasks/imports/{id}': show((d, ctx, [id]) => d.imports.get(ctx, id!)),
    'DELETE /zones/tasks/imports/{id}': show((d, ctx, [id]) => d.imports.delete(ctx, id!), noContent),
    'GET /zones/tasks/exports': list((d, ctx, query) => d.exports.list(ctx, q(query))),
    'GET /zones/tasks/exports/{id}': show((d, ctx, [id]) => d.exports.get(ctx, id!)),
    'DELETE /zones/tasks/exports/{id}': show((d, ctx, [id]) => d.exports.delete(ctx, id!), noContent),
    'GET /zones/tasks/exports/{id}/export': withRequest((d, ctx, x, [id]) => d.exports.file(ctx, id!, x.request.headers.get('accept') ?? undefined), file),

    // `export` and `xfr` under /zones/tasks are the real service's per-zone task controllers,
    // reached without a zone id: any other method is a 405, and a POST, missing its zone id, a 404
    // without a message. openstacksdk 0.101 lists exports at /v2/zones/tasks/export and sees the 405.
    'POST /zones/tasks/export': refuse(missingZoneId),
    'POST /zones/tasks/xfr': refuse(missingZoneId),
    // Names the real router does not know under /zones/tasks: 404.
    '* /zones/tasks': NOT_FOUND,
    '* /zones/tasks/{name}': NOT_FOUND,
    '* /zones/tasks/{name}/{id}': NOT_FOUND,
    // Below a zone, a name the router does not know: 404, but 405 for the methods it takes as `post`/`put` of the zone.
    '* /zones/{id}/tasks': NOT_FOUND,
    '* /zones/{id}/{name}': NOT_FOUND,
    'POST /zones/{id}/{name}': NOT_ALLOWED,
    'PUT /zones/{id}/{name}': NOT_ALLOWED,

    // The admin resources (the real controllers' statuses: 201 on create, 200 on PATCH but 202
    // for pools, 204 on delete).
    ...crud('tlds', (d) => d.tlds),
    ...crud('tsigkeys', (d) => d.tsigkeys),
    ...crud('blacklists', (d) => d.blacklists),
    ...crud('pools', (d) => d.pools, 202),
    'GET /service_statuses': list((d, ctx, query) => d.serviceStatuses.list(ctx, q(query))),
    'GET /service_statuses/{id}': show((d, ctx, [id]) => d.serviceStatuses.get(ctx, id!)),
    // The singular path an old API reference printed, which the real service still routes.
    'GET /service_status': list((d, ctx, query) => d.serviceStatuses.list(ctx, q(query))),
    'GET /service_status/{id}': show((d, ctx, [id]) => d.serviceStatuses.get(ctx, id!)),
    'GET /limits': show((d, ctx) => d.limits.get(ctx)),
    'GET /reverse/floatingips': show((d, ctx) => d.floatingIps.list(ctx)),
    'GET /reverse/floatingips/{key}': show((d, ctx, [key]) => widen(d.floatingIps.get(ctx, key!))),
    'PATCH /reverse/floatingips/{key}': withJson((d, ctx, body, [key]) => d.floatingIps.set(ctx, key!, body), accepted),
    // A recordset by its id alone: a redirect to its canonical URL, as the real service.
    'GET /recordsets/{id}': show((d, ctx, [id]) => d.recordsets.find(ctx, id!), movedTo),

    'GET /quotas': show((d, ctx) => d.quotas.get(ctx, ctx.sudoProjectId ?? ctx.projectId ?? '')),
    'GET /quotas/{project}': show((d, ctx, [project]) => d.quotas.get(ctx, project!)),
    'PATCH /quotas/{project}': withJson((d, ctx, body, [project]) => d.quotas.set(ctx, project!, body), ok),
    'DELETE /quotas/{project}': show((d, ctx, [project]) => d.quotas.reset(ctx, project!), noContent),
  };
}

/** A transfer request's body may be empty: no body is an empty one there. */
const emptyAllowed = (body: unknown): unknown => (body instanceof UnreadBody && body.error.type === 'empty_request_body' ? undefined : body);

/** The versions document the DNS service answers at `/`. @internal */
export function dnsVersions(base: string): object {
  const links = [
    { href: `${base}/v2`, rel: 'self' },
    { href: 'https://docs.openstack.org/api-ref/dns', rel: 'help' },
  ];
  return {
    versions: [
      { id: 'v2', links, status: 'SUPPORTED', updated: '2022-06-29T00:00:00Z' },
      { id: 'v2.0', links, status: 'CURRENT', updated: '2022-06-29T00:00:00Z' },
    ],
  };
}
