/**
 * Hostile masters: a tiny DNS-over-TCP server in the test answers the service's AXFR with
 * whatever a scenario writes. Law: whatever it sends, the transfer is refused whole (the zone's
 * serial and recordsets stay as the last good transfer left them), it ends within the port's
 * deadline, and the service answers other requests meanwhile.
 */
import { createServer, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axfrMasters } from '../../../src/adapters/axfr/index.js';
import { createDnsService, type DnsService } from '../../../src/index.js';

const alice = { projectId: 'alice', roles: ['member'] };
const ZONE = 'example.com';
const TIMEOUT_MS = 400;

type Answer = dnsPacket.Answer;
const soa = (serial: number): Answer => ({
  type: 'SOA',
  name: ZONE,
  ttl: 3600,
  data: { mname: `ns1.${ZONE}`, rname: `hostmaster.${ZONE}`, serial, refresh: 7200, retry: 600, expire: 86400, minimum: 300 },
});
const a = (name: string, ip = '192.0.2.1'): Answer => ({ type: 'A', name, ttl: 300, data: ip });

/** One DNS message answering query `id`, framed for TCP. */
const frame = (id: number, answers: Answer[]): Buffer =>
  dnsPacket.streamEncode({ type: 'response', id, flags: dnsPacket.AUTHORITATIVE_ANSWER, questions: [{ type: 'AXFR', name: ZONE }], answers });

/** What the master writes in answer to a query with `id`; it may also leave the socket open. */
type Behaviour = (socket: Socket, id: number) => void;

const good =
  (serial: number, names: readonly string[]): Behaviour =>
  (socket, id) => {
    socket.end(Buffer.concat([frame(id, [soa(serial), ...names.map((n) => a(`${n}.${ZONE}`))]), frame(id, [soa(serial)])]));
  };

let behaviour: Behaviour = good(1, []);
let server: Server;
let port = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      if (pending.length < 4 || pending.length < 2 + pending.readUInt16BE(0)) return;
      behaviour(socket, pending.readUInt16BE(2));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

async function recordsets(dns: DnsService, zoneId: string): Promise<string[]> {
  const page = (await dns.recordsets.list(alice, zoneId, { limit: 1000 }))._unsafeUnwrap();
  return page.recordsets.map((r) => `${r.name} ${r.type} ${r.records.join(',')}`);
}

/** A service holding a zone transferred from the good master, and its state to compare with. */
async function transferredZone() {
  const dns = createDnsService({
    masters: axfrMasters({ timeoutMs: TIMEOUT_MS }),
    transferLimits: { maxBytes: 20_000 },
  });
  behaviour = good(5, ['www', 'mail']);
  const zone = (await dns.zones.create(alice, { name: `${ZONE}.`, type: 'SECONDARY', masters: [`127.0.0.1:${port}`] }))._unsafeUnwrap();
  await dns.tasks.settle();
  const before = await recordsets(dns, zone.id);
  expect(before).toHaveLength(3);
  return { dns, zoneId: zone.id, before };
}

/**
 * The hostile scenarios, each drawn with its own details. Only the one-byte change may leave a
 * valid transfer (a changed TTL or address), which is then taken whole: its third element.
 */
