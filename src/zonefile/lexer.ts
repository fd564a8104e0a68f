/**
 * The master-file scanner: one token at a time over char codes, no token arrays, no regexes.
 * Token text is described by offsets into the source so that callers slice only what they keep.
 */
import { isEscapedSpecial, labelToText, MAX_LABEL, MAX_NAME_WIRE } from './names.js';

export const EOF = 0;
export const EOL = 1;
export const WORD = 2;
export const QUOTED = 3;

/** Internal carrier of a syntax error; caught at the public boundary and turned into `Err`. */
export class ZoneSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super(message);
  }
}

const SPACE = 32;
const TAB = 9;
const CR = 13;
const LF = 10;
const SEMI = 59;
const LPAREN = 40;
const RPAREN = 41;
const QUOTE = 34;
const BACKSLASH = 92;
const DOT = 46;
const AT = 64;

const utf8 = new TextEncoder();

/** Characters of a name: 0 plain, 1 the label separator, 2 needs the escape-aware reader. */
const NAME_CHAR = new Uint8Array(128);
/** ASCII folded to lower case (the names' case-insensitive hash). */
const LOWER = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  NAME_CHAR[c] = c === DOT ? 1 : c <= 0x20 || c >= 0x7f || isEscapedSpecial(c) ? 2 : 0;
  LOWER[c] = c >= 65 && c <= 90 ? c | 32 : c;
}

/** 1 where a character ends a word, 2 for the backslash (escape), 0 otherwise (ASCII only). */
const WORD_STOP = new Uint8Array(128);
for (const c of [SPACE, TAB, LF, CR, SEMI, LPAREN, RPAREN, QUOTE]) WORD_STOP[c] = 1;
WORD_STOP[BACKSLASH] = 2;

export class Lexer {
  readonly s: string;
  readonly n: number;
  pos = 0;
  line = 1;
  lineStart = 0;
  depth = 0;
  /** The current token. */
  kind = EOF;
  start = 0;
  end = 0;
  esc = false;
  tLine = 1;
  tCol = 1;
  private held = false;
  /** Where the last unclosed `(` was opened, for the error at end of file. */
  private parenLine = 0;
  private parenCol = 0;

  constructor(s: string, line = 1) {
    this.s = s;
    this.n = s.length;
    this.line = line;
  }

  fail(message: string): never {
    throw new ZoneSyntaxError(this.tLine, this.tCol, message);
  }

  failAt(line: number, column: number, message: string): never {
    throw new ZoneSyntaxError(line, column, message);
  }

  /** Next `"`, `\\` and newline at or after where each search began (-1: not searched yet). */
  private nq = -1;
  private nqFrom = 0;
  private nb = -1;
  private nbFrom = 0;
  private nl = -1;
  private nlFrom = 0;

  /** Makes the next `next()` return the current token again. */
  unget(): void {
    this.held = true;
  }

  /** Whether the scanner is at the start of a line, outside parentheses, with no token held back. */
  atLineStart(): boolean {
    return !this.held && this.depth === 0 && this.pos === this.lineStart;
  }

  /** Moves past a line read by someone else (lines.ts), `next` being just after its newline. */
  skipLine(next: number): void {
    this.pos = next;
    this.line++;
    this.lineStart = next;
  }

  /** True where the line about to be read starts with a space or tab (a blank owner). */
  atIndentedLine(): boolean {
    const c = this.s.charCodeAt(this.pos);
    return c === SPACE || c === TAB;
  }

