/**
 * The byte-level fast path for simple record lines.
 *
 * Reading characters from a 57 MB string costs about twice as much as reading bytes from a typed
 * array, but a byte copy of the whole file would double the parser's peak memory. So the text is
 * encoded a window at a time (`TextEncoder.encodeInto`, at most {@link WINDOW} characters) into one
 * reused buffer. While a window is pure ASCII, byte offsets are string offsets: owners and record
 * data are still cut from the original string with `slice`, exactly as the lexer's readers cut them.
 *
 * One call reads one whole line (owner, TTL, class, type and data of a common type in simple form,
 * or a blank or comment line) and commits nothing: anything it does not
 * know for certain is valid and canonical (escapes, parentheses, directives, uncommon types,
 * non-ASCII, any error) makes it answer {@link NOT_HANDLED}, and the lexer then reads the same line
 * from its start. Results and error messages are therefore those of the lexer's path by
 * construction; test/zonefile/differential.test.ts compares the two paths on generated zones.
 * Its data readers are also the only simple-form readers of records the lexer reads (`data`):
 * their canonical text is built from slices of the input and allocates no structured data, and
 * anything else is left to the type's full reader in rdata.ts (test/zonefile/fast-paths.test.ts).
 */
import { IPv6Text, MAX_IPV6_TEXT, asciiText, formatIPv6, isCanonicalIPv6, parseIPv6, scanIPv4, writeIPv6 } from './codec.js';
import { NO_SUFFIX, nameHash, originSuffix, type OriginSuffix } from './lexer.js';
import { typeOfPackedKey } from './registry.js';
import { MAX_LABEL, MAX_NAME_WIRE, isEscapedSpecial } from './names.js';
import { MAX_RDATA, ttlValue } from './rdata.js';

/** Characters encoded per window; the buffer is this many bytes (ASCII windows only are used). */
const WINDOW = 1 << 20;
/** First window size: small inputs do not pay for a 1 MiB buffer. */
const FIRST_WINDOW = 1 << 16;
/** Smallest window after non-ASCII text (keeps re-encoding linear in files full of UTF-8). */
const MIN_WINDOW = 1 << 12;

/** `line()` results. */
export const NOT_HANDLED = 0;
export const BLANK = 1;
export const RECORD = 2;

/* eslint-disable @typescript-eslint/no-unsafe-enum-comparison -- bytes are numbers compared with these codes on purpose */
/**
 * Character codes and byte classes as `const enum`s, which the build inlines as literals: the
 * optimised code loads a module-scope `const` from the module's context and checks its type on
 * every use, which in the per-character loops cost as much as the character itself.
 */
const enum Ch {
  TAB = 9,
  LF = 10,
  CR = 13,
  SPACE = 32,
  QUOTE = 34,
  DOLLAR = 36,
  DOT = 46,
  SEMI = 59,
  AT = 64,
  BACKSLASH = 0x5c,
}

/** Byte classes (the `CLASS` table). */
const enum C {
  /** Printable ASCII that is none of the below: part of a word. */
  WORD,
  /** Space, tab or CR. */
  BLANK,
  /** `;`, a comment. */
  SEMI,
  /** `"`, a quoted string. */
  QUOTE,
  /** Everything the lexer must see: parentheses, backslash, control characters, non-ASCII. */
  OTHER,
}
const CLASS = new Uint8Array(256).fill(C.OTHER);
for (let c = 0x21; c < 0x7f; c++) CLASS[c] = C.WORD;
CLASS[Ch.SPACE] = C.BLANK;
CLASS[Ch.TAB] = C.BLANK;
CLASS[Ch.CR] = C.BLANK;
CLASS[Ch.SEMI] = C.SEMI;
CLASS[Ch.QUOTE] = C.QUOTE;
// Parentheses and escapes change how the lexer reads the rest of the line.
CLASS[0x28] = C.OTHER;
CLASS[0x29] = C.OTHER;
CLASS[0x5c] = C.OTHER;

