/**
 * `zoneward/dns-server`: the service's zones answered over DNS. An authoritative server on UDP
 * and TCP, zone transfer out (AXFR, IXFR answered in full), NOTIFY on serial changes, a catalog
 * zone (RFC 9432) listing every served zone, and pool targets that hand zones to real
 * secondaries (BIND, Knot) through that catalog. With `zoneward/axfr`, the only modules of
 * zoneward that open sockets.
 *
 * @module zoneward/dns-server
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server as TcpServer, type Socket } from 'node:net';
import type { DnsService } from '../../dns/service.js';
import type { PoolTargetPort } from '../../dns/kernel/deps.js';
import type { ZoneBody } from '../../dns/kernel/zone.js';
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
import { ServedZones } from './served-zones.js';
import { parseEndpoint, probeSerial, sendNotify, transferMessages, type Endpoint } from './transfer.js';
import { keyOf, ZoneIndex } from './zone-index.js';
import { nameToWire } from './rdata.js';

export type { Endpoint } from './transfer.js';

/**
 * Options of {@link serveDns}.
 *
 * @category DNS server
 */
export interface ServeDnsOptions {
  /** The service whose zones are served. */
  readonly dns: DnsService;
  /** The address to listen on. @defaultValue '127.0.0.1' */
  readonly host?: string;
  /** The port, UDP and TCP; 0 picks a free one ({@link DnsServer.port} tells which). @defaultValue 0 */
  readonly port?: number;
  /**
   * Who may transfer zones (AXFR, IXFR) over TCP: IP addresses, compared as the socket reports
   * the peer (`::ffff:` prefixes removed). Others are REFUSED.
   * @defaultValue `['127.0.0.1', '::1']`
   */
  readonly transfers?: {
    /** The addresses allowed to transfer. */
    readonly allow: readonly string[];
  };
  /**
   * Servers told (NOTIFY, RFC 1996) when a served zone's serial changes, and when the catalog
   * zone changes: `host`, `host:port` or `[v6]:port`. The servers of `targets` are told too.
   * @defaultValue none
   */
  readonly notify?: readonly string[];
  /** The name of the catalog zone (RFC 9432) listing every served zone. @defaultValue 'catalog.invalid.' */
  readonly catalog?: string;
  /** Pool targets made by {@link secondaryTargets} for the service of `dns`: this server feeds them. */
  readonly targets?: SecondaryTargets;
}

/**
 * A running server.
 *
 * @category DNS server
 */
