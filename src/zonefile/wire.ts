/**
 * RFC 3597 data for a known type: the wire bytes are turned back into presentation text and read
 * with the type's own reader, so both spellings give the same canonical record.
 */
import { formatIPv4, formatIPv6, toBase64, toHex } from './codec.js';
import { Lexer } from './lexer.js';
import { labelToText } from './names.js';
import type { RdataOut, RdataReader } from './rdata.js';
import { escapeString } from './rdata.js';
import { typeToText } from './registry.js';

/** Field kinds of a wire layout. */
type Field = 'u8' | 'u16' | 'u32' | 'name' | 'a' | 'aaaa' | 'str' | 'strs' | 'hex' | 'b64' | 'type';

const LAYOUTS: ReadonlyMap<number, readonly Field[]> = new Map<number, readonly Field[]>([
  [1, ['a']],
  [2, ['name']],
  [5, ['name']],
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
  [26, ['u16', 'name', 'name']],
  [28, ['aaaa']],
  [33, ['u16', 'u16', 'u16', 'name']],
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
  try {
    reader(o);
    if (inner.next() !== 0) inner.fail('trailing data');
  } finally {
    o.lx = saved;
    o.origin = savedOrigin;
  }
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
      case 'name': {
        const labels: string[] = [];
        for (;;) {
          need(1);
          const len = b[p++]!;
          if (len === 0) break;
          if (len > 63) throw new Truncated('a name uses compression or an unknown label type');
          need(len);
          labels.push(labelToText(b, p, p + len));
          p += len;
        }
        parts.push(labels.length ? labels.join('.') + '.' : '.');
        break;
      }
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
    }
  }
  if (p !== b.length) throw new Truncated('there are bytes left over after the last field');
  return parts.join(' ');
}
