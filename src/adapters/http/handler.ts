import type { ResultAsync } from 'neverthrow';
import type { DnsService } from '../../dns/service.js';
import type { QuotaService } from '../../project-quotas/index.js';
import { ApiError } from '../../kernel/api-error.js';
import type { RequestContext } from '../../kernel/context.js';
import { isUuidLike } from '../../kernel/uuid.js';
import { describeJsonError, parseJson } from './json.js';
import { isTrueString, routedTo, type Dialect } from './trusted-headers.js';

/**
 * Options of {@link createHttpHandler}.
 *
 * @category HTTP
 */
export interface HttpHandlerOptions {
  /** The DNS service, served under `/v2`, with its versions document at `/`. */
  readonly dns?: DnsService;
  /** The quota service, served under `/v1` (`/v1/quotas`, `/v1/project-quotas`). */
  readonly quotas?: QuotaService;
  /**
   * Who is calling. Required: there is no default that trusts headers. {@link trustedHeaders}
   * reads them as the real services' no-auth middleware does, for test doubles. A throw or a
   * rejection is answered 401 `authentication_required`.
   */
  readonly authenticate: (request: Request) => RequestContext | Promise<RequestContext>;
  /**
   * The path prefix the handler is mounted under (`/dns` serves `/dns/v2/zones`), as the request
   * URL shows it. Links in answers keep it. Requests outside it are answered 404.
   * @defaultValue ''
   */
  readonly basePath?: string;
  /**
   * Largest request body read, in bytes; a longer one is answered 413 without being read to its
   * end. The quota service reads at most 25,000 bytes whatever this says, as the real one does.
   * @defaultValue 32 MiB (twice an import's default limit, so the import itself reports its limit)
   */
  readonly maxBodyBytes?: number;
}

/**
 * A WHATWG `Request → Response` function; it never rejects.
 *
 * @category HTTP
 */
export type HttpHandler = (request: Request) => Promise<Response>;

/** What one request is about, once routed. */
interface Exchange {
  readonly request: Request;
  readonly requestId: string;
  readonly dialect: Dialect;
  /** Origin plus mount prefix: the base of every link in the answer. */
  readonly base: string;
  readonly query: URLSearchParams;
  readonly maxBodyBytes: number;
}

type Action = (x: Exchange, params: readonly string[]) => Promise<Response>;
interface Route {
  readonly pattern: readonly string[];
  readonly methods: Readonly<Record<string, Action>>;
  /** Methods the real service answers 404 rather than 405 here (its router finds no handler). */
  readonly notFound?: readonly string[];
  /** For a route with no methods of its own (404 by default): those the real router answers 405. */
  readonly notAllowed?: readonly string[];
}

const JSON_TYPE = 'application/json';
/** What Designate's request class takes for JSON (exact media type, parameters allowed). */
const DNS_JSON_TYPES = new Set([JSON_TYPE, 'application/json-patch+json']);
const QUOTA_BODY_LIMIT = 25_000;
const DEFAULT_MAX_BODY = 32 * 1024 * 1024;
const VIEW_CACHE_SIZE = 32;

const newRequestId = (): string => `req-${globalThis.crypto.randomUUID()}`;

/** The media type as the real services read it: before any `;`, trimmed, case kept. */
const mediaType = (header: string | null): string => (header ?? '').split(';', 1)[0]!.trim();

/**
 * Reads at most `limit` bytes of the body. `truncate`: keep the first `limit` bytes (the quota
 * service's reader); otherwise a longer body is an error (413), read no further. A body stream
 * that fails (a client gone mid-request) is a 400, never a rejection.
 */
