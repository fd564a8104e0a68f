/**
 * Record data: one reader per known type, pulling tokens from the lexer and producing the
 * canonical presentation form (dnspython's, the reference service's) plus structured data.
 */
import {
  chunk,
  decimalDigits,
  formatIPv6,
  fromBase32Hex,
  fromBase64,
  fromHex,
  isDigits,
  parseIPv4,
  parseIPv6,
  toBase32Hex,
  toBase64,
  toHex,
} from './codec.js';
import { EOF, EOL, QUOTED, WORD, wireLength, type Lexer } from './lexer.js';
import { algorithmFromText, algorithmToText, certTypeFromText, certTypeToText, typeFromText, typeToText, META_TYPES } from './registry.js';
import { readSvcbParams } from './svcb.js';
import { readLoc } from './loc.js';

/** What a reader fills in: the canonical text and the structured form. */
export interface RdataOut {
  lx: Lexer;
  origin: string | null;
  rdata: string;
  data: unknown;
  /** Decoded bytes of the last character-string read. */
  str: string;
  /** Length in octets of the last character-string read (without its length octet). */
  strOctets: number;
  /** The record type being read. */
  type: number;
  /** Whether the text was made from RFC 3597 wire data (where some empty fields are legal). */
  fromWire: boolean;
  /** Whether AAAA data keeps the spelling of the file (see `ReaderOptions.aaaaAsWritten`). */
  readonly aaaaAsWritten?: boolean;
}

export type RdataReader = (o: RdataOut) => void;

const utf8 = new TextDecoder('utf-8');

// ---------------------------------------------------------------- field readers

export function word(o: RdataOut, what: string): void {
  const k = o.lx.next();
  if (k !== WORD) {
    if (k === EOL || k === EOF) o.lx.fail(`missing ${what}`);
    o.lx.fail(`expected ${what}, found a quoted string`);
  }
}

/** True (with the token held back) when the record data has no more tokens. */
export function atEnd(o: RdataOut): boolean {
  const k = o.lx.next();
  o.lx.unget();
  return k === EOL || k === EOF;
}

export function uint(o: RdataOut, what: string, max: number): number {
  word(o, what);
  return uintToken(o, what, max);
}

function uintToken(o: RdataOut, what: string, max: number): number {
  const lx = o.lx;
  const s = lx.s;
  let v = 0;
  if (lx.end - lx.start > 10) lx.fail(`${what} ${lx.describe()} is out of range (0 to ${max})`);
  for (let i = lx.start; i < lx.end; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) lx.fail(`${what} must be a non-negative integer, found ${lx.describe()}`);
    v = v * 10 + (c - 48);
  }
  if (v > max) lx.fail(`${what} ${lx.describe()} is out of range (0 to ${max})`);
  return v;
}

export const MAX_TTL = 2147483647;
/** The largest value of a 32-bit TTL-like field (SOA timers; record TTLs above MAX_TTL become 0). */
export const MAX_UINT32 = 4294967295;

/**
 * Most octets of record data one record may carry: the record has to fit in one DNS message of
 * 65,535 octets beside the 12-octet header, the shortest owner (the root, 1 octet) and its type,
 * class, TTL and RDLENGTH (10 octets). BIND refuses longer data the same way (DNS_RDATA_MAXLENGTH).
 */
export const MAX_RDATA = 65512;

/** Refuses record data of `octets` octets when it cannot fit in a DNS message (see {@link MAX_RDATA}). */
export function checkRdataLength(o: RdataOut, octets: number): void {
  if (octets > MAX_RDATA) {
    o.lx.fail(`the record data would be ${octets} octets, more than the ${MAX_RDATA} that fit in one DNS message: split it over several records`);
  }
}

/**
 * A time value in seconds from `3600` or `1w2d3h4m5s`, up to 2^32 - 1 (the field is 32 bits on
 * the wire); -1 when the text is not TTL syntax, -2 when it does not fit in 32 bits.
 */
export function durationValue(s: string, start: number, end: number): number {
  const c0 = s.charCodeAt(start);
  if (!(c0 >= 48 && c0 <= 57)) return -1;
  let total = 0;
  let cur = 0;
  let digits = 0;
  let units = false;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i) | 32;
    if (c >= 48 && c <= 57) {
      cur = cur * 10 + (c - 48);
      digits++;
      if (cur > 1e12) return -2;
      continue;
    }
    if (digits === 0) return -1;
    let m: number;
    if (c === 119) m = 604800;
    else if (c === 100) m = 86400;
    else if (c === 104) m = 3600;
    else if (c === 109) m = 60;
    else if (c === 115) m = 1;
    else return -1;
    total += cur * m;
    cur = 0;
    digits = 0;
    units = true;
  }
  if (units && digits > 0) return -1;
  total += cur;
  return total > MAX_UINT32 ? -2 : total;
}

/**
 * A record TTL: as {@link durationValue}, but a value with the top bit set (2^31 to 2^32 - 1) is
 * read as 0, as RFC 2181 §8 says and BIND's loader does ("TTL > MAXTTL, setting TTL to 0"), so
 * no record ever carries a TTL above 2^31 - 1.
 */
export function ttlValue(s: string, start: number, end: number): number {
  return clampTtl(durationValue(s, start, end));
}

