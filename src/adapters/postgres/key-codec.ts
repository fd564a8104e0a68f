/**
 * Index keys and ids as `bytea`, in an encoding whose bytewise order is JS string order.
 *
 * PostgreSQL `text` cannot hold U+0000, which every key from `tupleKey` contains, and no text
 * collation sorts by UTF-16 code units (even `COLLATE "C"` sorts UTF-8 bytes, i.e. code points,
 * which puts U+10000.. before U+E000..U+FFFF where JS puts them after). So keys are stored as
 * CESU-8: UTF-8 applied to each UTF-16 code unit on its own (a surrogate, paired or lone, is a
 * 3-byte sequence). UTF-8 preserves the order of the numbers it encodes and is prefix-free, so
 * comparing CESU-8 bytes compares code units, with a shorter prefix first: exactly `<` on JS
 * strings. For text without surrogates it is byte-for-byte UTF-8, so keys and ids stay readable
 * with `convert_from(key, 'UTF8')` as long as they hold no U+0000.
 * @internal
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** The CESU-8 bytes of `s`. @internal */
export function encodeKey(s: string): Buffer {
  // Node's UTF-8 encoder is exact for anything without surrogates and much faster than a loop.
  if (!SURROGATE.test(s)) return Buffer.from(s, 'utf8');
  const out = Buffer.allocUnsafe(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u < 0x80) {
      out[n++] = u;
    } else if (u < 0x800) {
      out[n++] = 0xc0 | (u >> 6);
      out[n++] = 0x80 | (u & 0x3f);
    } else {
      out[n++] = 0xe0 | (u >> 12);
      out[n++] = 0x80 | ((u >> 6) & 0x3f);
      out[n++] = 0x80 | (u & 0x3f);
    }
  }
  return out.subarray(0, n);
}

/** The string whose CESU-8 bytes are `b` (as written by {@link encodeKey}). @internal */
export function decodeKey(b: Uint8Array): string {
  // Only a surrogate's sequence starts ED A0..ED BF; without one, the bytes are plain UTF-8.
  let plain = true;
  for (let i = b.indexOf(0xed); i !== -1 && i < b.length; i = b.indexOf(0xed, i + 1)) {
    if ((b[i + 1] ?? 0) >= 0xa0) {
      plain = false;
      break;
    }
  }
  if (plain) return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  const units: number[] = [];
  for (let i = 0; i < b.length; ) {
    const b0 = b[i]!;
    if (b0 < 0x80) {
      units.push(b0);
      i += 1;
    } else if (b0 < 0xe0) {
      units.push(((b0 & 0x1f) << 6) | (b[i + 1]! & 0x3f));
      i += 2;
    } else {
      units.push(((b0 & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f));
      i += 3;
    }
  }
  let s = '';
  for (let i = 0; i < units.length; i += 4096) s += String.fromCharCode(...units.slice(i, i + 4096));
  return s;
}

/**
 * The least byte string greater than every string starting with `prefix`, or `undefined` when
 * there is none (the empty prefix): the exclusive upper bound of a prefix range. CESU-8 never
 * holds 0xFF, but the general rule costs nothing and keeps this right for any encoding.
 * @internal
 */
export function prefixEnd(prefix: Uint8Array): Buffer | undefined {
  let end = prefix.length;
  while (end > 0 && prefix[end - 1] === 0xff) end--;
  if (end === 0) return undefined;
  const out = Buffer.from(prefix.subarray(0, end));
  out[end - 1] = out[end - 1]! + 1;
  return out;
}