async function readBody(x: Exchange, limit: number, truncate: boolean): Promise<Uint8Array | ApiError> {
  const request = x.request;
  if (request.body === null) return new Uint8Array(0);
  const reader: ReadableStreamDefaultReader<Uint8Array> = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.byteLength;
      if (length > limit) {
        if (truncate) break;
        return new ApiError(413, 'request_too_large', `The request body is larger than ${limit} bytes.`, { dialect: x.dialect });
      }
    }
  } catch (cause) {
    return new ApiError(400, 'bad_request', 'The request body could not be read.', { dialect: x.dialect, cause });
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(Math.min(length, limit));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
    if (at === out.length) break;
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Python's wording for bytes that are not UTF-8, naming the first bad byte. */
function notUtf8Message(bytes: Uint8Array): string {
  let lo = 0;
  let hi = bytes.length;
  // The longest prefix that decodes; the byte after it is the one Python names.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  const at = Math.min(lo, bytes.length - 1);
  const hex = (bytes[at] ?? 0).toString(16).padStart(2, '0');
  return `'utf-8' codec can't decode byte 0x${hex} in position ${at}: invalid start byte`;
}

function jsonResponse(x: Exchange, status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': JSON_TYPE, 'x-openstack-request-id': x.requestId, ...headers },
  });
}

function emptyResponse(x: Exchange, status: number): Response {
  return new Response(null, { status, headers: { 'x-openstack-request-id': x.requestId } });
}

/** `ApiError.toJSON()`, plus `request_id` in the DNS service's body as the real one has it. */
function errorResponse(x: Exchange, error: ApiError, headers: Record<string, string> = {}): Response {
  const body = error.toJSON() as Record<string, unknown>;
  return jsonResponse(x, error.status, x.dialect === 'dns' ? { ...body, request_id: x.requestId } : body, headers);
}

const notFound = (dialect: Dialect): ApiError =>
  dialect === 'dns' ? new ApiError(404, 'not_found', 'resource not found') : new ApiError(404, 'not_found', '', { dialect: 'quota' });

/** The quota service's router describes a GET it cannot route with `""`, any other method with `null`. */
function notFoundResponse(x: Exchange, method: string): Response {
  if (x.dialect === 'quota' && method !== 'GET') return jsonResponse(x, 404, { code: 404, title: 'Not Found', description: null });
  return errorResponse(x, notFound(x.dialect));
}

/** A POST to a per-zone task without its zone id: the real service's bare 404. */
const missingZoneId: Action = (x) => Promise.resolve(errorResponse(x, new ApiError(404, 'not_found', '', { showMessage: false })));

const methodNotAllowed = (dialect: Dialect): ApiError =>
  new ApiError(405, 'method_not_allowed', '', { showMessage: false, dialect });

/** Splits a path below the service prefix into decoded segments, trailing slashes dropped. */
function segments(path: string): string[] {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return [];
  return trimmed
    .slice(1)
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

function match(routes: readonly Route[], parts: readonly string[]): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    if (route.pattern.length !== parts.length) continue;
    const params: string[] = [];
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const p = route.pattern[i]!;
      if (p === '*') params.push(parts[i]!);
      else ok = p === parts[i];
    }
    if (ok) return { route, params };
  }
  return undefined;
}

/**
 * Creates the HTTP front of both services: a function from a WHATWG `Request` to a `Response`,
 * answering as the real services answer on the wire (statuses, `Location`, content types, error
 * bodies, `x-openstack-request-id`, 404/405, query strings, links at the origin the client used).
 * It opens no socket: a server or a request interceptor hands it requests.
 *
 * The handler only parses requests, calls the services' public commands and renders their
 * results; every rule lives in the commands.
 *
 * @param options - the services to serve, how to authenticate callers, a mount prefix
 * @returns the handler; it never rejects, whatever the request
 * @throws TypeError - when `authenticate` is not a function (a programming error)
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createDnsService } from 'zoneward';
 * import { createHttpHandler, trustedHeaders } from 'zoneward/http';
 *
 * const handle = createHttpHandler({ dns: createDnsService(), authenticate: trustedHeaders() });
 * const response = await handle(new Request('http://localhost/v2/zones', { headers: { 'X-Roles': 'member' } }));
 * ```
 * @category HTTP
 */