/** RFC 2181 §8: a TTL with the most significant bit set is treated as 0. */
export function clampTtl(v: number): number {
  return v > MAX_TTL ? 0 : v;
}

/** A 32-bit time field (SOA refresh, retry, expire, minimum): seconds or a duration, up to 2^32 - 1. */
export function ttlField(o: RdataOut, what: string): number {
  word(o, what);
  const lx = o.lx;
  const v = durationValue(lx.s, lx.start, lx.end);
  if (v === -1) lx.fail(`${what} must be a number of seconds or a duration like 1h30m, found ${lx.describe()}`);
  if (v === -2) lx.fail(`${what} ${lx.describe()} is larger than 4294967295 (2^32 - 1)`);
  return v;
}

export function nameField(o: RdataOut, what: string): string {
  word(o, what);
  return o.lx.name(o.origin, what);
}

/** A character-string (quoted or not); returns its quoted presentation and leaves the text in `o.str`. */
export function charString(o: RdataOut, what: string, max = 255): string {
  const lx = o.lx;
  const k = lx.next();
  if (k !== WORD && k !== QUOTED) lx.fail(`missing ${what}`);
  const s = lx.s;
  if (!lx.esc) {
    let plain = true;
    for (let i = lx.start; i < lx.end; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e) {
        plain = false;
        break;
      }
    }
    if (plain) {
      if (lx.end - lx.start > max) lx.fail(`${what} is ${lx.end - lx.start} octets long; a character-string holds at most ${max}: split it into several quoted strings`);
      o.str = s.slice(lx.start, lx.end);
      o.strOctets = lx.end - lx.start;
      return '"' + o.str + '"';
    }
  }
  const b = lx.bytes();
  if (b.length > max) lx.fail(`${what} is ${b.length} octets long; a character-string holds at most ${max}: split it into several quoted strings`);
  o.str = utf8.decode(b);
  o.strOctets = b.length;
  return '"' + escapeString(b) + '"';
}

/** dnspython's escaping inside quotes: `"` and `\` escaped, bytes outside printable ASCII as `\DDD`. */
export function escapeString(b: Uint8Array): string {
  let out = '';
  for (const c of b) {
    if (c === 0x22 || c === 0x5c) out += '\\' + String.fromCharCode(c);
    else if (c >= 0x20 && c < 0x7f) out += String.fromCharCode(c);
    else out += '\\' + (c < 10 ? '00' : c < 100 ? '0' : '') + String(c);
  }
  return out;
}

/** The remaining words concatenated (binary fields may be split by spaces); quoted strings refused. */
export function rest(o: RdataOut, what: string): string {
  const lx = o.lx;
  let out = '';
  for (;;) {
    const k = lx.next();
    if (k === EOL || k === EOF) {
      lx.unget();
      return out;
    }
    if (k === QUOTED) lx.fail(`${what} must not be quoted`);
    out += lx.text();
  }
}

/** The rest of the line as hex; `fixed` is the octets of the record's other fields (for the length limit). */
function hexRest(o: RdataOut, what: string, allowEmpty: boolean, fixed: number): Uint8Array {
  const text = rest(o, what);
  if (text.length === 0 && !allowEmpty) o.lx.fail(`missing ${what} (hexadecimal)`);
  const b = fromHex(text);
  if (b === null) return o.lx.fail(`${what} must be an even number of hexadecimal digits`);
  checkRdataLength(o, fixed + b.length);
  return b;
}

/** The rest of the line as base64; `fixed` is the octets of the record's other fields (for the length limit). */
function base64Rest(o: RdataOut, what: string, allowEmpty: boolean, fixed: number): Uint8Array {
  const text = rest(o, what);
  if (text.length === 0 && !allowEmpty) o.lx.fail(`missing ${what} (base64)`);
  const b = fromBase64(text);
  if (b === null) return o.lx.fail(`${what} is not valid base64 (check for stray characters and the '=' padding)`);
  checkRdataLength(o, fixed + b.length);
  return b;
}

function algorithm(o: RdataOut, what: string): number {
  word(o, what);
  const lx = o.lx;
  const c = lx.s.charCodeAt(lx.start);
  if (c >= 48 && c <= 57) return uintToken(o, what, 255);
  const v = algorithmFromText(lx.text().toUpperCase());
  if (v < 0) lx.fail(`unknown ${what} ${lx.describe()}: use a number or a mnemonic such as RSASHA256`);
  return v;
}

function typeToken(o: RdataOut, what: string): number {
  word(o, what);
  const v = typeFromText(o.lx.text().toUpperCase());
  if (v < 0) o.lx.fail(`unknown record type ${o.lx.describe()} in ${what}: use a mnemonic or TYPE<n>`);
  return v;
}

function bitmap(o: RdataOut): number[] {
  const types: number[] = [];
  while (!atEnd(o)) {
    const t = typeToken(o, 'type bitmap');
    // Type 0 is reserved (RFC 6895 §3.1): no node holds it, so no bitmap may list it (dnspython agrees).
    if (t === 0) o.lx.fail('type bitmap lists TYPE0, which is reserved and cannot exist at a name');
    types.push(t);
  }
  types.sort((a, b) => a - b);
  return types.filter((t, i) => i === 0 || types[i - 1] !== t);
}

