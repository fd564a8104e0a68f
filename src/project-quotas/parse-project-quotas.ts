import { err, ok, type Result } from 'neverthrow';
import type { ApiError } from '../kernel/api-error.js';
import { PythonFloat, pythonFloatRepr } from '../kernel/python-float.js';
import { invalidProjectQuotas, noDataSupplied } from './quota-errors.js';
import { QUOTA_KINDS, isQuotaKind, type QuotaKind } from './quota-values.js';

/** The kinds a valid `set` body names, with their values. @internal */
export type ProjectQuotasPatch = Partial<Record<QuotaKind, number>>;

const MAX_REPR = 200;

function reprString(s: string): string {
  // Python picks double quotes only when the text has a single quote and no double quote.
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i] ?? '';
    if (ch === '\\' || ch === quote) out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || (c >= 0x7f && c <= 0xa0)) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += ch + (s[i + 1] ?? '');
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\\u' + c.toString(16);
    else out += ch;
    if (out.length > MAX_REPR) return out + '...';
  }
  return out + quote;
}

/** A JavaScript number as the Python value a client would have sent for it: an `int` when whole, else a `float`. */
const reprNumber = (n: number): string => (Number.isInteger(n) ? BigInt(n).toString() : pythonFloatRepr(n));

/**
 * A value the way the real service's messages show it (Python's `repr`: `'abc'`, `True`, `None`,
 * `inf`, `[1, 2]`, `{'a': 1}`), cut short for huge inputs so an error never echoes megabytes.
 * @internal
 */
export function pythonRepr(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return reprNumber(value);
  if (value instanceof PythonFloat) return pythonFloatRepr(value.value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return reprString(value.length > MAX_REPR ? value.slice(0, MAX_REPR + 1) : value);
  if (depth > 3) return '...';
  if (Array.isArray(value)) {
    const items = value.slice(0, 10).map((v) => pythonRepr(v, depth + 1));
    return `[${items.join(', ')}${value.length > 10 ? ', ...' : ''}]`;
  }
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    const items = keys.slice(0, 10).map((k) => `${reprString(k)}: ${pythonRepr((value as Record<string, unknown>)[k], depth + 1)}`);
    return `{${items.join(', ')}${keys.length > 10 ? ', ...' : ''}}`;
  }
  return typeof value === 'symbol' ? value.toString() : `<${typeof value}>`;
}

/** Python's sort order for the names jsonschema lists (code points, not UTF-16 units). */
const byCodePoint = (a: string, b: string): number => {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
};

function unexpected(names: readonly string[]): string {
  const listed = [...names].sort(byCodePoint).map(reprString).join(', ');
  return `Additional properties are not allowed (${listed} ${names.length === 1 ? 'was' : 'were'} unexpected)`;
}

/** Only plain JSON-like objects count: a Map or a class instance is not what a client sent. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Validates a `set` body as the real service's schema does, reporting the error its validator
 * ranks first (reference §4.4): not an object, missing wrapper, unknown top-level key, wrapper not
 * an object, unknown kind, then the first non-integer value in kind order.
 *
 * Deliberate divergence: integers beyond ±(2^53 − 1) are refused (400), since JavaScript cannot
 * hold them exactly; the real service stores up to 2^63 − 1 and fails with 500 above.
 * @internal
 */
export function parseProjectQuotas(body: unknown): Result<ProjectQuotasPatch, ApiError> {
  if (body === undefined) return err(noDataSupplied());
  if (!isPlainObject(body)) return err(invalidProjectQuotas(`${pythonRepr(body)} is not of type 'object'`, 'None'));
  if (!Object.hasOwn(body, 'project_quotas')) {
    return err(invalidProjectQuotas("'project_quotas' is a required property", 'None'));
  }
  const extra = Object.keys(body).filter((k) => k !== 'project_quotas');
  if (extra.length > 0) return err(invalidProjectQuotas(unexpected(extra), 'None'));
  const inner = body['project_quotas'];
  if (!isPlainObject(inner)) {
    return err(invalidProjectQuotas(`${pythonRepr(inner)} is not of type 'object'`, 'project_quotas'));
  }
  const unknown = Object.keys(inner).filter((k) => !isQuotaKind(k));
  if (unknown.length > 0) return err(invalidProjectQuotas(unexpected(unknown), 'project_quotas'));
  const patch: ProjectQuotasPatch = {};
  for (const kind of QUOTA_KINDS) {
    if (!Object.hasOwn(inner, kind)) continue;
    const value = inner[kind];
    // A whole float (`3.0`, `1e3`) is an integer to the real validator; the message still shows what was sent.
    const number = value instanceof PythonFloat ? value.value : value;
    if (typeof number !== 'bigint' && (typeof number !== 'number' || !Number.isInteger(number))) {
      return err(invalidProjectQuotas(`${pythonRepr(value)} is not of type 'integer'`, 'project_quotas'));
    }
    if (typeof number === 'bigint' || !Number.isSafeInteger(number)) {
      return err(
        invalidProjectQuotas(`${pythonRepr(value)} is out of the supported range (-9007199254740991..9007199254740991)`, 'project_quotas'),
      );
    }
    patch[kind] = number === 0 ? 0 : number; // never store or echo a -0 (`-0`, `-0.0`)
  }
  return ok(patch);
}