/** Name characters (as the lexer's): 0 plain, 1 the label separator, 2 anything else. */
const NAME = new Uint8Array(256).fill(2);
/** ASCII folded to lower case, for the names' case-insensitive hash (as the lexer's). */
const LOWER = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  if (c < 128) NAME[c] = c === Ch.DOT ? 1 : c <= 0x20 || c >= 0x7f || isEscapedSpecial(c) ? 2 : 0;
  LOWER[c] = c >= 65 && c <= 90 ? c | 32 : c;
}

const encoder = new TextEncoder();

/**
 * Below this length V8 copies a substring (and a concatenation) instead of making an object that
 * points into its parent (`SlicedString::kMinLength`): only longer cuts can keep the text alive.
 */
export const SLICE_MIN = 13;

/**
 * The text of bytes `[a, b)` of a Buffer as latin1: Node's own binding (what `toString('latin1')`
 * calls after checking its arguments, a fifth of a copy's cost), else `toString`.
 */
type Latin1Slice = (this: Buffer, a: number, b: number) => string;
const latin1Slice: Latin1Slice =
  (Buffer.prototype as unknown as { latin1Slice?: Latin1Slice }).latin1Slice ??
  function (this: Buffer, a: number, b: number): string {
    return this.toString('latin1', a, b);
  };

// The hot loops below copy these tables into locals first: read from the module scope, the
// optimised code loads and type-checks them again on every character.

/** One parse's byte window and scratch state (nothing is shared between calls). */
export class LineScanner {
  private readonly s: string;
  private readonly n: number;
  private buf: Uint8Array;
  /** `buf` as a Buffer, for copies cut from its bytes (`own` only), else null. */
  private bytes: Buffer | null = null;
  /** String offset of `buf[0]`. */
  private base = 0;
  /** End of the usable (ASCII) bytes of the window, as a string offset. */
  private limit = 0;
  /** No new window before this offset: the text from `limit` on is not ASCII. */
  private resume = 0;
  private size = FIRST_WINDOW;
  /** An AAAA record's address as written (see `aaaa`). */
  private readonly v6 = new IPv6Text();
  /** The eight groups of an address and its canonical text (see `aaaa`). */
  private readonly full = new Int32Array(8);
  private readonly text = new Uint8Array(MAX_IPV6_TEXT);

  /** What relative names get from the origin they were last read under. */
  private suffix: OriginSuffix = NO_SUFFIX;

  /** Where the line read ends (just after its newline). */
  next = 0;
  /** Offset in `buf` of the newline of the line being read. */
  private eol = 0;
  /** The record's owner, and whether it was read from this line (not reused or inherited). */
  owner = '';
  fresh = false;
  ownerStart = 0;
  ownerEnd = 0;
  /** Hash of the owner read from this line (as the lexer's `nameHash`). */
  ownerHash = 0;
  /** Hash of the last name read, and where it ended. */
  private hash = 0;
  private nameEnd = 0;
  /** The stated TTL, or -1. */
  ttl = -1;
  type = 0;
  rdata = '';
  /** Whether the last name read is its token's text unchanged (absolute, as written). */
  private asWritten = false;

  /**
   * `aaaaAsWritten`: AAAA data keeps the file's spelling (see `ReaderOptions.aaaaAsWritten`).
   * `own`: every string given out is its own copy rather than a slice of `s` (an import keeps
   * the strings it reads, and one slice kept would keep the whole file alive).
   */
  constructor(
    s: string,
    private readonly aaaaAsWritten = false,
    private readonly own = false,
  ) {
    this.s = s;
    this.n = s.length;
    this.buf = this.window(Math.min(FIRST_WINDOW, s.length) + 1);
  }

  private window(size: number): Uint8Array {
    const buf = new Uint8Array(size);
    if (this.own) this.bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    return buf;
  }

