/**
 * `zoneward/dns-server`: the service's zones answered over DNS. An authoritative server on UDP
 * and TCP, zone transfer out (AXFR, IXFR answered in full), NOTIFY on serial changes, a catalog
 * zone (RFC 9432) listing every served zone, and pool targets that hand zones to real
 * secondaries (BIND, Knot) through that catalog. With `zoneward/axfr`, the only modules of
 * zoneward that open sockets.
 *
 * @module zoneward/dns-server
 */
import type { Socket } from 'node:net';
import type { DnsService } from '../../dns/service.js';
import type { PoolTargetPort } from '../../dns/kernel/deps.js';
import type { ZoneBody } from '../../dns/kernel/zone.js';
import { bindBoth, plainAddress, queryAnswerer, serialAtLeast, tcpListener, transferAnswerer, udpListener } from './listeners.js';
import { ServedZones } from './served-zones.js';
import { parseEndpoint, probeSerial, sendNotify, type Endpoint } from './transfer.js';
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

  const answer = queryAnswerer(zones);
  const transfer = transferAnswerer(zones, allow);
  const udp = udpListener(host, served, answer);
  const connections = new Set<Socket>();
  const tcp = tcpListener(connections, served, answer, transfer);
  const port = await bindBoth(tcp, udp, options.port ?? 0, host).catch((e: unknown) => {
    served.close();
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
