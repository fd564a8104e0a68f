/**
 * Objects with a WHATWG prototype that build the real undici object only when something reads
 * what only it has: the light response the handler answers with, and the node adapter's headers.
 * @module
 */

/** The fast path of a light response: status, headers and body as given. @internal */
export const lightParts = Symbol('zoneward.lightParts');

/** A light response's parts. @internal */
export interface LightParts {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
}

/**
 * Defines on `prototype` every member of `base` not already there, each delegating to the real
 * object `real(this)` builds, so the lazy object answers whatever the real one would.
 * @internal
 */
export function delegateRest(prototype: object, base: object, real: (self: never) => object): void {
  for (const name of Object.getOwnPropertyNames(base)) {
    if (name === 'constructor' || Object.prototype.hasOwnProperty.call(prototype, name)) continue;
    const d = Object.getOwnPropertyDescriptor(base, name)!;
    if (typeof d.value === 'function') {
      Object.defineProperty(prototype, name, {
        value(this: never, ...args: unknown[]) {
          const target = real(this) as Record<string, (...a: unknown[]) => unknown>;
          return target[name]!(...args);
        },
        configurable: true,
        writable: true,
      });
    } else if (d.get !== undefined) {
      Object.defineProperty(prototype, name, {
        get(this: never) {
          return (real(this) as Record<string, unknown>)[name];
        },
        configurable: true,
      });
    }
  }
}

/**
 * A `Response` kept as its status, headers and body string; the real one is built only when
 * something reads what only it has (its headers, a body stream, `clone()`). Its body is read
 * straight from the string, as a caller in process (a test, msw) reads it: no stream.
 * @internal
 */
export class LightResponse {
  #real: Response | undefined;
  #used = false;
  readonly #parts: LightParts;
  constructor(parts: LightParts) {
    this.#parts = parts;
  }
  get [lightParts](): LightParts {
    return this.#parts;
  }
  get status(): number {
    return this.#parts.status;
  }
  get ok(): boolean {
    return this.#parts.status >= 200 && this.#parts.status < 300;
  }
  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false);
  }
  async text(): Promise<string> {
    return this.#real === undefined ? this.#take() : this.#real.text();
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#real === undefined ? encoder.encode(this.#take()).buffer : this.#real.arrayBuffer();
  }
  async bytes(): Promise<Uint8Array> {
    return this.#real === undefined ? encoder.encode(this.#take()) : new Uint8Array(await this.#real.arrayBuffer());
  }
  /** The body, once: a second read fails as WHATWG's does (a null body reads as '' every time). */
  #take(): string {
    const body = this.#parts.body;
    if (body === null) return '';
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return body;
  }
  /** The real response, built once; a body already read here is read there too. */
  real(): Response {
    if (this.#real === undefined) {
      this.#real = new Response(this.#parts.body, { status: this.#parts.status, headers: this.#parts.headers });
      if (this.#used) void this.#real.arrayBuffer();
    }
    return this.#real;
  }
}
const encoder = new TextEncoder();
Object.setPrototypeOf(LightResponse.prototype, Response.prototype);
delegateRest(LightResponse.prototype, Response.prototype, (self: LightResponse) => self.real());

/** Headers read by name straight from the raw header list; a real `Headers` for anything else. @internal */
export class LazyHeaders {
  #real: Headers | undefined;
  readonly #raw: readonly string[];
  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }
  /** As WHATWG's `get`: every value of the name, joined with `, `. */
  get(name: string): string | null {
    if (this.#real !== undefined) return this.#real.get(name);
    const lower = name.toLowerCase();
    let out: string | null = null;
    const raw = this.#raw;
    for (let i = 0; i < raw.length; i += 2) {
      const key = raw[i]!;
      if (key.length === lower.length && key.toLowerCase() === lower) out = out === null ? raw[i + 1]! : `${out}, ${raw[i + 1]!}`;
    }
    return out;
  }
  has(name: string): boolean {
    return this.get(name) !== null;
  }
  /** @internal */
  real(): Headers {
    if (this.#real === undefined) {
      const headers = new Headers();
      for (let i = 0; i < this.#raw.length; i += 2) {
        try {
          headers.append(this.#raw[i]!, this.#raw[i + 1]!);
        } catch {
          // A header node:http accepted and WHATWG refuses: left out, as fetch would.
        }
      }
      this.#real = headers;
    }
    return this.#real;
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.real()[Symbol.iterator]();
  }
}
Object.setPrototypeOf(LazyHeaders.prototype, Headers.prototype);
delegateRest(LazyHeaders.prototype, Headers.prototype, (self: LazyHeaders) => self.real());