export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  if (typeof options?.authenticate !== 'function') {
    throw new TypeError('createHttpHandler: `authenticate` is required (trustedHeaders() reads the no-auth headers of the real services)');
  }
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/')) throw new TypeError('createHttpHandler: `basePath` must start with /');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const { dns, quotas, authenticate } = options;
  const dnsViews = viewCache(dns);
  const quotaViews = viewCache(quotas);
  const fallbackDialect: Dialect = dns === undefined && quotas !== undefined ? 'quota' : 'dns';

  // Once per request, however many steps ask: `authenticate` may be a costly token check.
  const callers = new WeakMap<Exchange, Promise<RequestContext | ApiError>>();
  const authenticateOnce = async (x: Exchange): Promise<RequestContext | ApiError> => {
    routedTo.set(x.request, x.dialect);
    try {
      const ctx = await authenticate(x.request);
      if (ctx === null || typeof ctx !== 'object') return authenticationFailed(x.dialect);
      return ctx;
    } catch {
      return authenticationFailed(x.dialect);
    }
  };
  const caller = (x: Exchange): Promise<RequestContext | ApiError> => {
    let known = callers.get(x);
    if (known === undefined) {
      known = authenticateOnce(x);
      callers.set(x, known);
    }
    return known;
  };

  const dnsTable = dns === undefined ? undefined : dnsRouteTable(dns, caller, dnsViews);
  const quotaRoutes = quotas === undefined ? [] : quotaRouteTable(caller, quotaViews);

  const route = async (request: Request, requestId: string): Promise<Response> => {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    let path = url.pathname;
    const inside = basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
    const base = `${url.origin}${basePath}`;
    const exchange = (dialect: Dialect): Exchange => ({ request, requestId, dialect, base, query: url.searchParams, maxBodyBytes });
    if (!inside) return errorResponse(exchange(fallbackDialect), notFound(fallbackDialect));
    path = path.slice(basePath.length);

    let dialect: Dialect = fallbackDialect;
    let routes: readonly Route[] = [];
    let rest = path;
    if (dnsTable !== undefined && (path === '/v2' || path.startsWith('/v2/'))) {
      dialect = 'dns';
      routes = dnsTable.routes;
      rest = path.slice(3);
    } else if (quotas !== undefined && (path === '/v1' || path.startsWith('/v1/'))) {
      dialect = 'quota';
      routes = quotaRoutes;
      rest = path.slice(3);
    } else if (path.replace(/\/+$/, '') === '') {
      const x = exchange(fallbackDialect);
      if (method !== 'GET' && method !== 'HEAD') return errorResponse(x, methodNotAllowed(x.dialect), { allow: 'GET' });
      return fallbackDialect === 'dns' ? jsonResponse(x, 200, dnsVersions(base)) : jsonResponse(x, 300, quotaVersions(base));
    }
    const x = exchange(dialect);
    if (dialect === 'dns') {
      const refused = await dnsTable!.elevationFirst(x);
      if (refused !== undefined) return refused;
    }
    const parts = segments(rest);
    if (dialect === 'quota' && parts.length === 0 && (method === 'GET' || method === 'HEAD')) {
      return jsonResponse(x, 200, { version: quotaVersion(base) });
    }
    const found = match(routes, parts);
    if (found === undefined) return notFoundResponse(x, method);
    const action = found.route.methods[method];
    const noMethods = Object.keys(found.route.methods).length === 0;
    if (action === undefined && (found.route.notFound?.includes(method) || (noMethods && !found.route.notAllowed?.includes(method)))) {
      return notFoundResponse(x, method);
    }
    if (action === undefined) {
      const allow = Object.keys(found.route.methods).sort().join(', ');
      return errorResponse(x, methodNotAllowed(dialect), dialect === 'quota' ? { allow } : {});
    }
    return action(x, found.params);
  };

  return async (request) => {
    const requestId = newRequestId();
    try {
      return await route(request, requestId);
    } catch (cause) {
      // Only a bug of ours or a failing Request getter gets here: answer it, never reject.
      const dialect = routedTo.get(request) ?? fallbackDialect;
      const x: Exchange = { request, requestId, dialect, base: '', query: new URLSearchParams(), maxBodyBytes };
      return errorResponse(x, new ApiError(500, 'unknown', 'The request could not be handled.', { showMessage: false, dialect, cause }));
    }
  };
}

const authenticationFailed = (dialect: Dialect): ApiError =>
  new ApiError(401, 'authentication_required', 'Authentication is required: the request could not be authenticated.', { dialect });

