import type { IncomingMessage, ServerResponse } from 'node:http';
import { parsedEntry, setBounded, type HttpHandler, type ParsedEntry } from './handler.js';
import { delegateRest, LazyHeaders, lightParts, type LightResponse } from './light.js';

/**
 * zoneward/http on node:http without building what nobody reads: a lazy `Request` over the
 * `IncomingMessage` and a light `Response` written with one `writeHead` + `end`. Each keeps
 * WHATWG's prototype and builds the real undici object only when something asks for what only it
 * has (a body stream, `clone()`, `signal`), so any code handed one works unchanged.
 * @module
 */

/** What the lazy request reads from the socket without a web stream: the bytes, or why not. @internal */
export type SocketRead = { readonly bytes: Uint8Array } | { readonly tooLarge: true } | { readonly failed: unknown };

/** The fast path of a lazy request: reads at most `limit` bytes straight from the socket. @internal */
export const readSocket = Symbol('zoneward.readSocket');

const EMPTY = new Uint8Array(0);

/** A `Request` over an `IncomingMessage`, built only as far as it is read. */
class NodeRequest {
  #real: Request | undefined;
  #headers: LazyHeaders | undefined;
  #used = false;
  readonly #prefix: string;
  readonly #target: string;
  readonly #req: IncomingMessage;
  constructor(req: IncomingMessage, prefix: string, target: string) {
    this.#req = req;
    this.#prefix = prefix;
    this.#target = target;
  }
  get method(): string {
    return this.#req.method ?? 'GET';
  }
  get url(): string {
    return `${this.#prefix}${this.#target}`;
  }
  get headers(): Headers {
    if (this.#real !== undefined) return this.#real.headers;
    return ((this.#headers ??= new LazyHeaders(this.#req.rawHeaders)) as unknown) as Headers;
  }
  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false);
  }
  get body(): ReadableStream<Uint8Array> | null {
    return this.real().body;
  }
  /** The real undici request, for what only it has; the body then streams from the socket. */
  real(): Request {
    if (this.#real === undefined) {
      const hasBody = this.method !== 'GET' && this.method !== 'HEAD' && !this.#used;
      const headers = this.#headers?.real() ?? new LazyHeaders(this.#req.rawHeaders).real();
      this.#real = new Request(this.url, {
        method: this.method,
        headers,
        ...(hasBody ? { body: socketStream(this.#req), duplex: 'half' } : {}),
      });
    }
    return this.#real;
  }
  /**
   * Reads the body straight from the socket, at most `limit` bytes: `truncate` keeps the first
   * `limit` bytes of a longer one, otherwise a longer one stops the reading (the rest is never
   * read; the answer closes the connection).
   */
  [readSocket](limit: number, truncate: boolean): Promise<SocketRead> {
    if (this.#real !== undefined || this.#used) return Promise.resolve({ failed: new TypeError('Body is unusable: Body has already been read') });
    this.#used = true;
    const req = this.#req;
    if (this.method === 'GET' || this.method === 'HEAD' || req.readableEnded) return Promise.resolve({ bytes: EMPTY });
    const declared = Number(req.headers['content-length']);
    if (!truncate && declared > limit) return Promise.resolve({ tooLarge: true });
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const done = (result: SocketRead): void => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onFail);
        req.off('close', onClose);
        resolve(result);
      };
      const onData = (chunk: Buffer): void => {
        chunks.push(chunk);
        length += chunk.length;
        if (length <= limit) return;
        req.pause();
        if (truncate) done({ bytes: concat(chunks, limit) });
        else done({ tooLarge: true });
      };
      const onEnd = (): void => done({ bytes: concat(chunks, length) });
      const onFail = (cause: unknown): void => done({ failed: cause });
      const onClose = (): void => {
        if (!req.complete) done({ failed: new Error('the client closed the connection before the body ended') });
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onFail);
      req.on('close', onClose);
    });
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#whole();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  async bytes(): Promise<Uint8Array> {
    return this.#whole();
  }
  async text(): Promise<string> {
    return new TextDecoder().decode(await this.#whole());
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }
  async #whole(): Promise<Uint8Array> {
    if (this.#real !== undefined) return new Uint8Array(await this.#real.arrayBuffer());
    const read = await this[readSocket](Number.POSITIVE_INFINITY, false);
    if ('bytes' in read) return read.bytes;
    throw 'failed' in read ? read.failed : new RangeError('body too large');
  }
}
Object.setPrototypeOf(NodeRequest.prototype, Request.prototype);
delegateRest(NodeRequest.prototype, Request.prototype, (self: NodeRequest) => self.real());

/** The socket as a web stream, paused whenever the stream's queue is full. */
function socketStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once('end', () => controller.close());
      req.once('error', (cause) => controller.error(cause));
      req.once('close', () => {
        if (!req.complete) controller.error(new Error('the client closed the connection before the body ended'));
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      req.destroy();
    },
  });
}

const concat = (chunks: readonly Buffer[], length: number): Uint8Array => {
  if (chunks.length === 1 && chunks[0]!.length === length) return chunks[0]!;
  return Buffer.concat(chunks, length);
};

/**
 * Mounts a handler on node:http: `createServer(toNodeListener(handle))`. The request is built
 * only as far as the handler reads it (method, URL and headers by name; the body straight from the
 * socket); the handler's own answers are written with one `writeHead` and one `end`, and any other
 * `Response` (a wrapped handler's) is streamed with the socket's backpressure. A body over the
 * handler's limit is answered 413 without being read further, and that connection is then
 * closed; a client that hangs up mid-request ends nothing but its own request. A `Host` that is
 * not `host[:port]` is answered 400 in plain text (RFC 9112), since no `Request` URL can carry
 * it; a target that is not a path (`http://host/…`, `*`) reaches the handler as a path no route
 * has, answered 404 as the real services answer it.
 *
 * @param handle - the handler (from {@link createHttpHandler}, or one that wraps it)
 * @returns a `request` listener for `node:http`'s `createServer`
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createDnsService } from 'zoneward';
 * import { createHttpHandler, toNodeListener, trustedHeaders } from 'zoneward/http';
 *
 * const handle = createHttpHandler({ dns: createDnsService(), authenticate: trustedHeaders() });
 * createServer(toNodeListener(handle)).listen(9001, '127.0.0.1');
 * ```
 * @category HTTP
 */
