/**
 * `zoneward/axfr`: how SECONDARY zones reach real masters. SOA serial queries and full zone
 * transfers (AXFR, RFC 5936) over TCP, built on dns-packet. The only module of zoneward that
 * opens a socket.
 *
 * @module zoneward/axfr
 */
import { connect, type Socket } from 'node:net';
import { randomInt } from 'node:crypto';
import dnsPacket from 'dns-packet';
import type { MasterAddress, MasterPort, MasterRecord, TransferLimits } from '../../dns/secondary/master-port.js';
import { readMessage, WireError } from './wire.js';

export type { MasterAddress, MasterPort, MasterRecord, TransferLimits } from '../../dns/secondary/master-port.js';

/**
 * Options of {@link axfrMasters}.
 *
 * @category AXFR
 */
export interface AxfrOptions {
  /**
   * The longest one call may take, connection included: a serial query, or a whole transfer.
   * A master that stops sending, or sends too slowly, is cut off there.
   * @defaultValue 10000 (the real service's `xfr_timeout` is 10 seconds for a whole transfer)
   */
  readonly timeoutMs?: number;
}

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];
const rcodeName = (rcode: number): string => RCODES[rcode] ?? `RCODE${rcode}`;

/** An unbracketed IPv6 literal or a host name, as `net.connect` takes it (`[::1]` → `::1`). */
const hostOf = (master: MasterAddress): string =>
  master.host.startsWith('[') && master.host.endsWith(']') ? master.host.slice(1, -1) : master.host;

/**
 * A TCP connection that gives DNS messages (RFC 1035 §4.2.2: each preceded by its two-byte
 * length), with a deadline for the whole exchange and a cap on the bytes read. Ending the
 * iteration early (the consumer's `return()`) closes the socket.
 */
async function* messages(master: MasterAddress, query: Buffer, timeoutMs: number, maxBytes: number): AsyncGenerator<Buffer> {
  const socket: Socket = connect({ host: hostOf(master), port: master.port });
  const timer = setTimeout(() => socket.destroy(new Error(`no complete answer from ${master.host} port ${master.port} within ${timeoutMs} ms`)), timeoutMs);
  try {
    socket.write(query);
    let pending: Buffer = Buffer.alloc(0);
    let total = 0;
    for await (const chunk of socket as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw new Error(`the master sent more than ${maxBytes} bytes`);
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (pending.length >= 2) {
        const length = pending.readUInt16BE(0);
        if (pending.length < 2 + length) break;
        const message = pending.subarray(2, 2 + length);
        pending = pending.subarray(2 + length);
        yield message;
      }
    }
    throw new Error(`${master.host} port ${master.port} closed the connection before the answer was complete`);
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}

/** A query for `zone` of `type`, framed for TCP. */
function query(id: number, zone: string, type: 'SOA' | 'AXFR'): Buffer {
  return dnsPacket.streamEncode({ type: 'query', id, flags: 0, questions: [{ type, class: 'IN', name: zone }] });
}

/** Whether an answer belongs to the query: its id, a response, opcode QUERY. */
function checkAnswer(header: { id: number; response: boolean; opcode: number; truncated: boolean }, id: number): void {
  if (header.id !== id || !header.response || header.opcode !== 0) throw new WireError('an answer that is not to this query');
  if (header.truncated) throw new WireError('a truncated answer');
}

/** The serial of an SOA answer, or null when the master has no such zone. */
async function soaSerial(master: MasterAddress, zone: string, timeoutMs: number): Promise<number | null> {
  const id = randomInt(65536);
  for await (const message of messages(master, query(id, zone, 'SOA'), timeoutMs, 65537)) {
    const packet = dnsPacket.decode(message) as dnsPacket.DecodedPacket & { rcode?: string; opcode?: string };
    checkAnswer({ id: packet.id ?? -1, response: packet.type === 'response', opcode: packet.opcode === 'QUERY' ? 0 : -1, truncated: packet.flag_tc === true }, id);
    // The real service reads NXDOMAIN, REFUSED, SERVFAIL and an empty answer alike: no zone there.
    if (packet.rcode !== 'NOERROR') return null;
    const name = zone.replace(/\.$/, '').toLowerCase();
    for (const answer of packet.answers ?? []) {
      if (answer.type === 'SOA' && answer.name.toLowerCase() === name) return answer.data.serial ?? null;
    }
    return null;
  }
  return null;
}

/**
 * A full transfer: the first record must be the zone's SOA and the transfer ends with that same
 * SOA again (RFC 5936 §2.2); records after it, a different SOA, an error code or a message that
 * does not parse end it with an error. Yields one page per message, the closing SOA left out.
 */
async function* axfr(master: MasterAddress, zone: string, limits: TransferLimits, timeoutMs: number): AsyncGenerator<readonly MasterRecord[]> {
  const id = randomInt(65536);
  const apex = zone.toLowerCase();
  let first: MasterRecord | undefined;
  let count = 0;
  // Wire bytes are fewer than the text the core counts (hex doubles the data), so this cap only
  // stops a master early that the core would refuse anyway.
  for await (const message of messages(master, query(id, zone, 'AXFR'), timeoutMs, limits.maxBytes + 65537)) {
    const { header, answers } = readMessage(message);
    checkAnswer(header, id);
    if (header.rcode !== 0) throw new WireError(`the master answered ${rcodeName(header.rcode)}`);
    count += answers.length;
    if (count > limits.maxRecords + 1) throw new WireError(`more than ${limits.maxRecords} records`);
    let page = answers;
    if (first === undefined) {
      const soa = answers[0];
      if (soa === undefined) throw new WireError('a first message without records');
      if (soa.type !== 'SOA' || soa.name.toLowerCase() !== apex) throw new WireError('the transfer does not start with the zone SOA');
      first = soa;
      page = answers.slice(1);
      yield [soa];
    }
    const end = page.findIndex((r) => r.type === 'SOA');
    if (end < 0) {
      if (page.length > 0) yield page;
      continue;
    }
    const closing = page[end]!;
    if (closing.name.toLowerCase() !== apex || closing.data !== first.data) throw new WireError('a second, different SOA in the transfer');
    if (end !== page.length - 1) throw new WireError('records after the closing SOA');
    if (end > 0) yield page.slice(0, end);
    return;
  }
}

/**
 * The real master port: SOA serial queries and full zone transfers (AXFR) over TCP, with
 * dns-packet. Each call opens its own connection and closes it when done, when the service
 * stops reading (a page broke a rule or a limit) or at the deadline.
 *
 * @param options - `timeoutMs`: the deadline of each call (see {@link AxfrOptions})
 * @returns a {@link MasterPort} for `createDnsService({ masters })`
 * @example
 * ```ts
 * import { createDnsService } from 'zoneward';
 * import { axfrMasters } from 'zoneward/axfr';
 *
 * const dns = createDnsService({ masters: axfrMasters({ timeoutMs: 5000 }) });
 * await dns.zones.create(ctx, { name: 'example.com.', type: 'SECONDARY', masters: ['192.0.2.53'] });
 * await dns.tasks.settle(); // transferred from 192.0.2.53 port 53, if it allows it
 * ```
 * @category AXFR
 */
export function axfrMasters(options: AxfrOptions = {}): MasterPort {
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new TypeError(`axfrMasters: timeoutMs must be a positive number of milliseconds, not ${String(timeoutMs)}`);
  return {
    serial: (master, zone) => soaSerial(master, zone, timeoutMs),
    transfer: (master, zone, limits) => axfr(master, zone, limits, timeoutMs),
  };
}
