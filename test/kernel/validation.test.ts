/**
 * The shared body-validation helpers, rule by rule: Python's `int()` coercion and its messages,
 * the real service's field messages (reference §3.1, §4.1, §4.2), and the text rule every stored
 * string obeys (no NUL, no lone surrogate).
 */
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/kernel/api-error.js';
import {
  intField,
  invalidKeys,
  invalidValue,
  isCleanText,
  notAnObject,
  ownEntries,
  pyInt,
  pyRepr,
  pyStr,
  pyText,
  pyTypeName,
  schemaErrors,
  stringField,
} from '../../src/kernel/validation.js';

const VALUE = 'Provided object is not valid. Got a ValueError error with message ';
const TYPE = 'Provided object is not valid. Got a TypeError with message ';
const outcome = <T>(r: { isOk(): boolean; _unsafeUnwrap(): T; _unsafeUnwrapErr(): ApiError }): unknown =>
  r.isOk() ? ['ok', r._unsafeUnwrap()] : r._unsafeUnwrapErr().toJSON();
const invalid = (message: string) => ({ code: 400, type: 'invalid_object', message });

describe('isCleanText: well-formed UTF-16 without NUL', () => {
  it('accepts text, surrogate pairs included, at any position', () => {
    for (const s of ['', 'a', '\u0001', '\ud7ff', '\ue000', '\uffff', '\ud83d\ude00', 'x\ud800\udc00', '\udbff\udfffy', '\ud800\udfff\udbff\udc00']) {
      expect(isCleanText(s)).toBe(true);
    }
  });

  it('refuses NUL and every lone or reversed surrogate', () => {
    for (const s of ['\u0000', 'a\u0000', '\u0000a', '\ud800', 'a\ud800', '\ud800a', '\udbff', '\udc00', 'a\udfff', '\udc00\ud800', '\ud800\ud800\udc00', '\ud83d\ude00\ud83d', '\ud800\ue000', '\udbff\uffff']) {
      expect(isCleanText(s)).toBe(false);
    }
  });
});

describe('pyInt: Python int() of a JSON value', () => {
  it('takes booleans as 1 and 0 and truncates floats toward zero', () => {
    expect(outcome(pyInt(true))).toEqual(['ok', 1]);
    expect(outcome(pyInt(false))).toEqual(['ok', 0]);
    expect(outcome(pyInt(300.9))).toEqual(['ok', 300]);
    expect(outcome(pyInt(-300.9))).toEqual(['ok', -300]);
  });

  it('never answers -0, which JSON cannot tell from 0 but Object.is can', () => {
    expect(Object.is(pyInt(-0)._unsafeUnwrap(), 0)).toBe(true);
    expect(Object.is(pyInt(-0.5)._unsafeUnwrap(), 0)).toBe(true);
  });

  it('refuses NaN and the infinities with the float messages', () => {
    expect(outcome(pyInt(Number.NaN))).toEqual(invalid(`${VALUE}cannot convert float NaN to integer`));
    // Python raises OverflowError here, and the real service names it (checked with designate-api).
    expect(outcome(pyInt(Infinity))).toEqual(invalid('Provided object is not valid. Got a OverflowError error with message cannot convert float infinity to integer'));
    expect(outcome(pyInt(-Infinity))).toEqual(invalid('Provided object is not valid. Got a OverflowError error with message cannot convert float infinity to integer'));
  });

  it('parses a signed decimal string, surrounding whitespace allowed', () => {
    expect(outcome(pyInt('301'))).toEqual(['ok', 301]);
    expect(outcome(pyInt(' 42\n'))).toEqual(['ok', 42]);
    expect(outcome(pyInt('+5'))).toEqual(['ok', 5]);
    expect(outcome(pyInt('-5'))).toEqual(['ok', -5]);
    expect(outcome(pyInt('99999999999999999999'))).toEqual(['ok', 1e20]);
  });

  it('keeps U+001C..U+001F, which str.strip() removes but int() does not (the real service refuses them)', () => {
    for (const c of ['\u001c', '\u001d', '\u001e', '\u001f']) {
      expect(outcome(pyInt(`${c}5`))).toEqual(invalid(`${VALUE}invalid literal for int() with base 10: '\\x${c.charCodeAt(0).toString(16)}5'`));
    }
  });

  it('refuses any other string with the invalid-literal message, echoing at most 100 characters', () => {
    for (const s of ['abc', '', ' ', '1.5', '1e3', '0x10', '5a', 'a5', '--5', '+-5', '1 2']) {
      expect(outcome(pyInt(s))).toEqual(invalid(`${VALUE}invalid literal for int() with base 10: '${s}'`));
    }
    const long = 'x'.repeat(1000);
    expect(outcome(pyInt(long))).toEqual(invalid(`${VALUE}invalid literal for int() with base 10: '${'x'.repeat(100)}'`));
  });

  it('refuses other types with the TypeError message and the Python type name', () => {
    const no = (type: string) => invalid(`${TYPE}int() argument must be a string, a bytes-like object or a real number, not '${type}'`);
    expect(outcome(pyInt(null))).toEqual(no('NoneType'));
    expect(outcome(pyInt(undefined))).toEqual(no('NoneType'));
    expect(outcome(pyInt([1]))).toEqual(no('list'));
    expect(outcome(pyInt({ a: 1 }))).toEqual(no('dict'));
  });
});

