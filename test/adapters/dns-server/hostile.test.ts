/**
 * Hostile input: random and malformed packets (bad and looping compression pointers, truncated
 * headers, huge section counts, bytes mutated from real queries) over UDP and TCP. The law: after
 * any of them the server still answers a good query rightly, on both transports, and whatever it
 * sends back to a bad packet is a well-formed response to that packet's id.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { connect } from 'node:net';
import { serveDns, type DnsServer } from '../../../src/adapters/dns-server/index.js';
import { createDnsService } from '../../../src/index.js';
import { ask, decode, queryMessage, tcpRaw, udpRaw } from './client.js';

let server: DnsServer;

beforeAll(async () => {
  const dns = createDnsService();
  server = await serveDns({ dns });
  const ctx = { projectId: 'p', roles: ['member'] };
  const zone = (await dns.zones.create(ctx, { name: 'example.com.', email: 'a@example.com' }))._unsafeUnwrap();
  (await dns.recordsets.create(ctx, zone.id, { name: 'www.example.com.', type: 'A', records: ['192.0.2.1'] }))._unsafeUnwrap();
});
afterAll(async () => {
  await server.close();
});

const header = (id: number, flags: number, qd: number, an: number, ns: number, ar: number) => {
  const b = Buffer.alloc(12);
  [id, flags, qd, an, ns, ar].forEach((v, i) => b.writeUInt16BE(v, i * 2));
  return b;
};

/** Packets built to break a reader: each a known trap. */
const crafted = fc.oneof(
  // Truncated headers.
  fc.uint8Array({ maxLength: 11 }).map((b) => Buffer.from(b)),
  // A question name that is a pointer to itself, or forwards, or past the end.
  fc.integer({ min: 0, max: 0x3fff }).map((to) => Buffer.concat([header(1, 0, 1, 0, 0, 0), Buffer.from([0xc0 | (to >> 8), to & 0xff, 0, 1, 0, 1])])),
  // Huge counts with nothing behind them.
  fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff })).map(([an, ns, ar]) =>
    Buffer.concat([header(2, 0, 1, an, ns, ar), queryMessage('www.example.com', 'A').subarray(12)]),
  ),
  // A good question, then an additional record whose owner loops through pointers.
  fc.integer({ min: 0, max: 64 }).map((at) => {
    const q = queryMessage('www.example.com', 'A');
    q.writeUInt16BE(1, 10);
    const loop = q.length + at;
    return Buffer.concat([q, Buffer.from([0xc0 | (loop >> 8), loop & 0xff, 0, 41, 16, 0, 0, 0, 0, 0, 0, 0])]);
  }),
  // Labels of the reserved kinds, and a name longer than 255 octets.
  fc.constantFrom(0x40, 0x80).map((kind) => Buffer.concat([header(3, 0, 1, 0, 0, 0), Buffer.from([kind | 3, 97, 98, 99, 0, 0, 1, 0, 1])])),
  fc.constant(Buffer.concat([header(4, 0, 1, 0, 0, 0), Buffer.from(Array.from({ length: 5 }, () => [63, ...Array<number>(63).fill(97)]).flat()), Buffer.from([0, 0, 1, 0, 1])])),
);

/** A good query with some bytes changed, or cut short. */
const mutated = fc
  .tuple(fc.constantFrom('www.example.com', 'example.com', 'nope.example.com', 'example.org'), fc.constantFrom('A', 'SOA', 'AXFR', 'IXFR', 'TXT'), fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 6 }), fc.option(fc.nat()))
  .map(([name, type, changes, cut]) => {
    const b = queryMessage(name, type, 1232);
    for (const [at, v] of changes) b[at % b.length] = v;
    return cut === null ? b : b.subarray(0, cut % (b.length + 1));
  });

const packet = fc.oneof(crafted, mutated, fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b)));

async function stillAnswers(): Promise<void> {
  const udp = await ask('www.example.com', 'A', { port: server.port });
  expect(udp.answers.map((r) => r.data)).toEqual(['192.0.2.1']);
  const tcp = await ask('WWW.example.com', 'A', { port: server.port, tcp: true });
  expect(tcp.answers.map((r) => r.data)).toEqual(['192.0.2.1']);
}

describe('zoneward/dns-server under hostile input', () => {
  test.prop([fc.array(packet, { minLength: 1, maxLength: 8 })], { numRuns: 40 })('keeps answering after any packets over UDP; any reply is a response to the same id', async (packets) => {
    for (const p of packets) {
      const reply = await udpRaw(server.port, p, 60);
      if (reply !== undefined) {
        expect(reply.readUInt16BE(0)).toBe(p.readUInt16BE(0));
        expect(reply[2]! & 0x80).toBe(0x80);
        expect(() => decode(reply)).not.toThrow();
      }
    }
    await stillAnswers();
  });

  test.prop([fc.array(packet, { minLength: 1, maxLength: 8 }), fc.boolean()], { numRuns: 30 })('keeps answering after any packets over TCP, framed or not', async (packets, framed) => {
    const message = framed ? Buffer.concat(packets.map((p) => Buffer.concat([Buffer.from([p.length >> 8, p.length & 0xff]), p]))) : Buffer.concat(packets);
    await tcpRaw(server.port, message, { raw: true, count: packets.length, timeoutMs: 300 });
    await stillAnswers();
  });

  test('a client that stalls mid-message holds only its own connection', async () => {
    const stalled = connect({ port: server.port, host: '127.0.0.1' });
    await new Promise<void>((r) => stalled.once('connect', () => r()));
    stalled.write(Buffer.from([0xff, 0xff, 0, 1, 2]));
    await stillAnswers();
    stalled.destroy();
  });
});
