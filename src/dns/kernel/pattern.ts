/**
 * Blacklist patterns: Python regular expressions (the real service stores them as `re` patterns
 * and tests zone names with `re.search`), compiled here into a Thompson automaton and run as a
 * Pike VM without captures. A search costs O(name length × pattern size) whatever the pattern,
 * so a hostile pattern (`(a+)+$`, `.*.*.*.*x`) cannot hang the service, where JavaScript's
 * backtracking `RegExp` could run for years on a 255-character name. The real service bounds
 * the same danger with a 20 ms alarm (and then counts the name as blacklisted); a linear
 * matcher needs no clock and gives the same answer every time.
 *
 * The price: what no automaton can decide (backreferences, lookarounds, atomic groups,
 * possessive quantifiers, conditionals) and inline flags are refused when a pattern is written,
 * as an invalid regular expression, although Python would compile them.
 * @internal
 */
import { err, ok, type Result } from 'neverthrow';

/** Code units tested by one step of the automaton. */
type CharTest = (c: number) => boolean;

type Node =
  | { readonly t: 'char'; readonly test: CharTest }
  | { readonly t: 'assert'; readonly kind: Assertion }
  | { readonly t: 'seq'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly items: readonly Node[] }
  | { readonly t: 'rep'; readonly item: Node; readonly min: number; readonly max: number };

type Assertion = 'bos' | 'eos' | 'eol' | 'word' | 'notWord';

type Inst =
  | { op: 'char'; test: CharTest; next: number }
  | { op: 'split'; a: number; b: number }
  | { op: 'assert'; kind: Assertion; next: number }
  | { op: 'match' };

/** A compiled pattern: `search(name)` is Python's `bool(re.search(pattern, name))`. @internal */
export interface CompiledPattern {
  search(text: string): boolean;
}

/** Why a pattern cannot be used: Python's own refusals, and what this matcher cannot decide. @internal */
export type PatternProblem = 'invalid' | 'unsupported' | 'too complex';

/** Most automaton states a pattern may need (counted repetitions multiply them). */
const MAX_STATES = 20_000;
/** Python's limit on a counted repetition. */
const MAX_REPEAT = 4294967295;

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isSpace: CharTest = (c) => c === 32 || (c >= 9 && c <= 13) || c === 0x1c || c === 0x1d || c === 0x1e || c === 0x1f || c === 0x85 || c === 0xa0;
const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const not =
  (f: CharTest): CharTest =>
  (c) =>
    !f(c);
const CLASS_ESCAPES: Readonly<Record<string, CharTest>> = { d: isDigit, D: not(isDigit), s: isSpace, S: not(isSpace), w: isWord, W: not(isWord) };
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };

class Refusal extends Error {
  constructor(readonly problem: PatternProblem) {
    super(problem);
  }
}

/** A recursive-descent reader of Python's `re` syntax, down to the subset above. */
class Parser {
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

/** Compiles the tree into instructions; throws 'too complex' past {@link MAX_STATES}. */
class Compiler {
  readonly prog: Inst[] = [];

  private emit(inst: Inst): number {
    if (this.prog.length >= MAX_STATES) throw new Refusal('too complex');
    this.prog.push(inst);
    return this.prog.length - 1;
  }

