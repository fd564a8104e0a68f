/**
 * Fast readers for the commonest types (A, AAAA, NS, CNAME, PTR, MX, TXT, SPF, SRV, CAA, DS).
 *
 * Each recognises only record data that is already in canonical form, or close to it, builds the
 * canonical text from slices of the input (one slice for the whole data where the fields are
 * separated by single spaces) and allocates no structured data: the record's `data` is read from
 * `rdata` on first access (see record.ts). Anything else (escapes, mnemonics, leading zeros,
 * uncompressed IPv6, a value that the full reader would refuse, ...) makes the fast reader give up
 * and rewind the scanner, and the type's full reader in rdata.ts reads the data as before, so
 * results and error messages are exactly those of the full readers.
 */
import { IPv6Text, isCanonicalIPv6, parseIPv4 } from './codec.js';
import { EOF, EOL, QUOTED, WORD, ZoneSyntaxError, type Lexer } from './lexer.js';
import { MAX_RDATA } from './rdata.js';

const SPACE = 32;
const DOT = 46;

/** Whether `type` has a fast reader. */
export function hasFastReader(type: number): boolean {
  switch (type) {
    case 1:
    case 2:
    case 5:
    case 12:
    case 15:
    case 16:
    case 28:
    case 33:
    case 43:
    case 99:
    case 257:
      return true;
    default:
      return false;
  }
}

/**
 * Reads the record data of `type` and the end of its line; the canonical text, or `null` with
 * the scanner rewound to where it was when the data is not in the simple form this reader knows.
 */
export function fastRdata(lx: Lexer, type: number, origin: string | null): string | null {
  lx.save();
  let out: string | null = null;
  try {
    switch (type) {
      case 1:
        out = fastA(lx);
        break;
      case 2:
      case 5:
      case 12:
        out = fastName(lx, origin);
        break;
      case 15:
        out = fastPrefName(lx, origin, 1);
        break;
      case 33:
        out = fastPrefName(lx, origin, 3);
        break;
      case 16:
      case 99:
        out = fastTxt(lx);
        break;
      case 28:
        out = fastAaaa(lx);
        break;
      case 43:
        out = fastDs(lx);
        break;
      case 257:
        out = fastCaa(lx);
        break;
    }
  } catch (e) {
    // The full reader reports it, with its own wording and position.
    if (!(e instanceof ZoneSyntaxError)) throw e;
    out = null;
  }
  if (out === null) lx.restore();
  return out;
}

/** The end of the record's line (as the full readers' `endOfLine`). */
function atLineEnd(lx: Lexer): boolean {
  const k = lx.next();
  return k === EOL || k === EOF;
}

/** A decimal number in canonical form (no sign, no leading zero) up to `max`, else -1. */
function canonUint(s: string, a: number, b: number, max: number): number {
  const len = b - a;
  if (len === 0 || len > 10) return -1;
  if (len > 1 && s.charCodeAt(a) === 48) return -1;
  let v = 0;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v > max ? -1 : v;
}

/** Whether the current token follows the previous one (ending at `prevEnd`) after exactly one space. */
function oneSpaceAfter(lx: Lexer, prevEnd: number): boolean {
  return lx.start === prevEnd + 1 && lx.s.charCodeAt(prevEnd) === SPACE;
}

function fastA(lx: Lexer): string | null {
  if (lx.next() !== WORD) return null;
  const a = lx.start;
  const b = lx.end;
  if (!parseIPv4(lx.s, a, b)) return null;
  if (!atLineEnd(lx)) return null;
  return lx.s.slice(a, b);
}

/** A domain name field read by the scanner's own name reader (same checks, same messages). */
function nameToken(lx: Lexer, origin: string | null, what: string): string | null {
  if (lx.next() !== WORD || lx.esc) return null;
  return lx.name(origin, what);
}

/** Whether `name`, just read by `nameToken`, is its token's text unchanged (absolute, no escapes). */
function asWritten(lx: Lexer, name: string): boolean {
  return name.length === lx.end - lx.start && lx.s.charCodeAt(lx.end - 1) === DOT;
}

function fastName(lx: Lexer, origin: string | null): string | null {
  const name = nameToken(lx, origin, 'target');
  if (name === null || !atLineEnd(lx)) return null;
  return name;
}

/** MX (`numbers` = 1: preference, exchange) and SRV (3: priority, weight, port, target). */
function fastPrefName(lx: Lexer, origin: string | null, numbers: number): string | null {
  const s = lx.s;
  if (lx.next() !== WORD) return null;
  const first = lx.start;
  let prevEnd = lx.end;
  if (canonUint(s, first, prevEnd, 65535) < 0) return null;
  let together = true;
  let out = '';
  for (let k = 1; k < numbers; k++) {
    if (lx.next() !== WORD) return null;
    if (canonUint(s, lx.start, lx.end, 65535) < 0) return null;
    if (together && !oneSpaceAfter(lx, prevEnd)) {
      together = false;
      out = s.slice(first, prevEnd);
    }
    if (!together) out += ' ' + s.slice(lx.start, lx.end);
    prevEnd = lx.end;
  }
  const name = nameToken(lx, origin, numbers === 1 ? 'exchange' : 'target');
  if (name === null) return null;
  const nameTogether = together && asWritten(lx, name) && oneSpaceAfter(lx, prevEnd);
  const nameEnd = lx.end;
  if (!atLineEnd(lx)) return null;
  if (nameTogether) return s.slice(first, nameEnd);
  return (together ? s.slice(first, prevEnd) : out) + ' ' + name;
}