  next(): number {
    if (this.held) {
      this.held = false;
      return this.kind;
    }
    const s = this.s;
    const n = this.n;
    let i = this.pos;
    for (;;) {
      if (i >= n) {
        this.mark(i);
        if (this.depth > 0) {
          this.failAt(this.parenLine, this.parenCol, "unbalanced parentheses: '(' is never closed; add ')' after the record data");
        }
        this.pos = i;
        this.kind = EOF;
        return EOF;
      }
      const c = s.charCodeAt(i);
      if (c === SPACE || c === TAB || c === CR) {
        i++;
      } else if (c === LF) {
        if (this.depth > 0) {
          i++;
          this.line++;
          this.lineStart = i;
        } else {
          this.mark(i);
          this.pos = i + 1;
          this.line++;
          this.lineStart = i + 1;
          this.kind = EOL;
          return EOL;
        }
      } else if (c === SEMI) {
        i++;
        while (i < n && s.charCodeAt(i) !== LF) i++;
      } else if (c === LPAREN) {
        if (this.depth === 0) {
          this.parenLine = this.line;
          this.parenCol = i - this.lineStart + 1;
        }
        this.depth++;
        i++;
      } else if (c === RPAREN) {
        if (this.depth === 0) {
          this.mark(i);
          this.fail("unbalanced parentheses: ')' without a matching '('");
        }
        this.depth--;
        i++;
      } else if (c === QUOTE) {
        this.mark(i);
        i++;
        const start = i;
        // Common case: no backslash and no newline before the closing quote, found by indexOf
        // (positions cached with where the search began, so the scan stays linear).
        let q = this.nq;
        if (q < i || this.nqFrom > i) {
          q = s.indexOf('"', i);
          if (q < 0) q = n;
          this.nq = q;
          this.nqFrom = i;
        }
        let bs = this.nb;
        if (bs < i || this.nbFrom > i) {
          bs = s.indexOf('\\', i);
          if (bs < 0) bs = n;
          this.nb = bs;
          this.nbFrom = i;
        }
        let lf = this.nl;
        if (lf < i || this.nlFrom > i) {
          lf = s.indexOf('\n', i);
          if (lf < 0) lf = n;
          this.nl = lf;
          this.nlFrom = i;
        }
        if (q < n && q < bs && q < lf) {
          this.start = start;
          this.end = q;
          this.esc = false;
          this.pos = q + 1;
          this.kind = QUOTED;
          return QUOTED;
        }
        let esc = false;
        for (;;) {
          if (i >= n) this.fail('unterminated quoted string: add the closing \'"\'');
          const d = s.charCodeAt(i);
          if (d === QUOTE) break;
          if (d === BACKSLASH) {
            esc = true;
            if (i + 1 >= n) this.fail('unterminated quoted string: add the closing \'"\'');
            if (s.charCodeAt(i + 1) === LF) {
              this.line++;
              this.lineStart = i + 2;
            }
            i += 2;
            continue;
          }
          if (d === LF) this.fail('newline inside a quoted string: close the quote on the same line');
          i++;
        }
        this.start = start;
        this.end = i;
        this.esc = esc;
        this.pos = i + 1;
        this.kind = QUOTED;
        return QUOTED;
      } else {
        this.mark(i);
        const start = i;
        let esc = false;
        while (i < n) {
          const d = s.charCodeAt(i);
          const t = d < 128 ? WORD_STOP[d]! : 0;
          if (t === 1) break;
          if (t === 2) {
            esc = true;
            if (i + 1 >= n || s.charCodeAt(i + 1) === LF) {
              this.fail('a backslash at the end of a line escapes nothing: remove it or write \\\\');
            }
            i += 2;
            continue;
          }
          i++;
        }
        this.start = start;
        this.end = i;
        this.esc = esc;
        this.pos = i;
        this.kind = WORD;
        return WORD;
      }
    }
  }

  private mark(i: number): void {
    this.tLine = this.line;
    this.tCol = i - this.lineStart + 1;
  }

  /** The raw text of the current token (escapes kept). */
  text(): string {
    return this.s.slice(this.start, this.end);
  }

  /** Whether the current token is exactly `word`, case-insensitively (`word` upper case). */
  is(word: string): boolean {
    const len = this.end - this.start;
    if (len !== word.length) return false;
    for (let k = 0; k < len; k++) {
      let c = this.s.charCodeAt(this.start + k);
      if (c >= 97 && c <= 122) c -= 32;
      if (c !== word.charCodeAt(k)) return false;
    }
    return true;
  }

