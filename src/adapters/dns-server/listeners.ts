/**
 * The sockets of the DNS server: what one query message gets, what a transfer request gets, and
 * the UDP and TCP listeners that carry them (TCP framing, idle cut-off, backpressure on
 * transfers). `serveDns` wires them to the zones it serves.
 * @module
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server as TcpServer, type Socket } from 'node:net';
import {
  MAX_UDP,
  MessageWriter,
  OPCODE_NOTIFY,
  OPCODE_QUERY,
  RCODE_FORMERR,
  RCODE_NOTAUTH,
  RCODE_NOTIMP,
  RCODE_REFUSED,
  readQuery,
  resolve,
  TYPE_AXFR,
  TYPE_IXFR,
  writeAnswer,
  writeError,
} from './respond.js';
import type { ServedZones } from './served-zones.js';
import { transferMessages } from './transfer.js';
import type { ZoneIndex } from './zone-index.js';

/** The answer to one message (over TCP when `tcp`), or undefined for none. */
type Answer = (msg: Buffer, tcp: boolean) => Buffer | undefined;
/** A transfer's messages, a single refusal, or undefined when `msg` is not a transfer request. */
type Transfer = (msg: Buffer, peer: string) => Generator<Buffer> | Buffer | undefined;

/** RFC 1982: whether serial `a` is at or after `b`. @internal */
export const serialAtLeast = (a: number, b: number): boolean => a === b || (a - b + 4294967296) % 4294967296 < 2147483648;

/** An address as `net` and `dgram` report it, without the IPv4-mapped prefix. @internal */
export const plainAddress = (address: string | undefined): string => (address ?? '').replace(/^::ffff:/, '');

/** Answers queries from the zones by apex key: FORMERR for what cannot be read, never a throw. @internal */
export function queryAnswerer(zones: ReadonlyMap<string, ZoneIndex>): Answer {
  const writer = new MessageWriter();
  return (msg, tcp) => {
    const q = readQuery(msg);
    if (q === undefined) return undefined;
    if ('malformed' in q) return writeError(writer, q.id, q.flags, q.question, RCODE_FORMERR, undefined);
    if (q.edns !== undefined && q.edns.version !== 0) {
      // BADVERS (16): the upper bits go in the OPT record, the header keeps the lower four.
      writer.begin(q.id, (q.flags & 0x7900) | 0x8000, q.question);
      writer.opt(1, q.edns.dnssecOk);
      return writer.copy();
    }
    if (q.opcode === OPCODE_NOTIFY) return writeError(writer, q.id, q.flags, q.question, RCODE_NOTAUTH, q.edns);
    if (q.opcode !== OPCODE_QUERY) return writeError(writer, q.id, q.flags, q.question, RCODE_NOTIMP, q.edns);
    // Over TCP transfers never get here; over UDP an AXFR is not served (RFC 5936 §4.2).
    if (q.qtype === TYPE_AXFR) return writeError(writer, q.id, q.flags, q.question, RCODE_REFUSED, q.edns);
    if (q.qtype === TYPE_IXFR) {
      // Over UDP an IXFR gets the zone's SOA alone: the client then asks over TCP (RFC 1995 §2).
      const zone = zones.get(q.qkey);
      if (zone === undefined) return writeError(writer, q.id, q.flags, q.question, RCODE_NOTAUTH, q.edns);
      return writeAnswer(writer, q, { rcode: 0, aa: true, answer: [{ wire: q.qwire, key: q.qkey, rrset: zone.soa }], authority: [], additional: [] }, MAX_UDP);
    }
    const limit = tcp ? 65535 : q.edns === undefined ? 512 : Math.min(q.edns.size, MAX_UDP);
    return writeAnswer(writer, q, resolve(zones, q), limit);
  };
}

