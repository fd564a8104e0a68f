import { readFile, rename, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { memoryStorage } from '../adapters/memory/memory-storage.js';
import { createHttpHandler, type HttpHandler } from '../adapters/http/handler.js';
import { serveDns, type DnsServer } from '../adapters/dns-server/index.js';
import { createDnsService, type DnsService, type DnsServiceOptions } from '../dns/service.js';
import type { ServiceSnapshot } from '../kernel/snapshot.js';
import { createQuotaService, type QuotaService, type QuotaServiceOptions, type QuotaSnapshot } from '../project-quotas/index.js';
import type { Storage } from '../ports/storage.js';
import { checkedSnapshot, json, readJson, testControl, type ControlHooks } from './control.js';
import { Identity, type CatalogService, type IdentityOptions } from './identity.js';
import { toNodeListener } from '../adapters/http/node.js';
import { isTrueString } from '../adapters/http/trusted-headers.js';
import type { RequestContext } from '../kernel/context.js';

/**
 * Options of {@link startServer}; every one has a default.
 *
 * @category Server
 */
export interface ServerOptions {
  /** The TCP port; 0 picks a free one (see {@link ZonewardServer.port}). @defaultValue 9001 */
  readonly port?: number;
  /** The address to bind. Anyone who reaches the server can log in as anyone. @defaultValue '127.0.0.1' */
  readonly host?: string;
  /** A path prefix every route is served under (`/api` serves `/api/v2/zones`). @defaultValue '' */
  readonly basePath?: string;
  /** Options of the DNS service; the server supplies the storage, clock and id source. */
  readonly dns?: Omit<DnsServiceOptions, 'storage' | 'from' | 'clock' | 'ids' | 'baseUrl'>;
  /** Options of the quota service; the server supplies the storage. */
  readonly quotas?: Omit<QuotaServiceOptions, 'storage' | 'from' | 'baseUrl'>;
  /** The users, projects and roles of the identity endpoint. @defaultValue anyone logs in */
  readonly identity?: IdentityOptions;
  /**
   * A JSON file the state is read from at start (when it exists) and written to by
   * {@link ZonewardServer.close}.
   */
  readonly snapshotFile?: string;
  /** A PostgreSQL connection string (`postgres://…`): state lives there instead of in memory. Needs the `pg` package. */
  readonly database?: string;
  /** Where the one line per request goes; `false` for none. @defaultValue standard output */
  readonly log?: ((line: string) => void) | false;
  /**
   * Also answer the zones over DNS (`zoneward/dns-server`, UDP and TCP) on this port of `host`;
   * 0 picks a free one (see {@link ZonewardServer.dnsPort}). @defaultValue no DNS server
   */
  readonly dnsPort?: number;
}

/**
 * A running server (see {@link startServer}).
 *
 * @category Server
 */
export interface ZonewardServer {
  /** `http://host:port` plus the base path: the DNS API's root, `/v2` below it. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** The port the zones are answered on over DNS, when {@link ServerOptions.dnsPort} asked for it. */
  readonly dnsPort: number | undefined;
  /** Stops listening, saves the snapshot file (when one is named) and closes the database. */
  close(): Promise<void>;
}

/**
 * The contents of a snapshot file and of `GET /zoneward/snapshot`.
 *
 * @category Server
 */
export interface ServerSnapshot {
  /** Format version. */
  readonly format: 1;
  /** The DNS service's state ({@link DnsService.snapshot}). */
  readonly dns: ServiceSnapshot;
  /** The quota service's state ({@link QuotaService.snapshot}). */
  readonly quotas: QuotaSnapshot;
}

/** The services, swapped as a whole by a restore. */
interface Services {
  readonly dns: DnsService;
  readonly quotas: QuotaService;
  readonly handle: HttpHandler;
  /** `handle` on node:http, through the handler's own entry (node's parse, no `Request` built). */
  readonly listen: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * Starts both services, a Keystone v3-compatible identity endpoint and the test endpoints on
 * node:http.
 *
 * Routes, under `basePath`: the DNS API at `/v2` (versions at `/`), the quota API at `/v1`, the
 * identity endpoint at `/identity` (`/identity/v3`: password and token logins, project-, domain-
 * and system-scoped tokens, token validation, projects, users, domains, roles and role
 * assignments; its catalog lists `dns` and `key-manager` at this server, region `RegionOne`), and
 * the test endpoints under `/zoneward/`:
 *
 * | request | effect |
 * | --- | --- |
 * | `POST /zoneward/reset` | both services back to empty (204) |
 * | `GET /zoneward/snapshot` | the state as a {@link ServerSnapshot} |
 * | `POST /zoneward/restore` | replaces the state with a posted {@link ServerSnapshot} (204) |
 * | `POST /zoneward/settle` | waits until no asynchronous work is left (204) |
 * | `GET /zoneward/clock`, `POST` `{"time": "…"}` or `{"advance_ms": n}`, `DELETE` | reads, freezes, moves or unfreezes the services' clock |
 * | `POST /zoneward/ids` `{"mode": "sequential", "prefix"?: "…"}` or `{"mode": "random"}` | the id source of new resources (a sequence starts at 1: a create given an id already held answers 500 `duplicate_id`, so switch after a reset or to a new prefix) |
 *
 * The DNS and quota APIs know callers by the `X-Auth-Token` the identity endpoint issued: its
 * project and roles (implied roles included), plus Designate's `X-Auth-All-Projects`,
 * `X-Auth-Sudo-Project-ID` and `X-Designate-Edit-Managed-Records` headers.
 *
 * @throws when the port cannot be bound, the snapshot file cannot be read or holds rows that are not
 *   the services' (a TypeError naming the file), or the database is unreachable
 * @example
 * ```ts
 * const server = await startServer({ port: 0, log: false });
 * // OS_AUTH_URL=${server.url}/identity/v3 openstack zone list
 * await server.close();
 * ```
 * @category Server
 */
export async function startServer(options: ServerOptions = {}): Promise<ZonewardServer> {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/')) throw new TypeError('startServer: basePath must start with /');
  const log = options.log === false ? undefined : (options.log ?? ((line: string) => process.stdout.write(`${line}\n`)));

  const control = testControl();
  const { clock, ids } = control;

  const database = options.database === undefined ? undefined : await openDatabase(options.database);
  const storage = (): Storage => database ?? memoryStorage();
  const snapshotFile = options.snapshotFile;
  // Tokens age in real time: moving the services' clock (a test of expiry) must not log everyone out.
  const identity = new Identity(options.identity ?? {}, () => new Date());

  const authenticate = tokenCaller(identity);
  const build = (from?: ServerSnapshot, over: () => Storage = storage): Services => {
    const dns = createDnsService({ ...options.dns, storage: over(), clock, ids, ...(from ? { from: from.dns } : {}) });
    const quotas = createQuotaService({ ...options.quotas, storage: over(), ...(from ? { from: from.quotas } : {}) });
    const handle = createHttpHandler({ dns, quotas, authenticate, basePath });
    return { dns, quotas, handle, listen: toNodeListener(handle) };
  };
  let services = await startingServices(build, snapshotFile, database !== undefined).catch(async (cause: unknown) => {
    await database?.close();
    throw cause;
  });
  let dnsServer: DnsServer | undefined;

  const takeSnapshot = async (): Promise<ServerSnapshot> => ({ format: 1, dns: await services.dns.snapshot(), quotas: await services.quotas.snapshot() });

  const hooks: ControlHooks = {
    reset: async () => {
      await Promise.all([services.dns.reset(), services.quotas.reset()]);
      await dnsServer?.reload();
    },
    snapshot: takeSnapshot,
    restore: async (snapshot) => {
      services = await restoring(build, snapshot, database !== undefined);
      if (dnsServer !== undefined) {
        // The DNS server follows the new service, on the same port.
        const port = dnsServer.port;
        await dnsServer.close();
        dnsServer = await serveDns({ dns: services.dns, host: options.host ?? '127.0.0.1', port });
      }
    },
    settle: () => services.dns.tasks.settle(),
  };

  const route = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname;
    const under = (prefix: string): string | undefined => {
      const full = `${basePath}${prefix}`;
      return path === full || path.startsWith(`${full}/`) ? path.slice(full.length) : undefined;
    };
    const idPath = under('/identity');
    if (idPath !== undefined) {
      const body = request.method === 'POST' ? await readJson(request) : undefined;
      if (body instanceof Response) return body;
      const root = `${url.origin}${basePath}`;
      const catalog: CatalogService[] = [
        { type: 'dns', name: 'designate', url: root },
        { type: 'key-manager', name: 'barbican', url: root },
      ];
      return identity.handle(request, idPath, `${root}/identity`, catalog, body);
    }
    const testPath = under('/zoneward');
    if (testPath !== undefined) return control.handle(request, testPath, basePath, hooks);
    return services.handle(request);
  };

  const handle = async (request: Request): Promise<Response> => {
    try {
      return await route(request);
    } catch {
      return json(500, { error: 'internal error' });
    }
  };
  const own = toNodeListener(handle);
  // Only a target that plainly names an API path skips `route`: one with dot segments, a percent
  // sign or a backslash may resolve under /identity or /zoneward once the URL is normalised.
  const api = `${basePath}/v`;
  const plainApi = (target: string): boolean => target.startsWith(api) && !/[%\\]|\/\./.test(target);
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (log !== undefined) logWhenDone(req, res, log);
    (plainApi(req.url ?? '/') ? services.listen : own)(req, res);
  };

  const server = createServer(listener);
  try {
    await listen(server, options.port ?? 9001, options.host ?? '127.0.0.1');
    if (options.dnsPort !== undefined) dnsServer = await serveDns({ dns: services.dns, host: options.host ?? '127.0.0.1', port: options.dnsPort });
  } catch (cause) {
    server.close();
    await database?.close();
    throw cause;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}${basePath}`,
    port: address.port,
    dnsPort: dnsServer?.port,
    close: () =>
      (closing ??= (async () => {
        await dnsServer?.close();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        if (snapshotFile !== undefined) await writeSnapshot(snapshotFile, await takeSnapshot());
        server.closeAllConnections();
        await stopped;
        await database?.close();
      })()),
  };
}

/**
 * The services once their restore is done. A command waits for it: when it failed, its error is
 * thrown (a TypeError when rows are not a service's, found before anything was cleared).
 */
async function restoredServices(next: Services): Promise<Services> {
  const admin = { projectId: 'zoneward', roles: ['admin', 'key-manager:service-admin'], allProjects: true };
  for (const r of await Promise.all([next.dns.zones.list(admin, { limit: 1 }), next.quotas.projectQuotas.list(admin, { limit: 1 })])) {
    if (r.isErr()) throw r.error.cause instanceof TypeError ? r.error.cause : r.error;
  }
  return next;
}

/** The services at start: from the snapshot file when there is one (a TypeError names the file). */
async function startingServices(build: Build, file: string | undefined, shared: boolean): Promise<Services> {
  const saved = file === undefined ? undefined : await readSnapshot(file);
  if (saved === undefined) return build();
  return restoring(build, saved, shared).catch((cause: unknown) => {
    throw cause instanceof TypeError ? new TypeError(`${file}: ${cause.message}`, { cause }) : cause;
  });
}

/** Builds both services, over fresh memory storages when asked, else over the server's storage. */
type Build = (from?: ServerSnapshot, over?: () => Storage) => Services;

/**
 * The services restored from `snapshot`. Services over one database share it: a snapshot is
 * restored in memory first, so that one refused (either service's part) leaves the database as it was.
 */
async function restoring(build: Build, snapshot: ServerSnapshot, shared: boolean): Promise<Services> {
  if (shared) await restoredServices(build(snapshot, memoryStorage));
  return restoredServices(build(snapshot));
}

async function openDatabase(connectionString: string): Promise<Storage & { close(): Promise<void> }> {
  // pg reads any other string as a path on a host named `base`, and says only that it is not found.
  if (!/^(?:postgres(?:ql)?:\/\/|socket:|\/)/.test(connectionString)) {
    throw new TypeError(`startServer: database must be a PostgreSQL connection string (postgres://user@host:5432/db), not ${JSON.stringify(connectionString)}`);
  }
  // Loaded only here, so that `pg` is needed only by those who ask for a database.
  const { postgresStorage } = await import('../adapters/postgres/postgres-storage.js');
  const storage = postgresStorage({ connectionString });
  try {
    await storage.migrate();
  } catch (cause) {
    await storage.close();
    throw cause;
  }
  return storage;
}