function ipv4(o: RdataOut, what: string): string {
  word(o, what);
  const lx = o.lx;
  if (!parseIPv4(lx.s, lx.start, lx.end)) lx.fail(`${what} ${lx.describe()} is not a dotted-quad IPv4 address`);
  return lx.text();
}

function ipv6(o: RdataOut, what: string): string {
  word(o, what);
  const lx = o.lx;
  const b = parseIPv6(lx.s, lx.start, lx.end);
  if (b === null) return lx.fail(`${what} ${lx.describe()} is not an IPv6 address`);
  return formatIPv6(b);
}

function saltField(o: RdataOut): string {
  word(o, 'salt');
  const lx = o.lx;
  if (lx.end - lx.start === 1 && lx.s.charCodeAt(lx.start) === 45) return '-';
  const b = fromHex(lx.text());
  if (b === null) return lx.fail('salt must be hexadecimal digits or "-" for none');
  if (b.length > 255) lx.fail('salt is longer than 255 octets');
  return toHex(b);
}

// ---------------------------------------------------------------- readers per type

const single = (key: string): RdataReader => (o) => {
  const target = nameField(o, key);
  o.rdata = target;
  o.data = { [key]: target };
};

const prefName = (prefKey: string, nameKey: string): RdataReader => (o) => {
  const pref = uint(o, prefKey, 65535);
  const target = nameField(o, nameKey);
  o.rdata = pref + ' ' + target;
  o.data = { [prefKey]: pref, [nameKey]: target };
};

const strings = (min: number, max: number): RdataReader => (o) => {
  const first = charString(o, 'character-string');
  const values: string[] = [o.str];
  let octets = 1 + o.strOctets;
  if (max === 1 || (min <= 1 && atEnd(o))) {
    o.rdata = first;
    o.data = values;
    return;
  }
  const quoted = [first];
  while (values.length < max && (values.length < min || !atEnd(o))) {
    quoted.push(charString(o, 'character-string'));
    values.push(o.str);
    octets += 1 + o.strOctets;
    checkRdataLength(o, octets);
  }
  o.rdata = quoted.join(' ');
  o.data = values;
};

const dsLike: RdataReader = (o) => {
  const keyTag = uint(o, 'key tag', 65535);
  const alg = algorithm(o, 'algorithm');
  const digestType = uint(o, 'digest type', 255);
  const digest = hexRest(o, 'digest', false, 4);
  // CDS 0 0 0 00 is the RFC 8078 "delete" signal; DS and DLV have no digest type 0.
  if (digestType === 0 && o.type !== 59) o.lx.fail('digest type 0 is reserved');
  // Digest sizes as dnspython checks them; CDS digest type 0 is RFC 8078's one-octet "delete" digest.
  const expected = digestType === 0 ? 1 : digestType === 1 ? 20 : digestType === 2 || digestType === 3 ? 32 : digestType === 4 ? 48 : -1;
  if (expected >= 0 && digest.length !== expected) o.lx.fail(`digest type ${digestType} needs a ${expected}-octet digest, found ${digest.length}`);
  const hex = toHex(digest);
  o.rdata = `${keyTag} ${alg} ${digestType} ${chunk(hex, 128)}`;
  o.data = { keyTag, algorithm: alg, digestType, digest: hex };
};

/** BIND's key flag mnemonics (`ZONE|SEP`, `FLAG2|NTYP3|SIG15`), as `dns_keyflags_fromtext` reads them. */
const KEY_FLAGS: Record<string, number> = {
  NOCONF: 0x4000, NOAUTH: 0x8000, NOKEY: 0xc000, FLAG2: 0x2000, EXTEND: 0x1000, FLAG4: 0x0800, FLAG5: 0x0400,
  USER: 0x0000, ZONE: 0x0100, HOST: 0x0200, NTYP3: 0x0300, FLAG8: 0x0080, FLAG9: 0x0040, FLAG10: 0x0020, FLAG11: 0x0010,
  SIG0: 0x0000, SIG1: 0x0001, SIG2: 0x0002, SIG3: 0x0003, SIG4: 0x0004, SIG5: 0x0005, SIG6: 0x0006, SIG7: 0x0007,
  SIG8: 0x0008, SIG9: 0x0009, SIG10: 0x000a, SIG11: 0x000b, SIG12: 0x000c, SIG13: 0x000d, SIG14: 0x000e, SIG15: 0x000f,
  KSK: 0x0001, SEP: 0x0001, REVOKE: 0x0080,
};

function keyFlags(o: RdataOut): number {
  word(o, 'flags');
  const lx = o.lx;
  const c = lx.s.charCodeAt(lx.start);
  if (c >= 48 && c <= 57) return uintToken(o, 'flags', 65535);
  let flags = 0;
  for (const m of lx.text().toUpperCase().split('|')) {
    const v = KEY_FLAGS[m];
    if (v === undefined) return lx.fail(`flags ${lx.describe()}: "${m}" is not a key flag mnemonic (use a number, or names such as ZONE|SEP)`);
    flags |= v;
  }
  return flags;
}

