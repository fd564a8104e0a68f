import { err, ok, type Result } from 'neverthrow';
import { ApiError, type FieldError } from './api-error.js';
import { PY_MAX_STR_DIGITS, pythonIntLiteral } from './python-int.js';

/** A body value the real service's type coercion refused (its "Provided object is not valid" form). @internal */
export const invalidValue = (kind: PythonError, detail: string): ApiError =>
  new ApiError(400, 'invalid_object', `Provided object is not valid. Got ${PYTHON_ERROR_WORDS[kind]} with message ${detail}`);

/** The Python exceptions a body value can raise on the real service's way in. @internal */
export type PythonError = 'ValueError' | 'OverflowError' | 'AttributeError' | 'TypeError';

// How the real service words each one (its message builder is not uniform, hence a table).
const PYTHON_ERROR_WORDS: Readonly<Record<PythonError, string>> = {
  ValueError: 'a ValueError error',
  OverflowError: 'a OverflowError error',
  TypeError: 'a TypeError',
  AttributeError: 'an AttributeError',
};

/** Keys the resource does not accept (unknown, read-only with another value, immutable). @internal */
export const invalidKeys = (keys: readonly string[], resource: string): ApiError =>
  new ApiError(
    400,
    'invalid_object',
    `Provided object does not match schema. Keys [${keys.map((k) => `'${k}'`).join(', ')}] are not valid for ${resource}`,
  );

/** Cross-field rules, in the structured form (body `errors.errors`, no message key). @internal */
export const schemaErrors = (errors: readonly FieldError[]): ApiError =>
  new ApiError(
    400,
    'invalid_object',
    `Provided object does not match schema: ${errors.map((e) => e.message).join('; ')}`,
    { errors, showMessage: false },
  );

/** A command that needs a body got none (`null`, or nothing at all). @internal */
export const emptyRequestBody = (): ApiError => new ApiError(400, 'empty_request_body', 'Request Body is empty');

/**
 * A null that passes the real service's field checks and then fails in its store (a NOT NULL
 * column): a bare 500 `unknown` there, mirrored with a message that says so. Nothing is changed.
 * @internal
 */
export const nullRefusedByStore = (field: string, store: string): ApiError =>
  new ApiError(500, 'unknown', `${field} may not be null: the ${store} store refuses it (a NOT NULL column in the real service), so nothing was changed.`, {
    showMessage: false,
  });

/** The body is not a JSON object at all. @internal */
export const notAnObject = (body: unknown): ApiError => invalidValue('AttributeError', `'${pyTypeName(body)}' object has no attribute 'items'`);

/**
 * Copies a request body into a null-prototype record, so that `__proto__` or `constructor` keys
 * are just unknown keys and can never reach an object's prototype.
 * @internal
 */
export function ownEntries(body: unknown): Result<Readonly<Record<string, unknown>>, ApiError> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return err(notAnObject(body));
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(body)) out[key] = (body as Record<string, unknown>)[key];
  return ok(out);
}

/**
 * Checks that a string is text we can store and send back: well-formed UTF-16 (no lone
 * surrogates, which cannot be encoded as UTF-8) and no NUL (which databases refuse).
 * @internal
 */
export function isCleanText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/**
 * Python's `str()` of a JSON scalar, which is how the real service's string fields coerce what a
 * client sent (oslo's String type takes `int`, `float` and `str`, and `bool` is an `int`):
 * `5` → `'5'`, `true` → `'True'`, `1e-5` → `'1e-05'`. Lists and objects have no string form
 * there: `undefined`. A number is read as Python's json reads the text `JSON.stringify` gives for
 * it: a whole number below 1e21 is an integer literal (so `5.0` is `'5'`, not Python's `'5.0'`),
 * anything else a float.
 * @internal
 */
export function pyStr(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value !== 'number') return undefined;
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const magnitude = Math.abs(value);
  // Python's float repr has the same shortest digits as JavaScript's; it switches to an exponent
  // from 1e16 up and below 1e-4 (JavaScript: 1e21 and 1e-6), with at least two exponent digits.
  if (magnitude < 1e21 && (magnitude >= 1e-4 || value === 0)) return String(value);
  if (magnitude >= 1e21) return value.toExponential();
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  const digits = exponent.slice(1);
  return `${mantissa}e${exponent[0]}${digits.length < 2 ? `0${digits}` : digits}`;
}

