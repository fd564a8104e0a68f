/**
 * RFC 3597 data for a known type: the wire bytes are turned back into presentation text and read
 * with the type's own reader, so both spellings give the same canonical record.
 */
import { formatIPv4, formatIPv6, toBase32Hex, toBase64, toHex } from './codec.js';
import { Lexer } from './lexer.js';
import { labelToText } from './names.js';
import type { RdataOut, RdataReader } from './rdata.js';
import { escapeString } from './rdata.js';
import { typeToText } from './registry.js';

/** Field kinds of a wire layout. */
type Field = 'u8' | 'u16' | 'u32' | 'name' | 'a' | 'aaaa' | 'str' | 'strs' | 'hex' | 'b64' | 'type' | 'l64' | 'eui' | 'salt' | 'b32' | 'bitmap' | 'nxtbitmap' | 'svcb' | 'apl' | 'gateway';

const LAYOUTS: ReadonlyMap<number, readonly Field[]> = new Map<number, readonly Field[]>([
  [1, ['a']],
  [2, ['name']],
  [3, ['name']],
  [4, ['name']],
  [5, ['name']],
  [7, ['name']],
  [8, ['name']],
  [9, ['name']],
  [6, ['name', 'name', 'u32', 'u32', 'u32', 'u32', 'u32']],
  [12, ['name']],
  [13, ['str', 'str']],
  [15, ['u16', 'name']],
  [16, ['strs']],
  [17, ['name', 'name']],
  [18, ['u16', 'name']],
  [19, ['str']],
  [20, ['strs']],
  [21, ['u16', 'name']],
  [23, ['name']],
  [25, ['u16', 'u8', 'u8', 'b64']],
  [26, ['u16', 'name', 'name']],
  [28, ['aaaa']],
  [30, ['name', 'nxtbitmap']],
  [33, ['u16', 'u16', 'u16', 'name']],
  [37, ['u16', 'u16', 'u8', 'b64']],
  [42, ['apl']],
  [45, ['u8', 'u8', 'u8', 'gateway', 'b64']],
  [46, ['type', 'u8', 'u8', 'u32', 'u32', 'u32', 'u16', 'name', 'b64']],
  [47, ['name', 'bitmap']],
  [50, ['u8', 'u8', 'u16', 'salt', 'b32', 'bitmap']],
  [51, ['u8', 'u8', 'u16', 'salt']],
  [62, ['u32', 'u16', 'bitmap']],
  [64, ['u16', 'name', 'svcb']],
  [65, ['u16', 'name', 'svcb']],
  [104, ['u16', 'l64']],
  [106, ['u16', 'l64']],
  [108, ['eui']],
  [109, ['eui']],
  [261, ['strs']],
  [262, ['strs']],
  [35, ['u16', 'u16', 'str', 'str', 'str', 'name']],
  [36, ['u16', 'name']],
  [39, ['name']],
  [43, ['u16', 'u8', 'u8', 'hex']],
  [44, ['u8', 'u8', 'hex']],
  [48, ['u16', 'u8', 'u8', 'b64']],
  [49, ['b64']],
  [52, ['u8', 'u8', 'u8', 'hex']],
  [53, ['u8', 'u8', 'u8', 'hex']],
  [59, ['u16', 'u8', 'u8', 'hex']],
  [60, ['u16', 'u8', 'u8', 'b64']],
  [61, ['b64']],
  [63, ['u32', 'u8', 'u8', 'hex']],
  [99, ['strs']],
  [105, ['u16', 'a']],
  [107, ['u16', 'name']],
  [256, ['u16', 'u16', 'hex']],
  [257, ['u8', 'str', 'hex']],
  [258, ['strs']],
  [32769, ['u16', 'u8', 'u8', 'hex']],
]);

/**
 * Types kept as RFC 3597 text (no presentation reader here, as in dnspython) whose wire form is
 * still checked, so that data which cannot be such a record is refused as BIND and Knot refuse it.
 */
const CHECKED_ONLY: ReadonlyMap<number, readonly Field[]> = new Map<number, readonly Field[]>([[14, ['name', 'name']]]);

/** Checks RFC 3597 data of a type without a reader against its wire layout, where one is known. */
export function checkGeneric(o: RdataOut, type: number, b: Uint8Array): void {
  const layout = CHECKED_ONLY.get(type);
  if (!layout) return;
  try {
    wireToText(type, layout, b);
  } catch (e) {
    if (e instanceof Truncated) o.lx.fail(`RFC 3597 data for ${typeToText(type)} does not decode: ${e.message}`);
    throw e;
  }
}

class Truncated extends Error {}

