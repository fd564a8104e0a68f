import type { MasterAddress, MasterPort, MasterRecord, TransferLimits } from '../dns/secondary/master-port.js';
import { parseZoneFile } from '../zonefile/index.js';

/**
 * One call the service made to a {@link ScriptedMaster}.
 *
 * @category Testing
 */
export interface MasterCall {
  /** `serial` (the SOA query of `zones.xfr`) or `transfer` (a full AXFR). */
  readonly method: 'serial' | 'transfer';
  /** The master it was addressed to. */
  readonly master: MasterAddress;
  /** The zone name asked for. */
  readonly zone: string;
}

/**
 * A {@link MasterPort} whose zones a test sets and changes: SECONDARY handling without a network.
 *
 * @category Testing
 */
export interface ScriptedMaster extends MasterPort {
  /**
   * Serves a zone (replacing what was served under that name): zone-file text, read with
   * `parseZoneFile` (its `$ORIGIN` or SOA owner need not be the name), or records as given,
   * unchecked, so a test can also send what a hostile master would. The serial the master
   * reports is the SOA's.
   * @throws TypeError for zone-file text that does not parse (a mistake in the test)
   */
  serve(zone: string, content: string | readonly MasterRecord[]): void;
  /** Stops serving a zone: `serial` answers null, `transfer` fails. */
  withdraw(zone: string): void;
  /** While false, every call fails as an unreachable master does. @defaultValue true */
  reachable: boolean;
  /** Every call so far, oldest first. */
  readonly calls: readonly MasterCall[];
}

/** Zone names compare as DNS compares them. */
const keyOf = (zone: string): string => zone.toLowerCase();

/** The serial field of an SOA record's data (its third field). */
function soaSerial(records: readonly MasterRecord[]): number | null {
  const soa = records.find((r) => typeof r.type === 'string' && r.type.toUpperCase() === 'SOA');
  const serial = Number(String(soa?.data ?? '').trim().split(/\s+/)[2]);
  return Number.isInteger(serial) ? serial : null;
}

/**
 * A master port for tests (see {@link ScriptedMaster}): it answers every address alike, gives a
 * transfer in pages of `pageSize` records, SOA first, and records each call.
 *
 * @param options - `pageSize`: records per page of a transfer (default 100)
 * @returns the master; pass it as `createDnsService({ masters })`
 * @example
 * ```ts
 * import { createDnsService } from 'zoneward';
 * import { scriptedMaster } from 'zoneward/testing';
 *
 * const master = scriptedMaster();
 * master.serve('example.com.', '$ORIGIN example.com.\n@ 3600 IN SOA ns1 admin 7 3600 600 86400 300\n@ IN NS ns1\nns1 IN A 192.0.2.1\n');
 * const dns = createDnsService({ masters: master });
 * await dns.zones.create({ projectId: 'p1' }, { name: 'example.com.', type: 'SECONDARY', masters: ['192.0.2.53'] });
 * await dns.tasks.settle(); // the zone now holds the master's records, serial 7
 * ```
 * @category Testing
 */
export function scriptedMaster(options: { readonly pageSize?: number } = {}): ScriptedMaster {
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? 100));
  const zones = new Map<string, readonly MasterRecord[]>();
  const calls: MasterCall[] = [];
  const unreachable = (master: MasterAddress): Error => new Error(`connection to ${master.host} port ${master.port} refused`);

  const master: ScriptedMaster = {
    reachable: true,
    calls,
    serve(zone, content) {
      if (typeof content !== 'string') {
        zones.set(keyOf(zone), Object.freeze([...content]));
        return;
      }
      const parsed = parseZoneFile(content, { origin: zone });
      if (parsed.isErr()) {
        const e = parsed.error;
        throw new TypeError(`scriptedMaster.serve: line ${e.line}, column ${e.column}: ${e.message}`);
      }
      const records = parsed.value.records.map((r) => Object.freeze({ name: r.name, type: r.type, ttl: r.ttl, data: r.rdata }));
      // The SOA first, as a master sends it.
      records.sort((a, b) => Number(b.type === 'SOA') - Number(a.type === 'SOA'));
      zones.set(keyOf(zone), Object.freeze(records));
    },
    withdraw(zone) {
      zones.delete(keyOf(zone));
    },
    serial(at, zone) {
      calls.push({ method: 'serial', master: at, zone });
      if (!master.reachable) return Promise.reject(unreachable(at));
      const records = zones.get(keyOf(zone));
      return Promise.resolve(records === undefined ? null : soaSerial(records));
    },
    transfer(at: MasterAddress, zone: string, _limits: TransferLimits): AsyncIterable<readonly MasterRecord[]> {
      calls.push({ method: 'transfer', master: at, zone });
      const reachable = master.reachable;
      // Read when the call is made: a later serve() is a later version of the zone.
      const records = zones.get(keyOf(zone));
      return {
        async *[Symbol.asyncIterator]() {
          // Even the first page comes later, as from a socket: the service must not rely on less.
          await Promise.resolve();
          if (!reachable) throw unreachable(at);
          if (records === undefined) throw new Error(`${zone} is not served here (NOTAUTH)`);
          for (let i = 0; i < records.length; i += pageSize) yield records.slice(i, i + pageSize);
        },
      };
    },
  };
  return master;
}
