import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeJsonError, MAX_DEPTH, parseJson } from '../../../src/adapters/http/json.js';

/** Inputs and the message Python 3's json.loads gives for each (generated with python3, pasted). */
const PYTHON_MESSAGES: readonly [string, string | null][] = [["", "Expecting value: line 1 column 1 (char 0)"], ["   ", "Expecting value: line 1 column 4 (char 3)"], ["{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"], ["{\"a\"", "Expecting ':' delimiter: line 1 column 5 (char 4)"], ["{\"a\":", "Expecting value: line 1 column 6 (char 5)"], ["{\"a\": 1", "Expecting ',' delimiter: line 1 column 8 (char 7)"], ["{\"a\": 1,", "Expecting property name enclosed in double quotes: line 1 column 9 (char 8)"], ["{\"a\": 1 \"b\"", "Expecting ',' delimiter: line 1 column 9 (char 8)"], ["[1, 2", "Expecting ',' delimiter: line 1 column 6 (char 5)"], ["[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"], ["{\"a\": 1} x", "Extra data: line 1 column 10 (char 9)"], ["\"abc", "Unterminated string starting at: line 1 column 1 (char 0)"], ["\"a\\qb\"", "Invalid \\escape: line 1 column 3 (char 2)"], ["\"a\\u12\"", "Invalid \\uXXXX escape: line 1 column 4 (char 3)"], ["\"a\u0001b\"", "Invalid control character at: line 1 column 3 (char 2)"], ["tru", "Expecting value: line 1 column 1 (char 0)"], ["01", "Extra data: line 1 column 2 (char 1)"], ["-", "Expecting value: line 1 column 1 (char 0)"], ["{\"a\":\n  [1,\n   2,,]}", "Expecting value: line 3 column 6 (char 17)"], ["\"\ud83d\ude00\" x", "Extra data: line 1 column 5 (char 4)"], ["nul", "Expecting value: line 1 column 1 (char 0)"], ["[1.]", "Expecting ',' delimiter: line 1 column 3 (char 2)"], ["{1: 2}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"], ["{'a': 1}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"]];

const message = (text: string): string | null => {
  const r = parseJson(text);
  return r.ok ? null : describeJsonError(text, r.error);
};

describe('parseJson', () => {
  it.each(PYTHON_MESSAGES)('words the failure of %j as Python\'s json does', (text, expected) => {
    expect(message(text)).toBe(expected);
  });

  it('reads what JSON.parse reads, to the same value', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const r = parseJson(text);
        expect(r.ok && r.value).toEqual(JSON.parse(text));
      }),
    );
  });

  it('takes the literals NaN, Infinity and -Infinity, and __proto__ as an own key', () => {
    expect(parseJson('[NaN, Infinity, -Infinity]')).toEqual({ ok: true, value: [Number.NaN, Infinity, -Infinity] });
    const r = parseJson('{"__proto__": {"polluted": 1}}');
    expect(r.ok && Object.hasOwn(r.value as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses nesting deeper than MAX_DEPTH without using the stack', () => {
    expect(parseJson('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH)).ok).toBe(true);
    const deep = '['.repeat(1_000_000);
    const r = parseJson(deep);
    expect(r.ok).toBe(false);
  });
});
