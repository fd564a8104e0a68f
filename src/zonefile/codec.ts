/** Binary-to-text codecs and address forms used by record data (char-code loops, no regexes). */

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B32HEX = '0123456789abcdefghijklmnopqrstuv';
const HEX = '0123456789abcdef';

function b64Value(c: number): number {
  if (c >= 65 && c <= 90) return c - 65;
  if (c >= 97 && c <= 122) return c - 71;
  if (c >= 48 && c <= 57) return c + 4;
  if (c === 43) return 62;
  if (c === 47) return 63;
  return -1;
}

/** Strict base64 (padding required where the length needs it); `null` if malformed. */
export function fromBase64(text: string): Uint8Array | null {
  let len = text.length;
  if (len % 4 !== 0) return null;
  let pad = 0;
  while (len > 0 && text.charCodeAt(len - 1) === 61 && pad < 2) {
    len--;
    pad++;
  }
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < len; i++) {
    const v = b64Value(text.charCodeAt(i));
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const v = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[v >> 18]! + B64[(v >> 12) & 63]! + B64[(v >> 6) & 63]! + B64[v & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const v = (bytes[i] ?? 0) << 16;
    out += B64[v >> 18]! + B64[(v >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const v = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += B64[v >> 18]! + B64[(v >> 12) & 63]! + B64[(v >> 6) & 63]! + '=';
  }
  return out;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** Hex of even length, either case; `null` if malformed. */
export function fromHex(text: string): Uint8Array | null {
  if (text.length % 2 !== 0) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    const h = hexValue(text.charCodeAt(2 * i));
    const l = hexValue(text.charCodeAt(2 * i + 1));
    if (h < 0 || l < 0) return null;
    out[i] = (h << 4) | l;
  }
  return out;
}

export function toHex(bytes: Uint8Array, from = 0, to = bytes.length): string {
  let out = '';
  for (let i = from; i < to; i++) {
    const b = bytes[i] ?? 0;
    out += HEX[b >> 4]! + HEX[b & 15]!;
  }
  return out;
}

/** Splits text into space-separated chunks, as dnspython presents long binary fields. */
export function chunk(text: string, size: number): string {
  if (text.length <= size) return text;
  let out = text.slice(0, size);
  for (let i = size; i < text.length; i += size) out += ' ' + text.slice(i, i + size);
  return out;
}

/** Base32hex (RFC 4648 §7), either case, padding optional; `null` if malformed. */
export function fromBase32Hex(text: string): Uint8Array | null {
  let len = text.length;
  while (len > 0 && text.charCodeAt(len - 1) === 61) len--;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < len; i++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    let v: number;
    if (c >= 48 && c <= 57) v = c - 48;
    else if (c >= 97 && c <= 118) v = c - 87;
    else return null;
    acc = ((acc << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  if (len % 8 === 1 || len % 8 === 3 || len % 8 === 6) return null;
  return Uint8Array.from(out);
}

/** Base32hex in lower case with padding (dnspython's NSEC3 form). */
export function toBase32Hex(bytes: Uint8Array): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = ((acc << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += B32HEX[(acc >> bits) & 31]!;
    }
  }
  if (bits > 0) out += B32HEX[(acc << (5 - bits)) & 31]!;
  while (out.length % 8 !== 0) out += '=';
  return out;
}

/** Whether `t` is one or more ASCII digits and nothing else. */
export function isDigits(t: string): boolean {
  if (t.length === 0) return false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * The digits of a decimal number written as the LOC and GPOS fields take it (a sign, digits, at
 * most one dot): their count, or -1 when another character is in `t`. A count of 0 is no number.
 */
export function decimalDigits(t: string): number {
  let i = t.charCodeAt(0) === 45 || t.charCodeAt(0) === 43 ? 1 : 0;
  let digits = 0;
  let dot = false;
  for (; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 46 && !dot) dot = true;
    else if (c >= 48 && c <= 57) digits++;
    else return -1;
  }
  return digits;
}

/**
 * A dotted-quad IPv4 address (four decimal octets, no leading zeros) read from `s[start]` up to
 * the first character that is neither a digit nor a dot, or `end`: where it stopped, or -1 when
 * what it read is no address. The octets go to `out[at, at+4)` when given. The one IPv4 grammar of
 * every reader: the full one takes the whole field ({@link parseIPv4}), the line reader's fast
 * path checks what follows.
 * @internal
 */
export function scanIPv4(s: string, start: number, end: number, out?: Uint8Array, at = 0): number {
  let part = 0;
  let digits = 0;
  let value = 0;
  let lead0 = false;
  let i = start;
  for (; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || part > 2 || (lead0 && digits > 1)) return -1;
      if (out) out[at + part] = value;
      part++;
      digits = 0;
      value = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits === 0) lead0 = c === 48;
      value = value * 10 + (c - 48);
      digits++;
      if (value > 255) return -1;
    } else {
      break;
    }
  }
  if (part !== 3 || digits === 0 || (lead0 && digits > 1)) return -1;
  if (out) out[at + 3] = value;
  return i;
}