const keyLike: RdataReader = (o) => {
  const flags = keyFlags(o);
  const protocol = uint(o, 'protocol', 255);
  const alg = algorithm(o, 'algorithm');
  // KEY (RFC 2535 §3.1.2): with both top flag bits set ("no key") the key field is absent.
  if (o.type === 25 && (flags & 0xc000) === 0xc000) {
    if (!atEnd(o)) o.lx.fail('flags say "no key" (both top bits set), so no public key may follow');
    o.rdata = `${flags} ${protocol} ${alg}`;
    o.data = { flags, protocol, algorithm: alg, publicKey: '' };
    return;
  }
  const key = toBase64(base64Rest(o, 'public key', false, 4));
  o.rdata = `${flags} ${protocol} ${alg} ${chunk(key, 32)}`;
  o.data = { flags, protocol, algorithm: alg, publicKey: key };
};

const tlsaLike: RdataReader = (o) => {
  const usage = uint(o, 'usage', 255);
  const selector = uint(o, 'selector', 255);
  const matchingType = uint(o, 'matching type', 255);
  const hex = toHex(hexRest(o, 'certificate association data', false, 3));
  o.rdata = `${usage} ${selector} ${matchingType} ${chunk(hex, 128)}`;
  o.data = { usage, selector, matchingType, certificate: hex };
};

function sigTime(o: RdataOut, what: string): number {
  word(o, what);
  const lx = o.lx;
  const t = lx.text();
  if (!isDigits(t)) lx.fail(`${what} must be YYYYMMDDHHmmSS or seconds since 1970, found ${lx.describe()}`);
  if (t.length <= 10) {
    const v = Number(t);
    if (v > 4294967295) lx.fail(`${what} ${lx.describe()} is out of range`);
    return v;
  }
  if (t.length !== 14) lx.fail(`${what} must be YYYYMMDDHHmmSS or seconds since 1970, found ${lx.describe()}`);
  const y = Number(t.slice(0, 4));
  const mo = Number(t.slice(4, 6));
  const d = Number(t.slice(6, 8));
  const h = Number(t.slice(8, 10));
  const mi = Number(t.slice(10, 12));
  const sec = Number(t.slice(12, 14));
  const ms = Date.UTC(y, mo - 1, d, h, mi, sec);
  const back = new Date(ms);
  if (mo < 1 || mo > 12 || back.getUTCDate() !== d || h > 23 || mi > 59 || sec > 59) lx.fail(`${what} ${lx.describe()} is not a valid date and time`);
  // The field holds 32 bits (RFC 4034 §3.1.5): a date after 2106-02-07T06:28:15Z does not fit,
  // and wrapping it would print a different date than was written (dnspython refuses it too).
  if (ms < 0 || ms / 1000 > 4294967295) lx.fail(`${what} ${lx.describe()} is outside 1970-01-01 to 2106-02-07 (a 32-bit number of seconds)`);
  return ms / 1000;
}

function formatSigTime(v: number): string {
  const d = new Date(v * 1000);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return p(d.getUTCFullYear(), 4) + p(d.getUTCMonth() + 1) + p(d.getUTCDate()) + p(d.getUTCHours()) + p(d.getUTCMinutes()) + p(d.getUTCSeconds());
}

const rrsig: RdataReader = (o) => {
  const covered = typeToken(o, 'type covered');
  const alg = algorithm(o, 'algorithm');
  const labels = uint(o, 'labels', 255);
  const originalTtl = uint(o, 'original TTL', 4294967295);
  const expiration = sigTime(o, 'signature expiration');
  const inception = sigTime(o, 'signature inception');
  const keyTag = uint(o, 'key tag', 65535);
  const signer = nameField(o, "signer's name");
  const sig = toBase64(base64Rest(o, 'signature', false, 18 + wireLength(signer)));
  o.rdata = `${typeToText(covered)} ${alg} ${labels} ${originalTtl} ${formatSigTime(expiration)} ${formatSigTime(inception)} ${keyTag} ${signer} ${chunk(sig, 32)}`;
  o.data = { typeCovered: typeToText(covered), algorithm: alg, labels, originalTtl, expiration, inception, keyTag, signer, signature: sig };
};

const withBitmap = (text: string, types: number[]): string => {
  let out = text;
  for (const t of types) out += ' ' + typeToText(t);
  return out;
};

const nsec: RdataReader = (o) => {
  const next = nameField(o, 'next domain name');
  const types = bitmap(o);
  o.rdata = withBitmap(next, types);
  o.data = { nextDomain: next, types: types.map(typeToText) };
};

/**
 * Whether base32hex text is a canonical encoding (RFC 4648 §3.5): its unpadded length is possible
 * (not 1, 3 or 6 characters past a multiple of 8) and the bits past the last whole octet are zero.
 */
function canonicalBase32(t: string): boolean {
  let n = t.length;
  while (n > 0 && t.charCodeAt(n - 1) === 61 /* = */) n--;
  const extra = (5 * n) % 8;
  if (n % 8 === 1 || n % 8 === 3 || n % 8 === 6) return false;
  if (extra === 0) return true;
  const c = t.charCodeAt(n - 1) | 32;
  const v = c >= 48 && c <= 57 ? c - 48 : c - 97 + 10;
  return (v & ((1 << extra) - 1)) === 0;
}