export interface DnsServer {
  /** The port it listens on, UDP and TCP. */
  readonly port: number;
  /** The address it listens on. */
  readonly host: string;
  /** The catalog zone's name. */
  readonly catalog: string;
  /**
   * Resolves once every change the service announced so far is served (a query waits for this
   * by itself; a test that reads {@link DnsServer.servedSerial} may call it first).
   */
  settled(): Promise<void>;
  /** The serial served for a zone (by name, any case, trailing dot optional), or undefined if it is not served. */
  servedSerial(zoneName: string): number | undefined;
  /**
   * Reads every zone again, dropping what the service no longer holds: after `dns.reset()` or
   * anything else that changes the service's state without announcing it (events).
   */
  reload(): Promise<void>;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/**
 * Options of {@link secondaryTargets}.
 *
 * @category DNS server
 */
export interface SecondaryTargetsOptions {
  /** The secondaries (BIND, Knot …), each a consumer of the server's catalog zone: `host:port`. */
  readonly servers: readonly string[];
  /**
   * How long a push waits for every secondary to serve the zone's new serial (or to stop
   * serving a deleted zone) before the push fails and the zone goes to `ERROR`.
   * @defaultValue 30000
   */
  readonly timeoutMs?: number;
  /** How often the secondaries are asked for the zone's SOA meanwhile. @defaultValue 250 */
  readonly pollMs?: number;
}

/**
 * Pool targets that are real DNS secondaries, fed by a {@link serveDns} server through its
 * catalog zone: a push makes the server serve the zone (and list it in the catalog), notifies
 * the secondaries, and succeeds once each of them answers the zone's SOA with the pushed serial
 * (a delete: once none serves the zone any more).
 *
 * @category DNS server
 */
export interface SecondaryTargets extends PoolTargetPort {
  /** The secondaries, as given. */
  readonly servers: readonly Endpoint[];
}

/** What a {@link SecondaryTargets} needs of the server that feeds it. */
interface Feeder {
  refresh(id: string): Promise<ZoneIndex | undefined>;
  drop(id: string): void;
}

const attached = new WeakMap<SecondaryTargets, { feeder?: Feeder; waiting: (() => void)[] }>();

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** RFC 1982: whether serial `a` is at or after `b`. */
const serialAtLeast = (a: number, b: number): boolean => a === b || ((a - b + 4294967296) % 4294967296) < 2147483648;

/**
 * Pool targets for real secondaries (see {@link SecondaryTargets}). Create them first, pass them
 * to `createDnsService({ poolTargets })`, then to {@link serveDns} with that service.
 *
 * @param options - the secondaries and the push deadline
 * @example
 * ```ts
 * const targets = secondaryTargets({ servers: ['127.0.0.1:5301'] });
 * const dns = createDnsService({ poolTargets: targets });
 * const server = await serveDns({ dns, targets, port: 5300 });
 * // a BIND secondary of catalog.invalid. from 127.0.0.1 port 5300 now picks up every zone
 * ```
 * @category DNS server
 */
export function secondaryTargets(options: SecondaryTargetsOptions): SecondaryTargets {
  const servers = options.servers.map(parseEndpoint);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollMs = options.pollMs ?? 250;
  const state: { feeder?: Feeder; waiting: (() => void)[] } = { waiting: [] };
  const feeder = async (deadline: number): Promise<Feeder> => {
    while (state.feeder === undefined) {
      if (Date.now() >= deadline) throw new Error('no DNS server feeds these pool targets (pass them to serveDns)');
      await new Promise<void>((r) => {
        state.waiting.push(r);
        setTimeout(r, Math.max(0, deadline - Date.now()));
      });
    }
    return state.feeder;
  };
  /** Polls every secondary until `done` holds for its answer, or the deadline passes. */
  const until = async (apexWire: Uint8Array, deadline: number, done: (answer: number | undefined) => boolean, what: string): Promise<void> => {
    const left = new Set(servers);
    for (;;) {
      for (const server of [...left]) {
        const answer = await probeSerial(server, apexWire, Math.min(1000, Math.max(50, deadline - Date.now())));
        if (answer !== 'silent' && done(answer)) left.delete(server);
      }
      if (left.size === 0) return;
      if (Date.now() >= deadline) {
        throw new Error(`${[...left].map((s) => `${s.host} port ${s.port}`).join(', ')} did not ${what} within ${timeoutMs} ms`);
      }
      await sleep(pollMs);
    }
  };
  const push = async (zone: ZoneBody): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    const served = await (await feeder(deadline)).refresh(zone.id);
    if (served === undefined) throw new Error(`zone ${zone.name} has nothing to serve yet`);
    await until(served.apexWire, deadline, (s) => s !== undefined && serialAtLeast(s, zone.serial), `serve serial ${zone.serial} of ${zone.name}`);
  };
  const targets: SecondaryTargets = {
    servers,
    createZone: push,
    updateZone: push,
    async deleteZone(zone) {
      const deadline = Date.now() + timeoutMs;
      (await feeder(deadline)).drop(zone.id);
      await until(nameToWire(zone.name), deadline, (s) => s === undefined, `stop serving ${zone.name}`);
    },
  };
  attached.set(targets, state);
  return targets;
}

/** An address as `net` and `dgram` report it, without the IPv4-mapped prefix. */
const plainAddress = (address: string | undefined): string => (address ?? '').replace(/^::ffff:/, '');

/**
 * Starts an authoritative DNS server for the zones of `options.dns`, on UDP and TCP.
 *
 * Every zone the service holds (all projects) is served from an index built from its
 * recordsets, read again whenever the service announces a change to the zone; queries wait for
 * reads under way. Answers follow RFC 1034 §4.3.2 (referrals at zone cuts with glue, CNAME
 * chains inside the zone), RFC 4592 wildcards and RFC 2308 negative answers (the SOA in the
 * authority section); names the server is not authoritative for are REFUSED; EDNS(0) answers
 * carry an OPT record and over UDP are cut at the client's payload size (at most 1232 octets),
 * with TC set when the answer does not fit. Malformed queries are answered FORMERR or dropped.
 *
 * @param options - the service, where to listen, transfer and NOTIFY peers, secondary targets
 * @returns the running server, once it listens and every zone is loaded
 * @example
 * ```ts
 * import { createDnsService } from 'zoneward';
 * import { serveDns } from 'zoneward/dns-server';
 *
 * const dns = createDnsService();
 * const server = await serveDns({ dns });
 * await dns.zones.create(ctx, { name: 'example.com.', email: 'hostmaster@example.com' });
 * // dig @127.0.0.1 -p ${server.port} example.com. SOA
 * ```
 * @category DNS server
 */
