/**
 * Reading queries and writing answers: the header and question read by hand (a query is a few
 * dozen bytes; no general decoder is needed to answer it, and none can be tricked into a long
 * walk), the answer resolved against the zone indexes as RFC 1034 §4.3.2 describes with RFC 4592
 * wildcards, and written straight into one reusable buffer with name compression.
 */
import { keyOf, labelStarts, TYPE_CNAME, TYPE_NS, TYPE_SOA, type RRset, type ZoneIndex, type ZoneNode } from './zone-index.js';

export const RCODE_NOERROR = 0;
export const RCODE_FORMERR = 1;
export const RCODE_NXDOMAIN = 3;
export const RCODE_NOTIMP = 4;
export const RCODE_REFUSED = 5;
export const RCODE_NOTAUTH = 9;

const TYPE_A = 1;
const TYPE_AAAA = 28;
const TYPE_DS = 43;
const TYPE_OPT = 41;
export const TYPE_IXFR = 251;
export const TYPE_AXFR = 252;
const TYPE_MAILB = 253;
const TYPE_MAILA = 254;
const TYPE_ANY = 255;

const FLAG_QR = 0x8000;
const FLAG_AA = 0x0400;
const FLAG_TC = 0x0200;
const FLAG_RD = 0x0100;
const FLAG_CD = 0x0010;

export const OPCODE_QUERY = 0;
export const OPCODE_NOTIFY = 4;

/** The largest UDP answer sent, whatever a client offers (the DNS flag day 2020 figure NSD and Knot use). */
export const MAX_UDP = 1232;
/** Most CNAMEs followed in one answer. */
const MAX_CHAIN = 16;

/** A query as read from the wire. @internal */
export interface Query {
  readonly id: number;
  readonly flags: number;
  readonly opcode: number;
  /** The question name as sent (case kept), its lower-cased key and label starts. */
  readonly qwire: Uint8Array;
  readonly qkey: string;
  readonly qtype: number;
  readonly qclass: number;
  /** The question's bytes, as sent. */
  readonly question: Uint8Array;
  /** EDNS(0): the client's payload size, version and DO bit; undefined without an OPT record. */
  readonly edns: { readonly size: number; readonly version: number; readonly dnssecOk: boolean } | undefined;
  /** The serial of an IXFR query's authority SOA, if any. */
  readonly ixfrSerial: number | undefined;
}

/** A message that is not a well-formed query, but whose header can be answered. @internal */
export interface Malformed {
  readonly malformed: true;
  readonly id: number;
  readonly flags: number;
  /** The question (wire bytes from offset 12), if it could be read. */
  readonly question: Uint8Array | undefined;
}

class Bad extends Error {}

const u16 = (b: Uint8Array, at: number): number => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number): number => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/** Where a (possibly compressed) name that starts at `at` ends; pointers must point backwards. */
function skipName(msg: Uint8Array, at: number): number {
  let p = at;
  let end = -1;
  let octets = 0;
  for (;;) {
    if (p >= msg.length) throw new Bad();
    const len = msg[p]!;
    if (len === 0) return end < 0 ? p + 1 : end;
    if ((len & 0xc0) === 0xc0) {
      if (p + 1 >= msg.length) throw new Bad();
      const target = ((len & 0x3f) << 8) | msg[p + 1]!;
      if (target >= p) throw new Bad();
      if (end < 0) end = p + 2;
      p = target;
      continue;
    }
    if ((len & 0xc0) !== 0) throw new Bad();
    octets += len + 1;
    if (octets > 255) throw new Bad();
    p += len + 1;
  }
}

/**
 * Reads a query. Returns undefined for what gets no answer at all (shorter than a header, or a
 * response: answering responses could start a loop between servers), a {@link Malformed} for a
 * query that gets FORMERR.
 * @internal
 */