/**
 * Per-origin views of a service (links at the origin each client used). Bounded, because the
 * origin comes from the request: a client sending a new Host each time must not grow memory.
 */
function viewCache<S extends { withBaseUrl(base: string): S }>(service: S | undefined): (base: string) => S {
  const views = new Map<string, S>();
  return (base) => {
    let view = views.get(base);
    if (view === undefined) {
      view = service!.withBaseUrl(base);
      if (views.size >= VIEW_CACHE_SIZE) views.delete(views.keys().next().value!);
      views.set(base, view);
    }
    return view;
  };
}

type Caller = (x: Exchange) => Promise<RequestContext | ApiError>;

/** Renders a command's result: the success status per body, or its error. */
async function answer<T>(
  x: Exchange,
  result: ResultAsync<T, ApiError>,
  render: (value: T) => Response,
): Promise<Response> {
  const r = await result;
  return r.isOk() ? render(r.value) : errorResponse(x, r.error);
}

const selfLink = (body: unknown): string | undefined => {
  const links = (body as { links?: { self?: unknown } } | null)?.links;
  return typeof links?.self === 'string' ? links.self : undefined;
};

function created(x: Exchange, status: number, body: unknown): Response {
  const location = selfLink(body);
  return jsonResponse(x, status, body, location === undefined ? {} : { location });
}

/** 202 while the change waits for its task (`PENDING`), else 200/201 as API.md decides. */
const pendingOr = (done: number) => (body: unknown) => ((body as { status?: unknown }).status === 'PENDING' ? 202 : done);

// ---------------------------------------------------------------------------------------------
// DNS (/v2)

/** The DNS query string as commands take it: repeated keys as arrays, the consumed flags removed. */
function dnsQuery(x: Exchange): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of x.query) {
    if (name === 'all_projects' || name === 'all_tenants' || name === 'edit_managed_records') continue;
    const before = out[name];
    out[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return out;
}

/** `all_projects` / `all_tenants` in the query string override the header, as in the real service. */
function withQueryFlags(x: Exchange, ctx: RequestContext): RequestContext {
  let flag: string | null = null;
  for (const name of ['all_projects', 'all_tenants']) {
    const value = x.query.get(name);
    if (value !== null) flag = value;
  }
  return flag === null ? ctx : { ...ctx, allProjects: isTrueString(flag) };
}

type BodyRead = { readonly body: unknown } | { readonly error: ApiError };

/** A JSON body as Designate reads one: exact media type, empty or `null` = empty, the decoder's words. */
async function dnsJsonBody(x: Exchange): Promise<BodyRead> {
  if (!DNS_JSON_TYPES.has(mediaType(x.request.headers.get('content-type')))) {
    return { error: new ApiError(415, 'unsupported_content_type', 'Content-type must be application/json') };
  }
  const bytes = await readBody(x, x.maxBodyBytes, false);
  if (bytes instanceof ApiError) return { error: bytes };
  if (bytes.length === 0) return { error: new ApiError(400, 'empty_request_body', 'Request Body is empty') };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { error: new ApiError(400, 'invalid_json', notUtf8Message(bytes)) };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) return { error: new ApiError(400, 'invalid_json', describeJsonError(text, parsed.error)) };
  if (parsed.value === null) return { error: new ApiError(400, 'empty_request_body', 'Request Body is empty') };
  return { body: parsed.value };
}


