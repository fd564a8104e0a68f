import { createHash, randomBytes } from 'node:crypto';

/**
 * A project of the identity endpoint, as a configuration file lists it.
 *
 * @category Server
 */
export interface IdentityProject {
  /** The project's name, unique in its domain. */
  readonly name: string;
  /** Its id. @defaultValue derived from the domain and name, so it is the same at every start */
  readonly id?: string;
  /** The id of its domain. @defaultValue 'default' */
  readonly domain?: string;
}

/**
 * Where a user holds roles: on a project (by name), on a domain (by id) or on the system.
 *
 * @category Server
 */
export interface IdentityAssignment {
  /** The project's name (in the user's domain) the roles are held on. */
  readonly project?: string;
  /** The domain id the roles are held on. */
  readonly domain?: string;
  /** `true`: the roles are held on the whole system (`system: { all: true }` tokens). */
  readonly system?: boolean;
  /** Role names; the roles they imply are added (see {@link IdentityOptions.impliedRoles}). */
  readonly roles: readonly string[];
}

/**
 * A user of the identity endpoint, as a configuration file lists it.
 *
 * @category Server
 */
export interface IdentityUser {
  /** The user's name, unique in its domain. */
  readonly name: string;
  /** Its password. @defaultValue any password is accepted */
  readonly password?: string;
  /** Its id. @defaultValue derived from the domain and name */
  readonly id?: string;
  /** The id of its domain. @defaultValue 'default' */
  readonly domain?: string;
  /** The roles it holds, and where. */
  readonly assignments?: readonly IdentityAssignment[];
}

/**
 * Options of the Keystone v3-compatible identity endpoint of {@link startServer}.
 *
 * @category Server
 */
export interface IdentityOptions {
  /**
   * Users who may log in. With none listed, anyone logs in with any password: a project named in
   * a login is created on first use, and the user gets `admin` on it when named `admin`, `member`
   * otherwise.
   */
  readonly users?: readonly IdentityUser[];
  /** Projects that exist from the start (besides those the users' assignments name). */
  readonly projects?: readonly IdentityProject[];
  /** Domains besides `default` (`Default`). */
  readonly domains?: readonly {
    /** The domain's id, as tokens and catalogs name it. */
    readonly id: string;
    /** The domain's name, as clients send it (`OS_USER_DOMAIN_NAME`). */
    readonly name: string;
  }[];
  /**
   * The roles each role implies, as Keystone's implied roles; a token carries the closure.
   * @defaultValue `{ admin: ['member'], member: ['reader'] }`, as a Keystone deployment has
   */
  readonly impliedRoles?: Readonly<Record<string, readonly string[]>>;
  /** How long a token lives, in seconds. @defaultValue 86400 */
  readonly tokenLifetimeSeconds?: number;
  /** Region of every catalog endpoint. @defaultValue 'RegionOne' */
  readonly region?: string;
}

/** What a valid token says about its bearer. */
export interface TokenInfo {
  readonly userId: string;
  /** The project the token is scoped to, when it is project-scoped. */
  readonly projectId?: string;
  /** Role names, implied roles included. */
  readonly roles: readonly string[];
}

interface Domain {
  readonly id: string;
  readonly name: string;
}
interface Project {
  readonly id: string;
  readonly name: string;
  readonly domainId: string;
}
interface User {
  readonly id: string;
  readonly name: string;
  readonly domainId: string;
  readonly password?: string;
}
type Scope = { readonly kind: 'project'; readonly project: Project } | { readonly kind: 'domain'; readonly domain: Domain } | { readonly kind: 'system' } | { readonly kind: 'unscoped' };
interface Grant {
  readonly userId: string;
  readonly target: string;
  readonly role: string;
}
interface Token {
  readonly id: string;
  readonly user: User;
  readonly scope: Scope;
  readonly methods: readonly string[];
  readonly issuedAt: Date;
  readonly expiresAt: Date;
  readonly auditId: string;
}

const DEFAULT_IMPLIED: Readonly<Record<string, readonly string[]>> = { admin: ['member'], member: ['reader'] };
const DEFAULT_DOMAIN: Domain = { id: 'default', name: 'Default' };
const targetOf = (scope: Scope): string =>
  scope.kind === 'project' ? `project:${scope.project.id}` : scope.kind === 'domain' ? `domain:${scope.domain.id}` : scope.kind === 'system' ? 'system' : '';

