/**
 * Record data from the presentation form the service stores (canonical, names absolute) to wire
 * form, once per record when a zone is indexed, so that answering a query only copies bytes.
 * Covers the types the service stores (its default import list) and RFC 3597 generic data
 * (`\# len hex`) for any type; a record of another type in presentation form is left out of the
 * served zone (the indexer counts it) rather than sent wrong.
 */
import { fromBase64, fromHex, parseIPv4, parseIPv6 } from '../../zonefile/codec.js';
import { algorithmFromText, certTypeFromText } from '../../zonefile/registry.js';

/** Data that cannot be encoded: the record is not served. @internal */
export class RdataError extends Error {}

/** A token of record data: its bytes (escapes resolved) and whether it was quoted. */
interface Token {
  readonly bytes: number[];
  readonly quoted: boolean;
  readonly text: string;
}

/** Splits presentation data into tokens: words and quoted strings, with `\X` and `\DDD` escapes. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09) {
      i++;
      continue;
    }
    const quoted = c === 0x22;
    if (quoted) i++;
    const start = i;
    const bytes: number[] = [];
    for (;;) {
      if (i >= n) {
        if (quoted) throw new RdataError('an unterminated quoted string');
        break;
      }
      const d = text.charCodeAt(i);
      if (quoted ? d === 0x22 : d === 0x20 || d === 0x09) break;
      if (d === 0x5c) {
        const a = text.charCodeAt(i + 1);
        if (a >= 0x30 && a <= 0x39) {
          const v = Number(text.slice(i + 1, i + 4));
          if (!/^\d{3}$/.test(text.slice(i + 1, i + 4)) || v > 255) throw new RdataError('a bad \\DDD escape');
          bytes.push(v);
          i += 4;
        } else if (i + 1 < n) {
          pushUtf8(bytes, text.codePointAt(i + 1)!);
          i += text.codePointAt(i + 1)! > 0xffff ? 3 : 2;
        } else throw new RdataError('a backslash at the end');
        continue;
      }
      const cp = text.codePointAt(i)!;
      pushUtf8(bytes, cp);
      i += cp > 0xffff ? 2 : 1;
    }
    out.push({ bytes, quoted, text: text.slice(start, i) });
    if (quoted) i++;
  }
  return out;
}

function pushUtf8(out: number[], cp: number): void {
  if (cp < 0x80) out.push(cp);
  else for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) out.push(b);
}

/**
 * The wire form of an absolute name in presentation form (`www.example.com.`, `.` for the
 * root), escapes resolved, case kept. Throws {@link RdataError} on a relative or malformed name.
 * @internal
 */
export function nameToWire(text: string): Uint8Array {
  if (text === '.') return Uint8Array.of(0);
  const out: number[] = [];
  let label: number[] = [];
  let i = 0;
  const n = text.length;
  const close = () => {
    if (label.length === 0 || label.length > 63) throw new RdataError(`a bad label in ${text}`);
    out.push(label.length, ...label);
    label = [];
  };
  let ended = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) {
      close();
      i++;
      if (i === n) ended = true;
      continue;
    }
    if (c === 0x5c) {
      const digits = text.slice(i + 1, i + 4);
      if (/^\d{3}$/.test(digits)) {
        const v = Number(digits);
        if (v > 255) throw new RdataError('a bad \\DDD escape');
        label.push(v);
        i += 4;
      } else if (i + 1 < n) {
        pushUtf8(label, text.codePointAt(i + 1)!);
        i += text.codePointAt(i + 1)! > 0xffff ? 3 : 2;
      } else throw new RdataError('a backslash at the end of a name');
      continue;
    }
    const cp = text.codePointAt(i)!;
    pushUtf8(label, cp);
    i += cp > 0xffff ? 2 : 1;
  }
  if (!ended) throw new RdataError(`a relative name: ${text}`);
  out.push(0);
  if (out.length > 255) throw new RdataError('a name longer than 255 octets');
  return Uint8Array.from(out);
}

class Out {
  readonly bytes: number[] = [];
  u8(v: number): void {
    this.bytes.push(v & 0xff);
  }
  u16(v: number): void {
    this.bytes.push((v >> 8) & 0xff, v & 0xff);
  }
  u32(v: number): void {
    this.bytes.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
  }
  add(b: ArrayLike<number>): void {
    for (let i = 0; i < b.length; i++) this.bytes.push(b[i]!);
  }
  str(b: readonly number[]): void {
    if (b.length > 255) throw new RdataError('a character string longer than 255 octets');
    this.u8(b.length);
    this.add(b);
  }
}

