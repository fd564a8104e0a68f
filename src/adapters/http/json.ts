import { PythonFloat } from '../../kernel/python-float.js';

/**
 * A JSON reader that accepts what the real services' decoder (Python's `json`) accepts and fails
 * with its words: both services take the literals `NaN`, `Infinity` and `-Infinity` (and then
 * refuse them as values, with their own messages), and Designate answers a malformed body with
 * the decoder's message, position included (`Expecting ',' delimiter: line 1 column 18 (char 17)`).
 * `JSON.parse` does neither, so an answer built on it would differ in type or wording.
 *
 * Iterative, so a deeply nested body costs no stack; nesting beyond {@link MAX_DEPTH} is refused
 * (the real service's decoder overflows its stack there and answers 500).
 * @internal
 */

/** How deep arrays and objects may nest. */
export const MAX_DEPTH = 512;

/** A failed parse: the decoder's message and where it stopped (a UTF-16 index). */
export interface JsonSyntaxError {
  readonly message: string;
  readonly index: number;
}

export type JsonParse = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: JsonSyntaxError };

/**
 * How numbers are read: `'javascript'` as `JSON.parse` reads them; `'python'` as Python's `json`
 * does, so that messages can echo them as the real service does: a number with a fraction or an
 * exponent is a {@link PythonFloat}, an integer beyond 2^53 − 1 a `bigint` (exact, as Python's
 * `int`), and `-0` is `0`.
 */
export type JsonNumbers = 'javascript' | 'python';

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
// Everything up to a quote, a backslash or a control character (which strict mode refuses).
// eslint-disable-next-line no-control-regex -- the control characters are what it stops at
const PLAIN_CHARS = /[^"\\\x00-\x1f]*/y;

class Failure extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

interface Frame {
  readonly container: unknown[] | Record<string, unknown>;
  key: string | undefined;
}

/**
 * Parses `text` as Python's `json.loads` does (strict mode: no control characters inside strings;
 * a repeated key keeps its last value).
 */
export function parseJson(text: string, numbers: JsonNumbers = 'javascript'): JsonParse {
  try {
    return { ok: true, value: new Reader(text, numbers === 'python').document() };
  } catch (e) {
    if (e instanceof Failure) return { ok: false, error: { message: e.message, index: e.index } };
    throw e;
  }
}

/** The decoder's message with its position: `line L column C (char P)`, P counted in code points. */
export function describeJsonError(text: string, error: JsonSyntaxError): string {
  const before = text.slice(0, error.index);
  let astral = 0;
  for (let i = 0; i < before.length; i++) {
    const c = before.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < before.length) {
      const d = before.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) astral++;
    }
  }
  const pos = error.index - astral;
  const lastNewline = before.lastIndexOf('\n');
  const line = before.split('\n').length;
  const column = lastNewline === -1 ? pos + 1 : error.index - lastNewline;
  return `${error.message}: line ${line} column ${column} (char ${pos})`;
}

class Reader {
  #i = 0;
  constructor(
    private readonly s: string,
    private readonly python: boolean,
  ) {}

  document(): unknown {
    this.#skip();
    const value = this.#value();
    this.#skip();
    if (this.#i !== this.s.length) throw new Failure('Extra data', this.#i);
    return value;
  }

  #skip(): void {
    WHITESPACE.lastIndex = this.#i;
    WHITESPACE.test(this.s);
    this.#i = WHITESPACE.lastIndex;
  }

