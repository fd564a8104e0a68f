/**
 * One served zone, indexed for answering: every owner name (and every empty non-terminal above
 * one) keyed by its lower-cased wire form, so a query finds its node, the zone cut above it and
 * its wildcard with a few map lookups, whatever the zone's size. The key of a name's parent is a
 * suffix of the name's key (wire labels are length-prefixed), so walking up costs no copies.
 */
import { typeFromText } from '../../zonefile/registry.js';
import { nameToWire, RdataError, rdataToWire } from './rdata.js';

/** The records of one owner and type, data already in wire form. @internal */
export interface RRset {
  readonly type: number;
  readonly ttl: number;
  readonly rdata: readonly Uint8Array[];
}

/** An owner name of the zone, or an empty non-terminal (no RRsets). @internal */
export interface ZoneNode {
  /** The owner's wire form, case as stored. */
  readonly wire: Uint8Array;
  readonly rrsets: Map<number, RRset>;
}

/** A recordset as the service lists it (the fields the index reads). @internal */
export interface RecordsetInput {
  readonly name: string;
  readonly type: string;
  readonly ttl: number | null;
  readonly records: readonly string[];
}

/** The lower-cased wire form of a name as a map key (one char per octet). @internal */
export function keyOf(wire: Uint8Array, from = 0): string {
  let key = '';
  let p = from;
  for (;;) {
    const len = wire[p]!;
    key += String.fromCharCode(len);
    if (len === 0) return key;
    for (let i = p + 1; i <= p + len; i++) {
      const b = wire[i]!;
      key += String.fromCharCode(b >= 0x41 && b <= 0x5a ? b | 0x20 : b);
    }
    p += len + 1;
  }
}

/** Where each label of a key starts: `[0, …, key.length - 1]` (the last is the root). @internal */
export function labelStarts(key: string): number[] {
  const starts: number[] = [];
  let p = 0;
  for (;;) {
    starts.push(p);
    const len = key.charCodeAt(p);
    if (len === 0) return starts;
    p += len + 1;
  }
}

export const TYPE_SOA = 6;
export const TYPE_NS = 2;
export const TYPE_CNAME = 5;

/** A zone ready to answer from. @internal */
export class ZoneIndex {
  readonly nodes = new Map<string, ZoneNode>();
  /** Records in presentation form that could not be encoded, left out. */
  skipped = 0;
  /** Whether any name below the apex holds NS records (a zone cut). */
  hasCuts = false;
  /** Whether any wildcard owner exists. */
  hasWildcards = false;
  /** Records served, SOA and NS included. */
  records = 0;

  private constructor(
    readonly id: string,
    readonly name: string,
    readonly apexKey: string,
    readonly apexWire: Uint8Array,
  ) {}

  /** The apex SOA (every served zone has one). */
  get soa(): RRset {
    return this.nodes.get(this.apexKey)!.rrsets.get(TYPE_SOA)!;
  }

  /** The serial of the apex SOA. */
  get serial(): number {
    const data = this.soa.rdata[0]!;
    const at = data.length - 20;
    return ((data[at]! << 24) | (data[at + 1]! << 16) | (data[at + 2]! << 8) | data[at + 3]!) >>> 0;
  }

  /**
   * Indexes a zone's recordsets; `defaultTtl` applies where a recordset has none. Returns
   * undefined when the zone has no SOA to serve (a SECONDARY zone not transferred yet).
   */
  static build(id: string, name: string, defaultTtl: number, recordsets: Iterable<RecordsetInput>): ZoneIndex | undefined {
    const apexWire = nameToWire(name);
    const zone = new ZoneIndex(id, name, keyOf(apexWire), apexWire);
    zone.nodes.set(zone.apexKey, { wire: apexWire, rrsets: new Map() });
    const apexLength = zone.apexKey.length;
    for (const rs of recordsets) {
      const type = typeFromText(rs.type.toUpperCase());
      let wire: Uint8Array;
      try {
        wire = nameToWire(rs.name);
      } catch (e) {
        if (e instanceof RdataError) {
          zone.skipped += rs.records.length;
          continue;
        }
        throw e;
      }
      const key = keyOf(wire);
      if (type < 0 || !key.endsWith(zone.apexKey)) {
        zone.skipped += rs.records.length;
        continue;
      }
      const rdata: Uint8Array[] = [];
      for (const text of rs.records) {
        try {
          rdata.push(rdataToWire(type, text));
        } catch (e) {
          if (!(e instanceof RdataError)) throw e;
          zone.skipped++;
        }
      }
      if (rdata.length === 0) continue;
      let node = zone.nodes.get(key);
      if (node === undefined) {
        node = { wire, rrsets: new Map() };
        zone.nodes.set(key, node);
        // Every name between the owner and the apex exists (an empty non-terminal, RFC 4592 §2.2.2).
        let p = key.charCodeAt(0) + 1;
        while (key.length - p > apexLength) {
          const parent = key.slice(p);
          if (zone.nodes.has(parent)) break;
          zone.nodes.set(parent, { wire: wire.subarray(p), rrsets: new Map() });
          p += key.charCodeAt(p) + 1;
        }
      }
      const existing = node.rrsets.get(type);
      const merged = existing === undefined ? rdata : [...existing.rdata, ...rdata];
      node.rrsets.set(type, { type, ttl: existing?.ttl ?? rs.ttl ?? defaultTtl, rdata: merged });
      zone.records += rdata.length;
      if (type === TYPE_NS && key !== zone.apexKey) zone.hasCuts = true;
      if (key.charCodeAt(0) === 1 && key.charCodeAt(1) === 0x2a) zone.hasWildcards = true;
    }
    if (zone.nodes.get(zone.apexKey)!.rrsets.get(TYPE_SOA)?.rdata.length !== 1) return undefined;
    return zone;
  }
}