/** Answers AXFR and IXFR requests to the peers `allow` names; a transfer gets its own writer, since it outlives a call. @internal */
export function transferAnswerer(zones: ReadonlyMap<string, ZoneIndex>, allow: ReadonlySet<string>): Transfer {
  const writer = new MessageWriter();
  return (msg, peer) => {
    const q = readQuery(msg);
    if (q === undefined || 'malformed' in q || q.opcode !== OPCODE_QUERY || (q.qtype !== TYPE_AXFR && q.qtype !== TYPE_IXFR)) return undefined;
    const zone = zones.get(q.qkey);
    // Not the apex of a served zone: NOTAUTH (RFC 5936 §2.2.1).
    if (zone === undefined) return writeError(writer, q.id, q.flags, q.question, RCODE_NOTAUTH, q.edns);
    if (!allow.has(peer)) return writeError(writer, q.id, q.flags, q.question, RCODE_REFUSED, q.edns);
    if (q.qtype === TYPE_IXFR && q.ixfrSerial !== undefined && serialAtLeast(q.ixfrSerial, zone.serial)) {
      // Up to date: the current SOA alone (RFC 1995 §4).
      return writeAnswer(new MessageWriter(), q, { rcode: 0, aa: true, answer: [{ wire: q.qwire, key: q.qkey, rrset: zone.soa }], authority: [], additional: [] }, 65535);
    }
    return transferMessages(new MessageWriter(), q, zone);
  };
}

/** The UDP socket: each message answered once the zones being loaded are in. @internal */
export function udpListener(host: string, served: ServedZones, answer: Answer): UdpSocket {
  // A larger receive buffer rides out bursts while the one thread is busy (the kernel caps it at rmem_max).
  const udp = createSocket({ type: host.includes(':') ? 'udp6' : 'udp4', recvBufferSize: 4 << 20 });
  udp.on('message', (msg, rinfo) => {
    const reply = (): void => {
      let out: Buffer | undefined;
      try {
        out = answer(msg, false);
      } catch {
        return; // a bug must cost one answer, never the server
      }
      if (out !== undefined) udp.send(out, rinfo.port, rinfo.address, () => undefined);
    };
    const pending = served.busy();
    if (pending === undefined) reply();
    else void pending.then(reply);
  });
  udp.on('error', () => undefined);
  return udp;
}

const frame = (out: Buffer): Buffer => {
  const framed = Buffer.allocUnsafe(out.length + 2);
  framed.writeUInt16BE(out.length, 0);
  out.copy(framed, 2);
  return framed;
};

/**
 * The TCP server: length-framed messages answered in order per connection, transfers written as
 * the socket drains. An idle or stalled client is cut off and an oversized frame closes the
 * connection, so connections cannot pile up or hold the process's memory.
 * @internal
 */
export function tcpListener(connections: Set<Socket>, served: ServedZones, answer: Answer, transfer: Transfer): TcpServer {
  const serve = async (socket: Socket, msg: Buffer): Promise<void> => {
    await served.busy();
    if (socket.destroyed) return;
    try {
      const xfr = transfer(msg, plainAddress(socket.remoteAddress));
      if (xfr === undefined) {
        const out = answer(msg, true);
        if (out !== undefined) socket.write(frame(out));
        else socket.destroy();
      } else if (Buffer.isBuffer(xfr)) socket.write(frame(xfr));
      else {
        for (const message of xfr) {
          if (socket.destroyed) return;
          // Waits for the socket to drain, so a slow reader holds a transfer, not the process's memory.
          if (!socket.write(frame(message))) await new Promise<void>((r) => socket.once('drain', r).once('close', r));
        }
      }
    } catch {
      socket.destroy();
    }
  };
  return createServer((socket) => {
    connections.add(socket);
    socket.setNoDelay(true);
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.on('close', () => connections.delete(socket));
    let pending: Buffer = Buffer.alloc(0);
    let queue = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (pending.length > 70_000) {
        socket.destroy();
        return;
      }
      while (pending.length >= 2) {
        const length = pending.readUInt16BE(0);
        if (pending.length < 2 + length) break;
        const msg = Buffer.from(pending.subarray(2, 2 + length));
        pending = pending.subarray(2 + length);
        queue = queue.then(() => serve(socket, msg));
      }
    });
  });
}

/** Binds TCP on `port` (0: any free one), then UDP on the port TCP got; closes both when either fails. @internal */
export async function bindBoth(tcp: TcpServer, udp: UdpSocket, port: number, host: string): Promise<number> {
  try {
    return await new Promise<number>((resolvePort, reject) => {
      tcp.once('error', reject);
      tcp.listen(port, host, () => {
        const address = tcp.address();
        const chosen = typeof address === 'object' && address !== null ? address.port : 0;
        udp.once('error', reject);
        udp.bind(chosen, host, () => resolvePort(chosen));
      });
    });
  } catch (e) {
    tcp.close();
    try {
      udp.close();
    } catch {
      // not bound
    }
    throw e;
  }
}