  /** Encodes the window starting at `p`; keeps its ASCII prefix usable. */
  private fill(p: number): void {
    const chunk = Math.min(this.size, this.n - p);
    if (this.buf.length <= chunk) this.buf = this.window(Math.min(WINDOW, Math.max(chunk, this.buf.length * 2)) + 1);
    const r = encoder.encodeInto(this.s.substring(p, p + chunk), this.buf);
    this.base = p;
    if (r.read === chunk && r.written === chunk) {
      this.limit = p + chunk;
      this.resume = this.limit;
      // A newline after the window: the line reader's loops need no bounds checks.
      this.buf[chunk] = Ch.LF;
      if (this.size < WINDOW) this.size *= 2;
      return;
    }
    // Bytes before the first non-ASCII character are that many ASCII characters. The rest of the
    // chunk is left to the lexer, so every character is encoded once at most.
    const b = this.buf;
    let k = 0;
    while (k < r.written && b[k]! < 0x80) k++;
    this.limit = p + k;
    this.resume = p + chunk;
    b[k] = Ch.LF;
    if (this.size > MIN_WINDOW) this.size >>= 1;
  }

  /**
   * Reads the line starting at string offset `p` (a line start outside parentheses).
   * `reuse` is the previous owner when the same text at `prevStart`..`prevEnd` means the same name,
   * `inherited` the owner of a blank-owner line (or null).
   */
  line(p: number, origin: string | null, reuse: string | null, prevStart: number, prevEnd: number, inherited: string | null): number {
    if (p >= this.limit) {
      if (p < this.resume || p >= this.n) return NOT_HANDLED;
      this.fill(p);
    }
    // The line that runs past the window (one per window) is left to the lexer: `eol` is then `end`.
    const end = this.limit - this.base;
    const r = this.read(p - this.base, origin, reuse, prevStart, prevEnd, inherited);
    if (r === NOT_HANDLED || this.eol === end) return NOT_HANDLED;
    this.next = this.base + this.eol + 1;
    return r;
  }

  private read(i: number, origin: string | null, reuse: string | null, prevStart: number, prevEnd: number, inherited: string | null): number {
    const b = this.buf;
    const cls = CLASS;
    let c = b[i]!;
    if (c === Ch.LF) {
      this.eol = i;
      return BLANK;
    }
    if (c === Ch.SPACE || c === Ch.TAB) {
      if (this.atEnd(i + 1)) return BLANK;
      i = this.blanks(i + 1);
      if (inherited === null) return NOT_HANDLED;
      this.owner = inherited;
      this.fresh = false;
    } else if (c === Ch.SEMI) {
      return this.atEnd(i) ? BLANK : NOT_HANDLED;
    } else if (c === Ch.CR) {
      // The lexer skips a Ch.CR but reads a word after it as an owner: only a blank line is simple.
      return this.atEnd(i + 1) ? BLANK : NOT_HANDLED;
    } else {
      if (cls[c] !== C.WORD || c === Ch.DOLLAR) return NOT_HANDLED;
      const a = i;
      // The previous owner's text (all word characters) again, then a blank: the same owner.
      const len = prevEnd - prevStart;
      if (reuse !== null && this.same(a, prevStart, len) && cls[b[a + len]!] === C.BLANK) {
        i = a + len;
        this.owner = reuse;
        this.fresh = false;
      } else {
        const owner = this.name(a, origin);
        i = this.nameEnd;
        if (owner === null || cls[b[i]!] !== C.BLANK) return NOT_HANDLED;
        this.owner = owner;
        this.ownerHash = this.hash;
        this.fresh = true;
        this.ownerStart = a + this.base;
        this.ownerEnd = i + this.base;
      }
    }
    // TTL and class in either order, then the type.
    let ttl = -1;
    let klass = false;
    let type = -1;
    for (;;) {
      i = this.blanks(i);
      const a = i;
      while (cls[b[i]!] === C.WORD) i++;
      c = b[i]!;
      if (i === a || (c !== Ch.LF && cls[c] !== C.BLANK)) return NOT_HANDLED;
      c = b[a]!;
      if (ttl < 0 && c >= 48 && c <= 57) {
        ttl = this.ttlOf(a, i);
        if (ttl < 0) return NOT_HANDLED;
        continue;
      }
      if (!klass && i - a === 2 && (c | 32) === 105 && (b[a + 1]! | 32) === 110) {
        klass = true;
        continue;
      }
      type = this.commonType(a, i);
      break;
    }
    const rdata = this.rdataOf(type, i, origin);
    if (rdata === null) return NOT_HANDLED;
    this.ttl = ttl;
    this.type = type;
    this.rdata = rdata;
    return RECORD;
  }