  /** Decodes the current token's text and escapes into bytes (UTF-8 for non-ASCII). */
  bytes(): Uint8Array {
    const s = this.s;
    const out: number[] = [];
    for (let i = this.start; i < this.end; ) {
      const c = s.charCodeAt(i);
      if (c === BACKSLASH) {
        const d1 = s.charCodeAt(i + 1);
        if (d1 >= 48 && d1 <= 57) {
          const d2 = s.charCodeAt(i + 2);
          const d3 = s.charCodeAt(i + 3);
          if (!(d2 >= 48 && d2 <= 57 && d3 >= 48 && d3 <= 57) || i + 3 >= this.end) {
            this.fail('\\DDD escape needs exactly three decimal digits (e.g. \\065)');
          }
          const v = (d1 - 48) * 100 + (d2 - 48) * 10 + (d3 - 48);
          if (v > 255) this.fail(`\\${s.slice(i + 1, i + 4)} is not a byte: \\DDD escapes go up to \\255`);
          out.push(v);
          i += 4;
          continue;
        }
        i++;
        const cp = s.codePointAt(i) ?? 0;
        pushChar(out, cp);
        i += cp > 0xffff ? 2 : 1;
        continue;
      }
      if (c < 0x80) {
        out.push(c);
        i++;
      } else {
        const cp = s.codePointAt(i) ?? 0;
        pushChar(out, cp);
        i += cp > 0xffff ? 2 : 1;
      }
    }
    return Uint8Array.from(out);
  }

  /**
   * Reads the current word as a domain name and returns its presentation form, absolute.
   * `origin` completes relative names; `null` means no origin is known yet.
   */
  name(origin: string | null, what: string): string {
    if (this.kind !== WORD) this.fail(`expected ${what} (a domain name), found ${this.describe()}`);
    const s = this.s;
    const start = this.start;
    const end = this.end;
    if (end - start === 1) {
      const c = s.charCodeAt(start);
      if (c === AT) {
        if (origin === null) return this.noOrigin(what);
        this.nameHash = nameHash(origin);
        return origin;
      }
      if (c === DOT) {
        this.nameHash = DOT;
        return '.';
      }
    }
    if (!this.esc) {
      // Fast path: plain ASCII without specials needs no rewriting.
      let labelLen = 0;
      let wire = 1;
      let plain = true;
      let h = 0;
      for (let i = start; i < end; i++) {
        const c = s.charCodeAt(i);
        const k = c < 128 ? NAME_CHAR[c]! : 2;
        if (k === 0) {
          h = (Math.imul(h, 31) + LOWER[c]!) | 0;
          if (++labelLen > MAX_LABEL) this.fail(`${what} "${this.text()}" has a label longer than 63 octets`);
        } else if (k === 1) {
          h = (Math.imul(h, 31) + DOT) | 0;
          if (labelLen === 0) this.fail(`${what} "${this.text()}" has an empty label (two dots in a row, or a leading dot)`);
          wire += labelLen + 1;
          labelLen = 0;
        } else {
          plain = false;
          break;
        }
      }
      if (plain) {
        const absolute = labelLen === 0;
        if (absolute) {
          if (wire > MAX_NAME_WIRE) this.fail(`${what} "${this.text()}" is longer than 255 octets`);
          this.nameHash = h;
          return s.slice(start, end);
        }
        wire += labelLen + 1;
        if (origin === null) return this.noOrigin(what);
        if (origin !== this.suffix.origin) this.suffix = originSuffix(origin);
        const sfx = this.suffix;
        if (wire - 1 + sfx.wire > MAX_NAME_WIRE) this.fail(`${what} "${this.text()}" is longer than 255 octets once the origin ${origin} is added`);
        this.nameHash = (Math.imul((Math.imul(h, 31) + DOT) | 0, sfx.pow) + sfx.hash) | 0;
        return s.slice(start, end) + sfx.text;
      }
    }
    const name = this.slowName(origin, what);
    this.nameHash = nameHash(name);
    return name;
  }

  /** Case-insensitive hash of the last name read, for cheap owner comparisons. */
  nameHash = 0;

  /** Cached `'.' + origin` and its wire length: relative names are the common case. */
  /** What a relative name gets from the origin it was last read under. */
  private suffix: OriginSuffix = NO_SUFFIX;

