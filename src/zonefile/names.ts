/** Name limits and label escaping shared by the lexer and the RFC 3597 decoder. */

export const MAX_LABEL = 63;
export const MAX_NAME_WIRE = 255;

/** Bytes that presentation form escapes with a backslash (dnspython and BIND agree). */
export function isEscapedSpecial(b: number): boolean {
  return b === 0x22 || b === 0x28 || b === 0x29 || b === 0x2e || b === 0x3b || b === 0x5c || b === 0x40 || b === 0x24;
}

/** Presentation form of one label given as bytes. */
export function labelToText(bytes: ArrayLike<number>, from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) {
    const b = bytes[i] ?? 0;
    if (isEscapedSpecial(b)) out += '\\' + String.fromCharCode(b);
    else if (b > 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += '\\' + (b < 10 ? '00' : b < 100 ? '0' : '') + String(b);
  }
  return out;
}