/**
 * The real service's string-field coercion (its StringFields): null is refused unless the field
 * is nullable (callers handle those), a JSON scalar becomes its Python `str()`, anything else is
 * refused, and so is a result over `maxLength` characters.
 * @internal
 */
export function coerceString(value: unknown, field: string, maxLength: number): Result<string, ApiError> {
  if (value === null || value === undefined) return err(invalidValue('ValueError', `Field \`${field}' cannot be None`));
  const s = pyStr(value);
  if (s === undefined) {
    return err(invalidValue('ValueError', `A string is required in field ${field}, not a ${pyTypeName(value)}`));
  }
  if (s.length > maxLength) return err(invalidValue('ValueError', `Value too long for ${field}`));
  return ok(s);
}

/** {@link coerceString}, then our text rule: nothing we store may hold a NUL or a lone surrogate. @internal */
export function stringField(value: unknown, field: string, maxLength: number): Result<string, ApiError> {
  const coerced = coerceString(value, field, maxLength);
  if (coerced.isOk() && !isCleanText(coerced.value)) {
    return err(invalidValue('ValueError', `Field ${field} must be UTF-8 text without NUL characters or lone surrogates`));
  }
  return coerced;
}

/**
 * Python's `str()` of any JSON value, as the real service's messages print values they refuse:
 * `None`, `True`, `[1, 'a']`, `{'k': None}`.
 * @internal
 */
export function pyText(value: unknown): string {
  return pyStr(value) ?? pyReprValue(value);
}

function pyReprValue(value: unknown): string {
  if (typeof value === 'string') return pyRepr(value);
  if (value === null || value === undefined) return 'None';
  if (Array.isArray(value)) return `[${value.map(pyReprValue).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyReprValue(v)}`).join(', ')}}`;
  }
  // Numbers and booleans; nothing else comes from JSON.
  return pyStr(value) ?? typeof value;
}

/** The Python type name of a JSON value, for messages that mirror the real service's. @internal */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  // As Python's json reads the text JSON.stringify gives (see pyStr): 1e21 and up have an exponent.
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 1e21 ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  // Symbols, functions and bigints never come from JSON; Python's base type name is as good as any.
  return typeof value === 'object' ? 'dict' : 'object';
}

/**
 * Integer coercion as the real service's `int()`: `"301"` → 301, `300.9` → 300, `true` → 1;
 * anything else is refused with the message of Python 3.11 (Debian bookworm's, where the real service runs).
 * @internal
 */
export function pyInt(value: unknown): Result<number, ApiError> {
  if (typeof value === 'boolean') return ok(value ? 1 : 0);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return err(invalidValue('ValueError', 'cannot convert float NaN to integer'));
    if (!Number.isFinite(value)) return err(invalidValue('OverflowError', 'cannot convert float infinity to integer'));
    return ok(Math.trunc(value) === 0 ? 0 : Math.trunc(value));
  }
  if (typeof value === 'string') {
    const n = pythonIntLiteral(value);
    if (typeof n === 'bigint') return ok(Number(n));
    if (n !== undefined) {
      return err(invalidValue('ValueError', `Exceeds the limit (${PY_MAX_STR_DIGITS} digits) for integer string conversion: value has ${n.tooManyDigits} digits; use sys.set_int_max_str_digits() to increase the limit`));
    }
    return err(invalidValue('ValueError', `invalid literal for int() with base 10: ${pyRepr(value.slice(0, 100))}`));
  }
  return err(invalidValue('TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`));
}

/**
 * Python's `repr()` of a string, as its error messages quote values: single quotes unless the
 * text has a single quote and no double quote, backslash escapes for the quote, backslash and
 * non-printable characters.
 * @internal
 */