export function decodeWire(o: RdataOut, type: number, b: Uint8Array, reader: RdataReader): void {
  const layout = LAYOUTS.get(type);
  const lx = o.lx;
  if (!layout) return lx.fail(`RFC 3597 data for ${typeToText(type)} is not supported here: write it in its presentation form`);
  let text: string;
  try {
    text = wireToText(type, layout, b);
  } catch (e) {
    if (e instanceof Truncated) return lx.fail(`RFC 3597 data for ${typeToText(type)} does not decode: ${e.message}`);
    throw e;
  }
  const inner = new Lexer(text, lx.tLine);
  const saved = o.lx;
  const savedOrigin = o.origin;
  o.lx = inner;
  o.origin = '.';
  o.fromWire = true;
  try {
    reader(o);
    if (inner.next() !== 0) inner.fail('trailing data');
  } finally {
    o.lx = saved;
    o.origin = savedOrigin;
    o.fromWire = false;
  }
}

function nameToText(b: Uint8Array, at: number, parts: string[]): number {
  let p = at;
  const labels: string[] = [];
  for (;;) {
    if (p >= b.length) throw new Truncated('a name runs past the end of the data');
    const len = b[p++]!;
    if (len === 0) break;
    if (len > 63) throw new Truncated('a name uses compression or an unknown label type');
    if (p + len > b.length) throw new Truncated('a name runs past the end of the data');
    labels.push(labelToText(b, p, p + len));
    p += len;
  }
  parts.push(labels.length ? labels.join('.') + '.' : '.');
  return p;
}

function bitmapToText(b: Uint8Array, at: number, parts: string[]): number {
  let p = at;
  while (p < b.length) {
    if (p + 2 > b.length) throw new Truncated('a type bitmap window is cut short');
    const window = b[p]!;
    const len = b[p + 1]!;
    if (len === 0 || len > 32 || p + 2 + len > b.length) throw new Truncated('a type bitmap window has a bad length');
    for (let i = 0; i < len; i++) {
      const byte = b[p + 2 + i]!;
      for (let bit = 0; bit < 8; bit++) if (byte & (0x80 >> bit)) parts.push(typeToText(window * 256 + i * 8 + bit));
    }
    p += 2 + len;
  }
  return p;
}

const SVCB_KEYS = ['mandatory', 'alpn', 'no-default-alpn', 'port', 'ipv4hint', 'ech', 'ipv6hint'];

function svcbToText(b: Uint8Array, at: number, parts: string[]): number {
  let p = at;
  while (p < b.length) {
    if (p + 4 > b.length) throw new Truncated('a service parameter is cut short');
    const key = (b[p]! << 8) | b[p + 1]!;
    const len = (b[p + 2]! << 8) | b[p + 3]!;
    p += 4;
    if (p + len > b.length) throw new Truncated('a service parameter value runs past the end');
    const v = b.subarray(p, p + len);
    p += len;
    const name = SVCB_KEYS[key] ?? `key${key}`;
    let text: string;
    if (key === 0 || key === 4 || key === 6) {
      const size = key === 0 ? 2 : key === 4 ? 4 : 16;
      if (len % size !== 0 || len === 0) throw new Truncated(`${name} has a bad length`);
      const items: string[] = [];
      for (let i = 0; i < len; i += size) {
        items.push(key === 0 ? SVCB_KEYS[(v[i]! << 8) | v[i + 1]!] ?? `key${(v[i]! << 8) | v[i + 1]!}` : key === 4 ? formatIPv4(v, i) : formatIPv6(v, i));
      }
      text = items.join(',');
    } else if (key === 1) {
      const ids: string[] = [];
      for (let i = 0; i < len; ) {
        const l = v[i]!;
        if (i + 1 + l > len) throw new Truncated('an alpn identifier runs past the end');
        let id = '';
        // Both levels of RFC 9460 Appendix A.1 escaping: `\` and `,` inside an identifier are escaped
        // for the list (`\\`, `\,`), and those backslashes again for the presentation form.
        for (const c of v.subarray(i + 1, i + 1 + l)) id += c === 0x5c ? '\\\\\\\\' : c === 0x2c ? '\\\\,' : escapeString(Uint8Array.of(c));
        ids.push(id);
        i += 1 + l;
      }
      text = ids.join(',');
    } else if (key === 2) {
      if (len !== 0) throw new Truncated('no-default-alpn has a value');
      parts.push(name);
      continue;
    } else if (key === 3) {
      if (len !== 2) throw new Truncated('port has a bad length');
      text = String((v[0]! << 8) | v[1]!);
    } else if (key === 5) {
      text = toBase64(v);
    } else {
      if (len === 0) {
        parts.push(name);
        continue;
      }
      text = escapeString(v);
    }
    parts.push(`${name}="${text}"`);
  }
  return p;
}

