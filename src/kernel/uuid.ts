/**
 * Whether a path id is UUID-shaped as the real service's router accepts it: 32 hex digits,
 * hyphens, braces and case optional.
 * @internal
 */
export function isUuidLike(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 38) return false;
  // 32 hex digits once braces around the whole and every hyphen are dropped; one pass, no copies.
  let start = 0;
  let end = value.length;
  if (end >= 2 && value.charCodeAt(0) === 0x7b && value.charCodeAt(end - 1) === 0x7d) {
    start = 1;
    end -= 1;
  }
  let digits = 0;
  for (let i = start; i < end; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x2d) continue;
    // 0-9, then A-F and a-f folded together by the lower-case bit.
    if ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66)) digits += 1;
    else return false;
  }
  return digits === 32;
}

/**
 * Random bytes drawn at a time, at most: 256 ids' worth, well under getRandomValues' 65,536-byte
 * limit. A source starts with 4 ids' worth and doubles up to this: a service made for one test
 * draws a handful of ids, and filling 4 KiB for it cost more than the rest of its construction.
 */
const POOL_BYTES = 4096;
const FIRST_POOL_BYTES = 64;

/**
 * Random version-4 UUIDs (RFC 9562 §5.4) in lower-case canonical text, over a source of random
 * bytes, for the default id source.
 *
 * Not `crypto.randomUUID`: Node builds each of its ids by concatenating about twenty pieces, a
 * tree of string objects of about 450 bytes that is flattened into the plain 36-character string
 * only when something reads it. An import draws one id per recordset, hundreds of thousands at a
 * time; kept as trees until they were sorted, those ids took longer, and held more memory, than
 * parsing the file (`npm run bench -- imports`). These are built flat, 64 bytes each.
 *
 * @param fill - fills its argument with random bytes (such as `crypto.getRandomValues`)
 * @internal
 */
export function uuidV4Source(fill: (bytes: Uint8Array) => unknown): BinaryUuidSource {
  let pool = new Uint8Array(0);
  let at = 0;
  // The 32 hex digits' character codes. One call with 36 arguments, not `apply` over an array:
  // spreading an array into arguments took a third of each id's time.
  const c = new Uint8Array(32);
  const next = (): string => {
    if (at === pool.length) {
      if (pool.length < POOL_BYTES) pool = new Uint8Array(Math.max(FIRST_POOL_BYTES, pool.length * 2));
      fill(pool);
      at = 0;
    }
    for (let i = 0; i < 16; i++) {
      let b = pool[at + i]!;
      if (i === 6) b = (b & 0x0f) | 0x40; // version 4
      else if (i === 8) b = (b & 0x3f) | 0x80; // the RFC's variant
      const hi = b >> 4;
      const lo = b & 15;
      c[2 * i] = hi < 10 ? 48 + hi : 87 + hi;
      c[2 * i + 1] = lo < 10 ? 48 + lo : 87 + lo;
    }
    at += 16;
    return String.fromCharCode(
      c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, 45,
      c[8]!, c[9]!, c[10]!, c[11]!, 45,
      c[12]!, c[13]!, c[14]!, c[15]!, 45,
      c[16]!, c[17]!, c[18]!, c[19]!, 45,
      c[20]!, c[21]!, c[22]!, c[23]!, c[24]!, c[25]!, c[26]!, c[27]!, c[28]!, c[29]!, c[30]!, c[31]!,
    );
  };
  const binary = (count: number): Uint8Array => {
    const out = new Uint8Array(count * 16);
    for (let from = 0; from < out.length; from += FILL_LIMIT) fill(out.subarray(from, Math.min(out.length, from + FILL_LIMIT)));
    for (let i = 0; i < out.length; i += 16) {
      out[i + 6] = (out[i + 6]! & 0x0f) | 0x40;
      out[i + 8] = (out[i + 8]! & 0x3f) | 0x80;
    }
    return out;
  };
  return Object.assign(next, { binary });
}

/** Most bytes one `getRandomValues` call may fill. */
const FILL_LIMIT = 65536;

/**
 * The default id source: its ids one at a time, or `binary(count)`, `count` ids at once as their
 * 16 bytes each (version and variant set; an id's text is its bytes in lower-case hex, hyphens at
 * 8, 12, 16 and 20 digits). An import draws an id per recordset: drawn as bytes, 100,000 ids are
 * ordered and written into their blocks' text without a string each.
 * @internal
 */
export interface BinaryUuidSource {
  (): string;
  readonly binary: (count: number) => Uint8Array;
}

/** Numbers drawn at a time by {@link uniformSource}, at most; it starts with 4 and doubles. */
const POOL_NUMBERS = 256;

/**
 * Uniform numbers in [0, 1) with 32 random bits each, over a source of random bytes, for the
 * default random source: drawn a pool at a time, since one `getRandomValues` call per number (a
 * zone's SOA refresh) cost a tenth of a zone create.
 *
 * @param fill - fills its argument with random bytes (such as `crypto.getRandomValues`)
 * @internal
 */
export function uniformSource(fill: (numbers: Uint32Array) => unknown): () => number {
  let pool = new Uint32Array(0);
  let at = 0;
  return () => {
    if (at === pool.length) {
      if (pool.length < POOL_NUMBERS) pool = new Uint32Array(Math.max(4, pool.length * 2));
      fill(pool);
      at = 0;
    }
    return pool[at++]! / 4294967296;
  };
}

/** Bytes {@link pooledFill} draws at a time. */
const SHARED_POOL_BYTES = 16384;

/**
 * A fill function that serves random bytes from a pool filled by `fill` 16 KiB at a time: each
 * call of `crypto.getRandomValues` costs microseconds however few bytes it draws, and a service
 * made for one test draws a handful of ids and numbers. The assembly makes one for the default
 * sources of every service in the process; bytes once served are never served again, so no two
 * sources share a byte.
 *
 * @param fill - fills its argument with random bytes (such as `crypto.getRandomValues`)
 * @internal
 */
export function pooledFill(fill: (bytes: Uint8Array) => unknown): (target: Uint8Array | Uint32Array) => void {
  const pool = new Uint8Array(SHARED_POOL_BYTES);
  let at = pool.length;
  return (target) => {
    const bytes = new Uint8Array(target.buffer, target.byteOffset, target.byteLength);
    if (bytes.length > pool.length) {
      fill(bytes);
      return;
    }
    for (let done = 0; done < bytes.length; ) {
      if (at === pool.length) {
        fill(pool);
        at = 0;
      }
      const n = Math.min(bytes.length - done, pool.length - at);
      bytes.set(pool.subarray(at, at + n), done);
      at += n;
      done += n;
    }
  };
}