const nsec3: RdataReader = (o) => {
  const alg = uint(o, 'hash algorithm', 255);
  const flags = uint(o, 'flags', 255);
  const iterations = uint(o, 'iterations', 65535);
  const salt = saltField(o);
  word(o, 'next hashed owner name');
  const next = fromBase32Hex(o.lx.text());
  if (next === null || next.length === 0 || !canonicalBase32(o.lx.text())) return o.lx.fail('next hashed owner name must be base32hex (RFC 4648 §7) with no stray trailing bits');
  if (next.length > 255) o.lx.fail('next hashed owner name is longer than 255 octets');
  // RFC 5155 §3.1.7: the field is the hash itself, 20 octets for SHA-1 (BIND checks this too).
  if (alg === 1 && next.length !== 20) o.lx.fail(`next hashed owner name is ${next.length} octets; hash algorithm 1 (SHA-1) gives 20`);
  const types = bitmap(o);
  const nextText = toBase32Hex(next);
  o.rdata = withBitmap(`${alg} ${flags} ${iterations} ${salt} ${nextText}`, types);
  o.data = { hashAlgorithm: alg, flags, iterations, salt: salt === '-' ? '' : salt, nextHashedOwner: nextText, types: types.map(typeToText) };
};

const nsec3param: RdataReader = (o) => {
  const alg = uint(o, 'hash algorithm', 255);
  const flags = uint(o, 'flags', 255);
  const iterations = uint(o, 'iterations', 65535);
  const salt = saltField(o);
  o.rdata = `${alg} ${flags} ${iterations} ${salt}`;
  o.data = { hashAlgorithm: alg, flags, iterations, salt: salt === '-' ? '' : salt };
};

const soa: RdataReader = (o) => {
  const mname = nameField(o, 'primary name server (MNAME)');
  const rname = nameField(o, 'responsible mailbox (RNAME)');
  const serial = uint(o, 'serial', 4294967295);
  const refresh = ttlField(o, 'refresh');
  const retry = ttlField(o, 'retry');
  const expire = ttlField(o, 'expire');
  const minimum = ttlField(o, 'minimum');
  o.rdata = `${mname} ${rname} ${serial} ${refresh} ${retry} ${expire} ${minimum}`;
  o.data = { mname, rname, serial, refresh, retry, expire, minimum };
};

const a: RdataReader = (o) => {
  const address = ipv4(o, 'IPv4 address');
  o.rdata = address;
  o.data = { address };
};

const aaaa: RdataReader = (o) => {
  const address = ipv6(o, 'IPv6 address');
  o.rdata = o.aaaaAsWritten === true && !o.fromWire ? o.lx.text() : address;
  o.data = { address };
};

const srv: RdataReader = (o) => {
  const priority = uint(o, 'priority', 65535);
  const weight = uint(o, 'weight', 65535);
  const port = uint(o, 'port', 65535);
  const target = nameField(o, 'target');
  o.rdata = `${priority} ${weight} ${port} ${target}`;
  o.data = { priority, weight, port, target };
};

const naptr: RdataReader = (o) => {
  const order = uint(o, 'order', 65535);
  const preference = uint(o, 'preference', 65535);
  const f = charString(o, 'flags');
  const flags = o.str;
  const sv = charString(o, 'services');
  const services = o.str;
  const re = charString(o, 'regexp');
  const regexp = o.str;
  const replacement = nameField(o, 'replacement');
  o.rdata = `${order} ${preference} ${f} ${sv} ${re} ${replacement}`;
  o.data = { order, preference, flags, services, regexp, replacement };
};

const caa: RdataReader = (o) => {
  const flags = uint(o, 'flags', 255);
  const lx = o.lx;
  const k = lx.next();
  if (k !== WORD && k !== QUOTED) lx.fail('missing tag (e.g. issue, issuewild, iodef)');
  const tag = lx.text();
  if (tag.length === 0 || tag.length > 255) lx.fail('tag must be 1 to 255 letters and digits');
  for (let i = 0; i < tag.length; i++) {
    const c = tag.charCodeAt(i) | 32;
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) lx.fail(`tag ${lx.describe()} must contain only letters and digits`);
  }
  const value = charString(o, 'value', Infinity);
  checkRdataLength(o, 2 + tag.length + o.strOctets);
  o.rdata = `${flags} ${tag} ${value}`;
  o.data = { flags, tag, value: o.str };
};

const uri: RdataReader = (o) => {
  const priority = uint(o, 'priority', 65535);
  const weight = uint(o, 'weight', 65535);
  // No URI syntax is checked (RFC 7553 leaves that to the application), so an empty target is
  // accepted too, as BIND and Knot do.
  const target = charString(o, 'target', Infinity);
  checkRdataLength(o, 4 + o.strOctets);
  o.rdata = `${priority} ${weight} ${target}`;
  o.data = { priority, weight, target: o.str };
};

const sshfp: RdataReader = (o) => {
  const alg = uint(o, 'algorithm', 255);
  const fpType = uint(o, 'fingerprint type', 255);
  const hex = toHex(hexRest(o, 'fingerprint', false, 2));
  o.rdata = `${alg} ${fpType} ${chunk(hex, 128)}`;
  o.data = { algorithm: alg, fingerprintType: fpType, fingerprint: hex };
};

