import { err, ok, type Result } from 'neverthrow';
import { ApiError, type FieldError } from './api-error.js';

/** A body value the real service's type coercion refused (its "Provided object is not valid" form). @internal */
export const invalidValue = (kind: 'ValueError' | 'AttributeError' | 'TypeError', detail: string): ApiError =>
  new ApiError(
    400,
    'invalid_object',
    `Provided object is not valid. Got ${kind === 'ValueError' ? 'a ValueError error' : kind === 'TypeError' ? 'a TypeError' : 'an AttributeError'} with message ${detail}`,
  );

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

/** The body is not a JSON object at all. @internal */
export const notAnObject = (body: unknown): ApiError =>
  invalidValue(
    'AttributeError',
    `'${Array.isArray(body) ? 'list' : body === null ? 'NoneType' : typeof body === 'string' ? 'str' : typeof body === 'number' ? (Number.isInteger(body) ? 'int' : 'float') : typeof body === 'boolean' ? 'bool' : 'object'}' object has no attribute 'items'`,
  );

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

/** A string field, as the real service's StringFields check it, plus our text rule. @internal */
export function stringField(value: unknown, field: string, maxLength: number): Result<string, ApiError> {
  if (typeof value !== 'string') {
    return err(invalidValue('ValueError', `A string is required in field ${field}, not a ${pyTypeName(value)}`));
  }
  if (!isCleanText(value)) {
    return err(invalidValue('ValueError', `Field ${field} must be UTF-8 text without NUL characters or lone surrogates`));
  }
  if (value.length > maxLength) return err(invalidValue('ValueError', `Value too long for ${field}`));
  return ok(value);
}

/** The Python type name of a JSON value, for messages that mirror the real service's. @internal */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/**
 * Integer coercion as the real service's `int()`: `"301"` → 301, `300.9` → 300, `true` → 1;
 * anything else is refused with Python's message.
 * @internal
 */
export function pyInt(value: unknown): Result<number, ApiError> {
  if (typeof value === 'boolean') return ok(value ? 1 : 0);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return err(invalidValue('ValueError', 'cannot convert float NaN to integer'));
    if (!Number.isFinite(value)) return err(invalidValue('ValueError', 'cannot convert float infinity to integer'));
    return ok(Math.trunc(value) === 0 ? 0 : Math.trunc(value));
  }
  if (typeof value === 'string') {
    const t = value.trim();
    // Python's int() has no length limit: a long literal is a large number, which the caller's
    // range check then refuses (`Value too high`), not an invalid literal.
    if (/^[+-]?\d+$/.test(t)) return ok(Number(t));
    return err(invalidValue('ValueError', `invalid literal for int() with base 10: '${value.slice(0, 100)}'`));
  }
  return err(invalidValue('TypeError', `int() argument must be a string, a bytes-like object or a number, not '${pyTypeName(value)}'`));
}

/** An integer field with the real service's range messages. @internal */
export function intField(value: unknown, field: string, min: number, max: number): Result<number, ApiError> {
  return pyInt(value).andThen((n): Result<number, ApiError> => {
    if (n < min) return err(invalidValue('ValueError', `Value must be >= ${min} for field ${field}`));
    if (n > max) return err(invalidValue('ValueError', `Value too high for ${field}`));
    return ok(n);
  });
}
