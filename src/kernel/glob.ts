/**
 * The wildcard filters of list queries (`GET /v2/zones?name=*.example.com.`): `*` and `%` any run
 * of characters, `_` exactly one (the real service turns `*` into `%` and hands the value to SQL
 * LIKE), everything else itself, compared without regard to case as JavaScript's case-insensitive
 * `RegExp` compares code units.
 *
 * A backtracking `RegExp` (`^.*a.*a.*q$`) costs exponentially many steps in the number of `*`
 * on a text that almost matches, and a list runs it on every item in the caller's scope. This
 * matcher runs the pattern's automaton on all its states at once, as bit sets: a text of n code
 * units costs at most n × ⌈(k + 1) / 32⌉ word steps for k tokens (runs of `*` and `%` count as one), and
 * a pattern with more fixed tokens than the text has code units is refused in one comparison.
 * @internal
 */

/** The token kinds besides a literal (whose kind is its folded code unit, 0 and up). */
const ANY = -1;
const STAR = -2;

/** JavaScript's case-insensitive comparison of one code unit (ES Canonicalize without `u`). */
function fold(c: number): number {
  if (c < 128) return c >= 97 && c <= 122 ? c - 32 : c;
  const upper = String.fromCharCode(c).toUpperCase();
  if (upper.length !== 1) return c;
  const u = upper.charCodeAt(0);
  return u < 128 ? c : u;
}

/** A compiled wildcard filter: `test(text)` is whether the whole text matches. @internal */
export interface Glob {
  test(text: string): boolean;
  /** Word steps spent by the tests so far: what {@link compileGlob} bounds (tests read it). */
  readonly steps: number;
}

/**
 * Compiles a filter value with `*`, `%` and `_` wildcards; the match is anchored at both ends.
 * @internal
 */
export function compileGlob(pattern: string): Glob {
  const tokens: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    const t = c === 42 || c === 37 ? STAR : c === 95 ? ANY : fold(c);
    if (t === STAR && tokens[tokens.length - 1] === STAR) continue;
    tokens.push(t);
  }
  return new BitGlob(tokens);
}

/**
 * The automaton of the tokens t₁…t_k: state i means "t₁…t_i matched". Bit i of the state set
 * is bit i % 32 of word ⌊i / 32⌋. A `*` token at i + 1 is entered without reading (from i) and
 * loops on every code unit (at i + 1). Up to 31 tokens (nearly every filter) the set is one
 * number; beyond, an array of words.
 */
class BitGlob implements Glob {
  steps = 0;
  private readonly k: number;
  private readonly words: number;
  /** Tokens that consume exactly one code unit: a text shorter than their count cannot match. */
  private readonly fixed: number;
  /** Bits i + 1 where t_{i+1} is `*` (entered for free, then looping). */
  private readonly stars: Uint32Array;
  /** Bits i + 1 where t_{i+1} is `_`: entered by any code unit. */
  private readonly any: Uint32Array;
  /** Per ASCII code unit, its `words` words: the bits it enters (`_` tokens and equal literals). */
  private readonly ascii: Uint32Array;
  /** The same for other code units, by folded unit, made on first use. */
  private readonly others = new Map<number, Uint32Array>();
  private readonly tokens: readonly number[];
  private current: Uint32Array;
  private next: Uint32Array;

  constructor(tokens: readonly number[]) {
    this.tokens = tokens;
    this.k = tokens.length;
    const words = (this.k >>> 5) + 1;
    this.words = words;
    this.stars = new Uint32Array(words);
    this.any = new Uint32Array(words);
    this.ascii = new Uint32Array(128 * words);
    this.current = new Uint32Array(words);
    this.next = new Uint32Array(words);
    let fixed = 0;
    tokens.forEach((t, i) => {
      if (t === STAR) return set(this.stars, 0, i + 1);
      fixed++;
      if (t === ANY) set(this.any, 0, i + 1);
      else if (t < 128) {
        set(this.ascii, t * words, i + 1);
        // Folding maps a-z onto A-Z; no other ASCII unit folds onto ASCII but itself.
        if (t >= 65 && t <= 90) set(this.ascii, (t + 32) * words, i + 1);
      }
    });
    for (let c = 0; c < 128; c++) for (let w = 0; w < words; w++) this.ascii[c * words + w]! |= this.any[w]!;
    this.fixed = fixed;
  }

  /** The bits a non-ASCII code unit enters. */
  private other(unit: number): Uint32Array {
    const folded = fold(unit);
    let mask = this.others.get(folded);
    if (mask === undefined) {
      const m = Uint32Array.from(this.any);
      this.tokens.forEach((t, i) => {
        if (t === folded) set(m, 0, i + 1);
      });
      this.others.set(folded, m);
      mask = m;
    }
    return mask;
  }

  test(text: string): boolean {
    if (text.length < this.fixed) return false;
    return this.words === 1 ? this.testOneWord(text) : this.testWords(text);
  }

  private testOneWord(text: string): boolean {
    const stars = this.stars[0]!;
    const ascii = this.ascii;
    const n = text.length;
    // Once the last token, a `*`, is reached, the rest of the text cannot change the answer.
    const done = this.tokens[this.k - 1] === STAR ? 1 << this.k : 0;
    let d = 1 | (2 & stars);
    let at = 0;
    for (; at < n && d !== 0 && (d & done) === 0; at++) {
      const c = text.charCodeAt(at);
      // Advance over a token the unit matches, or stay in a `*`; then enter the `*` after.
      d = ((d << 1) & (c < 128 ? ascii[c]! : this.other(c)[0]!)) | (d & stars);
      d |= (d << 1) & stars;
    }
    this.steps += at;
    return ((d >>> this.k) & 1) === 1;
  }

  private testWords(text: string): boolean {
    const { words, stars } = this;
    let d = this.current;
    let e = this.next;
    d.fill(0);
    d[0] = 1;
    this.enterStars(d);
    for (let at = 0; at < text.length; at++) {
      const c = text.charCodeAt(at);
      const mask = c < 128 ? this.ascii : this.other(c);
      const base = c < 128 ? c * words : 0;
      let carry = 0;
      let alive = 0;
      for (let w = 0; w < words; w++) {
        const x = d[w]!;
        const y = ((((x << 1) | carry) & mask[base + w]!) | (x & stars[w]!)) >>> 0;
        carry = x >>> 31;
        e[w] = y;
        alive |= y;
      }
      this.steps += words;
      if (alive === 0) return false;
      this.enterStars(e);
      [d, e] = [e, d];
    }
    return ((d[this.k >>> 5]! >>> (this.k & 31)) & 1) === 1;
  }

  /** d |= (d << 1) & stars: `*` tokens never follow each other, so one step closes the set. */
  private enterStars(d: Uint32Array): void {
    let carry = 0;
    for (let w = 0; w < this.words; w++) {
      const x = d[w]!;
      d[w] = (x | (((x << 1) | carry) & this.stars[w]!)) >>> 0;
      carry = x >>> 31;
    }
    this.steps += this.words;
  }
}

function set(bits: Uint32Array, base: number, i: number): void {
  bits[base + (i >>> 5)] = (bits[base + (i >>> 5)]! | (1 << (i & 31))) >>> 0;
}
