/**
 * A small DNS client for the tests: one query over UDP or TCP, the answer decoded by dns-packet
 * (an independent reader of the wire format) and kept raw.
 */
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import dnsPacket from 'dns-packet';

export interface Asked {
  readonly tcp?: boolean;
  /** EDNS(0) payload size; no OPT record when absent. */
  readonly edns?: number;
  readonly timeoutMs?: number;
  readonly port: number;
  readonly host?: string;
}

/** A record as dns-packet decodes it (the fields the tests read). */
export interface Rec {
  readonly name: string;
  readonly type: string;
  readonly ttl?: number;
  readonly data?: unknown;
  readonly udpPayloadSize?: number;
}

/** An answer as dns-packet decodes it. */
export interface Answer {
  readonly id: number;
  readonly rcode: string;
  readonly flag_aa: boolean;
  readonly flag_tc: boolean;
  readonly answers: readonly Rec[];
  readonly authorities: readonly Rec[];
  readonly additionals: readonly Rec[];
}

let nextId = 1;

/** Builds a query message. */
export function queryMessage(name: string, type: string, edns?: number, id = (nextId = (nextId + 1) & 0xffff)): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags: 0,
    questions: [{ name, type: type as dnsPacket.RecordType, class: 'IN' }],
    ...(edns === undefined ? {} : { additionals: [{ type: 'OPT', name: '.', udpPayloadSize: edns, flags: 0 } as dnsPacket.Answer] }),
  });
}

/** Sends raw bytes over UDP; resolves with the raw answer, or undefined on silence. */
export function udpRaw(port: number, message: Uint8Array, timeoutMs = 2000, host = '127.0.0.1'): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      resolve(undefined);
    }, timeoutMs);
    socket.on('message', (msg) => {
      clearTimeout(timer);
      socket.close();
      resolve(msg);
    });
    socket.send(message, port, host);
  });
}

/** Sends raw bytes over TCP (framed unless `raw`); resolves with every framed message read until `count` arrived or the peer closed. */
export function tcpRaw(port: number, message: Uint8Array, options: { raw?: boolean; count?: number; timeoutMs?: number; host?: string; done?: (messages: readonly Buffer[]) => boolean } = {}): Promise<Buffer[]> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: options.host ?? '127.0.0.1' });
    const out: Buffer[] = [];
    let pending = Buffer.alloc(0);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(out);
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 5000);
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        out.push(pending.subarray(2, 2 + pending.readUInt16BE(0)));
        pending = pending.subarray(2 + pending.readUInt16BE(0));
        if (out.length >= (options.count ?? 1) || options.done?.(out) === true) finish();
      }
    });
    const framed = options.raw === true ? Buffer.from(message) : Buffer.concat([Buffer.from([message.length >> 8, message.length & 0xff]), message]);
    socket.write(framed);
  });
}

/** Whether the messages of a transfer hold its closing SOA (the second SOA record). */
export const transferEnded = (messages: readonly Buffer[]): boolean =>
  messages.flatMap((m) => decode(m).answers).filter((r) => r.type === 'SOA').length >= 2;

/** One query, answered and decoded. */
export async function ask(name: string, type: string, options: Asked): Promise<Answer> {
  const message = queryMessage(name, type, options.edns);
  const raw = options.tcp === true ? (await tcpRaw(options.port, message, { timeoutMs: options.timeoutMs ?? 5000, host: options.host ?? '127.0.0.1' }))[0] : await udpRaw(options.port, message, options.timeoutMs, options.host);
  if (raw === undefined) throw new Error(`no answer to ${name} ${type}`);
  return decode(raw);
}

/** A message decoded by dns-packet. */
export function decode(raw: Buffer): Answer {
  const packet: unknown = dnsPacket.decode(raw);
  return packet as Answer;
}

/** Records of a section as comparable text lines (names lower-cased unless `keepCase`). */
export function lines(records: readonly Rec[] | undefined, keepCase = false): string[] {
  return (records ?? [])
    .filter((r) => r.type !== 'OPT')
    .map((r) => {
      const name = keepCase ? r.name : r.name.toLowerCase();
      const data = r.data !== undefined ? JSON.stringify(r.data, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : typeof v === 'string' && !keepCase ? v.toLowerCase() : v)) : '';
      return `${name} ${r.type} ${r.ttl ?? ''} ${data}`;
    });
}