  /** Emits `node` so that it continues at the instruction emitted next. */
  node(node: Node): void {
    switch (node.t) {
      case 'char':
        this.emit({ op: 'char', test: node.test, next: this.prog.length + 1 });
        return;
      case 'assert':
        this.emit({ op: 'assert', kind: node.kind, next: this.prog.length + 1 });
        return;
      case 'seq':
        for (const item of node.items) this.node(item);
        return;
      case 'alt': {
        const jumps: Inst[] = [];
        node.items.forEach((item, k) => {
          if (k < node.items.length - 1) {
            const split = { op: 'split', a: this.prog.length + 1, b: 0 } as Inst & { op: 'split' };
            this.emit(split);
            this.node(item);
            const jump = { op: 'split', a: 0, b: 0 } as Inst & { op: 'split' };
            this.emit(jump);
            jumps.push(jump);
            split.b = this.prog.length;
          } else {
            this.node(item);
          }
        });
        for (const j of jumps as (Inst & { op: 'split' })[]) j.a = j.b = this.prog.length;
        return;
      }
      case 'rep': {
        for (let k = 0; k < node.min; k++) this.node(node.item);
        if (node.max === Infinity) {
          const split = { op: 'split', a: this.prog.length + 1, b: 0 } as Inst & { op: 'split' };
          const at = this.emit(split);
          this.node(node.item);
          this.emit({ op: 'split', a: at, b: at });
          split.b = this.prog.length;
          return;
        }
        const exits: (Inst & { op: 'split' })[] = [];
        for (let k = node.min; k < node.max; k++) {
          const split = { op: 'split', a: this.prog.length + 1, b: 0 } as Inst & { op: 'split' };
          this.emit(split);
          exits.push(split);
          this.node(node.item);
        }
        for (const s of exits) s.b = this.prog.length;
        return;
      }
    }
  }
}

const holds = (kind: Assertion, text: string, at: number): boolean => {
  const n = text.length;
  switch (kind) {
    case 'bos':
      return at === 0;
    case 'eos':
      return at === n;
    case 'eol':
      return at === n || (at === n - 1 && text.charCodeAt(at) === 10);
    case 'word':
    case 'notWord': {
      const before = at > 0 && isWord(text.charCodeAt(at - 1));
      const after = at < n && isWord(text.charCodeAt(at));
      return (before !== after) === (kind === 'word');
    }
  }
};

/**
 * Where a search may start, found once per pattern: whether it matches the empty string,
 * whether it can only match from the start (every way in passes `^` or `\A`), and the
 * characters a match can begin with. A position that cannot start a match adds no thread.
 */
interface Entry {
  readonly nullable: boolean;
  readonly anchored: boolean;
  readonly first: readonly CharTest[];
}

function entryOf(prog: readonly Inst[]): Entry {
  const seen = new Set<number>();
  const first: CharTest[] = [];
  let nullable = false;
  let unanchored = false;
  const stack: [number, boolean][] = [[0, false]];
  while (stack.length > 0) {
    const [pc, pastStart] = stack.pop()!;
    const key = pc * 2 + (pastStart ? 1 : 0);
    if (seen.has(key)) continue;
    seen.add(key);
    const inst = prog[pc]!;
    if (inst.op === 'match') {
      nullable = true;
      if (!pastStart) unanchored = true;
    } else if (inst.op === 'split') stack.push([inst.a, pastStart], [inst.b, pastStart]);
    else if (inst.op === 'assert') stack.push([inst.next, pastStart || inst.kind === 'bos']);
    else {
      first.push(inst.test);
      if (!pastStart) unanchored = true;
    }
  }
  return { nullable, anchored: !unanchored, first };
}

/**
 * The search of one pattern: runs the automaton over a text, starting a thread at every position
 * that can start a match. Its buffers are made once and reused (a search is synchronous): a
 * state's mark is the generation (`base` + position) that last added it.
 */
function pikeSearcher(prog: readonly Inst[], entry: Entry): (text: string) => boolean {
  const mark = new Int32Array(prog.length).fill(-1);
  let base = 0;
  let current: number[] = [];
  let next: number[] = [];
  const stack: number[] = [];
  let text = '';
  // Whether a match can begin with each ASCII character, tabled once (zone names are ASCII).
  const startsAscii = new Uint8Array(128);
  for (let c = 0; c < 128; c++) startsAscii[c] = entry.first.some((t) => t(c)) ? 1 : 0;
  const mayBegin = (c: number): boolean => (c < 128 ? startsAscii[c] === 1 : entry.first.some((t) => t(c)));
  // Adds `pc` and everything reachable from it without reading a character; true on a match.
  const add = (list: number[], start: number, at: number, generation: number): boolean => {
    stack.push(start);
    while (stack.length > 0) {
      const pc = stack.pop()!;
      if (mark[pc] === generation) continue;
      mark[pc] = generation;
      const inst = prog[pc]!;
      if (inst.op === 'match') {
        stack.length = 0;
        return true;
      }
      if (inst.op === 'split') stack.push(inst.b, inst.a);
      else if (inst.op === 'assert') {
        if (holds(inst.kind, text, at)) stack.push(inst.next);
      } else list.push(pc);
    }
    return false;
  };
  const run = (): boolean => {
    for (let at = 0; at <= text.length; at++) {
      const c = at < text.length ? text.charCodeAt(at) : -1;
      const mayStart = (at === 0 || !entry.anchored) && (entry.nullable || (c >= 0 && mayBegin(c)));
      if (mayStart && add(current, 0, at, base + at)) return true;
      if (at === text.length) break;
      if (current.length === 0) {
        if (entry.anchored) return false; // no thread left, and none can start after position 0
        continue;
      }
      next.length = 0;
      for (const pc of current) {
        const inst = prog[pc] as Inst & { op: 'char' };
        if (inst.test(c) && add(next, inst.next, at + 1, base + at + 1)) return true;
      }
      [current, next] = [next, current];
    }
    return false;
  };
  return (t) => {
    if (base > 0x3fffffff) {
      mark.fill(-1);
      base = 0;
    }
    text = t;
    current.length = 0;
    next.length = 0;
    stack.length = 0;
    try {
      return run();
    } finally {
      base += t.length + 2;
    }
  };
}

/**
 * Compiles a blacklist pattern, or says why it cannot be: `'invalid'` where Python's
 * `re.compile` refuses it too, `'unsupported'` for what only a backtracking engine decides,
 * `'too complex'` for counted repetitions past the automaton's bound.
 * @internal
 */
export function compilePattern(pattern: string): Result<CompiledPattern, PatternProblem> {
  try {
    const tree = new Parser(pattern).parse();
    const compiler = new Compiler();
    compiler.node(tree);
    compiler.prog.push({ op: 'match' });
    const prog = compiler.prog;
    return ok({ search: pikeSearcher(prog, entryOf(prog)) });
  } catch (cause) {
    if (cause instanceof Refusal) return err(cause.problem);
    throw cause;
  }
}