/** Keystone ids are 32 hex digits; derived ones stay the same across restarts and databases. */
const derivedId = (...parts: string[]): string => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

class IdentityError extends Error {
  constructor(
    readonly code: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
  }
}
const unauthorized = (): IdentityError => new IdentityError(401, 'Unauthorized', 'The request you have made requires authentication.');
const notFound = (what: string, id: string): IdentityError => new IdentityError(404, 'Not Found', `Could not find ${what}: ${id}.`);
const badRequest = (message: string): IdentityError => new IdentityError(400, 'Bad Request', message);

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Keystone's timestamps: microseconds and a `Z`. */
const keystoneTime = (date: Date): string => date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/**
 * An in-memory Keystone v3 subset: enough for OpenStack clients (keystoneauth, tempest, the
 * `openstack` CLI) to log in with a password or a token and find the services in the catalog.
 */
export class Identity {
  private readonly domains = new Map<string, Domain>([[DEFAULT_DOMAIN.id, DEFAULT_DOMAIN]]);
  private readonly projects = new Map<string, Project>();
  private readonly users = new Map<string, User>();
  private readonly grants: Grant[] = [];
  private readonly roleNames = new Set<string>(['admin', 'member', 'reader']);
  private readonly tokens = new Map<string, Token>();
  private readonly open: boolean;
  private readonly implied: Readonly<Record<string, readonly string[]>>;
  private readonly lifetimeMs: number;
  readonly region: string;

  constructor(
    options: IdentityOptions,
    private readonly now: () => Date,
  ) {
    this.implied = options.impliedRoles ?? DEFAULT_IMPLIED;
    for (const [role, implied] of Object.entries(this.implied)) {
      this.roleNames.add(role);
      for (const r of implied) this.roleNames.add(r);
    }
    this.lifetimeMs = (options.tokenLifetimeSeconds ?? 86_400) * 1000;
    this.region = options.region ?? 'RegionOne';
    for (const d of options.domains ?? []) this.domains.set(d.id, { id: d.id, name: d.name });
    for (const p of options.projects ?? []) this.addProject(p.name, p.domain ?? 'default', p.id);
    this.open = options.users === undefined || options.users.length === 0;
    for (const u of options.users ?? []) {
      const domainId = u.domain ?? 'default';
      const user: User = { id: u.id ?? derivedId('user', domainId, u.name), name: u.name, domainId, ...(u.password === undefined ? {} : { password: u.password }) };
      this.users.set(user.id, user);
      for (const a of u.assignments ?? []) {
        const target = a.system ? 'system' : a.domain !== undefined ? `domain:${a.domain}` : a.project !== undefined ? `project:${this.addProject(a.project, domainId).id}` : undefined;
        if (target === undefined) throw new TypeError(`identity: an assignment of user ${u.name} names no project, domain or system`);
        for (const role of a.roles) this.grant(user.id, target, role);
      }
    }
  }

  private addProject(name: string, domainId: string, id?: string): Project {
    const existing = [...this.projects.values()].find((p) => p.name === name && p.domainId === domainId);
    if (existing !== undefined) return existing;
    const project: Project = { id: id ?? derivedId('project', domainId, name), name, domainId };
    this.projects.set(project.id, project);
    return project;
  }

  private grant(userId: string, target: string, role: string): void {
    this.roleNames.add(role);
    if (!this.grants.some((g) => g.userId === userId && g.target === target && g.role === role)) this.grants.push({ userId, target, role });
  }

  /** The roles held on a target, with the roles they imply. */
  private rolesOn(userId: string, target: string): string[] {
    const held = new Set<string>();
    const visit = (role: string): void => {
      if (held.has(role)) return;
      held.add(role);
      for (const r of this.implied[role] ?? []) visit(r);
    };
    for (const g of this.grants) if (g.userId === userId && g.target === target) visit(g.role);
    return [...held];
  }

  /** What a token says, or undefined when it is unknown or expired. */
  validate(tokenId: string | null): TokenInfo | undefined {
    const token = tokenId === null ? undefined : this.tokens.get(tokenId);
    if (token === undefined) return undefined;
    if (token.expiresAt.getTime() <= this.now().getTime()) {
      this.tokens.delete(token.id);
      return undefined;
    }
    const info: TokenInfo = { userId: token.user.id, roles: this.rolesOn(token.user.id, targetOf(token.scope)) };
    return token.scope.kind === 'project' ? { ...info, projectId: token.scope.project.id } : info;
  }