  /** One value; containers are filled by a loop over an explicit stack, not by recursion. */
  #value(): unknown {
    const stack: Frame[] = [];
    let result: unknown;
    let haveValue = false;
    for (;;) {
      if (!haveValue) {
        const opened = this.#open(stack.length);
        if (opened === undefined) {
          result = this.#scalar();
          haveValue = true;
        } else if (opened.closed) {
          result = opened.container;
          haveValue = true;
        } else {
          stack.push({ container: opened.container, key: opened.key });
          continue;
        }
      }
      // A complete value: store it in its parent (a `__proto__` key as an own property, as
      // JSON.parse does), then read the parent's separator.
      const top = stack[stack.length - 1];
      if (top === undefined) return result;
      if (Array.isArray(top.container)) top.container.push(result);
      else if (top.key === '__proto__') Object.defineProperty(top.container, top.key, { value: result, enumerable: true, writable: true, configurable: true });
      else top.container[top.key!] = result;
      haveValue = false;
      this.#skip();
      const c = this.s[this.#i];
      const isArray = Array.isArray(top.container);
      if (c === (isArray ? ']' : '}')) {
        this.#i++;
        stack.pop();
        result = top.container;
        haveValue = true;
      } else if (c === ',') {
        this.#i++;
        this.#skip();
        if (!isArray) top.key = this.#key();
      } else {
        throw new Failure("Expecting ',' delimiter", this.#i);
      }
    }
  }

  /** Opens an array or object at the cursor; undefined when the value is a scalar. */
  #open(depth: number): { container: unknown[] | Record<string, unknown>; key?: string; closed: boolean } | undefined {
    const c = this.s[this.#i];
    if (c !== '[' && c !== '{') return undefined;
    if (depth >= MAX_DEPTH) throw new Failure(`Nesting deeper than ${MAX_DEPTH} levels`, this.#i);
    this.#i++;
    this.#skip();
    if (c === '[') {
      if (this.s[this.#i] === ']') {
        this.#i++;
        return { container: [], closed: true };
      }
      return { container: [], closed: false };
    }
    const object: Record<string, unknown> = {};
    if (this.s[this.#i] === '}') {
      this.#i++;
      return { container: object, closed: true };
    }
    const key = this.#key();
    return { container: object, key, closed: false };
  }

  /** A key and its `:`, leaving the cursor at the value. */
  #key(): string {
    if (this.s[this.#i] !== '"') throw new Failure('Expecting property name enclosed in double quotes', this.#i);
    const key = this.#string();
    this.#skip();
    if (this.s[this.#i] !== ':') throw new Failure("Expecting ':' delimiter", this.#i);
    this.#i++;
    this.#skip();
    return key;
  }

  #scalar(): unknown {
    const s = this.s;
    const i = this.#i;
    const c = s[i];
    if (c === '"') return this.#string();
    if (c === 'n' && s.startsWith('null', i)) return this.#literal(4, null);
    if (c === 't' && s.startsWith('true', i)) return this.#literal(4, true);
    if (c === 'f' && s.startsWith('false', i)) return this.#literal(5, false);
    if (c === 'N' && s.startsWith('NaN', i)) return this.#literal(3, Number.NaN);
    if (c === 'I' && s.startsWith('Infinity', i)) return this.#literal(8, Infinity);
    if (c === '-' && s.startsWith('-Infinity', i)) return this.#literal(9, -Infinity);
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(s);
    if (m === null) throw new Failure('Expecting value', i);
    this.#i = NUMBER.lastIndex;
    const n = Number(m[0]);
    if (!this.python) return n;
    if (m[1] !== undefined || m[2] !== undefined) return new PythonFloat(n);
    return Number.isSafeInteger(n) ? n + 0 : BigInt(m[0]);
  }

  #literal(length: number, value: unknown): unknown {
    this.#i += length;
    return value;
  }

  /** A string whose opening quote is at the cursor. */
  #string(): string {
    const s = this.s;
    const start = this.#i;
    let i = start + 1;
    let out = '';
    for (;;) {
      PLAIN_CHARS.lastIndex = i;
      PLAIN_CHARS.test(s);
      out += s.slice(i, PLAIN_CHARS.lastIndex);
      i = PLAIN_CHARS.lastIndex;
      if (i >= s.length) throw new Failure('Unterminated string starting at', start);
      const c = s[i]!;
      if (c === '"') {
        this.#i = i + 1;
        return out;
      }
      if (c !== '\\') throw new Failure('Invalid control character at', i);
      const e = s[i + 1];
      if (e === undefined) throw new Failure('Unterminated string starting at', start);
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
        continue;
      }
      if (e !== 'u') throw new Failure('Invalid \\escape', i);
      const code = hex4(s, i + 2);
      if (code === undefined) throw new Failure('Invalid \\uXXXX escape', i + 1);
      i += 6;
      // A high surrogate followed by an escaped low one is one character, as in Python.
      if (code >= 0xd800 && code <= 0xdbff && s[i] === '\\' && s[i + 1] === 'u') {
        const low = hex4(s, i + 2);
        if (low === undefined) throw new Failure('Invalid \\uXXXX escape', i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          out += String.fromCharCode(code, low);
          i += 6;
          continue;
        }
      }
      out += String.fromCharCode(code);
    }
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function hex4(s: string, at: number): number | undefined {
  const digits = s.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(digits) ? Number.parseInt(digits, 16) : undefined;
}