function dnsRouteTable(dns: DnsService, caller: Caller, view: (base: string) => DnsService): { routes: Route[]; elevationFirst: (x: Exchange) => Promise<Response | undefined> } {
  /** Authenticates, applies the query flags and runs `work` on the view for this origin. */
  const withCtx =
    (work: (dns: DnsService, ctx: RequestContext, x: Exchange, params: readonly string[]) => Promise<Response>): Action =>
    async (x, params) => {
      const ctx = await caller(x);
      if (ctx instanceof ApiError) return errorResponse(x, ctx);
      return work(view(x.base), withQueryFlags(x, ctx), x, params);
    };
  /**
   * The real service refuses a non-admin's all-projects or sudo before it routes or reads
   * anything, the header's all-projects even when the query string then turns it off.
   */
  const elevationFirst = async (x: Exchange): Promise<Response | undefined> => {
    const ctx = await caller(x);
    if (ctx instanceof ApiError) return undefined;
    // Each flag is applied (and checked) in turn: the header, then all_projects, then all_tenants.
    const steps = [ctx];
    for (const name of ['all_projects', 'all_tenants']) {
      const value = x.query.get(name);
      if (value !== null) steps.push({ ...ctx, allProjects: isTrueString(value) });
    }
    for (const step of steps) {
      const checked = dns.authorize(step);
      if (checked.isErr() && checked.error.type === 'forbidden') return errorResponse(x, checked.error);
    }
    return undefined;
  };
  /** As `withCtx`, with a JSON body read first (Designate reads it before any policy). */
  const withBody = (
    work: (dns: DnsService, ctx: RequestContext, body: unknown, x: Exchange, params: readonly string[]) => Promise<Response>,
    emptyAllowed = false,
  ): Action =>
    withCtx(async (dns, ctx, x, params) => {
      const read = await dnsJsonBody(x);
      if ('error' in read) {
        if (!(emptyAllowed && read.error.type === 'empty_request_body')) return errorResponse(x, read.error);
        return work(dns, ctx, undefined, x, params);
      }
      return work(dns, ctx, read.body, x, params);
    });
  /**
   * Routes with an id in the path check it before the body, as the real service's decorators do.
   * The error comes from a read of the same id (never from the write itself), so it is worded as
   * every command words it.
   */
  const withIdThenBody = (
    readSameId: (dns: DnsService, ctx: RequestContext, params: readonly string[]) => ResultAsync<unknown, ApiError>,
    work: (dns: DnsService, ctx: RequestContext, body: unknown, x: Exchange, params: readonly string[]) => Promise<Response>,
    emptyAllowed = false,
  ): Action => {
    const withBodyWork = withBody(work, emptyAllowed);
    return async (x, params) => {
      if (params.every(isUuidLike)) return withBodyWork(x, params);
      const ctx = await caller(x);
      if (ctx instanceof ApiError) return errorResponse(x, ctx);
      const read = await readSameId(view(x.base), withQueryFlags(x, ctx), params);
      return read.isErr() ? errorResponse(x, read.error) : withBodyWork(x, params);
    };
  };
  const list = (run: (dns: DnsService, ctx: RequestContext, query: Record<string, string | string[]>, params: readonly string[]) => ResultAsync<unknown, ApiError>) =>
    withCtx((dns, ctx, x, params) => answer(x, run(dns, ctx, dnsQuery(x), params), (body) => jsonResponse(x, 200, body)));
  const show = (run: (dns: DnsService, ctx: RequestContext, params: readonly string[]) => ResultAsync<unknown, ApiError>) =>
    withCtx((dns, ctx, x, params) => answer(x, run(dns, ctx, params), (body) => jsonResponse(x, 200, body)));
  const gone = (run: (dns: DnsService, ctx: RequestContext, params: readonly string[]) => ResultAsync<unknown, ApiError>) =>
    withCtx((dns, ctx, x, params) => answer(x, run(dns, ctx, params), () => emptyResponse(x, 204)));
  // ListQuery's values are strings; repeated keys reach the commands as arrays, which they refuse.
  type Q = Parameters<DnsService['zones']['list']>[1];
  const q = (query: Record<string, string | string[]>): Q => query as Q;

  const routes: Route[] = [
    {
      pattern: ['zones'],
      methods: {
        GET: list((dns, ctx, query) => dns.zones.list(ctx, q(query))),
        POST: withBody((dns, ctx, body, x) => answer(x, dns.zones.create(ctx, body), (z) => created(x, pendingOr(201)(z), z))),
      },
    },
    // `export` and `xfr` under /zones/tasks are the real service's per-zone task controllers,
    // reached without a zone id: any other method is a 405, and a POST, missing its zone id, a 404
    // without a message. openstacksdk 0.101 lists exports at /v2/zones/tasks/export and sees the 405.
    { pattern: ['zones', 'tasks', 'export'], methods: { POST: missingZoneId } },
    { pattern: ['zones', 'tasks', 'xfr'], methods: { POST: missingZoneId } },
    {
      pattern: ['zones', 'tasks', 'transfer_requests'],
      methods: { GET: list((dns, ctx, query) => dns.transferRequests.list(ctx, q(query))) },
      notFound: ['POST'],
    },
    {
      pattern: ['zones', 'tasks', 'transfer_requests', '*'],
      methods: {
        GET: show((dns, ctx, [id]) => dns.transferRequests.get(ctx, id!)),
        PATCH: withIdThenBody(
          (dns, ctx, [id]) => dns.transferRequests.get(ctx, id!),
          (dns, ctx, body, x, [id]) => answer(x, dns.transferRequests.update(ctx, id!, body), (r) => jsonResponse(x, 200, r)),
        ),
        DELETE: gone((dns, ctx, [id]) => dns.transferRequests.delete(ctx, id!)),
      },
    },
    {
      pattern: ['zones', 'tasks', 'transfer_accepts'],
      methods: {
        GET: list((dns, ctx, query) => dns.transferAccepts.list(ctx, q(query))),
        POST: withBody((dns, ctx, body, x) => answer(x, dns.transferAccepts.create(ctx, body), (a) => created(x, 201, a))),
      },
    },
    {
      pattern: ['zones', 'tasks', 'transfer_accepts', '*'],
      methods: { GET: show((dns, ctx, [id]) => dns.transferAccepts.get(ctx, id!)) },
    },
    {
      pattern: ['zones', 'tasks', 'imports'],
      methods: {
        GET: list((dns, ctx, query) => dns.imports.list(ctx, q(query))),
        POST: withCtx(async (dns, ctx, x) => {
          const bytes = await readBody(x, x.maxBodyBytes, false);
          if (bytes instanceof ApiError) return errorResponse(x, bytes);
          const contentType = x.request.headers.get('content-type') ?? '';
          return answer(x, dns.imports.create(ctx, bytes, contentType), (i) => created(x, 202, i));
        }),
      },
    },
    {
      pattern: ['zones', 'tasks', 'imports', '*'],
      methods: {
        GET: show((dns, ctx, [id]) => dns.imports.get(ctx, id!)),
        DELETE: gone((dns, ctx, [id]) => dns.imports.delete(ctx, id!)),
      },
    },
    {
      pattern: ['zones', 'tasks', 'exports'],
      methods: { GET: list((dns, ctx, query) => dns.exports.list(ctx, q(query))) },
    },
    {
      pattern: ['zones', 'tasks', 'exports', '*'],
      methods: {
        GET: show((dns, ctx, [id]) => dns.exports.get(ctx, id!)),
        DELETE: gone((dns, ctx, [id]) => dns.exports.delete(ctx, id!)),
      },
    },
    {
      pattern: ['zones', 'tasks', 'exports', '*', 'export'],
      methods: {
        GET: withCtx((dns, ctx, x, [id]) =>
          answer(x, dns.exports.file(ctx, id!, x.request.headers.get('accept') ?? undefined), (text) =>
            new Response(text, { status: 200, headers: { 'content-type': 'text/dns', 'x-openstack-request-id': x.requestId } }),
          ),
        ),
      },
    },
    // Task names the real router does not know, before the patterns that take `tasks` for an id.
    { pattern: ['zones', 'tasks'], methods: {} },
    { pattern: ['zones', 'tasks', '*'], methods: {} },
    { pattern: ['zones', 'tasks', '*', '*'], methods: {} },
    {
      pattern: ['zones', '*'],
      methods: {
        GET: show((dns, ctx, [id]) => dns.zones.get(ctx, id!)),
        PATCH: withIdThenBody(
          (dns, ctx, [id]) => dns.zones.get(ctx, id!),
          (dns, ctx, body, x, [id]) => answer(x, dns.zones.update(ctx, id!, body), (z) => jsonResponse(x, pendingOr(200)(z), z)),
        ),
        DELETE: withCtx((dns, ctx, x, [id]) => answer(x, dns.zones.delete(ctx, id!), (z) => jsonResponse(x, 202, z))),
      },
    },
    {
      pattern: ['zones', '*', 'nameservers'],
      methods: { GET: show((dns, ctx, [id]) => dns.zones.nameservers(ctx, id!)) },
    },
    {
      pattern: ['zones', '*', 'tasks', 'abandon'],
      methods: {
        POST: gone((d, ctx, [id]) => d.zones.abandon(ctx, id!)),
        // The real router checks the id of a GET here before it finds no GET handler.
        GET: async (x, params) => {
          if (isUuidLike(params[0])) return errorResponse(x, methodNotAllowed('dns'));
          return gone((d, ctx, [id]) => d.zones.abandon(ctx, id!))(x, params);
        },
      },
    },
    {
      pattern: ['zones', '*', 'tasks', 'transfer_requests'],
      methods: {
        POST: withIdThenBody(
          (dns, ctx, [id]) => dns.zones.get(ctx, id!),
          (dns, ctx, body, x, [id]) => answer(x, dns.transferRequests.create(ctx, id!, body), (r) => created(x, 201, r)),
          true,
        ),
      },
      notFound: ['GET'],
    },
    {
      pattern: ['zones', '*', 'tasks', 'export'],
      methods: { POST: withCtx((dns, ctx, x, [id]) => answer(x, dns.exports.create(ctx, id!), (e) => created(x, 202, e))) },
    },
    {
      pattern: ['zones', '*', 'tasks', 'xfr'],
      methods: {
        POST: withCtx((d, ctx, x, [id]) => answer(x, d.zones.xfr(ctx, id!), () => jsonResponse(x, 202, ''))),
      },
    },
    {
      pattern: ['zones', '*', 'recordsets'],
      methods: {
        GET: list((d, ctx, query, [zoneId]) => d.recordsets.list(ctx, zoneId!, q(query))),
        POST: withIdThenBody(
          (d, ctx, [zoneId]) => d.zones.get(ctx, zoneId!),
          (d, ctx, body, x, [zoneId]) => answer(x, d.recordsets.create(ctx, zoneId!, body), (r) => created(x, pendingOr(201)(r), r)),
        ),
      },
    },
    {
      pattern: ['zones', '*', 'recordsets', '*'],
      methods: {
        GET: show((d, ctx, [zoneId, id]) => d.recordsets.get(ctx, zoneId!, id!)),
        PUT: withIdThenBody(
          (d, ctx, [zoneId, id]) => d.recordsets.get(ctx, zoneId!, id!),
          (d, ctx, body, x, [zoneId, id]) => answer(x, d.recordsets.update(ctx, zoneId!, id!, body), (r) => jsonResponse(x, pendingOr(200)(r), r)),
        ),
        DELETE: withCtx((d, ctx, x, [zoneId, id]) => answer(x, d.recordsets.delete(ctx, zoneId!, id!), (r) => jsonResponse(x, 202, r))),
      },
    },
    {
      pattern: ['recordsets'],
      methods: {
        GET: list((d, ctx, query) => d.recordsets.listAll(ctx, q(query))),
      },
    },
    // Below a zone, a name the router does not know: 404, but 405 for the methods it takes as `post`/`put` of the zone.
    { pattern: ['zones', '*', 'tasks'], methods: {} },
    { pattern: ['zones', '*', '*'], methods: {}, notAllowed: ['POST', 'PUT'] },
    {
      pattern: ['quotas'],
      methods: { GET: show((dns, ctx) => dns.quotas.get(ctx, ctx.sudoProjectId ?? ctx.projectId ?? '')) },
    },
    {
      pattern: ['quotas', '*'],
      methods: {
        GET: show((dns, ctx, [project]) => dns.quotas.get(ctx, project!)),
        PATCH: withBody((dns, ctx, body, x, [project]) => answer(x, dns.quotas.set(ctx, project!, body), (l) => jsonResponse(x, 200, l))),
        DELETE: gone((dns, ctx, [project]) => dns.quotas.reset(ctx, project!)),
      },
    },
  ];
  return { routes, elevationFirst };
}