  /**
   * The record data of `type` from string offset `p` (just after its type, at depth 0 of
   * parentheses) to the end of its line, for a record whose owner and fields the lexer read: the
   * same readers as {@link line}'s, so these types have one reader of their simple form. null where
   * they cannot say (not in the current ASCII window, a line that runs past it, a form they do not
   * know): the type's full reader then reads the data. When not null, `next` is where the line ends.
   */
  data(p: number, type: number, origin: string | null): string | null {
    if (p < this.base || p >= this.limit) return null;
    const rdata = this.rdataOf(type, p - this.base, origin);
    if (rdata === null || this.eol === this.limit - this.base) return null;
    this.next = this.base + this.eol + 1;
    return rdata;
  }

  /** The data of a type with a simple-form reader, from `buf[i]` to the line's end (`eol`), or null. */
  private rdataOf(type: number, i: number, origin: string | null): string | null {
    switch (type) {
      case 1:
        return this.a(i);
      case 2:
      case 5:
      case 12:
        return this.target(i, origin);
      case 15:
        return this.prefName(i, origin, 1);
      case 33:
        return this.prefName(i, origin, 3);
      case 16:
      case 99:
        return this.txt(i);
      case 28:
        return this.aaaa(i);
      case 43:
        return this.ds(i);
      case 257:
        return this.caa(i);
      default:
        return null;
    }
  }

  private blanks(i: number): number {
    const b = this.buf;
    const cls = CLASS;
    while (cls[b[i]!] === C.BLANK) i++;
    return i;
  }

  /** Whether only blanks and perhaps a comment follow `i` on the line; if so `eol` is its newline. */
  private atEnd(i: number): boolean {
    const b = this.buf;
    i = this.blanks(i);
    let c = b[i];
    if (c === Ch.SEMI) {
      while (c !== Ch.LF) c = b[++i];
    }
    if (c !== Ch.LF) return false;
    this.eol = i;
    return true;
  }

  /** End of the word starting at `i` (a word character there, else `i` itself). */
  private word(i: number): number {
    const b = this.buf;
    const cls = CLASS;
    while (cls[b[i]!] === C.WORD) i++;
    return i;
  }

  /** Whether `buf[a, a+len)` holds the characters of the string at `at`. */
  private same(a: number, at: number, len: number): boolean {
    const b = this.buf;
    if (at >= this.base) {
      const o = at - this.base;
      for (let k = 0; k < len; k++) if (b[a + k] !== b[o + k]) return false;
      return true;
    }
    const s = this.s;
    for (let k = 0; k < len; k++) if (b[a + k] !== s.charCodeAt(at + k)) return false;
    return true;
  }

  private ttlOf(a: number, b: number): number {
    const buf = this.buf;
    if (b - a <= 9) {
      let v = 0;
      let k = a;
      for (; k < b; k++) {
        const c = buf[k]!;
        if (c < 48 || c > 57) break;
        v = v * 10 + (c - 48);
      }
      if (k === b) return v;
    }
    // Units or a large value: the lexer's path's own function, on the same characters.
    const v = ttlValue(this.s, a + this.base, b + this.base);
    return v < 0 ? -1 : v;
  }

  /** As parse.ts `commonType`, on bytes; SOA (6) is left to the lexer (multi-line, rare). */
  private commonType(a: number, b: number): number {
    if (b - a > 5) return -1;
    const buf = this.buf;
    let key = 0;
    for (let i = a; i < b; i++) {
      const c = buf[i]! | 32;
      if (c < 97 || c > 122) return -1;
      key = (key << 5) | (c - 96);
    }
    const type = typeOfPackedKey(key);
    return type === 6 ? -1 : type;
  }

