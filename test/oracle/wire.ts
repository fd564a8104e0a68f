/**
 * Sends the same raw HTTP requests to a real service (over a socket) and to zoneward's handler
 * (in process, under the real service's origin, so links are comparable) and reduces each answer
 * to what the wire contract fixes: status, media type, error type, whether `Location` is set.
 */
import { createDnsService, createQuotaService, type DnsService, type QuotaService } from '../../src/index.js';
import { createHttpHandler, trustedHeaders, type HttpHandler } from '../../src/adapters/http/index.js';

/** One request; `{name}` in path, headers or body is replaced by what an earlier step saved on each side. */
export interface WireRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Saves `id` (and a transfer request's `key`) of the answer under this name. */
  readonly save?: string;
}

/** An answer, reduced. */
export interface WireAnswer {
  readonly status: number;
  readonly mediaType: string;
  /** DNS: the body's `type`; quotas: `title: description`; null for a success. */
  readonly error: string | null;
  readonly location: boolean;
  readonly body: unknown;
}

const mediaTypeOf = (r: Response): string => (r.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

async function reduce(r: Response): Promise<WireAnswer> {
  const text = await r.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  let error: string | null = null;
  if (r.status >= 400) {
    const b = body as Record<string, unknown> | null;
    error =
      b !== null && typeof b === 'object'
        ? typeof b['type'] === 'string'
          ? b['type']
          : `${String(b['title'])}: ${String(b['description'])}`
        : 'not json';
  }
  return { status: r.status, mediaType: mediaTypeOf(r), error, location: r.headers.has('location'), body };
}

/** One side of a comparison, with its own saved ids. */
export interface Side {
  send(request: WireRequest): Promise<WireAnswer>;
}

const encoder = new TextEncoder();

function substitute(text: string, saved: Map<string, string>): string {
  return text.replace(/\{([a-z0-9_]+)\}/g, (whole, name: string) => saved.get(name) ?? whole);
}

function init(request: WireRequest, saved: Map<string, string>): RequestInit {
  const headers: Record<string, string> = { accept: '*/*' };
  for (const [k, v] of Object.entries(request.headers ?? {})) headers[k] = substitute(v, saved);
  // Bytes, so that fetch adds no content type of its own.
  const body =
    request.body === undefined ? undefined : typeof request.body === 'string' ? encoder.encode(substitute(request.body, saved)) : request.body;
  return { method: request.method, headers, ...(body === undefined ? {} : { body }) };
}

function remember(request: WireRequest, answer: WireAnswer, saved: Map<string, string>): void {
  if (request.save === undefined || answer.status >= 400) return;
  const b = answer.body as Record<string, unknown> | null;
  if (b === null || typeof b !== 'object') return;
  if (typeof b['id'] === 'string') saved.set(request.save, b['id']);
  if (typeof b['key'] === 'string') saved.set(`${request.save}_key`, b['key']);
  // A list: its first item's id (a pool, a service status, a recordset of a zone).
  const items = Object.values(b).find((v): v is Record<string, unknown>[] => Array.isArray(v));
  if (typeof b['id'] !== 'string' && typeof items?.[0]?.['id'] === 'string') saved.set(request.save, items[0]['id']);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The real service at `origin`; waits after a change for its backend (50 ms later) to report. */
export function realSide(origin: string): Side {
  const saved = new Map<string, string>();
  return {
    async send(request) {
      // A redirect is an answer to compare, not to follow.
      const r = await fetch(`${origin}${substitute(request.path, saved)}`, { ...init(request, saved), redirect: 'manual' });
      const answer = await reduce(r);
      remember(request, answer, saved);
      if (request.method !== 'GET' && answer.status < 300) await sleep(150);
      if (request.method === 'POST' && answer.status === 202) await importDone(answer, init({ method: 'GET', path: '', headers: request.headers ?? {} }, saved));
      return answer;
    },
  };
}

/**
 * Waits (up to 20 s) while an import the real service accepted is PENDING: its task runs in the
 * background and takes longer than a zone's push on a loaded machine, where ours has settled.
 */
async function importDone(answer: WireAnswer, get: RequestInit): Promise<void> {
  const b = answer.body as { status?: unknown; links?: { self?: unknown } } | null;
  const self = b?.links?.self;
  if (b?.status !== 'PENDING' || typeof self !== 'string' || !self.includes('/v2/zones/tasks/imports/')) return;
  for (let i = 0; i < 200; i++) {
    const r = await fetch(self, get);
    const now = (await r.json().catch(() => null)) as { status?: unknown } | null;
    if (now?.status !== 'PENDING') return;
    await sleep(100);
  }
}

/** zoneward's handler as the real service is configured: manual tasks settled after each request, 403 refusals. */
export function oursSide(origin: string): Side & { readonly dns: DnsService; readonly quotas: QuotaService; readonly handle: HttpHandler } {
  const dns = createDnsService({ tasks: 'manual', forbiddenStatus: 403 });
  const quotas = createQuotaService({ forbiddenStatus: 403 });
  const handle = createHttpHandler({ dns, quotas, authenticate: trustedHeaders() });
  const saved = new Map<string, string>();
  return {
    dns,
    quotas,
    handle,
    async send(request) {
      const answer = await reduce(await handle(new Request(`${origin}${substitute(request.path, saved)}`, init(request, saved))));
      remember(request, answer, saved);
      await dns.tasks.settle();
      return answer;
    },
  };
}

/** What the comparison looks at. */
export const comparable = (a: WireAnswer) => ({ status: a.status, mediaType: a.mediaType, error: a.error, location: a.location });

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?$/;

const SOA = /^(\S+ \S+) \d+ \d+ (\d+ \d+ \d+)$/;

/**
 * A body with what each side draws for itself masked: ids (also inside links and messages),
 * timestamps, serials (each side's clock), transfer keys and the SOA's refresh (random on both), and the real
 * service's `request_id`. A schema error's items are kept as `path` and `message` (API.md's
 * `FieldError`), path indices as strings: the real service adds its JSON-schema validator's
 * `validator` and `validator_value`. What is left (keys, types, values) must agree.
 */
export function normalised(value: unknown, key?: string): unknown {
  if (key === 'serial' && typeof value === 'number') return '<serial>';
  if (key === 'key' && typeof value === 'string') return '<key>';
  if (typeof value === 'string') return TIME.test(value) ? '<time>' : value.replace(UUID, '<id>').replace(SOA, '$1 <serial> <refresh> $2');
  if (Array.isArray(value)) return value.map((v) => normalised(v));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([k]) => k !== 'request_id');
  if (key === 'errors' && Array.isArray((value as Record<string, unknown>)['errors'])) {
    const items = (value as { errors: { path?: unknown[]; message?: unknown }[] }).errors;
    return { errors: items.map((e) => ({ message: e.message, path: (e.path ?? []).map(String) })) };
  }
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, normalised(v, k)]));
}