export function readQuery(msg: Uint8Array): Query | Malformed | undefined {
  if (msg.length < 12) return undefined;
  const id = u16(msg, 0);
  const flags = u16(msg, 2);
  if ((flags & FLAG_QR) !== 0) return undefined;
  const qd = u16(msg, 4);
  let questionEnd = -1;
  try {
    if (qd !== 1) throw new Bad();
    // The question name: no compression (nothing precedes it to point at).
    let p = 12;
    for (;;) {
      if (p >= msg.length) throw new Bad();
      const len = msg[p]!;
      if (len === 0) break;
      if ((len & 0xc0) !== 0) throw new Bad();
      p += len + 1;
      if (p - 12 > 254) throw new Bad();
    }
    const nameEnd = p + 1;
    if (nameEnd + 4 > msg.length) throw new Bad();
    questionEnd = nameEnd + 4;
    const qwire = msg.slice(12, nameEnd);
    const qtype = u16(msg, nameEnd);
    const qclass = u16(msg, nameEnd + 2);
    const an = u16(msg, 6);
    const ns = u16(msg, 8);
    const ar = u16(msg, 10);
    let edns: Query['edns'];
    let ixfrSerial: number | undefined;
    p = questionEnd;
    // Each record takes at least 11 octets, so absurd counts fail at the end of the message.
    for (let i = 0; i < an + ns + ar; i++) {
      const owner = p;
      p = skipName(msg, p);
      if (p + 10 > msg.length) throw new Bad();
      const type = u16(msg, p);
      const rdlength = u16(msg, p + 8);
      const data = p + 10;
      if (data + rdlength > msg.length) throw new Bad();
      if (i >= an + ns) {
        if (type === TYPE_OPT) {
          if (edns !== undefined || msg[owner] !== 0) throw new Bad();
          const ttl = u32(msg, p + 4);
          edns = { size: Math.max(512, u16(msg, p + 2)), version: (ttl >>> 16) & 0xff, dnssecOk: (ttl & 0x8000) !== 0 };
        }
      } else if (i >= an && type === TYPE_SOA && qtype === TYPE_IXFR) {
        const serialAt = skipName(msg, skipName(msg, data));
        if (serialAt + 20 > data + rdlength) throw new Bad();
        ixfrSerial = u32(msg, serialAt);
      }
      p = data + rdlength;
    }
    return { id, flags, opcode: (flags >> 11) & 0xf, qwire, qkey: keyOf(qwire), qtype, qclass, question: msg.slice(12, questionEnd), edns, ixfrSerial };
  } catch (e) {
    if (!(e instanceof Bad)) throw e;
    return { malformed: true, id, flags, question: questionEnd > 0 ? msg.slice(12, questionEnd) : undefined };
  }
}

/** One RRset to write, under an owner name. */
interface Entry {
  readonly wire: Uint8Array;
  readonly key: string;
  readonly rrset: RRset;
}

/** What a query resolved to. @internal */
export interface Resolution {
  rcode: number;
  aa: boolean;
  readonly answer: Entry[];
  readonly authority: Entry[];
  readonly additional: Entry[];
}

/** The served zones, by the key of their apex. @internal */
export type ZoneMap = ReadonlyMap<string, ZoneIndex>;

/** The served zone a name falls in (the deepest one), or undefined. @internal */
function zoneOf(zones: ZoneMap, key: string, starts: readonly number[]): ZoneIndex | undefined {
  for (const start of starts) {
    const zone = zones.get(start === 0 ? key : key.slice(start));
    if (zone !== undefined) return zone;
  }
  return undefined;
}

const negativeSoa = new WeakMap<RRset, RRset>();

/** The SOA of a negative answer: its TTL is the lesser of the SOA's own and its minimum (RFC 2308 §3). */
function soaForNegative(zone: ZoneIndex): Entry {
  const soa = zone.soa;
  let neg = negativeSoa.get(soa);
  if (neg === undefined) {
    const data = soa.rdata[0]!;
    neg = { type: TYPE_SOA, ttl: Math.min(soa.ttl, u32(data, data.length - 4)), rdata: soa.rdata };
    negativeSoa.set(soa, neg);
  }
  return { wire: zone.apexWire, key: zone.apexKey, rrset: neg };
}

/** Glue: the addresses the zone holds for the names of some NS records. */
function addGlue(zone: ZoneIndex, ns: RRset, out: Entry[]): void {
  for (const data of ns.rdata) {
    const key = keyOf(data);
    const node = zone.nodes.get(key);
    if (node === undefined) continue;
    for (const type of [TYPE_A, TYPE_AAAA]) {
      const rrset = node.rrsets.get(type);
      if (rrset !== undefined) out.push({ wire: node.wire, key, rrset });
    }
  }
}

/**
 * Answers `qtype` at one name of a zone into `res`, following CNAMEs inside the zone. `wire`
 * and `key` are the name as it will be written (the question's own bytes for the question name,
 * so its case is echoed).
 */