const scenarios: fc.Arbitrary<[string, Behaviour] | [string, Behaviour, 'may be valid']> = fc.oneof(
  fc.integer({ min: 300, max: 1200 }).map((n): [string, Behaviour] => [
    `an endless stream of records (${n} per message) past the byte limit`,
    (socket, id) => {
      let i = 0;
      const more = () => {
        if (socket.destroyed) return;
        const names = Array.from({ length: n }, () => a(`h${i++}.${ZONE}`));
        if (socket.write(frame(id, i <= n ? [soa(9), ...names] : names))) setImmediate(more);
        else socket.once('drain', more);
      };
      more();
    },
  ]),
  fc.constantFrom('example.org', 'com', 'xexample.com', 'example.com.evil').map((outside): [string, Behaviour] => [
    `a record outside the zone (${outside})`,
    (socket, id) => socket.end(Buffer.concat([frame(id, [soa(9), a(`www.${ZONE}`), a(outside)]), frame(id, [soa(9)])])),
  ]),
  fc.boolean().map((same): [string, Behaviour] => [
    same ? 'records after the closing SOA' : 'a second, different SOA mid-stream',
    (socket, id) => socket.end(Buffer.concat([frame(id, [soa(9), a(`www.${ZONE}`), soa(same ? 9 : 10), a(`x.${ZONE}`)]), frame(id, [soa(9)])])),
  ]),
  fc.integer({ min: 1, max: 60_000 }).map((claimed): [string, Behaviour] => [
    `a message that never ends (claims ${claimed} bytes)`,
    (socket, id) => {
      const head = frame(id, [soa(9)]);
      const cut = Buffer.concat([Buffer.from([claimed >> 8, claimed & 255]), head.subarray(2, Math.min(head.length, 2 + claimed - 1))]);
      socket.write(cut); // and then silence, the connection left open
    },
  ]),
  fc.constant<[string, Behaviour]>(['no answer at all, the connection left open', () => undefined]),
  fc.uint8Array({ minLength: 0, maxLength: 300 }).map((junk): [string, Behaviour] => [
    `malformed wire data (${junk.length} random bytes after a valid header)`,
    (socket, id) => {
      const body = Buffer.concat([Buffer.from([id >> 8, id & 255, 0x84, 0x00]), Buffer.from(junk)]);
      socket.end(Buffer.concat([Buffer.from([body.length >> 8, body.length & 255]), body]));
    },
  ]),
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, value]): [string, Behaviour, 'may be valid'] => [
    `a well-formed transfer with one byte changed (offset ${at} := ${value})`,
    (socket, id) => {
      const msg = frame(id, [soa(9), a(`www.${ZONE}`), { type: 'MX', name: ZONE, ttl: 60, data: { preference: 10, exchange: `mail.${ZONE}` } }, soa(9)]);
      // Past the length prefix and the id, so the answer is still to this query.
      const offset = 4 + (at % (msg.length - 4));
      msg[offset] = value;
      socket.end(msg);
    },
    'may be valid',
  ]),
  fc.constantFrom(1, 2, 3, 5, 9).map((rcode): [string, Behaviour] => [
    `an error code (${rcode})`,
    (socket, id) => {
      const msg = frame(id, [soa(9)]);
      msg[5] = (msg[5]! & 0xf0) | rcode;
      socket.end(msg);
    },
  ]),
  fc.constant<[string, Behaviour]>(['an answer to another query id', (socket, id) => socket.end(frame((id + 1) & 0xffff, [soa(9), soa(9)]))]),
);

describe('a hostile master cannot hurt the service', () => {
  it('every hostile transfer is refused whole and ends within the deadline; the service keeps answering', async () => {
    const { dns, zoneId } = await transferredZone();
    await fc.assert(
      fc.asyncProperty(scenarios, async ([, hostile, mayBeValid]) => {
        behaviour = hostile;
        const before = await recordsets(dns, zoneId);
        const serialBefore = (await dns.zones.get(alice, zoneId))._unsafeUnwrap().serial;
        const started = performance.now();
        (await dns.zones.update(alice, zoneId, { masters: [`127.0.0.1:${port}`] }))._unsafeUnwrap();
        const settled = dns.tasks.settle();
        // While the master misbehaves, other requests are answered.
        expect((await dns.zones.get(alice, zoneId)).isOk()).toBe(true);
        await settled;
        expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 3000);
        const after = (await dns.zones.get(alice, zoneId))._unsafeUnwrap();
        const now = await recordsets(dns, zoneId);
        if (mayBeValid !== undefined && JSON.stringify(now) !== JSON.stringify(before)) {
          // Taken whole: the zone's serial is its stored SOA's, and nothing of the old data is left.
          expect(now.find((l) => l.includes(' SOA '))?.split(' ')[4]).toBe(String(after.serial));
          expect(now.length).toBeGreaterThanOrEqual(1);
          expect(now.length).toBeLessThanOrEqual(3);
          expect(now).not.toContain('mail.example.com. A 192.0.2.1');
        } else {
          expect(after.serial).toBe(serialBefore);
          expect(now).toEqual(before);
        }
        for (const s of sockets) s.destroy();
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('the good master still transfers afterwards (the refusals were the data, not the client)', async () => {
    const { dns, zoneId } = await transferredZone();
    behaviour = good(6, ['www', 'mail', 'ftp']);
    // xfr: the serial query (answered with the SOA, serial 6 > 5), then the transfer.
    (await dns.zones.xfr(alice, zoneId))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.zones.get(alice, zoneId))._unsafeUnwrap().serial).toBe(6);
    expect(await recordsets(dns, zoneId)).toHaveLength(4);
  });
});