  private domainRef(ref: unknown): Domain {
    if (!isRecord(ref)) return DEFAULT_DOMAIN;
    const id = str(ref['id']);
    const name = str(ref['name']);
    const found = id !== undefined ? this.domains.get(id) : [...this.domains.values()].find((d) => d.name === name);
    if (found === undefined) throw unauthorized();
    return found;
  }

  private login(identity: Record<string, unknown>): { user: User; methods: string[]; from?: Token } {
    const methods = Array.isArray(identity['methods']) ? identity['methods'].filter((m): m is string => typeof m === 'string') : [];
    if (methods.includes('token')) {
      const id = isRecord(identity['token']) ? str(identity['token']['id']) : undefined;
      const from = id === undefined ? undefined : this.tokens.get(id);
      if (from === undefined || this.validate(from.id) === undefined) throw unauthorized();
      return { user: from.user, methods: [...new Set([...from.methods, 'token'])], from };
    }
    if (!methods.includes('password') || !isRecord(identity['password']) || !isRecord(identity['password']['user'])) {
      throw badRequest('Expecting to find identity methods password or token in the request.');
    }
    const u = identity['password']['user'];
    const password = typeof u['password'] === 'string' ? u['password'] : undefined;
    const id = str(u['id']);
    const name = str(u['name']);
    if (password === undefined || (id === undefined && name === undefined)) throw unauthorized();
    let user = id !== undefined ? this.users.get(id) : undefined;
    if (user === undefined && name !== undefined) {
      const domain = this.domainRef(u['domain']);
      user = [...this.users.values()].find((x) => x.name === name && x.domainId === domain.id);
      if (user === undefined && this.open) {
        user = { id: derivedId('user', domain.id, name), name, domainId: domain.id };
        this.users.set(user.id, user);
      }
    }
    if (user === undefined || (user.password !== undefined && user.password !== password)) throw unauthorized();
    return { user, methods: ['password'] };
  }

  private scope(user: User, scope: unknown, from: Token | undefined): Scope {
    if (!isRecord(scope)) return from?.scope ?? { kind: 'unscoped' };
    if (isRecord(scope['system'])) {
      this.mayUse(user, 'system');
      return { kind: 'system' };
    }
    if (isRecord(scope['domain'])) {
      const domain = this.domainRef(scope['domain']);
      this.mayUse(user, `domain:${domain.id}`);
      return { kind: 'domain', domain };
    }
    if (!isRecord(scope['project'])) throw badRequest('Invalid scope.');
    const p = scope['project'];
    const id = str(p['id']);
    let project: Project | undefined;
    if (id !== undefined) project = this.projects.get(id);
    else {
      const name = str(p['name']);
      if (name === undefined) throw unauthorized();
      const domain = this.domainRef(p['domain']);
      project = [...this.projects.values()].find((x) => x.name === name && x.domainId === domain.id);
      if (project === undefined && this.open) project = this.addProject(name, domain.id);
    }
    if (project === undefined) throw unauthorized();
    this.mayUse(user, `project:${project.id}`);
    return { kind: 'project', project };
  }

  /** Refuses a scope the user holds no role on; with no users configured, the first use grants one. */
  private mayUse(user: User, target: string): void {
    if (this.open && this.rolesOn(user.id, target).length === 0) this.grant(user.id, target, user.name === 'admin' ? 'admin' : 'member');
    if (this.rolesOn(user.id, target).length === 0) throw unauthorized();
  }

  private issue(body: unknown): Token {
    const auth = isRecord(body) ? body['auth'] : undefined;
    if (!isRecord(auth) || !isRecord(auth['identity'])) throw badRequest('Expecting to find auth in request body.');
    const { user, methods, from } = this.login(auth['identity']);
    const scope = this.scope(user, auth['scope'], from);
    const issuedAt = this.now();
    const token: Token = {
      id: randomBytes(24).toString('base64url'),
      user,
      scope,
      methods,
      issuedAt,
      expiresAt: from?.expiresAt ?? new Date(issuedAt.getTime() + this.lifetimeMs),
      auditId: randomBytes(16).toString('base64url'),
    };
    this.tokens.set(token.id, token);
    return token;
  }

