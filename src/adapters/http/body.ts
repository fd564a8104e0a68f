import { ApiError } from '../../kernel/api-error.js';
import { UnreadBody } from '../../kernel/command.js';
import { emptyRequestBody } from '../../kernel/validation.js';
import { bodyUnreadable, dnsNotJson, invalidJson, quotaMalformedJson, quotaNotJson, quotaNotUtf8, requestTooLarge } from './http-errors.js';
import { describeJsonError, parseJson } from './json.js';
import { readSocket, type SocketRead } from './node.js';
import { JSON_TYPE } from './responses.js';
import type { Dialect } from './trusted-headers.js';

/**
 * Request bodies as each service reads them. A body that cannot be read becomes an
 * {@link UnreadBody} handed to the command, which answers its error at the point the real
 * service reads the body.
 * @module
 */

/** What Designate's request class takes for JSON (exact media type, parameters allowed). */
const DNS_JSON_TYPES = new Set([JSON_TYPE, 'application/json-patch+json']);
/** Barbican reads at most this much of a body, whatever it is sent. */
const QUOTA_BODY_LIMIT = 25_000;

/** The media type as the real services read it: before any `;`, trimmed, case kept. */
const mediaType = (header: string | null): string => (header ?? '').split(';', 1)[0]!.trim();

/**
 * Reads at most `limit` bytes of the body. `truncate`: keep the first `limit` bytes (the quota
 * service's reader); otherwise a longer body is an error (413), read no further. A body that was
 * already read, is locked, or whose stream fails (a client gone mid-request) is a 400, never a
 * rejection.
 * @internal
 */
export async function readBytes(request: Request, dialect: Dialect, limit: number, truncate: boolean): Promise<Uint8Array | ApiError> {
  const direct = (request as { [readSocket]?: NodeRequestRead })[readSocket];
  if (direct !== undefined) {
    const read = await direct.call(request, limit, truncate);
    if ('bytes' in read) return read.bytes;
    return 'tooLarge' in read ? requestTooLarge(limit, dialect) : bodyUnreadable(dialect, read.failed);
  }
  try {
    if (request.bodyUsed || request.body?.locked === true) return bodyUnreadable(dialect);
    const body = request.body;
    if (body === null) return new Uint8Array(0);
    if (!truncate && Number(request.headers.get('content-length')) > limit) return requestTooLarge(limit, dialect);
    return await readStream(body, dialect, limit, truncate);
  } catch (cause) {
    return bodyUnreadable(dialect, cause);
  }
}

type NodeRequestRead = (limit: number, truncate: boolean) => Promise<SocketRead>;

/** A web stream read up to `limit` bytes, then cancelled. */
async function readStream(body: ReadableStream<Uint8Array>, dialect: Dialect, limit: number, truncate: boolean): Promise<Uint8Array | ApiError> {
  const reader = body.getReader();
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
        return requestTooLarge(limit, dialect);
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (chunks.length === 1 && length <= limit) return chunks[0]!;
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

/** The body's bytes, up to the handler's limit, or why they could not be read. @internal */
export async function dnsBytes(request: Request, maxBodyBytes: number): Promise<Uint8Array | UnreadBody> {
  const bytes = await readBytes(request, 'dns', maxBodyBytes, false);
  return bytes instanceof ApiError ? new UnreadBody(bytes) : bytes;
}

/** A JSON body as Designate reads one: exact media type, empty or `null` = empty, the decoder's words. @internal */
export async function dnsJsonBody(request: Request, maxBodyBytes: number): Promise<unknown> {
  if (!DNS_JSON_TYPES.has(mediaType(request.headers.get('content-type')))) return new UnreadBody(dnsNotJson());
  const bytes = await dnsBytes(request, maxBodyBytes);
  if (bytes instanceof UnreadBody) return bytes;
  if (bytes.length === 0) return new UnreadBody(emptyRequestBody());
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return new UnreadBody(invalidJson(notUtf8Message(bytes)));
  }
  const parsed = parseJson(text);
  if (!parsed.ok) return new UnreadBody(invalidJson(describeJsonError(text, parsed.error)));
  if (parsed.value === null) return new UnreadBody(emptyRequestBody());
  return parsed.value;
}

/** The quota body's first 25,000 bytes, read once however many steps ask for them. */
const quotaReads = new WeakMap<Request, Promise<Uint8Array | ApiError>>();
function quotaBytes(request: Request): Promise<Uint8Array | ApiError> {
  let read = quotaReads.get(request);
  if (read === undefined) quotaReads.set(request, (read = readBytes(request, 'quota', QUOTA_BODY_LIMIT, true)));
  return read;
}

const CHARSET = /;\s*charset=([^;]*)/i;

/** Whether the body is declared UTF-8 as WebOb reads `charset`: none given counts as UTF-8. */
function declaresUtf8(contentType: string): boolean {
  const charset = (CHARSET.exec(contentType)?.[1] ?? '').replace(/^"+|"+$/g, '').trim();
  return charset === '' || charset.toLowerCase().replace(/-/g, '') === 'utf8';
}

/**
 * The check the real service's web framework makes of every request it routes, before the
 * policy and before a 405: a body that is not a `GET`'s, declared JSON (the exact media type, as
 * WebOb compares it: `application/json` or `application/javascript`) and UTF-8 must decode, or
 * the answer is a bare 400. Only the 25,000 bytes the service reads are looked at, and a
 * character the limit cuts in two is not held against the body here.
 * @internal
 */
export async function quotaBodyScreen(request: Request): Promise<ApiError | undefined> {
  if (request.method.toUpperCase() === 'GET') return undefined;
  const contentType = request.headers.get('content-type') ?? '';
  const type = contentType.split(';', 1)[0];
  if ((type !== JSON_TYPE && type !== 'application/javascript') || !declaresUtf8(contentType)) return undefined;
  const bytes = await quotaBytes(request);
  // A body that cannot be read at all is the command's to answer, where the real service reads it.
  if (bytes instanceof ApiError) return undefined;
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream: bytes.length === QUOTA_BODY_LIMIT });
    return undefined;
  } catch {
    return quotaNotUtf8();
  }
}

/**
 * The body of a PUT as Barbican reads it: exact media type, first 25,000 bytes, its own words,
 * numbers as Python reads them (so messages echo `1.0` as sent).
 * @internal
 */
export async function quotaJsonBody(request: Request): Promise<unknown> {
  if (mediaType(request.headers.get('content-type')) !== JSON_TYPE) return new UnreadBody(quotaNotJson());
  const bytes = await quotaBytes(request);
  if (bytes instanceof ApiError) return new UnreadBody(bytes);
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    // What the screen let through (another declared charset, a character cut at the limit):
    // the service's JSON reader fails on it as on any other malformed body.
    return new UnreadBody(quotaMalformedJson());
  }
  const parsed = parseJson(text, 'python');
  if (!parsed.ok) return new UnreadBody(quotaMalformedJson());
  return stripStrings(parsed.value);
}

/** What Python's `str.strip()` removes: its whitespace, which is not quite JavaScript's. */
const PY_SPACE = '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');

/**
 * Barbican strips every string value inside a body (not the keys, not a body that is itself a
 * string) before it validates it, so `{"secrets": " 5 "}` is reported as `'5'` but `" 5 "` as
 * `' 5 '`. Iterative: the body may nest as deep as the reader allows.
 */
function stripStrings(value: unknown): unknown {
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
