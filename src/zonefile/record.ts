/**
 * The record objects `parseZoneFile` returns. `name`, `ttl`, `class`, `type` and `rdata` are plain
 * own properties; `data` is an accessor on the prototype that, for the common types, reads the
 * structured form from the canonical `rdata` the first time it is asked for and keeps it (as an own,
 * non-enumerable property). A million records then cost one object and two strings each instead of
 * four or five objects, which is most of the parser's memory and garbage-collection time (see
 * docs/zonefile-conformance.md, Speed).
 */
import { Lexer } from './lexer.js';
import { READERS, type RdataOut } from './rdata.js';
import { typeFromText } from './registry.js';

/**
 * A parsed record. `data` is not a field: a field costs 8 bytes in each of a million records, and
 * those 8 MB alone decided whether a 1M-record parse needed a full garbage collection. The prototype's
 * accessor computes `data` on first access and stores it as an own, non-enumerable property, which
 * then shadows the accessor.
 */
export class ParsedRecord {
  name: string;
  ttl: number;
  class: string;
  type: string;
  rdata: string;

  constructor(name: string, ttl: number, type: string, rdata: string) {
    this.name = name;
    this.ttl = ttl;
    this.class = 'IN';
    this.type = type;
    this.rdata = rdata;
  }

  /** A record whose structured form was computed while parsing (types whose `data` cannot wait). */
  static withData(name: string, ttl: number, type: string, rdata: string, data: unknown): ParsedRecord {
    const r = new ParsedRecord(name, ttl, type, rdata);
    r.data = data;
    return r;
  }

  /** The structured form (see {@link ZoneRecord.data}); computed from `rdata` on first access. */
  get data(): unknown {
    const d = structuredData(this.type, this.rdata);
    // A frozen record cannot keep it: computed again on each access, the same value.
    if (Object.isExtensible(this)) this.data = d;
    return d;
  }

  set data(value: unknown) {
    Object.defineProperty(this, 'data', { value, writable: true, configurable: true, enumerable: false });
  }

  /** `JSON.stringify` shows `data` as an eager record would. */
  toJSON(): object {
    const d = this.data;
    return d === undefined
      ? { name: this.name, ttl: this.ttl, class: this.class, type: this.type, rdata: this.rdata }
      : { name: this.name, ttl: this.ttl, class: this.class, type: this.type, rdata: this.rdata, data: d };
  }
}

/**
 * Types whose reader gives the same structured form when it re-reads its own canonical output
 * (names absolute, numbers plain, strings quoted with escapes): their `data` can wait.
 */
export function lazyType(type: number): boolean {
  switch (type) {
    case 1: // A
    case 2: // NS
    case 5: // CNAME
    case 6: // SOA
    case 12: // PTR
    case 15: // MX
    case 16: // TXT
    case 28: // AAAA
    case 33: // SRV
    case 43: // DS
    case 99: // SPF
    case 257: // CAA
      return true;
    default:
      return false;
  }
}

/** Re-reads canonical record data with the type's reader; `undefined` if that is not possible. */
export function structuredData(type: string, rdata: string): unknown {
  const code = typeFromText(type);
  const reader = READERS.get(code);
  if (reader === undefined) return undefined;
  const o: RdataOut = { lx: new Lexer(rdata), origin: '.', rdata: '', data: undefined, str: '', strOctets: 0, type: code, fromWire: false };
  try {
    reader(o);
  } catch {
    return undefined;
  }
  return o.data;
}