function lookup(zone: ZoneIndex, wire: Uint8Array, key: string, qtype: number, res: Resolution, chain: number): void {
  const starts = labelStarts(key);
  const apexAt = key.length - zone.apexKey.length;
  let depth = starts.indexOf(apexAt);
  let node: ZoneNode | undefined = zone.nodes.get(zone.apexKey);
  // Down from the apex: the first name missing ends the walk, the first zone cut refers.
  while (depth > 0) {
    const start = starts[depth - 1]!;
    const next = zone.nodes.get(start === 0 ? key : key.slice(start));
    if (next === undefined) break;
    node = next;
    depth--;
    if (zone.hasCuts) {
      const ns = next.rrsets.get(TYPE_NS);
      if (ns !== undefined && !(depth === 0 && qtype === TYPE_DS)) {
        if (res.answer.length === 0) res.aa = false;
        const cut = start === 0 ? key : key.slice(start);
        res.authority.push({ wire: depth === 0 ? wire : next.wire, key: cut, rrset: ns });
        addGlue(zone, ns, res.additional);
        return;
      }
    }
  }
  if (depth > 0) {
    // No such name: a wildcard at the closest encloser answers for it (RFC 4592 §3.3.1).
    const wildcard = zone.hasWildcards ? zone.nodes.get('\x01*' + (starts[depth] === 0 ? key : key.slice(starts[depth]))) : undefined;
    if (wildcard === undefined) {
      res.rcode = RCODE_NXDOMAIN;
      res.authority.push(soaForNegative(zone));
      return;
    }
    node = wildcard;
  }
  const found = node!;
  if (qtype === TYPE_ANY && found.rrsets.size > 0) {
    for (const rrset of found.rrsets.values()) res.answer.push({ wire, key, rrset });
    return;
  }
  const rrset = found.rrsets.get(qtype);
  if (rrset !== undefined) {
    res.answer.push({ wire, key, rrset });
    return;
  }
  const cname = found.rrsets.get(TYPE_CNAME);
  if (cname !== undefined) {
    res.answer.push({ wire, key, rrset: cname });
    const target = cname.rdata[0]!;
    const targetKey = keyOf(target);
    const inZone = targetKey.length > zone.apexKey.length ? targetKey.endsWith(zone.apexKey) && labelStarts(targetKey).includes(targetKey.length - zone.apexKey.length) : targetKey === zone.apexKey;
    const seen = res.answer.some((e, i) => i < res.answer.length - 1 && e.key === targetKey);
    if (inZone && !seen && chain < MAX_CHAIN) lookup(zone, target, targetKey, qtype, res, chain + 1);
    return;
  }
  res.authority.push(soaForNegative(zone));
}

/** Resolves a query against the served zones. @internal */
export function resolve(zones: ZoneMap, q: Query): Resolution {
  const res: Resolution = { rcode: RCODE_NOERROR, aa: true, answer: [], authority: [], additional: [] };
  const zone = zoneOf(zones, q.qkey, labelStarts(q.qkey));
  if (zone === undefined || (q.qclass !== 1 && q.qclass !== TYPE_ANY)) {
    res.rcode = RCODE_REFUSED;
    res.aa = false;
    return res;
  }
  if (q.qtype === TYPE_MAILA || q.qtype === TYPE_MAILB || q.qtype === 0 || q.qtype === TYPE_OPT) {
    res.rcode = q.qtype === TYPE_OPT ? RCODE_FORMERR : RCODE_NOTIMP;
    res.aa = false;
    return res;
  }
  lookup(zone, q.qwire, q.qkey, q.qtype, res, 0);
  return res;
}

/**
 * Writes DNS messages into one buffer it reuses: a message is built, sent (copied out), then
 * the next one overwrites it. Names are compressed against every name written before in the
 * same message; record data is written as stored (uncompressed, which RFC 3597 §4 allows).
 * @internal
 */
export class MessageWriter {
  readonly buf = Buffer.allocUnsafe(65535);
  pos = 0;
  private readonly names = new Map<string, number>();

  /** Starts a message: the header (counts zero) and, if given, the question bytes. */
  begin(id: number, flags: number, question: Uint8Array | undefined): void {
    this.names.clear();
    const b = this.buf;
    b.writeUInt16BE(id, 0);
    b.writeUInt16BE(flags, 2);
    b.fill(0, 4, 12);
    this.pos = 12;
    if (question !== undefined) {
      b.set(question, 12);
      b.writeUInt16BE(1, 4);
      // The question name's suffixes: answers owned by it point here, echoing its case.
      const key = keyOf(question);
      for (const start of labelStarts(key)) if (start < key.length - 1) this.names.set(start === 0 ? key : key.slice(start), 12 + start);
      this.pos = 12 + question.length;
    }
  }

  setFlags(flags: number): void {
    this.buf.writeUInt16BE(flags, 2);
  }

