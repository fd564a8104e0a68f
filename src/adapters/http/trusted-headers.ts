import type { RequestContext } from '../../kernel/context.js';
import { LazyHeaders } from './light.js';

/** Which service's no-auth middleware a request is read as. @internal */
export type Dialect = 'dns' | 'quota';

/**
 * The service the handler routed each request to, so that {@link trustedHeaders} reads the
 * headers as that service's middleware does even under a mount prefix it cannot see.
 * @internal
 */
export const routedTo = new WeakMap<Request, Dialect>();

/** A server's own parsed headers by lowercase name, duplicates joined as WHATWG's `get` joins them (node's `IncomingMessage.headers`). @internal */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * {@link trustedHeaders}' reading for a handler that knows the dialect it routed to: the caller
 * without the {@link routedTo} entry, from a server's parsed headers when it hands them over.
 * @internal
 */
export const callerIn = Symbol('zoneward.callerIn');

/** What {@link trustedHeaders} answers: the `authenticate` function, and its reading for the handler. @internal */
export interface TrustedReader {
  [callerIn]?: (request: Request, headers: HeaderRecord | undefined, dialect: Dialect) => RequestContext;
}

const TRUE_STRINGS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);

/** `bool_from_string` of the real services' common library: case-insensitive, surrounding space ignored. @internal */
export const isTrueString = (value: string): boolean => TRUE_STRINGS.has(value.trim().toLowerCase());

/** A request that did not come through the handler: `/v1/...` is the quota service's. */
function guessDialect(request: Request): Dialect {
  try {
    const path = new URL(request.url).pathname;
    return /(^|\/)v1(\/|$)/.test(path) && !/(^|\/)v2(\/|$)/.test(path) ? 'quota' : 'dns';
  } catch {
    return 'dns';
  }
}

/** The headers each service's no-auth middleware reads. */
const DNS_HEADERS = [
  'x-auth-token',
  'x-auth-project-id',
  'x-roles',
  'x-auth-all-projects',
  'x-auth-sudo-project-id',
  'x-auth-sudo-tenant-id',
  'x-designate-edit-managed-records',
] as const;
const QUOTA_HEADERS = ['x-project-id', 'x-roles'] as const;
const WANTED = new Set<string>([...DNS_HEADERS, ...QUOTA_HEADERS]);
type Named = Partial<Record<(typeof DNS_HEADERS)[number] | (typeof QUOTA_HEADERS)[number], string>>;