describe('intField: int() then the range messages', () => {
  it('keeps both bounds and refuses one past each', () => {
    expect(outcome(intField(-1, 'hard_limit', -1, 10))).toEqual(['ok', -1]);
    expect(outcome(intField(10, 'hard_limit', -1, 10))).toEqual(['ok', 10]);
    expect(outcome(intField(-2, 'hard_limit', -1, 10))).toEqual(invalid(`${VALUE}Value must be >= -1 for field hard_limit`));
    expect(outcome(intField(11, 'hard_limit', -1, 10))).toEqual(invalid(`${VALUE}Value too high for hard_limit`));
    expect(outcome(intField('x', 'ttl', 0, 10))).toEqual(invalid(`${VALUE}invalid literal for int() with base 10: 'x'`));
  });

  it('reads a literal of any length as Python does, so a long one is out of range rather than invalid', () => {
    expect(outcome(intField('1'.repeat(21), 'ttl', 0, 2147483647))).toEqual(invalid(`${VALUE}Value too high for ttl`));
    expect(outcome(intField('9'.repeat(400), 'ttl', 0, 2147483647))).toEqual(invalid(`${VALUE}Value too high for ttl`));
    expect(outcome(intField(`-${'1'.repeat(30)}`, 'ttl', 0, 2147483647))).toEqual(invalid(`${VALUE}Value must be >= 0 for field ttl`));
    expect(outcome(intField(`00000000000000000000000042`, 'ttl', 0, 2147483647))).toEqual(['ok', 42]);
  });
});

describe('stringField', () => {
  it('needs a string, of clean text, up to the maximum length', () => {
    expect(outcome(stringField('abc', 'description', 3))).toEqual(['ok', 'abc']);
    expect(outcome(stringField('abcd', 'description', 3))).toEqual(invalid(`${VALUE}Value too long for description`));
    // Scalars become Python's str() of them (oslo's String type), checked for length after that.
    expect(outcome(stringField(1.5, 'description', 3))).toEqual(['ok', '1.5']);
    expect(outcome(stringField(true, 'description', 3))).toEqual(invalid(`${VALUE}Value too long for description`));
    expect(outcome(stringField(true, 'description', 4))).toEqual(['ok', 'True']);
    expect(outcome(stringField([], 'description', 3))).toEqual(invalid(`${VALUE}A string is required in field description, not a list`));
    expect(outcome(stringField({}, 'description', 3))).toEqual(invalid(`${VALUE}A string is required in field description, not a dict`));
    expect(outcome(stringField(null, 'key', 3))).toEqual(invalid(`${VALUE}Field \`key' cannot be None`));
    expect(outcome(stringField('a\u0000', 'description', 3))).toEqual(
      invalid(`${VALUE}Field description must be UTF-8 text without NUL characters or lone surrogates`),
    );
  });
});

describe('pyTypeName', () => {
  it('names JSON values as Python does', () => {
    expect([null, undefined, true, 1, -0, 1.5, 'x', [], {}].map(pyTypeName)).toEqual(['NoneType', 'NoneType', 'bool', 'int', 'int', 'float', 'str', 'list', 'dict']);
  });
});