function aplToText(b: Uint8Array, at: number, parts: string[]): number {
  let p = at;
  while (p < b.length) {
    if (p + 4 > b.length) throw new Truncated('an APL item is cut short');
    const family = (b[p]! << 8) | b[p + 1]!;
    const prefix = b[p + 2]!;
    const negation = (b[p + 3]! & 0x80) !== 0;
    const len = b[p + 3]! & 0x7f;
    p += 4;
    if (p + len > b.length) throw new Truncated('an APL address runs past the end');
    const size = family === 1 ? 4 : family === 2 ? 16 : 0;
    if (size === 0 || len > size) throw new Truncated(`APL family ${family} is unknown`);
    const addr = new Uint8Array(size);
    addr.set(b.subarray(p, p + len));
    p += len;
    parts.push(`${negation ? '!' : ''}${family}:${family === 1 ? formatIPv4(addr) : formatIPv6(addr)}/${prefix}`);
  }
  return p;
}

function wireToText(type: number, layout: readonly Field[], b: Uint8Array): string {
  const parts: string[] = [];
  let p = 0;
  const need = (n: number): void => {
    if (p + n > b.length) throw new Truncated('the data is shorter than the type needs');
  };
  for (const f of layout) {
    switch (f) {
      case 'u8':
        need(1);
        parts.push(String(b[p++]));
        break;
      case 'u16':
        need(2);
        parts.push(String((b[p]! << 8) | b[p + 1]!));
        p += 2;
        break;
      case 'u32':
        need(4);
        parts.push(String(((b[p]! << 24) >>> 0) + ((b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!)));
        p += 4;
        break;
      case 'a':
        need(4);
        parts.push(formatIPv4(b, p));
        p += 4;
        break;
      case 'aaaa':
        need(16);
        parts.push(formatIPv6(b, p));
        p += 16;
        break;
      case 'name':
        p = nameToText(b, p, parts);
        break;
      case 'str':
      case 'strs':
        do {
          need(1);
          const len = b[p++]!;
          need(len);
          const s = b.subarray(p, p + len);
          parts.push(type === 257 && parts.length === 1 ? String.fromCharCode(...s) : '"' + escapeString(s) + '"');
          p += len;
        } while (f === 'strs' && p < b.length);
        break;
      case 'hex':
        if (type === 256 || type === 257) {
          parts.push('"' + escapeString(b.subarray(p)) + '"');
        } else {
          parts.push(toHex(b, p));
        }
        p = b.length;
        break;
      case 'b64':
        parts.push(toBase64(b.subarray(p)));
        p = b.length;
        break;
      case 'type':
        need(2);
        parts.push(typeToText((b[p]! << 8) | b[p + 1]!));
        p += 2;
        break;
      case 'l64': {
        need(8);
        const g: string[] = [];
        for (let k = 0; k < 4; k++) g.push(toHex(b, p + 2 * k, p + 2 * k + 2));
        parts.push(g.join(':'));
        p += 8;
        break;
      }
      case 'eui': {
        const g: string[] = [];
        for (; p < b.length; p++) g.push(toHex(b, p, p + 1));
        parts.push(g.join('-'));
        break;
      }
      case 'salt': {
        need(1);
        const len = b[p++]!;
        need(len);
        parts.push(len === 0 ? '-' : toHex(b, p, p + len));
        p += len;
        break;
      }
      case 'b32': {
        need(1);
        const len = b[p++]!;
        need(len);
        parts.push(toBase32Hex(b.subarray(p, p + len)));
        p += len;
        break;
      }
      case 'bitmap':
        p = bitmapToText(b, p, parts);
        break;
      case 'nxtbitmap': {
        // RFC 2535 §5.2: bit n stands for type n; bit 0 set would mean another format.
        const start = p;
        if (p < b.length && (b[p]! & 0x80) !== 0) throw new Truncated('an NXT bitmap with bit 0 set is not a type bitmap');
        if (b.length - start > 16) throw new Truncated('an NXT bitmap is longer than 16 octets');
        for (; p < b.length; p++) {
          for (let bit = 0; bit < 8; bit++) if (b[p]! & (0x80 >> bit)) parts.push(typeToText((p - start) * 8 + bit));
        }
        break;
      }
      case 'svcb':
        p = svcbToText(b, p, parts);
        break;
      case 'apl':
        p = aplToText(b, p, parts);
        break;
      case 'gateway': {
        const kind = Number(parts[1]);
        if (kind === 0) parts.push('.');
        else if (kind === 1) {
          need(4);
          parts.push(formatIPv4(b, p));
          p += 4;
        } else if (kind === 2) {
          need(16);
          parts.push(formatIPv6(b, p));
          p += 16;
        } else if (kind === 3) {
          const before = parts.length;
          p = nameToText(b, p, parts);
          if (parts.length !== before + 1) throw new Truncated('bad gateway name');
        } else throw new Truncated(`unknown gateway type ${kind}`);
        break;
      }
    }
  }
  if (p !== b.length) throw new Truncated('there are bytes left over after the last field');
  return parts.join(' ');
}