/** Whether s[a, b) is printable ASCII only (the full reader prints it unchanged inside quotes). */
function printable(s: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/** One character-string without escapes; its quoted form is the input itself when it was quoted. */
function plainString(lx: Lexer, max: number): boolean {
  return !lx.esc && lx.end - lx.start <= max && printable(lx.s, lx.start, lx.end);
}

function fastTxt(lx: Lexer): string | null {
  const s = lx.s;
  let k = lx.next();
  if (k !== QUOTED && k !== WORD) return null;
  // While every string is quoted and one space from the last, the data is one slice [first, last).
  let first = -1;
  let last = -1;
  let together = true;
  let out = '';
  let octets = 0;
  for (;;) {
    if (!plainString(lx, 255)) return null;
    // Data too long for a DNS message: the full reader refuses it with its message.
    octets += 1 + lx.end - lx.start;
    if (octets > MAX_RDATA) return null;
    const quoted = k === QUOTED;
    if (together) {
      if (quoted && (first < 0 || (lx.start - 1 === last + 1 && s.charCodeAt(last) === SPACE))) {
        if (first < 0) first = lx.start - 1;
        last = lx.end + 1;
      } else {
        together = false;
        out = first < 0 ? '' : s.slice(first, last);
      }
    }
    if (!together) {
      const piece = quoted ? s.slice(lx.start - 1, lx.end + 1) : '"' + s.slice(lx.start, lx.end) + '"';
      out = out === '' ? piece : out + ' ' + piece;
    }
    k = lx.next();
    if (k === EOL || k === EOF) break;
    if (k !== QUOTED && k !== WORD) return null;
  }
  return together ? s.slice(first, last) : out;
}

function fastCaa(lx: Lexer): string | null {
  const s = lx.s;
  if (lx.next() !== WORD) return null;
  const first = lx.start;
  if (canonUint(s, first, lx.end, 255) < 0) return null;
  const flagsEnd = lx.end;
  let prevEnd = flagsEnd;
  if (lx.next() !== WORD || lx.esc) return null;
  const tagStart = lx.start;
  const tagEnd = lx.end;
  if (tagEnd - tagStart > 255) return null;
  for (let i = tagStart; i < tagEnd; i++) {
    const c = s.charCodeAt(i) | 32;
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return null;
  }
  let together = oneSpaceAfter(lx, prevEnd);
  prevEnd = tagEnd;
  const k = lx.next();
  if ((k !== QUOTED && k !== WORD) || !plainString(lx, Infinity)) return null;
  const vStart = lx.start;
  const vEnd = lx.end;
  if (2 + tagEnd - tagStart + vEnd - vStart > MAX_RDATA) return null;
  together &&= k === QUOTED && lx.start - 1 === prevEnd + 1 && s.charCodeAt(prevEnd) === SPACE;
  if (!atLineEnd(lx)) return null;
  if (together) return s.slice(first, vEnd + 1);
  return s.slice(first, flagsEnd) + ' ' + s.slice(tagStart, tagEnd) + ' "' + s.slice(vStart, vEnd) + '"';
}

function fastDs(lx: Lexer): string | null {
  const s = lx.s;
  if (lx.next() !== WORD) return null;
  const first = lx.start;
  if (canonUint(s, first, lx.end, 65535) < 0) return null;
  let prevEnd = lx.end;
  if (lx.next() !== WORD || canonUint(s, lx.start, lx.end, 255) < 0) return null;
  let together = oneSpaceAfter(lx, prevEnd);
  prevEnd = lx.end;
  if (lx.next() !== WORD) return null;
  const digestType = canonUint(s, lx.start, lx.end, 255);
  const expected = digestType === 1 ? 40 : digestType === 2 ? 64 : digestType === 4 ? 96 : -1;
  if (expected < 0) return null;
  together &&= oneSpaceAfter(lx, prevEnd);
  prevEnd = lx.end;
  if (lx.next() !== WORD || lx.end - lx.start !== expected) return null;
  for (let i = lx.start; i < lx.end; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return null;
  }
  together &&= oneSpaceAfter(lx, prevEnd);
  const dEnd = lx.end;
  if (!atLineEnd(lx)) return null;
  // Spread over lines or spaced otherwise: rare enough for the full reader.
  return together ? s.slice(first, dEnd) : null;
}

/**
 * AAAA in dnspython's canonical form already (lower case, no leading zeros, the longest run of two
 * or more zero groups compressed, the first if tied, no dotted-quad tail): the token itself.
 */
function fastAaaa(lx: Lexer): string | null {
  if (lx.next() !== WORD || lx.esc) return null;
  const s = lx.s;
  const a = lx.start;
  const b = lx.end;
  // Only lines the byte-level reader (lines.ts) left to the lexer come here: rare enough to allocate.
  const v6 = new IPv6Text();
  if (!v6.read(s, a, b) || v6.tail >= 0 || !v6.digitsCanonical) return null;
  if (!isCanonicalIPv6(v6.groups, v6.n, v6.gap)) return null;
  if (!atLineEnd(lx)) return null;
  return s.slice(a, b);
}