const cert: RdataReader = (o) => {
  word(o, 'certificate type');
  const lx = o.lx;
  let certType: number;
  const c = lx.s.charCodeAt(lx.start);
  if (c >= 48 && c <= 57) certType = uintToken(o, 'certificate type', 65535);
  else {
    certType = certTypeFromText(lx.text().toUpperCase());
    if (certType < 0) lx.fail(`unknown certificate type ${lx.describe()}: use a number or PKIX, SPKI, PGP, IPKIX, ISPKI, IPGP, ACPKIX, IACPKIX, URI, OID`);
  }
  const keyTag = uint(o, 'key tag', 65535);
  const alg = algorithm(o, 'algorithm');
  const certificate = toBase64(base64Rest(o, 'certificate', false, 5));
  o.rdata = `${certTypeToText(certType)} ${keyTag} ${algorithmToText(alg)} ${chunk(certificate, 32)}`;
  o.data = { certificateType: certType, keyTag, algorithm: alg, certificate };
};

const b64Only = (size: number, key: string): RdataReader => (o) => {
  const v = toBase64(base64Rest(o, key, false, 0));
  o.rdata = size > 0 ? chunk(v, size) : v;
  o.data = { [key]: v };
};

const zonemd: RdataReader = (o) => {
  const serial = uint(o, 'serial', 4294967295);
  const scheme = uint(o, 'scheme', 255);
  const hashAlgorithm = uint(o, 'hash algorithm', 255);
  const digest = hexRest(o, 'digest', false, 6);
  if (scheme === 0) o.lx.fail('scheme 0 is reserved');
  if (hashAlgorithm === 0) o.lx.fail('hash algorithm 0 is reserved');
  const expected = hashAlgorithm === 1 ? 48 : hashAlgorithm === 2 ? 64 : -1;
  if (expected > 0 && digest.length !== expected) o.lx.fail(`hash algorithm ${hashAlgorithm} needs a ${expected}-octet digest, found ${digest.length}`);
  if (digest.length < 12) o.lx.fail('digest must be at least 12 octets');
  const hex = toHex(digest);
  o.rdata = `${serial} ${scheme} ${hashAlgorithm} ${chunk(hex, 128)}`;
  o.data = { serial, scheme, hashAlgorithm, digest: hex };
};

const csync: RdataReader = (o) => {
  const serial = uint(o, 'serial', 4294967295);
  const flags = uint(o, 'flags', 65535);
  const types = bitmap(o);
  o.rdata = withBitmap(`${serial} ${flags}`, types);
  o.data = { serial, flags, types: types.map(typeToText) };
};

function gateway(o: RdataOut, kind: number, what: string): string {
  if (kind === 0) {
    word(o, what);
    if (o.lx.text() !== '.') o.lx.fail(`${what} must be "." when its type is 0 (no ${what})`);
    return '.';
  }
  if (kind === 1) return ipv4(o, what);
  if (kind === 2) return ipv6(o, what);
  if (kind === 3) return nameField(o, what);
  return o.lx.fail(`${what} type ${kind} is unknown (0 none, 1 IPv4, 2 IPv6, 3 domain name)`);
}

const ipseckey: RdataReader = (o) => {
  const precedence = uint(o, 'precedence', 255);
  const gatewayType = uint(o, 'gateway type', 255);
  const alg = uint(o, 'algorithm', 255);
  const gw = gateway(o, gatewayType, 'gateway');
  const gwOctets = gatewayType === 1 ? 4 : gatewayType === 2 ? 16 : gatewayType === 3 ? wireLength(gw) : 0;
  const key = toBase64(base64Rest(o, 'public key', o.fromWire, 3 + gwOctets));
  o.rdata = `${precedence} ${gatewayType} ${alg} ${gw} ${chunk(key, 32)}`;
  o.data = { precedence, gatewayType, algorithm: alg, gateway: gw, publicKey: key };
};

const amtrelay: RdataReader = (o) => {
  const precedence = uint(o, 'precedence', 255);
  const discoveryOptional = uint(o, 'discovery optional', 1);
  const relayType = uint(o, 'relay type', 127);
  const relay = gateway(o, relayType, 'relay');
  o.rdata = `${precedence} ${discoveryOptional} ${relayType} ${relay}`;
  o.data = { precedence, discoveryOptional: discoveryOptional === 1, relayType, relay };
};

const hip: RdataReader = (o) => {
  const alg = uint(o, 'algorithm', 255);
  word(o, 'HIT');
  const hit = fromHex(o.lx.text());
  if (hit === null || hit.length === 0) return o.lx.fail('HIT must be hexadecimal');
  if (hit.length > 255) o.lx.fail('HIT is longer than 255 octets');
  word(o, 'public key');
  const keyBytes = fromBase64(o.lx.text());
  if (keyBytes === null) return o.lx.fail('public key is not valid base64');
  const key = toBase64(keyBytes);
  const servers: string[] = [];
  while (!atEnd(o)) servers.push(nameField(o, 'rendezvous server'));
  o.rdata = `${alg} ${toHex(hit)} ${key}` + (servers.length ? ' ' + servers.join(' ') : '');
  o.data = { algorithm: alg, hit: toHex(hit), publicKey: key, servers };
};

const rp: RdataReader = (o) => {
  const mbox = nameField(o, 'mailbox');
  const txt = nameField(o, 'TXT domain name');
  o.rdata = `${mbox} ${txt}`;
  o.data = { mbox, txt };
};