  private domainBody(d: Domain, base: string) {
    return { id: d.id, name: d.name, description: '', enabled: true, tags: [], options: {}, links: { self: `${base}/v3/domains/${d.id}` } };
  }
  private projectBody(p: Project, base: string) {
    return {
      id: p.id,
      name: p.name,
      domain_id: p.domainId,
      description: '',
      enabled: true,
      parent_id: p.domainId,
      is_domain: false,
      tags: [],
      options: {},
      links: { self: `${base}/v3/projects/${p.id}` },
    };
  }
  private userBody(u: User, base: string) {
    return { id: u.id, name: u.name, domain_id: u.domainId, enabled: true, password_expires_at: null, options: {}, links: { self: `${base}/v3/users/${u.id}` } };
  }
  private roleBody(name: string, base: string) {
    const id = derivedId('role', name);
    return { id, name, domain_id: null, description: null, options: {}, links: { self: `${base}/v3/roles/${id}` } };
  }

  private tokenBody(token: Token, catalog: readonly CatalogService[]): object {
    const domainOf = (id: string) => ({ id, name: this.domains.get(id)?.name ?? id });
    const scope = token.scope;
    const roles = this.rolesOn(token.user.id, targetOf(scope)).map((name) => ({ id: derivedId('role', name), name }));
    return {
      token: {
        methods: token.methods,
        user: { domain: domainOf(token.user.domainId), id: token.user.id, name: token.user.name, password_expires_at: null },
        audit_ids: [token.auditId],
        expires_at: keystoneTime(token.expiresAt),
        issued_at: keystoneTime(token.issuedAt),
        ...(scope.kind === 'project'
          ? { project: { domain: domainOf(scope.project.domainId), id: scope.project.id, name: scope.project.name }, is_domain: false }
          : scope.kind === 'domain'
            ? { domain: { id: scope.domain.id, name: scope.domain.name } }
            : scope.kind === 'system'
              ? { system: { all: true } }
              : {}),
        ...(scope.kind === 'unscoped'
          ? {}
          : {
              roles,
              catalog: catalog.map((s) => ({
                endpoints: ['public', 'internal', 'admin'].map((iface) => ({
                  id: derivedId('endpoint', s.type, iface),
                  interface: iface,
                  region_id: this.region,
                  region: this.region,
                  url: s.url,
                })),
                id: derivedId('service', s.type),
                type: s.type,
                name: s.name,
              })),
            }),
      },
    };
  }

  /**
   * Answers a request under the identity endpoint's root (`base`: `${origin}${prefix}`); `path`
   * is what follows the prefix.
   */
  handle(request: Request, path: string, base: string, catalog: readonly CatalogService[], body: unknown): Response {
    try {
      return this.route(request, path.replace(/\/+$/, ''), base, catalog, body);
    } catch (cause) {
      const e = cause instanceof IdentityError ? cause : new IdentityError(500, 'Internal Server Error', 'An unexpected error prevented the server from fulfilling your request.');
      return json(e.code, { error: { code: e.code, title: e.title, message: e.message } });
    }
  }

