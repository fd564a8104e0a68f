/**
 * Blacklist patterns: Python regular expressions (the real service stores them as `re` patterns
 * and tests zone names with `re.search`), compiled here into a Thompson automaton and searched
 * with a DFA built lazily from it (all of a blacklist's patterns at once, see {@link anyPattern}).
 * A search costs O(name length × pattern size) at worst whatever the pattern,
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
import { isWord, Parser, Refusal, type Assertion, type CharTest, type Node, type PatternProblem } from './pattern-syntax.js';

export type { PatternProblem } from './pattern-syntax.js';

type Inst =
  | { op: 'char'; test: CharTest; next: number }
  | { op: 'split'; a: number; b: number }
  | { op: 'assert'; kind: Assertion; next: number }
  | { op: 'match' };

/**
 * A compiled pattern: `search(name)` is Python's `bool(re.search(pattern, name))`; for several
 * patterns made one ({@link anyPattern}), whether any of them finds a match.
 * @internal
 */
export interface CompiledPattern {
  search(text: string): boolean;
}

/** Most automaton states a pattern may need (counted repetitions multiply them). */
const MAX_STATES = 20_000;

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

/** What follows a position, as far as assertions look: a code unit, or one of these two. */
const END = -1;
/** A newline that is the text's last character: `$` holds before it, as Python's does. */
const LAST_NEWLINE = -2;
/** The transition-table slot of {@link LAST_NEWLINE}, after the 128 ASCII code units. */
const LAST_NEWLINE_SLOT = 128;
/** A transition that reaches a match: the search is over. */
const MATCH = -1;

/** Whether an assertion holds between a character (or the start) and what follows. */
function holds(kind: Assertion, atStart: boolean, prevWord: boolean, next: number): boolean {
  switch (kind) {
    case 'bos':
      return atStart;
    case 'eos':
      return next === END;
    case 'eol':
      return next === END || next === LAST_NEWLINE;
    case 'word':
    case 'notWord':
      return (prevWord !== (next >= 0 && isWord(next))) === (kind === 'word');
  }
}

/**
 * A state of the lazily built DFA: the automaton threads waiting for the next character (the
 * patterns' starts, re-entered at every position, are left implicit), and what the assertions
 * between it and the next character need to know of the past.
 */
interface DfaState {
  readonly threads: Int32Array;
  readonly atStart: boolean;
  readonly prevWord: boolean;
  /** Per ASCII code unit (and {@link LAST_NEWLINE_SLOT}): 0 not built yet, {@link MATCH}, or the next state's index + 1. */
  readonly next: Int32Array;
  /** Whether a match ends at the end of the text: 0 not known yet, 1 no, 2 yes. */
  atEnd: number;
}

/** Most DFA states kept, and most threads held across them, before the cache starts over. */
const MAX_DFA_STATES = 2048;
const MAX_DFA_THREADS = 1 << 18;

/**
 * The search of one or more programs at once, as a DFA built lazily from the automaton: the
 * first time a state meets a character, the step is computed over the automaton's threads
 * (O(program size)) and remembered, so a search over names seen before costs one table
 * lookup per character. A state is only made when a step reaches it, so a search still costs
 * O(text length × program size) at worst, and the cache is bounded (cleared when full).
 */
class Dfa {
  private states: DfaState[] = [];
  private readonly index = new Map<string, number>();
  private held = 0;
  /** Generation marks, so that a closure visits each instruction once without clearing. */
  private readonly seen: Int32Array;
  private readonly taken: Int32Array;
  private generation = 0;
  private readonly stack: number[] = [];
  private readonly chars: number[] = [];
  private readonly targets: number[] = [];

  constructor(
    private readonly prog: readonly Inst[],
    private readonly starts: readonly number[],
  ) {
    this.seen = new Int32Array(prog.length);
    this.taken = new Int32Array(prog.length);
  }

  search(text: string): boolean {
    if (this.starts.length === 0) return false;
    let s = this.state(new Int32Array(0), true, false);
    const n = text.length;
    for (let at = 0; at < n; at++) {
      let c = text.charCodeAt(at);
      if (c === 10 && at === n - 1) c = LAST_NEWLINE;
      const slot = c === LAST_NEWLINE ? LAST_NEWLINE_SLOT : c < 128 ? c : -1;
      let t = slot >= 0 ? this.states[s]!.next[slot]! : 0;
      if (t === 0) t = this.step(s, c, slot);
      if (t === MATCH) return true;
      s = t - 1;
    }
    const last = this.states[s]!;
    if (last.atEnd === 0) last.atEnd = this.close(last, END) ? 2 : 1;
    return last.atEnd === 2;
  }

