/**
 * Reading the answer records of a DNS message for a zone transfer. dns-packet builds the queries
 * and reads the SOA answer of a serial query; the records of a transfer are read here because
 * dns-packet renders owner names as UTF-8 text joined by dots, without escapes, so the labels
 * `foo` and `example.com` would read as `foo.example.com.`, a name inside the zone. Here every
 * label is rendered with presentation escapes, and record data is handed on as RFC 3597 generic
 * text (`\# len hex`), names decompressed, for the zone-file parser to read and check.
 */
import { labelToText } from '../../zonefile/names.js';
import { typeToText } from '../../zonefile/registry.js';
import type { MasterRecord } from '../../dns/secondary/master-port.js';

/** A message the transfer cannot be read from: it ends the transfer. @internal */
export class WireError extends Error {}

/** Field kinds of the types whose data may carry compressed names (RFC 3597 §4). */
type Field = 'u16' | 'fixed20' | 'name' | 'str';
const COMPRESSIBLE: ReadonlyMap<number, readonly Field[]> = new Map<number, readonly Field[]>([
  [2, ['name']], // NS
  [3, ['name']], // MD
  [4, ['name']], // MF
  [5, ['name']], // CNAME
  [6, ['name', 'name', 'fixed20']], // SOA
  [7, ['name']], // MB
  [8, ['name']], // MG
  [9, ['name']], // MR
  [12, ['name']], // PTR
  [14, ['name', 'name']], // MINFO
  [15, ['u16', 'name']], // MX
  [17, ['name', 'name']], // RP
  [18, ['u16', 'name']], // AFSDB
  [21, ['u16', 'name']], // RT
  [26, ['u16', 'name', 'name']], // PX
  [33, ['u16', 'u16', 'u16', 'name']], // SRV
  [35, ['u16', 'u16', 'str', 'str', 'str', 'name']], // NAPTR
  [36, ['u16', 'name']], // KX
  [39, ['name']], // DNAME
]);

/** Most compression pointers followed in one name: beyond any real name, short of a loop. */
const MAX_HOPS = 128;

/**
 * A name at `at`: its presentation text, its uncompressed wire bytes and where it ends in the
 * message. Pointers must point backwards (as RFC 1035 has them), so a name can never loop.
 */
function readName(msg: Uint8Array, at: number): { text: string; wire: number[]; end: number } {
  let text = '';
  const wire: number[] = [];
  let end = -1;
  let p = at;
  let hops = 0;
  for (;;) {
    if (p >= msg.length) throw new WireError('a name runs past the end of the message');
    const len = msg[p]!;
    if (len === 0) {
      wire.push(0);
      if (end < 0) end = p + 1;
      break;
    }
    if ((len & 0xc0) === 0xc0) {
      if (p + 1 >= msg.length) throw new WireError('a compression pointer runs past the end of the message');
      const target = ((len & 0x3f) << 8) | msg[p + 1]!;
      if (end < 0) end = p + 2;
      if (target >= p || ++hops > MAX_HOPS) throw new WireError('a compression pointer that does not point backwards');
      p = target;
      continue;
    }
    if ((len & 0xc0) !== 0) throw new WireError('a label of an unknown kind');
    if (p + 1 + len > msg.length) throw new WireError('a label runs past the end of the message');
    if (wire.length + len + 2 > 255) throw new WireError('a name longer than 255 octets');
    wire.push(len);
    for (let i = p + 1; i <= p + len; i++) wire.push(msg[i]!);
    text += `${labelToText(msg, p + 1, p + 1 + len)}.`;
    p += 1 + len;
  }
  return { text: text === '' ? '.' : text, wire, end };
}

/** The record data at `[from, to)` with every name decompressed, per the type's layout. */
function decompressed(msg: Uint8Array, from: number, to: number, layout: readonly Field[]): Uint8Array {
  const out: number[] = [];
  let p = from;
  const copy = (n: number) => {
    if (p + n > to) throw new WireError('record data shorter than its type needs');
    for (let i = 0; i < n; i++) out.push(msg[p + i]!);
    p += n;
  };
  for (const field of layout) {
    if (field === 'u16') copy(2);
    else if (field === 'fixed20') copy(20);
    else if (field === 'str') {
      if (p >= to) throw new WireError('record data shorter than its type needs');
      copy(1 + msg[p]!);
    } else {
      const name = readName(msg, p);
      if (name.end > to) throw new WireError('a name runs past its record data');
      for (const b of name.wire) out.push(b);
      p = name.end;
    }
  }
  if (p !== to) throw new WireError('record data longer than its type allows');
  return Uint8Array.from(out);
}

/** RFC 3597 generic data text of some bytes. */
function genericText(b: Uint8Array, from: number, to: number): string {
  if (to === from) return '\\# 0';
  return `\\# ${to - from} ${Buffer.from(b.buffer, b.byteOffset + from, to - from).toString('hex')}`;
}

/** The header fields a transfer checks. @internal */
export interface MessageHeader {
  readonly id: number;
  readonly response: boolean;
  readonly opcode: number;
  readonly rcode: number;
  readonly truncated: boolean;
}

const u16 = (b: Uint8Array, at: number): number => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number): number => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/**
 * The header and answer records of one message of a transfer (class IN only; anything else, or
 * a message that does not parse to its last byte, is an error).
 * @internal
 */
export function readMessage(msg: Uint8Array): { header: MessageHeader; answers: MasterRecord[] } {
  if (msg.length < 12) throw new WireError('a message shorter than its header');
  const flags = u16(msg, 2);
  const header: MessageHeader = {
    id: u16(msg, 0),
    response: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    truncated: (flags & 0x0200) !== 0,
    rcode: flags & 0xf,
  };
  const qd = u16(msg, 4);
  const an = u16(msg, 6);
  let p = 12;
  for (let i = 0; i < qd; i++) {
    p = readName(msg, p).end + 4;
    if (p > msg.length) throw new WireError('a question runs past the end of the message');
  }
  const answers: MasterRecord[] = [];
  for (let i = 0; i < an; i++) {
    const owner = readName(msg, p);
    p = owner.end;
    if (p + 10 > msg.length) throw new WireError('a record header runs past the end of the message');
    const type = u16(msg, p);
    const cls = u16(msg, p + 2);
    const ttl = u32(msg, p + 4);
    const length = u16(msg, p + 8);
    const from = p + 10;
    const to = from + length;
    if (to > msg.length) throw new WireError('record data runs past the end of the message');
    if (cls !== 1) throw new WireError(`a record of class ${cls}, not IN`);
    const layout = COMPRESSIBLE.get(type);
    let data: string;
    if (layout === undefined) data = genericText(msg, from, to);
    else {
      const plain = decompressed(msg, from, to, layout);
      data = genericText(plain, 0, plain.length);
    }
    answers.push({ name: owner.text, type: typeToText(type), ttl, data });
    p = to;
  }
  // Authority and additional sections are allowed (a TSIG, say) but not read.
  return { header, answers };
}
