/**
 * Zone transfer out (AXFR, RFC 5936; IXFR answered with the whole zone, RFC 1995 §4), NOTIFY
 * (RFC 1996), and the SOA probe the secondary pool targets poll with.
 */
import { createSocket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { MessageWriter, OPCODE_NOTIFY, responseFlags, type Query } from './respond.js';
import { TYPE_SOA, type RRset, type ZoneIndex } from './zone-index.js';

const FLAG_AA = 0x0400;
/** Room for one transfer message: well under the 65,535-octet TCP limit, as BIND sizes them. */
const MESSAGE_ROOM = 16_384;

/**
 * The messages of a full transfer: the SOA, every other RRset, the SOA again (RFC 5936 §2.2),
 * packed into messages of about 16 KB, the question in the first one only.
 * @internal
 */
export function* transferMessages(w: MessageWriter, q: Query, zone: ZoneIndex): Generator<Buffer> {
  const flags = responseFlags(q.flags, 0, true) | FLAG_AA;
  w.begin(q.id, flags, q.question);
  let inMessage = 0;
  /** Writes one record; returns the message it filled, if it had to start a new one. */
  const put = (wire: Uint8Array, key: string, rrset: RRset, data: Uint8Array): Buffer | undefined => {
    const one = { wire, key, rrset: { type: rrset.type, ttl: rrset.ttl, rdata: [data] } };
    if (w.rrset(0, one, MESSAGE_ROOM)) {
      inMessage++;
      return undefined;
    }
    if (inMessage === 0) throw new Error('a record larger than a transfer message');
    const full = w.copy();
    w.begin(q.id, flags, undefined);
    w.rrset(0, one, 65535);
    inMessage = 1;
    return full;
  };
  function* rrsets(): Generator<[Uint8Array, string, RRset]> {
    yield [zone.apexWire, zone.apexKey, zone.soa];
    for (const [key, node] of zone.nodes) {
      for (const rrset of node.rrsets.values()) if (!(rrset.type === TYPE_SOA && key === zone.apexKey)) yield [node.wire, key, rrset];
    }
    yield [zone.apexWire, zone.apexKey, zone.soa];
  }
  // One record at a time, so a large RRset may span messages.
  for (const [wire, key, rrset] of rrsets()) {
    for (const data of rrset.rdata) {
      const full = put(wire, key, rrset, data);
      if (full !== undefined) yield full;
    }
  }
  yield w.copy();
}

/**
 * A DNS server to send to.
 *
 * @category DNS server
 */
export interface Endpoint {
  /** Its IP address. */
  readonly host: string;
  /** Its port. */
  readonly port: number;
}

/** `host`, `host:port`, `[v6]` or `[v6]:port` (port 53 when absent). @internal */
export function parseEndpoint(text: string): Endpoint {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (v6 !== null) return { host: v6[1]!, port: v6[2] === undefined ? 53 : Number(v6[2]) };
  const colons = text.split(':').length - 1;
  if (colons === 1) {
    const [host, port] = text.split(':');
    return { host: host!, port: Number(port) };
  }
  return { host: text, port: 53 };
}

/** A question for `wire`/`type`, class IN. */
function question(wire: Uint8Array, type: number): Uint8Array {
  const q = new Uint8Array(wire.length + 4);
  q.set(wire, 0);
  q[wire.length + 1] = type;
  q[wire.length + 3] = 1;
  return q;
}

/**
 * One UDP exchange: sends `message` (with a fresh id written into it) and resolves with the
 * first answer that carries that id, or undefined after `timeoutMs`.
 */
function exchange(to: Endpoint, message: Buffer, timeoutMs: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const id = randomInt(65536);
    message.writeUInt16BE(id, 0);
    const socket = createSocket(to.host.includes(':') ? 'udp6' : 'udp4');
    const done = (answer: Buffer | undefined) => {
      clearTimeout(timer);
      socket.close();
      resolve(answer);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.on('error', () => done(undefined));
    socket.on('message', (msg) => {
      if (msg.length >= 12 && msg.readUInt16BE(0) === id && (msg[2]! & 0x80) !== 0) done(msg);
    });
    socket.send(message, to.port, to.host, (error) => {
      if (error) done(undefined);
    });
  });
}

/**
 * Sends a NOTIFY for a zone (RFC 1996 §3.6: with its SOA in the answer section) and retries
 * until the server answers or `tries` run out. Resolves with whether it answered.
 * @internal
 */
export async function sendNotify(to: Endpoint, zone: ZoneIndex, tries = 3, timeoutMs = 1000): Promise<boolean> {
  const w = new MessageWriter();
  w.begin(0, (OPCODE_NOTIFY << 11) | FLAG_AA, question(zone.apexWire, TYPE_SOA));
  w.rrset(0, { wire: zone.apexWire, key: zone.apexKey, rrset: zone.soa }, 65535);
  const message = w.copy();
  for (let i = 0; i < tries; i++) {
    if ((await exchange(to, message, timeoutMs)) !== undefined) return true;
  }
  return false;
}

/**
 * What a server answers for a zone's SOA: its serial, or undefined when it does not serve the
 * zone (any rcode but NOERROR, or no SOA of that name), or 'silent' when it does not answer.
 * @internal
 */
export async function probeSerial(to: Endpoint, apexWire: Uint8Array, timeoutMs: number): Promise<number | undefined | 'silent'> {
  const w = new MessageWriter();
  w.begin(0, 0, question(apexWire, TYPE_SOA));
  const answer = await exchange(to, w.copy(), timeoutMs);
  if (answer === undefined) return 'silent';
  const rcode = answer[3]! & 0xf;
  if (rcode !== 0 || answer.readUInt16BE(6) === 0) return undefined;
  // The answer section: a name (compressed to the question, or written out), then the SOA.
  let p = 12 + apexWire.length + 4;
  for (;;) {
    if (p >= answer.length) return undefined;
    const len = answer[p]!;
    if ((len & 0xc0) === 0xc0) {
      p += 2;
      break;
    }
    p += len + 1;
    if (len === 0) break;
  }
  if (p + 10 > answer.length || answer.readUInt16BE(p) !== TYPE_SOA) return undefined;
  const end = p + 10 + answer.readUInt16BE(p + 8);
  if (end > answer.length || end - 20 < p + 10) return undefined;
  return answer.readUInt32BE(end - 20);
}