  /** Follows every thread of `state` (and every start) through what reads no character; true on a match. */
  private close(state: DfaState, next: number): boolean {
    const { prog, seen, stack, chars } = this;
    const g = this.nextGeneration();
    chars.length = 0;
    stack.length = 0;
    for (let k = state.threads.length - 1; k >= 0; k--) stack.push(state.threads[k]!);
    for (let k = this.starts.length - 1; k >= 0; k--) stack.push(this.starts[k]!);
    while (stack.length > 0) {
      const pc = stack.pop()!;
      if (seen[pc] === g) continue;
      seen[pc] = g;
      const inst = prog[pc]!;
      if (inst.op === 'match') return true;
      if (inst.op === 'split') stack.push(inst.b, inst.a);
      else if (inst.op === 'assert') {
        if (holds(inst.kind, state.atStart, state.prevWord, next)) stack.push(inst.next);
      } else chars.push(pc);
    }
    return false;
  }

  /** The transition of state `s` on `c`, computed and, for an ASCII slot, remembered. */
  private step(s: number, c: number, slot: number): number {
    const from = this.states[s]!;
    if (this.close(from, c)) {
      if (slot >= 0) from.next[slot] = MATCH;
      return MATCH;
    }
    const code = c === LAST_NEWLINE ? 10 : c;
    const { prog, taken, chars, targets } = this;
    const g = this.nextGeneration();
    targets.length = 0;
    for (const pc of chars) {
      const inst = prog[pc] as Inst & { op: 'char' };
      if (inst.test(code) && taken[inst.next] !== g) {
        taken[inst.next] = g;
        targets.push(inst.next);
      }
    }
    const threads = Int32Array.from(targets).sort();
    // The cache may start over here; `from` is then no longer in it, and writing to it is harmless.
    const t = this.state(threads, false, isWord(code)) + 1;
    if (slot >= 0) from.next[slot] = t;
    return t;
  }

  /** The index of the state with these threads and past, made if new. */
  private state(threads: Int32Array, atStart: boolean, prevWord: boolean): number {
    const key = `${atStart ? 1 : 0}${prevWord ? 1 : 0}${threads.join(',')}`;
    const known = this.index.get(key);
    if (known !== undefined) return known;
    if (this.states.length >= MAX_DFA_STATES || this.held + threads.length > MAX_DFA_THREADS) {
      this.states = [];
      this.index.clear();
      this.held = 0;
    }
    this.states.push({ threads, atStart, prevWord, next: new Int32Array(LAST_NEWLINE_SLOT + 1), atEnd: 0 });
    this.held += threads.length;
    this.index.set(key, this.states.length - 1);
    return this.states.length - 1;
  }

  private nextGeneration(): number {
    if (this.generation === 0x3fffffff) {
      this.seen.fill(0);
      this.taken.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }
}

/** A compiled pattern, or several searched at once: the automaton and, built on first use, its DFA. */
class Automaton implements CompiledPattern {
  private dfa: Dfa | undefined;

  constructor(
    readonly program: readonly Inst[],
    readonly starts: readonly number[],
  ) {}

  search(text: string): boolean {
    this.dfa ??= new Dfa(this.program, this.starts);
    return this.dfa.search(text);
  }
}

/** The same instruction, placed `offset` further in a program. */
function moved(inst: Inst, offset: number): Inst {
  switch (inst.op) {
    case 'char':
      return { op: 'char', test: inst.test, next: inst.next + offset };
    case 'assert':
      return { op: 'assert', kind: inst.kind, next: inst.next + offset };
    case 'split':
      return { op: 'split', a: inst.a + offset, b: inst.b + offset };
    case 'match':
      return inst;
  }
}

/**
 * One automaton for all of `patterns`: its search tells whether any of them matches, in a
 * single pass over the text whatever their number. None: it matches nothing.
 * @internal
 */
export function anyPattern(patterns: readonly CompiledPattern[]): CompiledPattern {
  if (patterns.length === 1) return patterns[0]!;
  const program: Inst[] = [];
  const starts: number[] = [];
  for (const p of patterns) {
    if (!(p instanceof Automaton)) throw new TypeError('anyPattern: a pattern not made by compilePattern');
    const offset = program.length;
    for (const inst of p.program) program.push(moved(inst, offset));
    for (const s of p.starts) starts.push(s + offset);
  }
  return new Automaton(program, starts);
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
    return ok(new Automaton(compiler.prog, [0]));
  } catch (cause) {
    if (cause instanceof Refusal) return err(cause.problem);
    throw cause;
  }
}