function dnsVersions(base: string): object {
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

// ---------------------------------------------------------------------------------------------
// Quotas (/v1)

function quotaVersion(base: string): object {
  return {
    id: 'v1',
    status: 'stable',
    links: [
      { rel: 'self', href: `${base}/v1/` },
      { rel: 'describedby', type: 'text/html', href: 'https://docs.openstack.org/' },
    ],
    'media-types': [{ base: JSON_TYPE, type: 'application/vnd.openstack.key-manager-v1+json' }],
  };
}

const quotaVersions = (base: string): object => ({ versions: { values: [quotaVersion(base)] } });

/** A repeated parameter reaches the command as an array, which it answers as the real service does. */
function pagingQuery(x: Exchange): { offset?: string | string[]; limit?: string | string[] } {
  const pick = (name: string): string | string[] | undefined => {
    const all = x.query.getAll(name);
    return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
  };
  const offset = pick('offset');
  const limit = pick('limit');
  return { ...(offset === undefined ? {} : { offset }), ...(limit === undefined ? {} : { limit }) };
}

/** The body of a PUT as Barbican reads it: exact media type, first 25,000 bytes, its own words. */
async function quotaJsonBody(x: Exchange): Promise<BodyRead> {
  if (mediaType(x.request.headers.get('content-type')) !== JSON_TYPE) {
    return {
      error: new ApiError(415, 'unsupported_content_type', "Unexpected content type. Expected content types are: ['application/json']", {
        dialect: 'quota',
      }),
    };
  }
  const bytes = await readBody(x, QUOTA_BODY_LIMIT, true);
  if (bytes instanceof ApiError) return { error: bytes };
  if (bytes.length === 0) return { body: undefined };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { error: new ApiError(400, 'bad_request', '', { dialect: 'quota' }) };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) return { error: new ApiError(400, 'malformed_json', 'Malformed JSON', { dialect: 'quota' }) };
  return { body: stripStrings(parsed.value) };
}