  private slowName(origin: string | null, what: string): string {
    const b = this.bytes();
    // Split on unescaped dots: re-scan the source to know which dots were escaped.
    const s = this.s;
    const labels: string[] = [];
    let cur: number[] = [];
    let absolute = false;
    let bi = 0;
    let wire = 1;
    for (let i = this.start; i < this.end; ) {
      const c = s.charCodeAt(i);
      let consumedBytes: number;
      let escaped = false;
      if (c === BACKSLASH) {
        escaped = true;
        const d1 = s.charCodeAt(i + 1);
        if (d1 >= 48 && d1 <= 57) {
          i += 4;
          consumedBytes = 1;
        } else {
          const cp = s.codePointAt(i + 1) ?? 0;
          i += 1 + (cp > 0xffff ? 2 : 1);
          consumedBytes = utf8Len(cp);
        }
      } else {
        const cp = s.codePointAt(i) ?? 0;
        i += cp > 0xffff ? 2 : 1;
        consumedBytes = utf8Len(cp);
      }
      if (!escaped && c === DOT) {
        if (cur.length === 0) this.fail(`${what} "${this.text()}" has an empty label (two dots in a row, or a leading dot)`);
        labels.push(labelToText(cur, 0, cur.length));
        wire += cur.length + 1;
        cur = [];
        bi += 1;
        if (i >= this.end) absolute = true;
        continue;
      }
      for (let k = 0; k < consumedBytes; k++) cur.push(b[bi++] ?? 0);
      if (cur.length > MAX_LABEL) this.fail(`${what} "${this.text()}" has a label longer than 63 octets`);
    }
    if (!absolute) {
      if (cur.length === 0) this.fail(`${what} "${this.text()}" has an empty label`);
      labels.push(labelToText(cur, 0, cur.length));
      wire += cur.length + 1;
    }
    const text = labels.join('.');
    if (absolute) {
      if (wire > MAX_NAME_WIRE) this.fail(`${what} "${this.text()}" is longer than 255 octets`);
      return text + '.';
    }
    if (origin === null) return this.noOrigin(what);
    if (wire - 1 + wireLength(origin) > MAX_NAME_WIRE) this.fail(`${what} "${this.text()}" is longer than 255 octets once the origin ${origin} is added`);
    return origin === '.' ? text + '.' : text + '.' + origin;
  }

  private noOrigin(what: string): never {
    return this.fail(`${what} "${this.text()}" is relative but no origin is known: add a $ORIGIN line or pass options.origin`);
  }

  describe(): string {
    if (this.kind === EOL || this.kind === EOF) return 'the end of the line';
    const t = this.text();
    return `"${t.length > 40 ? t.slice(0, 40) + '…' : t}"`;
  }
}

/** Polynomial hash (base 31, 32-bit) of a name with ASCII letters folded to lower case. */
export function nameHash(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    h = (Math.imul(h, 31) + (c >= 65 && c <= 90 ? c | 32 : c)) | 0;
  }
  return h;
}

/** Wire length of an absolute name in presentation form (escapes counted as one octet). */
export function wireLength(name: string): number {
  if (name === '.') return 1;
  let n = 1;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === BACKSLASH) {
      const d = name.charCodeAt(i + 1);
      i += d >= 48 && d <= 57 ? 3 : 1;
      n++;
    } else if (c < 0x80) {
      n++;
    } else {
      const cp = name.codePointAt(i) ?? 0;
      if (cp > 0xffff) i++;
      n += utf8Len(cp);
    }
  }
  return n;
}

function utf8Len(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

function pushChar(out: number[], cp: number): void {
  if (cp < 0x80) out.push(cp);
  else for (const b of utf8.encode(String.fromCodePoint(cp))) out.push(b);
}

/**
 * What a relative name gets from its origin, computed once per origin: the text to append, its
 * wire length, and the terms that extend a name's hash without rehashing the origin (a relative
 * name's hash is hash(token + '.') * 31^len(origin) + hash(origin); '.' adds nothing). Shared by
 * the lexer and the byte-level line reader.
 * @internal
 */
export interface OriginSuffix {
  readonly origin: string;
  readonly text: string;
  readonly wire: number;
  readonly hash: number;
  readonly pow: number;
}

/** No origin read yet: differs from every real origin, so the first name computes one. @internal */
export const NO_SUFFIX: OriginSuffix = Object.freeze({ origin: '', text: '', wire: 0, hash: 0, pow: 1 });

/** The {@link OriginSuffix} of an origin. @internal */
export function originSuffix(origin: string): OriginSuffix {
  const tail = origin === '.' ? '' : origin;
  let pow = 1;
  for (let i = 0; i < tail.length; i++) pow = Math.imul(pow, 31);
  return { origin, text: origin === '.' ? '.' : '.' + origin, wire: wireLength(origin), hash: nameHash(tail), pow };
}
