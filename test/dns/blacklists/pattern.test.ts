import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyPattern, compilePattern } from '../../../src/dns/kernel/pattern.js';

const search = (pattern: string, text: string): boolean => compilePattern(pattern)._unsafeUnwrap().search(text);

describe('blacklist patterns (Python re.search on a linear-time automaton)', () => {
  it('answers as Python for its syntax (cases checked against CPython 3.11)', () => {
    expect(search('^bad\\.com\\.$', 'bad.com.')).toBe(true);
    expect(search('^bad\\.com\\.$', 'notbad.com.')).toBe(false);
    expect(search('\\bex', 'a.exa.b.')).toBe(true);
    expect(search('a{,2}b', 'aab')).toBe(true);
    expect(search('x{1,}y', 'xxy')).toBe(true);
    expect(search('b\\Z', 'ab')).toBe(true);
    expect(search('[]a]', ']')).toBe(true);
    expect(search('(?#comment)ab', 'ab')).toBe(true);
    expect(search('a{', 'a{')).toBe(true); // not a quantifier: a literal brace, as in Python
    expect(search('\\x41', 'A')).toBe(true);
    expect(search('$', 'a\n')).toBe(true);
    expect(search('[\\w-]+\\.org\\.$', 'a-b.org.')).toBe(true);
  });

  it("refuses what Python refuses, and what only a backtracking engine runs", () => {
    for (const p of ['(', ')', '\\q', '*a', 'a**', '[z-a]', '[a', 'a{2,1}', '\\']) expect(compilePattern(p)._unsafeUnwrapErr()).toBe('invalid');
    for (const p of ['(?=a)', '(?!a)', '(?<=a)b', '\\1', '(?P<n>a)(?P=n)', '(?i)a', 'a*+', '(?>a)']) expect(compilePattern(p)._unsafeUnwrapErr()).toBe('unsupported');
    expect(compilePattern('((a{100}){100}){100}')._unsafeUnwrapErr()).toBe('too complex');
  });

  it('costs the same for hostile patterns: no catastrophic backtracking', () => {
    const name = `${'a'.repeat(250)}!`;
    const started = performance.now();
    for (const p of ['(a+)+$', '^(a|a)*$', '.*.*.*.*.*.*.*x', '(a*)*b', '^(a|aa)+$']) expect(search(p, name)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  // JavaScript's RegExp agrees with Python on this subset; on short texts its backtracking is cheap.
  const atom = fc.oneof(fc.constantFrom('a', 'b', '.', '\\.', '[ab]', '[^a]', '\\d', '\\w', '-'), fc.constant('x'));
  const term: fc.Arbitrary<string> = fc.letrec<{ re: string }>((tie) => ({
    re: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      atom,
      fc.tuple(tie('re'), tie('re')).map(([a, b]) => a + b),
      fc.tuple(tie('re'), tie('re')).map(([a, b]) => `(?:${a}|${b})`),
      fc.tuple(tie('re'), fc.constantFrom('*', '+', '?', '{2}', '{1,2}', '{,1}', '*?')).map(([a, q]) => `(?:${a})${q}`),
    ),
  })).re;
  it('agrees with a backtracking engine over random patterns and names', () => {
    fc.assert(
      fc.property(fc.tuple(fc.boolean(), term, fc.boolean()), fc.stringMatching(/^[ab1x.-]{0,8}$/), ([start, body, end], text) => {
        const pattern = `${start ? '^' : ''}${body}${end ? '$' : ''}`;
        const js = new RegExp(pattern.replaceAll('{,1}', '{0,1}')).test(text);
        expect(search(pattern, text)).toBe(js);
      }),
      { numRuns: 2000 },
    );
  });

  // The assertions too, each written for both engines: Python's `$` also holds before a final
  // newline, its `\Z` only at the very end.
  const asserted = fc.constantFrom<[string, string]>(['^', '^'], ['$', '(?=\\n?$)'], ['\\A', '^'], ['\\Z', '$'], ['\\b', '\\b'], ['\\B', '\\B'], ['\\n', '\\n']);
  const plain = fc.constantFrom<[string, string]>(['a', 'a'], ['b', 'b'], ['.', '.'], ['\\.', '\\.'], ['[ab]', '[ab]'], ['[^a]', '[^a]'], ['\\w', '\\w'], ['-', '-']);
  const both: fc.Arbitrary<[string, string]> = fc.letrec<{ re: [string, string] }>((tie) => ({
    re: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      plain,
      asserted,
      fc.tuple(tie('re'), tie('re')).map(([[p, j], [q, k]]): [string, string] => [p + q, j + k]),
      fc.tuple(tie('re'), tie('re')).map(([[p, j], [q, k]]): [string, string] => [`(?:${p}|${q})`, `(?:${j}|${k})`]),
      fc.tuple(tie('re'), fc.constantFrom('*', '+', '?', '{2}')).map(([[p, j], q]): [string, string] => [`(?:${p})${q}`, `(?:${j})${q}`]),
    ),
  })).re;
  const texts = fc.stringMatching(/^[ab1.\n -]{0,8}$/);

  it('agrees with a backtracking engine on anchors, word boundaries and newlines', () => {
    fc.assert(
      fc.property(both, texts, ([python, js], text) => {
        expect(search(python, text)).toBe(new RegExp(js).test(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('searches several patterns at once as any of them alone', () => {
    fc.assert(
      fc.property(fc.array(both, { maxLength: 6 }), fc.array(texts, { minLength: 1, maxLength: 5 }), (patterns, names) => {
        const compiled = patterns.map(([p]) => compilePattern(p)._unsafeUnwrap());
        const all = anyPattern(compiled);
        // Each name twice: the second search runs on the transitions the first one built.
        for (const name of [...names, ...names]) expect(all.search(name)).toBe(compiled.some((c) => c.search(name)));
      }),
      { numRuns: 500 },
    );
    expect(anyPattern([]).search('anything.com.')).toBe(false);
  });

  it('keeps answering right when its bounded cache of states starts over', () => {
    // Unanchored, this pattern needs a state per 12-character window of a and b: 4,096 of them.
    const pattern = 'a[ab]{11}b';
    const compiled = compilePattern(pattern)._unsafeUnwrap();
    const js = new RegExp(pattern);
    let seed = 7;
    for (let k = 0; k < 3000; k++) {
      let text = '';
      for (let i = 0; i < 30; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        text += seed & 1024 ? 'a' : 'b';
      }
      expect(compiled.search(text)).toBe(js.test(text));
    }
  });
});