  private route(request: Request, path: string, base: string, catalog: readonly CatalogService[], body: unknown): Response {
    const method = request.method;
    const version = (status: string) => ({
      id: 'v3.14',
      status,
      updated: '2020-04-07T00:00:00Z',
      links: [{ rel: 'self', href: `${base}/v3/` }],
      'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.identity-v3+json' }],
    });
    if (path === '' && (method === 'GET' || method === 'HEAD')) return json(300, { versions: { values: [version('stable')] } });
    if (path === '/v3' && (method === 'GET' || method === 'HEAD')) return json(200, { version: version('stable') });
    if (path === '/v3/auth/tokens') {
      if (method === 'POST') {
        const token = this.issue(body);
        return json(201, this.tokenBody(token, catalog), { 'x-subject-token': token.id });
      }
      if (this.validate(request.headers.get('x-auth-token')) === undefined) throw unauthorized();
      const subject = request.headers.get('x-subject-token') ?? '';
      const token = this.validate(subject) === undefined ? undefined : this.tokens.get(subject);
      if (method === 'DELETE') {
        if (token === undefined) throw notFound('token', subject);
        this.tokens.delete(subject);
        return new Response(null, { status: 204 });
      }
      if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed();
      if (token === undefined) throw notFound('token', subject);
      return method === 'HEAD' ? new Response(null, { status: 200, headers: { 'x-subject-token': subject } }) : json(200, this.tokenBody(token, catalog), { 'x-subject-token': subject });
    }
    const caller = this.validate(request.headers.get('x-auth-token'));
    if (caller === undefined) throw unauthorized();
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed();
    const query = new URL(request.url).searchParams;
    const byName = <T extends { name: string }>(items: Iterable<T>): T[] => [...items].filter((x) => !query.has('name') || x.name === query.get('name'));
    const list = (key: string, items: object[]) => json(200, { [key]: items, links: { self: `${base}${path}`, previous: null, next: null } });
    const one = (key: string, what: string, id: string, item: object | undefined) => {
      if (item === undefined) throw notFound(what, id);
      return json(200, { [key]: item });
    };
    const [, v3, collection, id, ...rest] = path.split('/');
    if (v3 !== 'v3' || rest.length > 0) throw notFound('resource', path);
    const roles = [...this.roleNames].map((n) => this.roleBody(n, base));
    switch (collection) {
      case 'projects':
        if (id !== undefined) return one('project', 'project', id, mapOr(this.projects.get(id), (p) => this.projectBody(p, base)));
        return list('projects', byName(this.projects.values()).filter((p) => !query.has('domain_id') || p.domainId === query.get('domain_id')).map((p) => this.projectBody(p, base)));
      case 'users':
        if (id !== undefined) return one('user', 'user', id, mapOr(this.users.get(id), (u) => this.userBody(u, base)));
        return list('users', byName(this.users.values()).map((u) => this.userBody(u, base)));
      case 'domains':
        if (id !== undefined) return one('domain', 'domain', id, mapOr(this.domains.get(id), (d) => this.domainBody(d, base)));
        return list('domains', byName(this.domains.values()).map((d) => this.domainBody(d, base)));
      case 'roles':
        if (id !== undefined) return one('role', 'role', id, roles.find((r) => r.id === id));
        return list('roles', byName(roles));
      case 'role_assignments':
        if (id === undefined) return list('role_assignments', this.assignments(query, base));
    }
    throw notFound('resource', path);
  }

  private assignments(query: URLSearchParams, base: string): object[] {
    const effective = query.has('effective');
    const rows: { userId: string; target: string; role: string }[] = [];
    const targets = new Set(this.grants.map((g) => `${g.userId} ${g.target}`));
    for (const key of targets) {
      const [userId, target] = key.split(' ') as [string, string];
      const roles = effective ? this.rolesOn(userId, target) : this.grants.filter((g) => `${g.userId} ${g.target}` === key).map((g) => g.role);
      for (const role of roles) rows.push({ userId, target, role });
    }
    return rows
      .filter((r) => !query.has('user.id') || r.userId === query.get('user.id'))
      .filter((r) => !query.has('scope.project.id') || r.target === `project:${query.get('scope.project.id')}`)
      .filter((r) => !query.has('scope.domain.id') || r.target === `domain:${query.get('scope.domain.id')}`)
      .filter((r) => !query.has('scope.system') || r.target === 'system')
      .filter((r) => !query.has('role.id') || derivedId('role', r.role) === query.get('role.id'))
      .map((r) => {
        const [kind, targetId] = r.target.split(':') as [string, string | undefined];
        const scope = kind === 'system' ? { system: { all: true } } : { [kind]: { id: targetId } };
        return { role: { id: derivedId('role', r.role) }, user: { id: r.userId }, scope, links: { assignment: `${base}/v3/role_assignments` } };
      });
  }
}

/** One service of the catalog: its type (`dns`, `key-manager`), name and unversioned URL. */
export interface CatalogService {
  readonly type: string;
  readonly name: string;
  readonly url: string;
}

const mapOr = <T, U>(value: T | undefined, f: (v: T) => U): U | undefined => (value === undefined ? undefined : f(value));

function json(status: number, body: object, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', vary: 'X-Auth-Token', ...headers } });
}

function methodNotAllowed(): Response {
  return json(405, { error: { code: 405, title: 'Method Not Allowed', message: 'The method is not allowed for the requested URL.' } });
}