export function toNodeListener(handle: HttpHandler): (req: IncomingMessage, res: ServerResponse) => void {
  const entry = (handle as HttpHandler & { [parsedEntry]?: ParsedEntry })[parsedEntry];
  const hosts = new Map<string, boolean>();
  if (entry === undefined) {
    return (req, res) => {
      const prefix = prefixOf(req, hosts);
      if (prefix === undefined) return refuseHost(res);
      const request = new NodeRequest(req, prefix, originForm(req.url)) as unknown as Request;
      handle(request).then(
        (response) => answer(req, res, response),
        () => fail(res),
      );
    };
  }
  // The handler's own entry: method, target and headers as node parsed them, no promise of ours.
  return (req, res) => {
    const prefix = prefixOf(req, hosts);
    if (prefix === undefined) return refuseHost(res);
    const target = originForm(req.url);
    const request = new NodeRequest(req, prefix, target) as unknown as Request;
    entry(request, req.method ?? 'GET', prefix, target, req.headers, (response) => answer(req, res, response));
  };
}

/**
 * The target as a path. Any other form node lets through (`http://host/path`, `*`) becomes one
 * segment that no route has, answered 404 as the real services answer it; glued to the `Host`
 * as it stands it would be a URL of some other host and path, or none at all.
 */
const originForm = (target: string | undefined): string =>
  target === undefined ? '/' : target.charCodeAt(0) === 0x2f ? target : `/${encodeURIComponent(target)}`;

/** `host [":" port]` as RFC 3986 spells an authority without user information. */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::[0-9]*)?$/;

/**
 * The scheme and `Host` a request's URL starts with, or `undefined` when the `Host` names no
 * host a URL can hold (`[`, `a b`, `x/y`, a port over 65535): no `Request` can carry it, and a
 * link built from it would point elsewhere.
 */
function prefixOf(req: IncomingMessage, hosts: Map<string, boolean>): string | undefined {
  const host = req.headers.host ?? 'localhost';
  let readable = hosts.get(host);
  if (readable === undefined) {
    readable = AUTHORITY.test(host) && URL.canParse(`http://${host}/`);
    setBounded(hosts, host, readable);
  }
  if (!readable) return undefined;
  return `${(req.socket as { encrypted?: boolean } | null)?.encrypted === true ? 'https' : 'http'}://${host}`;
}

/**
 * What RFC 9112 asks of a server given a `Host` it cannot read, as node answers a missing one: 400,
 * and the connection closed (the request's body, if any, is never read).
 */
function refuseHost(res: ServerResponse): void {
  const body = 'Bad Request: the Host header is not a host[:port]\n';
  res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(body.length), connection: 'close' });
  res.end(body);
}

/** Writes the answer; one node refuses to write (a header it will not send) is a 500, never a throw. */
function answer(req: IncomingMessage, res: ServerResponse, response: Response): void {
  try {
    write(req, res, response);
  } catch {
    fail(res);
  }
}

function fail(res: ServerResponse): void {
  if (res.headersSent) res.destroy();
  else {
    res.writeHead(500, { 'content-length': '0', connection: 'close' });
    res.end();
  }
}

function write(req: IncomingMessage, res: ServerResponse, response: Response): void {
  // A body left unread (refused at its limit, or never wanted): close rather than drain it.
  const unread = !req.complete && req.method !== 'GET' && req.method !== 'HEAD';
  const parts = (response as Partial<LightResponse>)[lightParts];
  if (parts !== undefined) {
    // A flat list: node writes it as it stands, where a record's names are checked one by one
    // (every name and value here is the handler's own: its constants, the request id, links).
    const headers: string[] = [];
    for (const name in parts.headers) headers.push(name, parts.headers[name]!);
    if (parts.body !== null) headers.push('content-length', String(Buffer.byteLength(parts.body)));
    if (unread) headers.push('connection', 'close');
    res.writeHead(parts.status, headers);
    // No 'finish' listener for the usual request, whose body was read to its end.
    if (unread) res.end(parts.body ?? undefined, () => closeUnread(req, unread));
    else res.end(parts.body ?? undefined);
    return;
  }
  const headers: [string, string][] = [];
  for (const pair of response.headers) headers.push(pair);
  if (unread) headers.push(['connection', 'close']);
  res.writeHead(response.status, headers.flat());
  if (response.body === null) {
    res.end(() => closeUnread(req, unread));
    return;
  }
  void pipe(response.body, res).then(
    () => closeUnread(req, unread),
    () => res.destroy(),
  );
}

function closeUnread(req: IncomingMessage, unread: boolean): void {
  if (unread && !req.complete) req.socket?.destroy();
}

/** Streams a body, waiting for `drain` whenever the socket's buffer is full. */
async function pipe(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const gone = new Promise<void>((resolve) => res.once('close', resolve));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await Promise.race([new Promise<void>((resolve) => res.once('drain', resolve)), gone]);
        if (res.destroyed) throw new Error('the client went away');
      }
    }
    await new Promise<void>((resolve) => res.end(resolve));
  } catch (cause) {
    await reader.cancel(cause).catch(() => undefined);
    throw cause;
  }
}
