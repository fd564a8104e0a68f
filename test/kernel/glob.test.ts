import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/kernel/glob.js';

/**
 * The filter as a backtracking RegExp (what list filters used, with `%` made a wildcard as the
 * real service's LIKE reads it): the reference for the answers.
 */
function asRegExp(pattern: string): RegExp {
  let source = '';
  for (const ch of pattern) {
    if (ch === '*' || ch === '%') source += '.*';
    else if (ch === '_') source += '.';
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'is');
}

/** How a backtracking matcher walks `*`: every split tried, each call one step, up to `cap`. */
function backtrackingSteps(pattern: string, text: string, cap: number): number {
  let steps = 0;
  const match = (p: number, t: number): boolean => {
    if (++steps >= cap) throw new RangeError('cap');
    if (p === pattern.length) return t === text.length;
    if (pattern[p] === '*') {
      for (let u = t; u <= text.length; u++) if (match(p + 1, u)) return true;
      return false;
    }
    return t < text.length && (pattern[p] === '_' || pattern[p]!.toLowerCase() === text[t]!.toLowerCase()) && match(p + 1, t + 1);
  };
  try {
    match(0, 0);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  return steps;
}

describe('wildcard filters (* and % any run, _ one unit, anchored, case-insensitive)', () => {
  // Letters whose case folding JavaScript's RegExp treats specially (ß, ſ, the Kelvin sign, İ, ı,
  // µ), a newline, the wildcards themselves and RegExp syntax that must stay literal.
  const unit = fc.constantFrom('a', 'A', 'b', 'k', 'K', 's', 'S', '\u212a', '\u017f', 'ß', 'ẞ', 'İ', 'i', 'ı', 'µ', 'Μ', '\n', '.', '\\', '(', '%', '\ud83d', '\ude00');
  const text = fc.array(unit, { maxLength: 8 }).map((u) => u.join(''));
  const pattern = fc.array(fc.oneof(unit, fc.constantFrom('*', '_', '%')), { maxLength: 8 }).map((u) => u.join(''));

  it('answers as the RegExp it replaces, on random small patterns and texts', () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (p, texts) => {
        const glob = compileGlob(p);
        const re = asRegExp(p);
        for (const t of texts) expect(glob.test(t)).toBe(re.test(t));
      }),
      { numRuns: 1000 },
    );
  });

  it('answers texts that match too, drawn from the pattern', () => {
    // Random texts rarely match a pattern with several fixed units: build ones that do, then spoil some.
    const matching = fc.tuple(pattern, fc.array(text, { minLength: 8, maxLength: 8 }), fc.nat()).map(([p, fills, spoil]) => {
      let k = 0;
      const t = [...p].map((c) => (c === '*' || c === '%' ? fills[k++ % 8]! : c === '_' ? 'x' : c)).join('');
      return [p, spoil % 3 === 0 && t.length > 0 ? t.slice(1) : t] as const;
    });
    fc.assert(
      fc.property(matching, ([p, t]) => {
        expect(compileGlob(p).test(t)).toBe(asRegExp(p).test(t));
      }),
      { numRuns: 1000 },
    );
  });

  it('answers as the RegExp on patterns longer than one word of states (carries between words)', () => {
    const run = fc.array(fc.constantFrom('a', 'b', '_'), { minLength: 10, maxLength: 30 }).map((u) => u.join(''));
    const long = fc.array(run, { minLength: 2, maxLength: 4 }).map((runs) => runs.join('*'));
    const fill = fc.array(fc.constantFrom('a', 'b'), { maxLength: 5 }).map((u) => u.join(''));
    fc.assert(
      fc.property(long, fc.array(fill, { minLength: 4, maxLength: 4 }), fc.nat(), (p, fills, spoil) => {
        let k = 0;
        let t = [...p].map((c) => (c === '*' ? fills[k++]! : c === '_' ? 'b' : c)).join('');
        if (spoil % 3 === 0) t = `${t.slice(0, spoil % t.length)}${t[spoil % t.length] === 'a' ? 'b' : 'a'}${t.slice((spoil % t.length) + 1)}`;
        expect(compileGlob(p).test(t)).toBe(asRegExp(p).test(t));
      }),
      { numRuns: 300 },
    );
  });

  it('costs at most two word steps per text unit and 32 tokens, where backtracking explodes', () => {
    const name = `${'a'.repeat(250)}.com.`;
    for (const p of [`${'*'.repeat(40)}q`, `${'*a'.repeat(40)}*q`, `${'_*'.repeat(60)}q`, `*${'a*'.repeat(120)}q`]) {
      const glob = compileGlob(p);
      expect(glob.test(name)).toBe(false);
      const tokens = p.replace(/[*%]+/g, '*').length;
      expect(glob.steps).toBeLessThanOrEqual(2 * (name.length + 1) * Math.ceil((tokens + 1) / 32));
      expect(backtrackingSteps(p, name, 1e6)).toBe(1e6);
    }
    // A pattern with more fixed units than the text has is refused without a step.
    const tooLong = compileGlob(`*${'a'.repeat(300)}`);
    expect(tooLong.test(name)).toBe(false);
    expect(tooLong.steps).toBe(0);
  });
});
