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
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The real service at `origin`; waits after a change for its backend (50 ms later) to report. */
export function realSide(origin: string): Side {
  const saved = new Map<string, string>();
  return {
    async send(request) {
      const r = await fetch(`${origin}${substitute(request.path, saved)}`, init(request, saved));
      const answer = await reduce(r);
      remember(request, answer, saved);
      if (request.method !== 'GET' && answer.status < 300) await sleep(150);
      return answer;
    },
  };
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

/** The structure of a JSON value: keys and value types; a time (`*_at`) is any value, since when things happened differs between the sides. */
function shapeOf(v: unknown): unknown {
  if (v === null) return 'null';
  if (Array.isArray(v)) return [...new Set(v.map((x) => JSON.stringify(shapeOf(x))))].sort();
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, k.endsWith('_at') ? 'time' : shapeOf(o[k])]));
  }
  return typeof v;
}

/** The values a body states that both sides must agree on: a status, an import's message, a list's count and names. */
function factsOf(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
  const b = body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof b['status'] === 'string') out['status'] = b['status'];
  if (b['status'] === 'ERROR') out['message'] = b['message'];
  const meta = b['metadata'] as Record<string, unknown> | undefined;
  if (meta !== undefined && meta !== null) out['total_count'] = meta['total_count'];
  for (const [k, v] of Object.entries(b)) {
    if (!Array.isArray(v)) continue;
    out[k] = v.map((e: Record<string, unknown>) => e?.['name'] ?? e?.['pattern'] ?? '').sort();
  }
  return out;
}

/** {@link comparable}, and the shape of a success's body and the facts it states: for resources whose bodies the comparison checks too. */
export const comparableBody = (a: WireAnswer) => ({ ...comparable(a), shape: a.status < 300 ? shapeOf(a.body) : undefined, facts: factsOf(a.body) });