  /** A decimal number in canonical form (no sign, no leading zero) up to `max`, else -1. */
  private uint(a: number, b: number, max: number): number {
    const len = b - a;
    const buf = this.buf;
    if (len === 0 || len > 10) return -1;
    if (len > 1 && buf[a] === 48) return -1;
    let v = 0;
    for (let i = a; i < b; i++) {
      const c = buf[i]!;
      if (c < 48 || c > 57) return -1;
      v = v * 10 + (c - 48);
    }
    return v > max ? -1 : v;
  }

  /**
   * The domain name written from `buf[a]` up to the first character that is not a plain name
   * character or a dot (its offset in `nameEnd`; every character that ends a word ends it), as the
   * lexer's `name` gives it, with its hash; null where the lexer would take its slow path or fail.
   * One pass: the callers check what follows the name instead of finding the word's end first.
   */
  private name(a: number, origin: string | null): string | null {
    const nameClass = NAME;
    const maxLabel = MAX_LABEL;
    const lower = LOWER;
    const buf = this.buf;
    if (CLASS[buf[a + 1]!] !== C.WORD) {
      const c = buf[a]!;
      this.nameEnd = a + 1;
      if (c === Ch.AT) {
        if (origin === null) return null;
        this.hash = nameHash(origin);
        this.asWritten = false;
        return origin;
      }
      if (c === Ch.DOT) {
        this.hash = Ch.DOT;
        this.asWritten = true;
        return '.';
      }
    }
    let labelLen = 0;
    let wire = 1;
    let h = 0;
    let b = a;
    for (;; b++) {
      const c = buf[b]!;
      const k = nameClass[c]!;
      if (k === 0) {
        h = (Math.imul(h, 31) + lower[c]!) | 0;
        if (++labelLen > maxLabel) return null;
      } else if (k === 1) {
        h = (Math.imul(h, 31) + Ch.DOT) | 0;
        if (labelLen === 0) return null;
        wire += labelLen + 1;
        labelLen = 0;
      } else {
        break;
      }
    }
    this.nameEnd = b;
    if (b === a) return null;
    if (labelLen === 0) {
      if (wire > MAX_NAME_WIRE) return null;
      this.hash = h;
      this.asWritten = true;
      return this.slice(a, b);
    }
    wire += labelLen + 1;
    if (origin === null) return null;
    if (origin !== this.suffix.origin) this.suffix = originSuffix(origin);
    const sfx = this.suffix;
    if (wire - 1 + sfx.wire > MAX_NAME_WIRE) return null;
    this.hash = (Math.imul((Math.imul(h, 31) + Ch.DOT) | 0, sfx.pow) + sfx.hash) | 0;
    this.asWritten = false;
    return this.slice(a, b) + sfx.text;
  }

  /** The text of `buf[a, b)`: a slice of `s`, or with `own` (when long enough to be one) a copy of the bytes. */
  private slice(a: number, b: number): string {
    // Window bytes are ASCII: their latin1 text is the string's.
    if (this.own && b - a >= SLICE_MIN) return latin1Slice.call(this.bytes!, a, b);
    return this.s.slice(a + this.base, b + this.base);
  }

  private a(i: number): string | null {
    const a = this.blanks(i);
    // The address ends at the first other character, which must end the line (a word character
    // there would have made the word no address).
    const base = this.base;
    const k = scanIPv4(this.s, a + base, this.limit);
    if (k < 0 || !this.atEnd(k - base)) return null;
    return this.slice(a, k - base);
  }

  private target(i: number, origin: string | null): string | null {
    const name = this.name(this.blanks(i), origin);
    return name !== null && this.atEnd(this.nameEnd) ? name : null;
  }