export function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NOT_PRINTABLE.test(ch)) {
      out += code < 0x100 ? `\\x${hex(code, 2)}` : code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python's non-printable characters: categories C (other) and Z (separators); space is printable. */
const NOT_PRINTABLE = /^[\p{C}\p{Z}]$/u;
const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** An integer field with the real service's range messages. @internal */
export function intField(value: unknown, field: string, min: number, max: number): Result<number, ApiError> {
  return pyInt(value).andThen((n): Result<number, ApiError> => {
    if (n < min) return err(invalidValue('ValueError', `Value must be >= ${min} for field ${field}`));
    if (n > max) return err(invalidValue('ValueError', `Value too high for ${field}`));
    return ok(n);
  });
}

/**
 * How the real service's API adapter treats one key of a resource body: `writable` keys are set;
 * a read-only key passes only when it repeats the current value (then it is set too, a quirk the
 * real service has: `created_at: null` on a create is stored); an `immutable` key may be set while
 * the current value is empty and must repeat it after.
 * @internal
 */
export interface AdapterField {
  readonly writable: boolean;
  readonly immutable?: boolean;
}

const NEVER_EQUAL = Object.freeze({});

/**
 * A stored time as {@link parseAdapterObject}'s `current` gives it: null while unset, else a value
 * no body value equals, since the real service compares its datetime with the text sent.
 * @internal
 */
export const adapterTime = (micros: number | null): unknown => (micros === null ? null : NEVER_EQUAL);

/**
 * What a stored persistent object shows {@link parseAdapterObject} for the keys every one has
 * (`id`, `created_at`, `updated_at`): the real service compares a read-only key sent in a body
 * with these; nothing for a create (no `current`) or another key.
 * @internal
 */
export const persistentShown =
  (current: { readonly id: string; readonly createdAt: number | null; readonly updatedAt: number | null } | undefined) =>
  (key: string): unknown => {
    if (current === undefined) return undefined;
    if (key === 'id') return current.id;
    if (key === 'created_at') return adapterTime(current.createdAt);
    if (key === 'updated_at') return adapterTime(current.updatedAt);
    return undefined;
  };

/**
 * Reads a body into a resource as the real service's API adapter does: keys in body order, each
 * value set (and coerced, where `set` refuses it at once) as it comes; unknown keys collected; the
 * first read-only or immutable key with another value than `current` gives stops the reading.
 * The collected keys are one `invalid_object` naming `resource`, after the loop.
 *
 * @param current - the resource's current value of a key (undefined: unset); a value that never
 *   equals a body value (a timestamp: the real service compares a datetime with the text) is any
 *   object
 * @internal
 */
export function parseAdapterObject(
  body: unknown,
  fields: Readonly<Record<string, AdapterField>>,
  current: (key: string) => unknown,
  set: (key: string, value: unknown) => Result<void, ApiError>,
  resource: string,
): Result<void, ApiError> {
  const entries = ownEntries(body);
  if (entries.isErr()) return err(entries.error);
  const bad: string[] = [];
  for (const [key, value] of Object.entries(entries.value)) {
    // JSON has no undefined: a key holding it is a key not sent.
    if (value === undefined) continue;
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (field === undefined) {
      bad.push(key);
      continue;
    }
    const now = current(key) ?? null;
    if (field.immutable === true ? now !== null && now !== '' && now !== value : !field.writable && now !== value) {
      bad.push(key);
      break;
    }
    const done = set(key, value);
    if (done.isErr()) return err(done.error);
  }
  return bad.length > 0 ? err(invalidKeys(bad, resource)) : ok(undefined);
}

/**
 * The keys of a resource's body as the real service's adapter sorts them (zones and recordsets):
 * `editable` keys are set; `immutable` ones may be sent while unset and then only with their
 * current value; every other `known` key is read-only and passes only with its current value.
 * @internal
 */
export interface BodyKeys {
  readonly known: ReadonlySet<string>;
  readonly editable: ReadonlySet<string>;
  readonly immutable: ReadonlySet<string>;
}

/**
 * What the adapter does with one key of a body (see {@link BodyKeys}): `unknown` (noted, the walk
 * goes on), `changed` (a read-only or immutable key with another value: noted, the walk ends),
 * `same` (a read-only key repeating its value: passed over) or `set`.
 *
 * @param stored - the key's current value as the adapter compares it: undefined for an immutable
 *   key that is unset; for a read-only key, a value no JSON value equals (any symbol) stands for a
 *   datetime, and numbers compare as Python's `==` does (`True == 1`)
 * @internal
 */
export function bodyKeyVerdict(keys: BodyKeys, key: string, value: unknown, stored: (key: string) => unknown): 'unknown' | 'changed' | 'same' | 'set' {
  if (!keys.known.has(key)) return 'unknown';
  if (keys.editable.has(key)) return 'set';
  const now = stored(key);
  if (keys.immutable.has(key)) return now !== undefined && now !== value ? 'changed' : 'set';
  const same = typeof now === 'number' ? (typeof value === 'number' || typeof value === 'boolean') && Number(value) === now : value === now;
  return same ? 'same' : 'changed';
}

/**
 * Walks the keys of a body as the real service's adapter does (see {@link bodyKeyVerdict}):
 * unknown keys are noted and the walk goes on; the first read-only or immutable key sent with
 * another value is noted and ends it; a read-only key repeating its value goes to `same`, every
 * other key to `set`, and the first error either returns ends the walk with that error. Keys in
 * `readBefore` were read before the walk and are passed over.
 *
 * @returns Ok, or that error, or `invalid_keys` naming the noted keys of `resource`
 * @internal
 */
export function walkBodyKeys(
  keys: BodyKeys,
  fields: Readonly<Record<string, unknown>>,
  stored: (key: string) => unknown,
  resource: string,
  visit: { same(key: string): ApiError | undefined; set(key: string, value: unknown): Result<void, ApiError> },
  readBefore?: ReadonlySet<string>,
): Result<void, ApiError> {
  const refused: string[] = [];
  for (const key of Object.keys(fields)) {
    if (readBefore?.has(key) === true) continue;
    const value = fields[key];
    const verdict = bodyKeyVerdict(keys, key, value, stored);
    if (verdict === 'unknown') {
      refused.push(key);
      continue;
    }
    if (verdict === 'changed') {
      refused.push(key);
      break;
    }
    if (verdict === 'same') {
      const refusal = visit.same(key);
      if (refusal !== undefined) return err(refusal);
      continue;
    }
    const set = visit.set(key, value);
    if (set.isErr()) return set;
  }
  return refused.length > 0 ? err(invalidKeys(refused, resource)) : ok(undefined);
}

/** A field the real service requires is missing, in its structured form. @internal */
export const requiredProperty = (field: string): ApiError =>
  schemaErrors([{ path: `records.0.${field}`, message: `'${field}' is a required property` }]);

/**
 * An enum field as the real service coerces it: the value must be one of `values` (compared as
 * sent, so `5` is not `'5'`), else `Field value … is invalid` with the value as Python prints it.
 * @internal
 */
export function enumField<T extends string>(value: unknown, field: string, values: readonly T[]): Result<T, ApiError> {
  if (value === null || value === undefined) return err(invalidValue('ValueError', `Field \`${field}' cannot be None`));
  if (typeof value === 'string' && (values as readonly string[]).includes(value)) return ok(value as T);
  return err(invalidValue('ValueError', `Field value ${pyText(value)} is invalid`));
}

const HEX32 = /^[0-9a-fA-F]{32}$/;

/**
 * UUID text as Python's `uuid.UUID(text)` reads it (the real service's UUID fields): `urn:`,
 * `uuid:`, braces and hyphens dropped, then 32 hex digits; answered in canonical form, or the
 * real refusal.
 * @internal
 */
export function pythonUuidText(text: string): Result<string, ApiError> {
  let hex = text.replaceAll('urn:', '').replaceAll('uuid:', '');
  while (hex.startsWith('{')) hex = hex.slice(1);
  while (hex.endsWith('}')) hex = hex.slice(0, -1);
  hex = hex.replaceAll('-', '');
  if (hex.length !== 32) return err(invalidValue('ValueError', 'badly formed hexadecimal UUID string'));
  if (!HEX32.test(hex)) return err(invalidValue('ValueError', `invalid literal for int() with base 16: ${pyRepr(hex)}`));
  const h = hex.toLowerCase();
  return ok(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
}