export async function serveDns(options: ServeDnsOptions): Promise<DnsServer> {
  const host = options.host ?? '127.0.0.1';
  const allow = new Set((options.transfers?.allow ?? ['127.0.0.1', '::1']).map(plainAddress));
  const notifyTo = [...(options.notify ?? []).map(parseEndpoint), ...(options.targets?.servers ?? [])];
  const catalogName = options.catalog ?? 'catalog.invalid.';
  const writer = new MessageWriter();
  let catalogSerial = Math.floor(Date.now() / 1000);
  let catalog: ZoneIndex | undefined;
  // While the first load runs the catalog is built once at its end, not once per zone.
  let loading = true;

  const notify = (zone: ZoneIndex): void => {
    for (const to of notifyTo) void sendNotify(to, zone);
  };
  const rebuildCatalog = (): void => {
    if (loading) return;
    catalogSerial = (catalogSerial + 1) >>> 0;
    const members = [...served.all()].map((z) => ({ name: `${z.id}.zones.${catalogName}`, type: 'PTR', ttl: 0, records: [z.name] }));
    const next = ZoneIndex.build('catalog', catalogName, 0, [
      { name: catalogName, type: 'SOA', ttl: 0, records: [`invalid. invalid. ${catalogSerial} 60 60 86400 0`] },
      { name: catalogName, type: 'NS', ttl: 0, records: ['invalid.'] },
      { name: `version.${catalogName}`, type: 'TXT', ttl: 0, records: ['"2"'] },
      ...members,
    ])!;
    if (catalog !== undefined && zones.get(catalog.apexKey) === catalog) zones.delete(catalog.apexKey);
    catalog = next;
    if (!zones.has(next.apexKey)) zones.set(next.apexKey, next);
    notify(next);
  };
  const served = new ServedZones(options.dns, (zone, how) => {
    if (how !== 'serial') rebuildCatalog();
    if (how !== 'dropped') notify(zone);
  });
  const zones = served.byApex;
  await served.loadAll();
  loading = false;
  rebuildCatalog();

  /** The answer to one message, or undefined for none. */
  const answer = (msg: Buffer, tcp: boolean): Buffer | undefined => {
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

  /** A transfer, or undefined when `msg` is not a transfer request this peer may make. */
  const transfer = (msg: Buffer, peer: string): Generator<Buffer> | Buffer | undefined => {
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

  // A larger receive buffer rides out bursts while the one thread is busy (the kernel caps it at rmem_max).
  const udp: UdpSocket = createSocket({ type: host.includes(':') ? 'udp6' : 'udp4', recvBufferSize: 4 << 20 });
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

  const connections = new Set<Socket>();
  const tcp: TcpServer = createServer((socket) => {
    connections.add(socket);
    socket.setNoDelay(true);
    // An idle or stalled client is cut off, so connections cannot pile up.
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
        queue = queue.then(() => serveTcp(socket, msg));
      }
    });
  });
  const frame = (out: Buffer): Buffer => {
    const framed = Buffer.allocUnsafe(out.length + 2);
    framed.writeUInt16BE(out.length, 0);
    out.copy(framed, 2);
    return framed;
  };
  const serveTcp = async (socket: Socket, msg: Buffer): Promise<void> => {
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

  const port = await new Promise<number>((resolvePort, reject) => {
    tcp.once('error', reject);
    tcp.listen(options.port ?? 0, host, () => {
      const address = tcp.address();
      const chosen = typeof address === 'object' && address !== null ? address.port : 0;
      udp.once('error', reject);
      udp.bind(chosen, host, () => resolvePort(chosen));
    });
  }).catch((e: unknown) => {
    served.close();
    tcp.close();
    try {
      udp.close();
    } catch {
      // not bound
    }
    throw e;
  });

  if (options.targets !== undefined) {
    const state = attached.get(options.targets);
    if (state === undefined) throw new TypeError('serveDns: `targets` must come from secondaryTargets()');
    state.feeder = {
      refresh: async (id) => {
        await served.refresh(id);
        return served.get(id);
      },
      drop: (id) => served.drop(id),
    };
    for (const wake of state.waiting.splice(0)) wake();
  }

  return {
    port,
    host,
    catalog: catalogName,
    settled: async () => {
      await served.busy();
    },
    servedSerial(zoneName) {
      const name = zoneName.endsWith('.') ? zoneName : `${zoneName}.`;
      let key: string;
      try {
        key = keyOf(nameToWire(name));
      } catch {
        return undefined;
      }
      return zones.get(key)?.serial;
    },
    reload: async () => {
      await served.busy();
      served.clear();
      loading = true;
      try {
        await served.loadAll();
      } finally {
        loading = false;
        rebuildCatalog();
      }
    },
    close: async () => {
      served.close();
      if (options.targets !== undefined) {
        const state = attached.get(options.targets);
        if (state !== undefined) delete state.feeder;
      }
      for (const socket of connections) socket.destroy();
      await Promise.all([new Promise<void>((r) => tcp.close(() => r())), new Promise<void>((r) => udp.close(() => r()))]);
    },
  };
}