/** Whether `s[start, end)` is a dotted-quad IPv4 address (see {@link scanIPv4}); its octets to `out[at, at+4)`. */
export function parseIPv4(s: string, start: number, end: number, out?: Uint8Array, at = 0): boolean {
  return scanIPv4(s, start, end, out, at) === end;
}

/**
 * IPv6 text as written, read by one grammar for every reader (the full reader, the lexer's fast
 * path and the byte-level line reader): hex groups of one to four digits in either case, at most
 * one `::`, and perhaps a dotted-quad tail, eight groups in all. Readers that print the text as it
 * stands look at `digitsCanonical` and {@link isCanonicalIPv6}; the others take the groups.
 * @internal
 */
export class IPv6Text {
  /** The hex groups as written (not the tail's). */
  readonly groups = new Int32Array(8);
  /** How many of `groups` were written. */
  n = 0;
  /** The group before which `::` stands, or -1. */
  gap = -1;
  /** No upper-case digit and no leading zero in any group. */
  digitsCanonical = true;
  /** Where a dotted-quad tail starts in the text (its two groups not in `groups`), or -1. */
  tail = -1;

  /** Reads `s[a, b)`: whether it is an IPv6 address. */
  read(s: string, a: number, b: number): boolean {
    const groups = this.groups;
    let n = 0;
    let gap = -1;
    let canonical = true;
    let tail = -1;
    let i = a;
    if (b - a >= 2 && s.charCodeAt(a) === 58) {
      if (s.charCodeAt(a + 1) !== 58) return false;
      gap = 0;
      i = a + 2;
    } else if (i < b && s.charCodeAt(i) === 58) {
      return false;
    }
    if (i < b) {
      for (;;) {
        let v = 0;
        const g = i;
        while (i < b) {
          const c = s.charCodeAt(i);
          let h: number;
          if (c >= 48 && c <= 57) h = c - 48;
          else if (c >= 97 && c <= 102) h = c - 87;
          else if (c >= 65 && c <= 70) {
            h = c - 55;
            canonical = false;
          } else break;
          v = (v << 4) | h;
          i++;
        }
        if (i < b && s.charCodeAt(i) === 46) {
          // A dotted quad ends the address and stands for two groups.
          if (n > 6 || !parseIPv4(s, g, b)) return false;
          tail = g;
          break;
        }
        const len = i - g;
        if (len === 0 || len > 4 || n === 8) return false;
        if (len > 1 && s.charCodeAt(g) === 48) canonical = false;
        groups[n++] = v;
        if (i === b) break;
        if (s.charCodeAt(i) !== 58) return false;
        i++;
        if (i < b && s.charCodeAt(i) === 58) {
          if (gap >= 0) return false;
          gap = n;
          i++;
          if (i === b) break;
        } else if (i === b) {
          return false;
        }
      }
    }
    const count = tail < 0 ? n : n + 2;
    if (gap < 0 ? count !== 8 : count > 7) return false;
    this.n = n;
    this.gap = gap;
    this.digitsCanonical = canonical;
    this.tail = tail;
    return true;
  }

  /** The eight groups of an address read without a tail, the gap filled with zeros, into `out`. */
  expand(out: Int32Array): void {
    const { groups, n, gap } = this;
    const fill = 8 - n;
    for (let k = 0, g = 0; k < 8; k++) out[k] = gap >= 0 && k >= gap && k < gap + fill ? 0 : groups[g++]!;
  }
}

/** IPv6 text (with `::` and an embedded IPv4 tail) into 16 bytes; `null` if malformed. */
export function parseIPv6(s: string, start: number, end: number): Uint8Array | null {
  const text = new IPv6Text();
  if (!text.read(s, start, end)) return null;
  const out = new Uint8Array(16);
  const groups = new Int32Array(8);
  if (text.tail >= 0) {
    // The tail's two groups follow the hex groups; the gap (if any) stands before them.
    parseIPv4(s, text.tail, end, out, 12);
    text.groups[text.n] = (out[12]! << 8) | out[13]!;
    text.groups[text.n + 1] = (out[14]! << 8) | out[15]!;
    text.n += 2;
  }
  text.expand(groups);
  for (let k = 0; k < 8; k++) {
    out[2 * k] = groups[k]! >> 8;
    out[2 * k + 1] = groups[k]! & 0xff;
  }
  return out;
}