/** The values of the headers the middleware reads, from a server's parsed record. */
function namedIn(record: HeaderRecord, names: readonly (keyof Named)[]): Named {
  const out: Named = {};
  for (const name of names) {
    const value = record[name];
    if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

/**
 * The values of the headers the middleware reads, as `get` answers them. A WHATWG `Headers` is
 * walked once: its `get` validates and lowercases the name on every call, which for the seven
 * names read costs more than one pass over a request's headers. The node adapter's lazy headers
 * are read by name, since walking them would build the real `Headers`, and so is anything posing
 * as `Headers` that cannot be walked.
 */
function named(headers: Headers, names: readonly (keyof Named)[]): Named {
  const out: Named = {};
  if (headers instanceof LazyHeaders || typeof (headers as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') {
    for (const name of names) {
      const value = headers.get(name);
      if (value !== null) out[name] = value;
    }
    return out;
  }
  for (const [name, value] of headers) if (WANTED.has(name)) out[name as keyof Named] = value;
  return out;
}

const NO_TOKEN: { project?: string; roles?: string } = {};

/** `noauth:<project>:<roles>` in `X-Auth-Token`, for clients that can send nothing but a token. */
function fromToken(token: string | undefined): { project?: string; roles?: string } {
  if (token === undefined || !token.startsWith('noauth:')) return NO_TOKEN;
  const rest = token.slice('noauth:'.length);
  const colon = rest.indexOf(':');
  if (colon === -1) return { project: rest };
  const roles = rest.slice(colon + 1);
  return roles === '' ? { project: rest.slice(0, colon) } : { project: rest.slice(0, colon), roles };
}

/**
 * Reads the caller from request headers exactly as the real services' no-auth middleware does,
 * for test doubles and trusted networks.
 *
 * **Anyone who can send a header can claim any project and any role**, `admin` included: use it
 * only where every client is trusted (a test suite, a loopback port), never on a network others
 * reach. Production servers pass their own `authenticate` (a Keystone token check, say).
 *
 * - DNS (`/v2`), as Designate's `NoAuthContextMiddleware`: `X-Auth-Project-ID` (default
 *   `noauth-project`), `X-Roles` comma-separated and **`admin` when the header is absent**,
 *   `X-Auth-All-Projects`, `X-Auth-Sudo-Project-ID` (or `X-Auth-Sudo-Tenant-ID`),
 *   `X-Designate-Edit-Managed-Records` (admin only, for the SOA/NS recordsets). An
 *   `X-Auth-Token: noauth:<project>:<roles>` stands for the first two, for clients that can send
 *   only a token.
 * - Quotas (`/v1`), as Barbican's `UnauthenticatedContextMiddleware`: `X-Project-Id` (no default),
 *   `X-Roles` comma-separated, trimmed and lowercased, and **`admin` when it names no role**.
 *
 * Role names are compared case-insensitively by both services' policy engines, so they are
 * lowercased for both.
 *
 * @returns an `authenticate` function for {@link createHttpHandler}
 * @example
 * ```ts
 * const handle = createHttpHandler({ dns: createDnsService(), authenticate: trustedHeaders() });
 * await handle(new Request('http://localhost/v2/zones', { headers: { 'X-Auth-Project-ID': 'p1', 'X-Roles': 'member' } }));
 * ```
 * @category HTTP
 */
export function trustedHeaders(): (request: Request) => RequestContext {
  const authenticate = (request: Request): RequestContext => {
    const headers = request.headers;
    return (routedTo.get(request) ?? guessDialect(request)) === 'quota' ? quotaCaller(named(headers, QUOTA_HEADERS)) : dnsCaller(named(headers, DNS_HEADERS));
  };
  const reader: TrustedReader = {
    [callerIn]: (request, record, dialect) => {
      if (dialect === 'quota') return quotaCaller(record === undefined ? named(request.headers, QUOTA_HEADERS) : namedIn(record, QUOTA_HEADERS));
      return dnsCaller(record === undefined ? named(request.headers, DNS_HEADERS) : namedIn(record, DNS_HEADERS));
    },
  };
  return Object.assign(authenticate, reader);
}

function dnsCaller(h: Named): RequestContext {
  const project = h['x-auth-project-id'];
  const roleList = h['x-roles'];
  // The token stands only for the headers that are absent.
  const token = project === undefined || roleList === undefined ? fromToken(h['x-auth-token']) : NO_TOKEN;
  const projectId = project ?? token.project ?? 'noauth-project';
  const roles = (roleList ?? token.roles ?? 'admin').split(',').map((r) => r.toLowerCase());
  const allProjectsHeader = h['x-auth-all-projects'];
  const sudo = h['x-auth-sudo-project-id'] || h['x-auth-sudo-tenant-id'];
  const editManaged = h['x-designate-edit-managed-records'];
  const ctx: { -readonly [K in keyof RequestContext]: RequestContext[K] } = { projectId, roles };
  if (allProjectsHeader) ctx.allProjects = isTrueString(allProjectsHeader);
  if (sudo) ctx.sudoProjectId = sudo;
  if (editManaged) ctx.editManagedRecords = isTrueString(editManaged);
  return ctx;
}

function quotaCaller(h: Named): RequestContext {
  const project = h['x-project-id'];
  const roles = (h['x-roles'] ?? '')
    .split(',')
    .filter((r) => r !== '')
    .map((r) => r.trim().toLowerCase());
  return { ...(project ? { projectId: project } : {}), roles: roles.length === 0 ? ['admin'] : roles };
}