/** What Python's `str.strip()` removes: its whitespace, which is not quite JavaScript's. */
const PY_SPACE = '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');

/**
 * Barbican strips every string value of a body (not the keys) before it validates it, so
 * `" 5 "` is reported as `'5'`. Iterative: the body may nest as deep as the reader allows.
 */
function stripStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(PY_STRIP, '');
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const v = record[key];
      if (typeof v === 'string') record[key] = v.replace(PY_STRIP, '');
      else if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
  return value;
}

/** Errors that come from who is calling, which the quota service reports before any body error. */
const CALLER_ERRORS = new Set(['forbidden', 'authentication_required', 'missing_project_id', 'storage_failure']);

function quotaRouteTable(caller: Caller, view: (base: string) => QuotaService): Route[] {
  const withCtx =
    (work: (quotas: QuotaService, ctx: RequestContext, x: Exchange, params: readonly string[]) => Promise<Response>): Action =>
    async (x, params) => {
      const ctx = await caller(x);
      if (ctx instanceof ApiError) return errorResponse(x, ctx);
      return work(view(x.base), ctx, x, params);
    };
  return [
    {
      pattern: ['quotas'],
      methods: { GET: withCtx((quotas, ctx, x) => answer(x, quotas.effective(ctx), (body) => jsonResponse(x, 200, body))) },
    },
    {
      pattern: ['project-quotas'],
      methods: {
        GET: withCtx((quotas, ctx, x) => answer(x, quotas.projectQuotas.list(ctx, pagingQuery(x)), (body) => jsonResponse(x, 200, body))),
      },
    },
    {
      pattern: ['project-quotas', '*'],
      methods: {
        GET: withCtx((quotas, ctx, x, [id]) => answer(x, quotas.projectQuotas.get(ctx, id), (body) => jsonResponse(x, 200, body))),
        PUT: withCtx(async (quotas, ctx, x, [id]) => {
          const read = await quotaJsonBody(x);
          if ('error' in read) {
            // The real service refuses a caller by policy before it looks at the body.
            const gate = await quotas.projectQuotas.get(ctx, id);
            return errorResponse(x, gate.isErr() && CALLER_ERRORS.has(gate.error.type) ? gate.error : read.error);
          }
          return answer(x, quotas.projectQuotas.set(ctx, id, read.body), () => emptyResponse(x, 204));
        }),
        DELETE: withCtx((quotas, ctx, x, [id]) => answer(x, quotas.projectQuotas.delete(ctx, id), () => emptyResponse(x, 204))),
      },
    },
  ];
}