  private count(section: number, n: number): void {
    const at = 6 + 2 * section;
    this.buf.writeUInt16BE(this.buf.readUInt16BE(at) + n, at);
  }

  private name(wire: Uint8Array, key: string): void {
    const b = this.buf;
    let p = 0;
    const base = this.pos;
    for (;;) {
      const len = key.charCodeAt(p);
      if (len === 0) {
        b[this.pos++] = 0;
        return;
      }
      const suffix = p === 0 ? key : key.slice(p);
      const at = this.names.get(suffix);
      if (at !== undefined) {
        b[this.pos++] = 0xc0 | (at >> 8);
        b[this.pos++] = at & 0xff;
        return;
      }
      if (base + p < 0x3fff) this.names.set(suffix, base + p);
      b.set(wire.subarray(p, p + len + 1), this.pos);
      this.pos += len + 1;
      p += len + 1;
    }
  }

  /** Writes an RRset to `section` (0 answer, 1 authority, 2 additional); false, and nothing written, if it would pass `limit`. */
  rrset(section: number, e: Entry, limit: number): boolean {
    const start = this.pos;
    const names = this.names.size;
    const b = this.buf;
    const { rrset } = e;
    for (const data of rrset.rdata) {
      if (this.pos + 12 + e.wire.length + data.length > limit) {
        this.pos = start;
        // Compression entries made by the records just dropped would point at overwritten bytes.
        if (this.names.size !== names) for (const [k, at] of this.names) if (at >= start) this.names.delete(k);
        return false;
      }
      this.name(e.wire, e.key);
      b.writeUInt16BE(rrset.type, this.pos);
      b.writeUInt16BE(1, this.pos + 2);
      b.writeUInt32BE(rrset.ttl, this.pos + 4);
      b.writeUInt16BE(data.length, this.pos + 8);
      b.set(data, this.pos + 10);
      this.pos += 10 + data.length;
    }
    this.count(section, rrset.rdata.length);
    return true;
  }

  /** Appends the OPT record of an EDNS answer. */
  opt(extendedRcode: number, dnssecOk: boolean): void {
    const b = this.buf;
    b[this.pos] = 0;
    b.writeUInt16BE(TYPE_OPT, this.pos + 1);
    b.writeUInt16BE(MAX_UDP, this.pos + 3);
    b[this.pos + 5] = extendedRcode;
    b[this.pos + 6] = 0;
    b.writeUInt16BE(dnssecOk ? 0x8000 : 0, this.pos + 7);
    b.writeUInt16BE(0, this.pos + 9);
    this.pos += 11;
    this.count(2, 1);
  }

  /** A copy of the message written so far. */
  copy(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

/** The response flags for a query: QR, its opcode, RD and CD copied. */
export function responseFlags(queryFlags: number, rcode: number, aa = false): number {
  return FLAG_QR | (queryFlags & 0x7800) | (queryFlags & (FLAG_RD | FLAG_CD)) | (aa ? FLAG_AA : 0) | (rcode & 0xf);
}

/** Writes a header-only answer (with the question if readable, and OPT if the query had one). @internal */
export function writeError(w: MessageWriter, id: number, queryFlags: number, question: Uint8Array | undefined, rcode: number, edns: Query['edns']): Buffer {
  w.begin(id, responseFlags(queryFlags, rcode), question);
  if (edns !== undefined) w.opt(rcode >> 4, edns.dnssecOk);
  return w.copy();
}

/**
 * Writes the answer to a query: the whole answer within `limit` octets, or, when the answer and
 * authority sections do not fit (over UDP), an empty answer with TC set so the client asks again
 * over TCP. Additional records that do not fit are left out without TC (RFC 2181 §9).
 * @internal
 */
export function writeAnswer(w: MessageWriter, q: Query, res: Resolution, limit: number): Buffer {
  const qbytes = q.question;
  w.begin(q.id, responseFlags(q.flags, res.rcode, res.aa), qbytes);
  const room = limit - (q.edns === undefined ? 0 : 11);
  let fits = true;
  for (const e of res.answer) if (!(fits = w.rrset(0, e, room))) break;
  if (fits) for (const e of res.authority) if (!(fits = w.rrset(1, e, room))) break;
  if (!fits) {
    w.begin(q.id, responseFlags(q.flags, res.rcode, res.aa) | FLAG_TC, qbytes);
  } else {
    for (const e of res.additional) if (!w.rrset(2, e, room)) break;
  }
  if (q.edns !== undefined) w.opt(0, q.edns.dnssecOk);
  return w.copy();
}