describe('error builders (reference §3.1)', () => {
  it('invalidValue names the Python exception with its article', () => {
    expect(invalidValue('ValueError', 'm').toJSON()).toEqual(invalid(`${VALUE}m`));
    expect(invalidValue('TypeError', 'm').toJSON()).toEqual(invalid(`${TYPE}m`));
    expect(invalidValue('AttributeError', 'm').toJSON()).toEqual(invalid('Provided object is not valid. Got an AttributeError with message m'));
  });

  it('invalidKeys lists the keys as a Python list', () => {
    expect(invalidKeys(['a'], 'zone').toJSON()).toEqual(invalid("Provided object does not match schema. Keys ['a'] are not valid for zone"));
    expect(invalidKeys(['a', 'b'], 'transfer_request').message).toBe("Provided object does not match schema. Keys ['a', 'b'] are not valid for transfer_request");
  });

  it('schemaErrors nests the list twice and sends no message key', () => {
    const error = schemaErrors([{ path: 'type.email', message: 'first' }, { path: 'type', message: 'second' }]);
    expect(error.toJSON()).toEqual({
      code: 400,
      type: 'invalid_object',
      errors: { errors: [{ path: ['type', 'email'], message: 'first' }, { path: ['type'], message: 'second' }] },
    });
    expect(error.message).toBe('Provided object does not match schema: first; second');
  });

  it('notAnObject names the body type as Python does', () => {
    const no = (type: string) => `Provided object is not valid. Got an AttributeError with message '${type}' object has no attribute 'items'`;
    expect([[], null, 'x', 1, 1.5, true, Symbol('s')].map((b) => notAnObject(b).message)).toEqual(
      [no('list'), no('NoneType'), no('str'), no('int'), no('float'), no('bool'), no('object')],
    );
  });
});

describe('ownEntries', () => {
  it('copies own enumerable keys into a null-prototype record, __proto__ included as data', () => {
    const body = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const entries = ownEntries(body)._unsafeUnwrap();
    expect(Object.getPrototypeOf(entries)).toBe(null);
    expect(Object.keys(entries)).toEqual(['__proto__', 'a']);
    expect(entries['__proto__']).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(ownEntries(Object.create({ inherited: 1 }))._unsafeUnwrap())).toEqual([]);
  });

  it('refuses what is not a plain JSON object', () => {
    expect(outcome(ownEntries([1]))).toEqual(notAnObject([1]).toJSON());
    expect(outcome(ownEntries(null))).toEqual(notAnObject(null).toJSON());
    expect(outcome(ownEntries('s'))).toEqual(notAnObject('s').toJSON());
  });
});

describe('pyStr, pyRepr and pyInt: Python\'s str(), repr() and int() (checked against Python 3.11)', () => {
  it('prints JSON scalars as Python prints what its json read from JSON.stringify', () => {
    const cases: [unknown, string | undefined][] = [
      [5, '5'], [-0, '0'], [1.5, '1.5'], [0.0001, '0.0001'], [1e-5, '1e-05'], [1.5e-7, '1.5e-07'], [123.456, '123.456'],
      [2 ** 64, '18446744073709552000'], [1e21, '1e+21'], [-1.7976931348623147e308, '-1.7976931348623147e+308'],
      [true, 'True'], [false, 'False'], ['x', 'x'], [null, undefined], [[], undefined], [{}, undefined],
    ];
    for (const [value, text] of cases) expect(pyStr(value), String(value)).toBe(text);
    expect(pyText({ a: ['b', 1, null, true, 1.5] })).toBe("{'a': ['b', 1, None, True, 1.5]}");
  });

  it('quotes strings as repr() does', () => {
    const cases: [string, string][] = [
      ["a'b", `"a'b"`], [`a"b'c`, `'a"b\\'c'`], ['\n', "'\\n'"], ['\u0001', "'\\x01'"], ['\u00a0', "'\\xa0'"],
      ['\u200b', "'\\u200b'"], ['é', "'é'"], ['\\', "'\\\\'"], ['\ud800', "'\\ud800'"],
    ];
    for (const [s, r] of cases) expect(pyRepr(s), s).toBe(r);
  });

  it('reads the decimal literals int() reads, and no others', () => {
    const good: [string, number][] = [['1_000', 1000], ['+7', 7], ['-0', 0], ['\u0663\u0660', 30], [' \u0085 12 \u3000', 12], ['\u{1D7D9}', 1]];
    for (const [text, n] of good) expect(pyInt(text)._unsafeUnwrap(), text).toBe(n);
    // Python 3.11 converts at most 4,300 digits (underscores and signs not counted).
    expect(pyInt('9'.repeat(4300))._unsafeUnwrap()).toBe(Number('9'.repeat(4300)));
    const limit = (n: number) => `${VALUE}Exceeds the limit (4300 digits) for integer string conversion: value has ${n} digits; use sys.set_int_max_str_digits() to increase the limit`;
    expect(pyInt(`-${'1_'.repeat(4300)}1`)._unsafeUnwrapErr().message).toBe(limit(4301));
    expect(pyInt('\u0661'.repeat(1 << 20))._unsafeUnwrapErr().message).toBe(limit(1 << 20));
    for (const text of ['1__0', '_1', '1_', '\ufeff12', '\u001c12', '1e3', '0x10', '', ' ']) {
      expect(pyInt(text)._unsafeUnwrapErr().message, text).toBe(`${VALUE}invalid literal for int() with base 10: ${pyRepr(text)}`);
    }
  });
});
