/**
 * The syntax of blacklist patterns: Python's `re` syntax read into a tree, refusing what the
 * automaton of `pattern.ts` cannot decide. @internal
 */
/** Code units tested by one step of the automaton. */
export type CharTest = (c: number) => boolean;

/** The pattern as a tree. */
export type Node =
  | { readonly t: 'char'; readonly test: CharTest }
  | { readonly t: 'assert'; readonly kind: Assertion }
  | { readonly t: 'seq'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly items: readonly Node[] }
  | { readonly t: 'rep'; readonly item: Node; readonly min: number; readonly max: number };

export type Assertion = 'bos' | 'eos' | 'eol' | 'word' | 'notWord';

/** Why a pattern cannot be used: Python's own refusals, and what this matcher cannot decide. @internal */
export type PatternProblem = 'invalid' | 'unsupported' | 'too complex';

/** Python's limit on a counted repetition. */
const MAX_REPEAT = 4294967295;

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isSpace: CharTest = (c) => c === 32 || (c >= 9 && c <= 13) || c === 0x1c || c === 0x1d || c === 0x1e || c === 0x1f || c === 0x85 || c === 0xa0;
export const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const not =
  (f: CharTest): CharTest =>
  (c) =>
    !f(c);
const CLASS_ESCAPES: Readonly<Record<string, CharTest>> = { d: isDigit, D: not(isDigit), s: isSpace, S: not(isSpace), w: isWord, W: not(isWord) };
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };

/** Thrown inside the reader and compiler, with why the pattern cannot be used. */
export class Refusal extends Error {
  constructor(readonly problem: PatternProblem) {
    super(problem);
  }
}