/** What the comparison looks at, the normalised body included. */
export const comparableWithBody = (a: WireAnswer) => ({ ...comparable(a), body: normalised(a.body) });

/** One step on which the two sides disagree. */
export interface Difference {
  readonly request: WireRequest;
  readonly ours: ReturnType<typeof comparableWithBody>;
  readonly theirs: ReturnType<typeof comparableWithBody>;
  /** Why the difference is kept (a decision), or undefined. */
  readonly why: string | undefined;
}

/** Why ours may answer a request differently from the real service, or undefined when they must agree. */
export type Decision = (request: WireRequest, ours: WireAnswer, theirs: WireAnswer) => string | undefined;

/**
 * Runs `steps` on the real service at `origin` and on a fresh zoneward handler; answers the
 * differences. With `bodies`, normalised bodies are compared too.
 */
export async function compareOnWire(origin: string, steps: readonly WireRequest[], decision: Decision, options: { bodies?: boolean } = {}): Promise<Difference[]> {
  const real = realSide(origin);
  const ours = oursSide(origin);
  const view = options.bodies === true ? comparableWithBody : (a: WireAnswer) => ({ ...comparable(a), body: undefined });
  const out: Difference[] = [];
  for (const step of steps) {
    const theirs = await real.send(step);
    const mine = await ours.send(step);
    const [a, b] = [view(mine), view(theirs)];
    if (theirs.status === 504) {
      // Whether the real service did the work is unknown: what follows would compare two states.
      out.push({ request: step, ours: a, theirs: b, why: 'the real service timed out (its RPC), an answer of no contract; the sequence stops there' });
      break;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ request: step, ours: a, theirs: b, why: decision(step, mine, theirs) });
  }
  return out;
}

const line = (a: Difference['ours']) =>
  `${a.status} ${a.mediaType} ${a.error ?? '-'}${a.location ? ' +Location' : ''}${a.body === undefined ? '' : ` ${JSON.stringify(a.body)}`}`;

/** The differences no decision explains, one readable line each. */
export const unexplained = (diffs: readonly Difference[]): string[] =>
  diffs
    .filter((d) => d.why === undefined)
    .map((d) => {
      const body = d.request.body === undefined ? '' : ` body=${JSON.stringify(typeof d.request.body === 'string' ? d.request.body.slice(0, 80) : '<bytes>')}`;
      return `${d.request.method} ${d.request.path} ${JSON.stringify(d.request.headers ?? {})}${body}\n    ours:   ${line(d.ours)}\n    theirs: ${line(d.theirs)}`;
    });