const px: RdataReader = (o) => {
  const preference = uint(o, 'preference', 65535);
  const map822 = nameField(o, 'MAP822');
  const mapx400 = nameField(o, 'MAPX400');
  o.rdata = `${preference} ${map822} ${mapx400}`;
  o.data = { preference, map822, mapx400 };
};

const l32: RdataReader = (o) => {
  const preference = uint(o, 'preference', 65535);
  const locator = ipv4(o, 'locator');
  o.rdata = `${preference} ${locator}`;
  o.data = { preference, locator };
};

const l64: RdataReader = (o) => {
  const preference = uint(o, 'preference', 65535);
  word(o, 'locator');
  const lx = o.lx;
  const t = lx.text();
  const parts = t.split(':');
  if (parts.length !== 4 || parts.some((p) => p.length !== 4 || fromHex(p) === null)) {
    lx.fail(`locator ${lx.describe()} must be four groups of hexadecimal digits separated by ':'`);
  }
  const locator = t.toLowerCase();
  o.rdata = `${preference} ${locator}`;
  o.data = { preference, locator };
};

const eui = (octets: number): RdataReader => (o) => {
  word(o, 'address');
  const lx = o.lx;
  const t = lx.text();
  const ok = t.length === octets * 3 - 1 && t.split('-').every((p) => p.length === 2 && fromHex(p) !== null);
  if (!ok) lx.fail(`address ${lx.describe()} must be ${octets} hexadecimal octets separated by '-'`);
  const address = t.toLowerCase();
  o.rdata = address;
  o.data = { address };
};

const nsap: RdataReader = (o) => {
  word(o, 'NSAP address');
  const lx = o.lx;
  const t = lx.text();
  if (!(t.startsWith('0x') || t.startsWith('0X'))) lx.fail('NSAP address must start with 0x');
  const b = fromHex(t.slice(2).split('.').join(''));
  if (b === null || b.length === 0) return lx.fail('NSAP address must be an even number of hexadecimal digits after 0x');
  o.rdata = '0x' + toHex(b);
  o.data = { address: toHex(b) };
};

const gpos: RdataReader = (o) => {
  const parts: string[] = [];
  const limits = [90, 180, Infinity];
  for (const what of ['latitude', 'longitude', 'altitude']) {
    charString(o, what);
    const t = o.str;
    const limit = limits[parts.length] ?? Infinity;
    if (decimalDigits(t) <= 0 || Math.abs(Number(t)) > limit) o.lx.fail(`${what} "${t}" is not a decimal number${limit < Infinity ? ` between -${limit} and ${limit}` : ''}`);
    parts.push(t);
  }
  o.rdata = parts.join(' ');
  o.data = { latitude: parts[0], longitude: parts[1], altitude: parts[2] };
};

const apl: RdataReader = (o) => {
  const items: string[] = [];
  const data: { negation: boolean; family: number; address: string; prefix: number }[] = [];
  while (!atEnd(o)) {
    word(o, 'APL item');
    const lx = o.lx;
    let t = lx.text();
    const negation = t.startsWith('!');
    if (negation) t = t.slice(1);
    const colon = t.indexOf(':');
    const slash = t.lastIndexOf('/');
    const family = t.slice(0, colon);
    const address = t.slice(colon + 1, slash);
    const prefixText = t.slice(slash + 1);
    if (colon < 0 || slash < colon || (family !== '1' && family !== '2') || decimalDigits(prefixText) <= 0 || prefixText.includes('.')) {
      lx.fail(`APL item ${lx.describe()} must look like [!]1:192.0.2.0/24 or [!]2:2001:db8::/32`);
    }
    const prefix = Number(prefixText);
    let canonical: string;
    if (family === '1') {
      if (!parseIPv4(address, 0, address.length) || prefix > 32) lx.fail(`APL item ${lx.describe()} has a bad IPv4 address or prefix`);
      canonical = address;
    } else {
      const b = parseIPv6(address, 0, address.length);
      if (b === null || prefix > 128) return lx.fail(`APL item ${lx.describe()} has a bad IPv6 address or prefix`);
      canonical = formatIPv6(b);
    }
    items.push(`${negation ? '!' : ''}${family}:${canonical}/${prefix}`);
    data.push({ negation, family: Number(family), address: canonical, prefix });
  }
  o.rdata = items.join(' ');
  o.data = data;
};

/** Well-known service names (IANA's registry, as /etc/services spells them), for WKS bitmaps. */
const SERVICES: Record<string, number> = {
  tcpmux: 1, echo: 7, discard: 9, systat: 11, daytime: 13, netstat: 15, qotd: 17, chargen: 19, 'ftp-data': 20, ftp: 21,
  ssh: 22, telnet: 23, smtp: 25, time: 37, whois: 43, nicname: 43, tacacs: 49, domain: 53, gopher: 70, finger: 79,
  http: 80, www: 80, kerberos: 88, pop2: 109, pop3: 110, sunrpc: 111, auth: 113, ident: 113, sftp: 115, nntp: 119,
  ntp: 123, 'netbios-ns': 137, 'netbios-dgm': 138, 'netbios-ssn': 139, imap: 143, imap2: 143, snmp: 161,
  'snmp-trap': 162, bgp: 179, irc: 194, ldap: 389, https: 443, submissions: 465, smtps: 465, submission: 587,
  ldaps: 636, 'domain-s': 853, imaps: 993, pop3s: 995,
};