/** A recursive-descent reader of Python's `re` syntax, down to the subset above. */
export class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) throw new Refusal('invalid'); // an unbalanced ')'
    return node;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  private alternation(): Node {
    const items = [this.sequence()];
    while (this.peek() === '|') {
      this.i++;
      items.push(this.sequence());
    }
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  private sequence(): Node {
    const items: Node[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === '|' || c === ')') break;
      const atom = this.atom();
      if (atom === undefined) continue; // a comment group
      items.push(this.quantified(atom));
    }
    return { t: 'seq', items };
  }

  /** Reads a quantifier after `atom`, if any. */
  private quantified(atom: Node): Node {
    const q = this.quantifier();
    if (q === undefined) return atom;
    if (atom.t === 'assert') throw new Refusal('invalid'); // Python: nothing to repeat
    const next = this.peek();
    if (next === '?') this.i++; // lazy: the same yes/no answer for a search
    else if (next === '+') throw new Refusal('unsupported'); // possessive
    if (this.quantifier(true) !== undefined) throw new Refusal('invalid'); // multiple repeat
    return { t: 'rep', item: atom, min: q.min, max: q.max };
  }

  private quantifier(probe = false): { min: number; max: number } | undefined {
    const c = this.peek();
    const simple = c === '*' ? { min: 0, max: Infinity } : c === '+' ? { min: 1, max: Infinity } : c === '?' ? { min: 0, max: 1 } : undefined;
    if (simple !== undefined) {
      if (!probe) this.i++;
      return simple;
    }
    if (c !== '{') return undefined;
    const m = /^\{(\d*)(?:(,)(\d*))?\}/.exec(this.src.slice(this.i));
    if (m === null || (m[1] === '' && m[2] === undefined)) return undefined; // a literal '{', as in Python
    if (!probe) this.i += m[0].length;
    const min = m[1] === '' ? 0 : Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT) || max < min) throw new Refusal('invalid');
    return { min, max };
  }

  private atom(): Node | undefined {
    const c = this.src[this.i++]!;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return { t: 'char', test: this.charClass() };
      case '.':
        return { t: 'char', test: (x) => x !== 10 };
      case '^':
        return { t: 'assert', kind: 'bos' };
      case '$':
        return { t: 'assert', kind: 'eol' };
      case '\\':
        return this.escape();
      case '*':
      case '+':
      case '?':
        throw new Refusal('invalid'); // nothing to repeat
      case '{':
        if (this.quantifierAt(this.i - 1)) throw new Refusal('invalid');
        return literal(c.charCodeAt(0));
      default:
        return literal(c.charCodeAt(0));
    }
  }

  private quantifierAt(at: number): boolean {
    return /^\{(\d+(,\d*)?|,\d*)\}/.test(this.src.slice(at));
  }

  private group(): Node | undefined {
    if (this.peek() === '?') {
      const rest = this.src.slice(this.i + 1);
      if (rest.startsWith(':')) {
        this.i += 2;
      } else if (rest.startsWith('P<')) {
        const m = /^P<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
        if (m === null) throw new Refusal('invalid');
        this.i += 1 + m[0].length;
      } else if (rest.startsWith('#')) {
        const end = this.src.indexOf(')', this.i);
        if (end < 0) throw new Refusal('invalid');
        this.i = end + 1;
        return undefined;
      } else if (/^(P=|=|!|<=|<!|>|\(|[aiLmsux-])/.test(rest)) {
        throw new Refusal('unsupported');
      } else {
        throw new Refusal('invalid');
      }
    }
    const inner = this.alternation();
    if (this.src[this.i++] !== ')') throw new Refusal('invalid'); // missing ), unterminated subpattern
    return inner;
  }

  private escape(): Node {
    const c = this.src[this.i++];
    if (c === undefined) throw new Refusal('invalid'); // bad escape (end of pattern)
    const cls = CLASS_ESCAPES[c];
    if (cls !== undefined) return { t: 'char', test: cls };
    switch (c) {
      case 'A':
        return { t: 'assert', kind: 'bos' };
      case 'Z':
        return { t: 'assert', kind: 'eos' };
      case 'b':
        return { t: 'assert', kind: 'word' };
      case 'B':
        return { t: 'assert', kind: 'notWord' };
      default:
        if (c >= '1' && c <= '9') throw new Refusal('unsupported'); // a backreference
        return literal(this.escapedCode(c));
    }
  }

  /** The code unit of an escape that stands for one character (outside or inside a class). */
  private escapedCode(c: string): number {
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) return control;
    if (c === '0') {
      const m = /^[0-7]{0,2}/.exec(this.src.slice(this.i))![0];
      this.i += m.length;
      return parseInt(`0${m}`, 8);
    }
    const hex = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : 0;
    if (hex > 0) {
      const digits = this.src.slice(this.i, this.i + hex);
      if (!new RegExp(`^[0-9A-Fa-f]{${hex}}$`).test(digits)) throw new Refusal('invalid');
      this.i += hex;
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) throw new Refusal('invalid');
      // Zone names are ASCII: a character beyond one code unit can never match.
      return code > 0xffff ? -1 : code;
    }
    if (/[A-Za-z0-9]/.test(c)) throw new Refusal('invalid'); // Python: bad escape
    return c.charCodeAt(0);
  }

  private charClass(): CharTest {
    const negate = this.peek() === '^';
    if (negate) this.i++;
    const parts: CharTest[] = [];
    let first = true;
    for (;;) {
      const c = this.src[this.i++];
      if (c === undefined) throw new Refusal('invalid'); // unterminated character set
      if (c === ']' && !first) break;
      first = false;
      let low: number;
      if (c === '\\') {
        const e = this.src[this.i++];
        if (e === undefined) throw new Refusal('invalid');
        const cls = CLASS_ESCAPES[e];
        if (cls !== undefined) {
          parts.push(cls);
          continue;
        }
        if (e === 'b') low = 8;
        else if (e >= '1' && e <= '9') throw new Refusal('invalid');
        else low = this.escapedCode(e);
      } else {
        low = c.charCodeAt(0);
      }
      if (this.peek() === '-' && this.src[this.i + 1] !== undefined && this.src[this.i + 1] !== ']') {
        this.i++;
        const h = this.src[this.i++]!;
        let high: number;
        if (h === '\\') {
          const e = this.src[this.i++];
          if (e === undefined || CLASS_ESCAPES[e] !== undefined) throw new Refusal('invalid'); // bad character range
          high = e === 'b' ? 8 : this.escapedCode(e);
        } else {
          high = h.charCodeAt(0);
        }
        if (high < low) throw new Refusal('invalid'); // bad character range
        const lo = low;
        parts.push((x) => x >= lo && x <= high);
      } else {
        const one = low;
        parts.push((x) => x === one);
      }
    }
    const any: CharTest = (x) => parts.some((p) => p(x));
    return negate ? not(any) : any;
  }
}

const literal = (code: number): Node => ({ t: 'char', test: (x) => x === code });