function int(t: Token | undefined, max: number): number {
  if (t === undefined || t.quoted || !/^\d+$/.test(t.text)) throw new RdataError('a number was expected');
  const v = Number(t.text);
  if (v > max) throw new RdataError('a number out of range');
  return v;
}

function name(t: Token | undefined): Uint8Array {
  if (t === undefined) throw new RdataError('a name was expected');
  return nameToWire(t.text);
}

function rest(ts: Token[], from: number): string {
  return ts
    .slice(from)
    .map((t) => t.text)
    .join('');
}

function mnemonicOrInt(t: Token | undefined, fromText: (upper: string) => number, max: number): number {
  if (t !== undefined && /^\d+$/.test(t.text)) return int(t, max);
  const v = t === undefined ? -1 : fromText(t.text.toUpperCase());
  if (v < 0) throw new RdataError('an unknown mnemonic');
  return v;
}

/**
 * The wire form of one record's data. Throws {@link RdataError} for data this server cannot
 * encode.
 * @internal
 */
export function rdataToWire(type: number, text: string): Uint8Array {
  const ts = tokens(text);
  const o = new Out();
  if (ts[0]?.text === '\\#' && !ts[0].quoted) {
    const length = int(ts[1], 65535);
    const hex = rest(ts, 2);
    const data = hex === '' ? new Uint8Array(0) : fromHex(hex);
    if (data === null || data.length !== length) throw new RdataError('generic data whose length is not the one stated');
    return data;
  }
  switch (type) {
    case 1: {
      const b = new Uint8Array(4);
      if (ts.length !== 1 || !parseIPv4(ts[0]!.text, 0, ts[0]!.text.length, b, 0)) throw new RdataError('a bad IPv4 address');
      return b;
    }
    case 28: {
      const b = ts.length === 1 ? parseIPv6(ts[0]!.text, 0, ts[0]!.text.length) : null;
      if (b === null) throw new RdataError('a bad IPv6 address');
      return b;
    }
    case 2:
    case 5:
    case 12:
    case 39:
      if (ts.length !== 1) throw new RdataError('one name was expected');
      return name(ts[0]);
    case 6:
      if (ts.length !== 7) throw new RdataError('an SOA has seven fields');
      o.add(name(ts[0]));
      o.add(name(ts[1]));
      for (let i = 2; i < 7; i++) o.u32(int(ts[i], 4294967295));
      break;
    case 15:
      if (ts.length !== 2) throw new RdataError('an MX has two fields');
      o.u16(int(ts[0], 65535));
      o.add(name(ts[1]));
      break;
    case 33:
      if (ts.length !== 4) throw new RdataError('an SRV has four fields');
      for (let i = 0; i < 3; i++) o.u16(int(ts[i], 65535));
      o.add(name(ts[3]));
      break;
    case 16:
    case 99:
      if (ts.length === 0) throw new RdataError('a TXT needs a string');
      for (const t of ts) o.str(t.bytes);
      break;
    case 35:
      if (ts.length !== 6) throw new RdataError('a NAPTR has six fields');
      o.u16(int(ts[0], 65535));
      o.u16(int(ts[1], 65535));
      o.str(ts[2]!.bytes);
      o.str(ts[3]!.bytes);
      o.str(ts[4]!.bytes);
      o.add(name(ts[5]));
      break;
    case 44: {
      if (ts.length < 3) throw new RdataError('an SSHFP has three fields');
      o.u8(int(ts[0], 255));
      o.u8(int(ts[1], 255));
      const fp = fromHex(rest(ts, 2));
      if (fp === null) throw new RdataError('a bad fingerprint');
      o.add(fp);
      break;
    }
    case 257: {
      if (ts.length !== 3) throw new RdataError('a CAA has three fields');
      o.u8(int(ts[0], 255));
      o.str(ts[1]!.bytes);
      o.add(ts[2]!.bytes);
      break;
    }
    case 37: {
      if (ts.length < 4) throw new RdataError('a CERT has four fields');
      o.u16(mnemonicOrInt(ts[0], certTypeFromText, 65535));
      o.u16(int(ts[1], 65535));
      o.u8(mnemonicOrInt(ts[2], algorithmFromText, 255));
      const data = fromBase64(rest(ts, 3));
      if (data === null) throw new RdataError('bad base64');
      o.add(data);
      break;
    }
    default:
      throw new RdataError(`type ${type} is served only as RFC 3597 generic data`);
  }
  if (o.bytes.length > 65535) throw new RdataError('record data longer than 65535 octets');
  return Uint8Array.from(o.bytes);
}