const wks: RdataReader = (o) => {
  const address = ipv4(o, 'address');
  word(o, 'protocol');
  const lx = o.lx;
  const pt = lx.text().toLowerCase();
  const protocol = pt === 'tcp' ? 6 : pt === 'udp' ? 17 : uintToken(o, 'protocol', 255);
  const ports: number[] = [];
  while (!atEnd(o)) {
    word(o, 'service');
    const t = lx.text().toLowerCase();
    const c = t.charCodeAt(0);
    const port = c >= 48 && c <= 57 ? uintToken(o, 'port', 65535) : SERVICES[t];
    if (port === undefined) return lx.fail(`unknown service ${lx.describe()}: use a port number`);
    if (!ports.includes(port)) ports.push(port);
  }
  ports.sort((x, y) => x - y);
  o.rdata = `${address} ${protocol} ${ports.join(' ')}`;
  o.data = { address, protocol, ports };
};

/** NXT (RFC 2535 §5, obsolete): the next name and the types present, all below 128. */
const nxt: RdataReader = (o) => {
  const next = nameField(o, 'next domain name');
  const types: number[] = [];
  while (!atEnd(o)) {
    const t = typeToken(o, 'type bitmap');
    if (t > 127) o.lx.fail(`NXT can only list types 1 to 127, found ${typeToText(t)}`);
    if (!types.includes(t)) types.push(t);
  }
  types.sort((x, y) => x - y);
  o.rdata = withBitmap(next, types);
  o.data = { nextDomain: next, types: types.map(typeToText) };
};

const svcb: RdataReader = (o) => {
  const priority = uint(o, 'priority', 65535);
  const target = nameField(o, 'target');
  const params = readSvcbParams(o);
  o.rdata = `${priority} ${target}` + (params.text ? ' ' + params.text : '');
  o.data = { priority, target, params: params.values };
};

const dsync: RdataReader = (o) => {
  const rrtype = typeToken(o, 'RR type');
  word(o, 'scheme');
  const lx = o.lx;
  const scheme = lx.is('NOTIFY') ? 1 : uintToken(o, 'scheme', 255);
  const port = uint(o, 'port', 65535);
  const target = nameField(o, 'target');
  o.rdata = `${typeToText(rrtype)} ${scheme === 1 ? 'NOTIFY' : scheme} ${port} ${target}`;
  o.data = { rrtype: typeToText(rrtype), scheme, port, target };
};

/** Readers for every type with a structured form; others accept only RFC 3597 `\#` data. */
export const READERS: ReadonlyMap<number, RdataReader> = new Map<number, RdataReader>([
  [1, a],
  [2, single('target')],
  [5, single('target')],
  [6, soa],
  [11, wks],
  [12, single('target')],
  [13, strings(2, 2)],
  [15, prefName('preference', 'exchange')],
  [16, strings(1, Infinity)],
  [17, rp],
  [18, prefName('subtype', 'hostname')],
  [19, strings(1, 1)],
  [20, strings(1, 2)],
  [21, prefName('preference', 'exchange')],
  [22, nsap],
  [23, single('target')],
  [26, px],
  [27, gpos],
  [28, aaaa],
  [3, single('target')],
  [4, single('target')],
  [7, single('target')],
  [8, single('target')],
  [9, single('target')],
  [29, readLoc],
  [30, nxt],
  [33, srv],
  [35, naptr],
  [36, prefName('preference', 'exchange')],
  [37, cert],
  [39, single('target')],
  [42, apl],
  [43, dsLike],
  [44, sshfp],
  [45, ipseckey],
  [46, rrsig],
  [47, nsec],
  [25, keyLike],
  [48, keyLike],
  [49, b64Only(32, 'digest')],
  [50, nsec3],
  [51, nsec3param],
  [52, tlsaLike],
  [53, tlsaLike],
  [55, hip],
  [56, strings(1, Infinity)],
  [59, dsLike],
  [60, keyLike],
  [61, b64Only(0, 'publicKey')],
  [62, csync],
  [63, zonemd],
  [64, svcb],
  [65, svcb],
  [99, strings(1, Infinity)],
  [104, l64],
  [105, l32],
  [106, l64],
  [107, prefName('preference', 'target')],
  [108, eui(6)],
  [109, eui(8)],
  [256, uri],
  [257, caa],
  [258, strings(1, Infinity)],
  [260, amtrelay],
  [261, strings(1, Infinity)],
  [262, strings(1, Infinity)],
  [66, dsync],
  [32769, dsLike],
]);

/** Types that may not appear in a zone at all. */
export function isMetaType(type: number): boolean {
  return META_TYPES.has(type);
}

/** RFC 3597 `\# <length> <hex>`; the `\#` token has been read. Returns the bytes. */
export function readGeneric(o: RdataOut): Uint8Array {
  const length = uint(o, 'RFC 3597 data length', 65535);
  const b = hexRest(o, 'RFC 3597 data', true, 0);
  if (b.length !== length) o.lx.fail(`RFC 3597 data is ${b.length} octets but the length says ${length}`);
  return b;
}

export function genericText(b: Uint8Array): string {
  return `\\# ${b.length} ${chunk(toHex(b), 32)}`;
}