export function formatIPv4(b: Uint8Array, at = 0): string {
  return `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
}

/** dnspython's IPv6 presentation: longest zero run as `::`, embedded IPv4 for `::a.b.c.d` forms. */
export function formatIPv6(b: Uint8Array, at = 0): string {
  const groups = new Int32Array(8);
  for (let k = 0; k < 8; k++) groups[k] = ((b[at + 2 * k] ?? 0) << 8) | (b[at + 2 * k + 1] ?? 0);
  const text = new Uint8Array(MAX_IPV6_TEXT);
  const n = writeIPv6(groups, text);
  if (n < 0) return (groups[5] === 0xffff ? '::ffff:' : '::') + formatIPv4(b, at + 12);
  return asciiText(text, n);
}

/** Longest canonical IPv6 text without a dotted-quad tail (eight groups of four digits). */
export const MAX_IPV6_TEXT = 39;

const decoder = new TextDecoder();

/** `bytes[0, n)`, ASCII, as a string (one flat string, no per-character work in JavaScript). @internal */
export function asciiText(bytes: Uint8Array, n: number): string {
  return decoder.decode(bytes.subarray(0, n));
}

/**
 * Writes eight IPv6 groups as ASCII into `out` in canonical form (RFC 5952 as dnspython prints
 * it: lower case, no leading zeros, the first longest run of two or more zero groups as `::`);
 * the length written, or -1 for the addresses printed with a dotted-quad tail (`::a.b.c.d`,
 * `::ffff:a.b.c.d`), which it leaves to the caller.
 * @internal
 */
export function writeIPv6(groups: Int32Array, out: Uint8Array): number {
  let bestStart = -1;
  let bestLen = 1;
  let start = -1;
  for (let k = 0; k <= 8; k++) {
    if (k < 8 && groups[k] === 0) {
      if (start < 0) start = k;
    } else if (start >= 0) {
      if (k - start > bestLen) {
        bestStart = start;
        bestLen = k - start;
      }
      start = -1;
    }
  }
  if (bestStart === 0 && (bestLen === 6 || (bestLen === 5 && groups[5] === 0xffff))) return -1;
  let n = 0;
  for (let k = 0; k < 8; k++) {
    if (k === bestStart) {
      out[n++] = 58;
      out[n++] = 58;
      k += bestLen - 1;
      continue;
    }
    // A colon before each group, except the first and the one just after `::`.
    if (k > 0 && k !== bestStart + bestLen) out[n++] = 58;
    n = writeHexGroup(groups[k]!, out, n);
  }
  return n;
}

/** One group in lower-case hex without leading zeros at `out[n]`; the new length. */
function writeHexGroup(v: number, out: Uint8Array, n: number): number {
  if (v >= 0x1000) out[n++] = HEX.charCodeAt(v >> 12);
  if (v >= 0x100) out[n++] = HEX.charCodeAt((v >> 8) & 15);
  if (v >= 0x10) out[n++] = HEX.charCodeAt((v >> 4) & 15);
  out[n++] = HEX.charCodeAt(v & 15);
  return n;
}

/**
 * Whether IPv6 groups read as written (`n` groups, `::` before group `gap`, or -1 without one)
 * are already in canonical form (RFC 5952 as dnspython prints it): full when no gap, the gap
 * standing for the first longest run of two or more zero groups, no zero group beside it, and
 * not a form that is printed with a dotted-quad tail. Shared by the string and byte fast paths,
 * which hand anything else to the full reader.
 * @internal
 */
export function isCanonicalIPv6(groups: Int32Array, n: number, gap: number): boolean {
  const fill = 8 - n;
  if (gap < 0 ? n !== 8 : fill < 2) return false;
  // The zero runs of the full address: the compressed one must be the first longest.
  let bestStart = -1;
  let bestLen = 0;
  let run = 0;
  let runStart = 0;
  let pos = 0;
  for (let k = 0; k <= n; k++) {
    if (k === gap) {
      if (run === 0) runStart = pos;
      run += fill;
      pos += fill;
    }
    if (k < n && groups[k] === 0) {
      if (run === 0) runStart = pos;
      run++;
      pos++;
      continue;
    }
    if (run > bestLen) {
      bestLen = run;
      bestStart = runStart;
    }
    run = 0;
    if (k < n) pos++;
  }
  if (gap < 0) return bestLen <= 1;
  // The gap's own zeros must be exactly the best run (no zero group written beside it).
  if (bestStart !== gap || bestLen !== fill) return false;
  return !(bestStart === 0 && (bestLen === 6 || (bestLen === 5 && groups[0] === 0xffff)));
}