  /** MX (`numbers` = 1: preference, exchange) and SRV (3: priority, weight, port, target). */
  private prefName(i: number, origin: string | null, numbers: number): string | null {
    const buf = this.buf;
    const first = this.blanks(i);
    let prevEnd = this.word(first);
    if (this.uint(first, prevEnd, 65535) < 0) return null;
    let together = true;
    let out = '';
    for (let k = 1; k < numbers; k++) {
      const a = this.blanks(prevEnd);
      const b = this.word(a);
      if (this.uint(a, b, 65535) < 0) return null;
      if (together && !(a === prevEnd + 1 && buf[prevEnd] === Ch.SPACE)) {
        together = false;
        out = this.slice(first, prevEnd);
      }
      if (!together) out += ' ' + this.slice(a, b);
      prevEnd = b;
    }
    const a = this.blanks(prevEnd);
    const name = this.name(a, origin);
    const b = this.nameEnd;
    if (name === null || !this.atEnd(b)) return null;
    if (together && this.asWritten && a === prevEnd + 1 && buf[prevEnd] === Ch.SPACE) return this.slice(first, b);
    return (together ? this.slice(first, prevEnd) : out) + ' ' + name;
  }

  /** TXT and SPF: plain printable strings, quoted or not, and escapes the full reader prints back unchanged. */
  private txt(i: number): string | null {
    const classes = CLASS;
    const buf = this.buf;
    // While every string is quoted and one space from the last, the data is one slice [first, last).
    let first = -1;
    let last = -1;
    let together = true;
    let out = '';
    let octets = 0;
    let count = 0;
    for (;;) {
      if (this.atEnd(i)) break;
      i = this.blanks(i);
      const cls = classes[buf[i]!];
      let a: number;
      let b: number;
      const quoted = cls === C.QUOTE;
      // Octets the escapes save: `\"`, `\\` and `\DDD` are one octet each.
      let saved = 0;
      if (quoted) {
        a = i + 1;
        b = a;
        for (;;) {
          // A newline (or the end of the window) is not printable: the lexer reports it.
          const c = buf[b]!;
          if (c === Ch.QUOTE) break;
          if (c === Ch.BACKSLASH) {
            // Only escapes the full reader prints back as written (the text stays a slice).
            const d = buf[b + 1]!;
            if (d === Ch.QUOTE || d === Ch.BACKSLASH) {
              b += 2;
              saved += 1;
              continue;
            }
            const d2 = buf[b + 2]!;
            const d3 = buf[b + 3]!;
            if (!(d >= 48 && d <= 57 && d2 >= 48 && d2 <= 57 && d3 >= 48 && d3 <= 57)) return null;
            const v = (d - 48) * 100 + (d2 - 48) * 10 + (d3 - 48);
            if (v > 255 || (v >= 0x20 && v < 0x7f)) return null;
            b += 4;
            saved += 3;
            continue;
          }
          if (c < 0x20 || c > 0x7e) return null;
          b++;
        }
        i = b + 1;
      } else if (cls === C.WORD) {
        a = i;
        b = this.word(a);
        i = b;
      } else {
        return null;
      }
      if (b - a - saved > 255) return null;
      count++;
      octets += 1 + b - a - saved;
      if (octets > MAX_RDATA) return null;
      if (together) {
        if (quoted && (first < 0 || (a - 1 === last + 1 && buf[last] === Ch.SPACE))) {
          if (first < 0) first = a - 1;
          last = b + 1;
        } else {
          together = false;
          out = first < 0 ? '' : this.slice(first, last);
        }
      }
      if (!together) {
        const piece = quoted ? this.slice(a - 1, b + 1) : '"' + this.slice(a, b) + '"';
        out = out === '' ? piece : out + ' ' + piece;
      }
      // A word stops at anything that is not a word character: only a blank, `;`, `"` or the end may follow.
      const next = buf[i]!;
      if (next !== Ch.LF && classes[next] === C.OTHER) return null;
    }
    if (count === 0) return null;
    return together ? this.slice(first, last) : out;
  }