async function readSnapshot(file: string): Promise<ServerSnapshot | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw cause;
  }
  return checkedSnapshot(JSON.parse(text), file);
}

/** Written beside the file and renamed over it, so a crash never leaves half a snapshot. */
async function writeSnapshot(file: string, snapshot: ServerSnapshot): Promise<void> {
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, JSON.stringify(snapshot));
  await rename(partial, file);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The caller of a DNS or quota request: the project and roles (implied roles included) of the
 * `X-Auth-Token` `identity` issued, plus Designate's `X-Auth-All-Projects`,
 * `X-Auth-Sudo-Project-ID` and `X-Designate-Edit-Managed-Records` headers; no project without a
 * valid token.
 * @internal
 */
export function tokenCaller(identity: Identity): (request: Request) => RequestContext {
  return (request) => {
    const token = identity.validate(request.headers.get('x-auth-token'));
    if (token?.projectId === undefined) return {};
    const headers = request.headers;
    const all = headers.get('x-auth-all-projects');
    const sudo = headers.get('x-auth-sudo-project-id') || headers.get('x-auth-sudo-tenant-id');
    const managed = headers.get('x-designate-edit-managed-records');
    return {
      projectId: token.projectId,
      roles: token.roles,
      ...(all ? { allProjects: isTrueString(all) } : {}),
      ...(sudo ? { sudoProjectId: sudo } : {}),
      ...(managed ? { editManagedRecords: isTrueString(managed) } : {}),
    };
  };
}

/** One log line a request once its answer is written, or once the client went away before it was. */
function logWhenDone(req: IncomingMessage, res: ServerResponse, log: (line: string) => void): void {
  const started = performance.now();
  let logged = false;
  const done = (): void => {
    if (logged) return;
    logged = true;
    log(`${new Date().toISOString()} ${req.method} ${pathOf(req.url ?? '/')} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`);
  };
  res.once('finish', done);
  res.once('close', done);
}

/** A target's path and query as the URL reads them; a target no URL can read (`http://[`), as sent. */
function pathOf(target: string): string {
  try {
    const url = new URL(target, 'http://localhost');
    return `${url.pathname}${url.search}`;
  } catch {
    return JSON.stringify(target);
  }
}
