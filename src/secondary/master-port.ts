import { pyInt } from '../shared/validation.js';

/**
 * Where a master is reached: a SECONDARY zone's `masters` entry split as the real service splits
 * it (reference §4.10).
 *
 * @category Secondary zones
 */
export interface MasterAddress {
  /** Host name or address literal as written (never resolved or checked by the core). */
  readonly host: string;
  /** TCP port, 1–65535; 53 when the entry has none. */
  readonly port: number;
}

/**
 * One resource record as a master sends it. Class IN is implied.
 *
 * The core writes every record as one zone-file line and reads it with the same parser as zone
 * imports, so `data` is presentation text of any form that parser accepts: the type's own
 * (`10 mail.example.com.`) or the RFC 3597 generic form (`\# 4 c0000201`), which is what
 * `axfrMasters` sends, since it needs no per-type code on the wire side.
 *
 * @category Secondary zones
 */
export interface MasterRecord {
  /** Owner name, absolute (ending with a dot), in presentation form (`\DDD` escapes allowed). */
  readonly name: string;
  /** Type mnemonic (`A`, `MX`) or `TYPEnnn`. */
  readonly type: string;
  /** TTL in seconds. */
  readonly ttl: number;
  /** Record data in presentation form, on one line. */
  readonly data: string;
}

/**
 * Limits a transfer is held to. The core enforces them itself; they are passed on so that an
 * adapter can stop reading a master early (and close its connection) rather than after the fact.
 *
 * @category Secondary zones
 */
export interface TransferLimits {
  /** Most records the core accepts in one transfer. */
  readonly maxRecords: number;
  /** Most bytes of record text (the size of the zone file the records make) the core accepts. */
  readonly maxBytes: number;
}

/**
 * How the service reaches the masters of SECONDARY zones: the one door through which transferred
 * data comes in, so the core stays free of I/O.
 *
 * - `serial` asks a master for the zone's SOA serial (what `zones.xfr` compares with the zone's).
 * - `transfer` is a full zone transfer (AXFR): the zone's records, each once, in pages. The SOA
 *   comes first; the closing copy of the SOA that ends an AXFR on the wire is not repeated.
 *
 * A master that cannot be reached, has no such zone, times out or sends something malformed is
 * reported by rejecting (or throwing from the iterator). The core stops iterating as soon as a
 * page breaks a rule or a limit (the iterator's `return()` is called), so an adapter should
 * release its connection there. Timeouts are the adapter's: the core has no clock of its own.
 *
 * `axfrMasters()` from `zoneward/axfr` is the real one (DNS over TCP); `scriptedMaster()` from
 * `zoneward/testing` is one a test controls.
 *
 * @category Secondary zones
 */
export interface MasterPort {
  /**
   * The SOA serial of `zone` at `master`; null when the master answers but has no such zone.
   * @param master - where to ask
   * @param zone - the zone name, absolute, as the zone was created
   */
  serial(master: MasterAddress, zone: string): Promise<number | null>;
  /**
   * A full transfer of `zone` from `master`, in pages of records.
   * @param master - where to transfer from
   * @param zone - the zone name, absolute, as the zone was created
   * @param limits - what the core will accept (see {@link TransferLimits})
   */
  transfer(master: MasterAddress, zone: string, limits: TransferLimits): AsyncIterable<readonly MasterRecord[]>;
}

/**
 * A rendered `masters` entry (`host` or `host:port`) as the address the real service reaches:
 * split at the first colon, and the rest is the port only when it is an integer, so a bare IPv6
 * literal is a host on port 53 (reference §4.10).
 * @internal
 */
export function masterAddress(entry: string): MasterAddress {
  const colon = entry.indexOf(':');
  if (colon < 0) return { host: entry, port: 53 };
  const port = pyInt(entry.slice(colon + 1));
  // The API only stores entries whose integer port is 1–65535, rendered without `:53`.
  if (port.isErr() || port.value < 1 || port.value > 65535) return { host: entry, port: 53 };
  return { host: entry.slice(0, colon), port: port.value };
}