  private caa(i: number): string | null {
    const classes = CLASS;
    const buf = this.buf;
    const first = this.blanks(i);
    const flagsEnd = this.word(first);
    if (this.uint(first, flagsEnd, 255) < 0) return null;
    const tagStart = this.blanks(flagsEnd);
    const tagEnd = this.word(tagStart);
    if (tagStart === tagEnd || tagEnd - tagStart > 255) return null;
    for (let k = tagStart; k < tagEnd; k++) {
      const c = buf[k]! | 32;
      if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return null;
    }
    let together = tagStart === flagsEnd + 1 && buf[flagsEnd] === Ch.SPACE;
    const v = this.blanks(tagEnd);
    const cls = classes[buf[v]!];
    let vStart: number;
    let vEnd: number;
    let after: number;
    if (cls === C.QUOTE) {
      vStart = v + 1;
      vEnd = vStart;
      for (;;) {
        const c = buf[vEnd]!;
        if (c === Ch.QUOTE) break;
        if (c < 0x20 || c > 0x7e || c === Ch.BACKSLASH) return null;
        vEnd++;
      }
      after = vEnd + 1;
    } else if (cls === C.WORD) {
      vStart = v;
      vEnd = this.word(v);
      after = vEnd;
      together = false;
    } else {
      return null;
    }
    if (2 + tagEnd - tagStart + vEnd - vStart > MAX_RDATA) return null;
    together &&= v === tagEnd + 1 && buf[tagEnd] === Ch.SPACE;
    if (!this.atEnd(after)) return null;
    if (together) return this.slice(first, vEnd + 1);
    return this.slice(first, flagsEnd) + ' ' + this.slice(tagStart, tagEnd) + ' "' + this.slice(vStart, vEnd) + '"';
  }

  /** DS with every field canonical and one space apart (anything else is rare). */
  private ds(i: number): string | null {
    const buf = this.buf;
    const first = this.blanks(i);
    const e1 = this.word(first);
    if (this.uint(first, e1, 65535) < 0 || buf[e1] !== Ch.SPACE) return null;
    const e2 = this.word(e1 + 1);
    if (this.uint(e1 + 1, e2, 255) < 0 || buf[e2] !== Ch.SPACE) return null;
    const e3 = this.word(e2 + 1);
    const digestType = this.uint(e2 + 1, e3, 255);
    const expected = digestType === 1 ? 40 : digestType === 2 ? 64 : digestType === 4 ? 96 : -1;
    if (expected < 0 || buf[e3] !== Ch.SPACE) return null;
    const e4 = this.word(e3 + 1);
    if (e4 - (e3 + 1) !== expected || !this.atEnd(e4)) return null;
    let upper = false;
    for (let k = e3 + 1; k < e4; k++) {
      const c = buf[k]!;
      if (c >= 65 && c <= 70) upper = true;
      else if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return null;
    }
    // The full reader prints the digest in lower case (one chunk: at most 96 of 128 digits).
    return upper ? this.slice(first, e3 + 1) + this.slice(e3 + 1, e4).toLowerCase() : this.slice(first, e4);
  }

  /**
   * AAAA: the token itself when it is in canonical form already; else,
   * for hex groups (any case, leading zeros, no dotted-quad tail), the canonical text written from
   * the groups (codec.ts `writeIPv6`, as `formatIPv6` writes it); else what the full reader makes
   * of the same characters (`parseIPv6`, then `formatIPv6`).
   */
  private aaaa(i: number): string | null {
    const a = this.blanks(i);
    const b = this.word(a);
    if (a === b || !this.atEnd(b)) return null;
    const v6 = this.v6;
    if (!v6.read(this.s, a + this.base, b + this.base)) return null;
    if (v6.tail < 0) {
      if (this.aaaaAsWritten || (v6.digitsCanonical && isCanonicalIPv6(v6.groups, v6.n, v6.gap))) return this.slice(a, b);
      v6.expand(this.full);
      const len = writeIPv6(this.full, this.text);
      if (len >= 0) return asciiText(this.text, len);
    }
    const bytes = parseIPv6(this.s, a + this.base, b + this.base);
    if (bytes === null) return null;
    return this.aaaaAsWritten ? this.slice(a, b) : formatIPv6(bytes);
  }
}
