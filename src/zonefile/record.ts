/**
 * The record objects `parseZoneFile` returns. `name`, `ttl`, `class`, `type` and `rdata` are plain
 * own properties; `data` is an accessor on the prototype that, for the common types, reads the
 * structured form from the canonical `rdata` the first time it is asked for and keeps it. A million
 * records then cost one object and two strings each instead of four or five objects, which is
 * most of the parser's memory and garbage-collection time (see docs/zonefile-conformance.md, Speed).
 */
import { Lexer } from './lexer.js';
import { READERS, type RdataOut } from './rdata.js';
import { typeFromText } from './registry.js';

/** Marks a record whose `data` has not been computed yet. */
const LAZY: unknown = Symbol('lazy');

export class ParsedRecord {
  name: string;
  ttl: number;
  class: string;
  type: string;
  rdata: string;
  #data: unknown;

  constructor(name: string, ttl: number, klass: string, type: string, rdata: string, data: unknown) {
    this.name = name;
    this.ttl = ttl;
    this.class = klass;
    this.type = type;
    this.rdata = rdata;
    this.#data = data;
  }

  /** A record whose structured form is read from `rdata` on first access. */
  static lazy(name: string, ttl: number, type: string, rdata: string): ParsedRecord {
    return new ParsedRecord(name, ttl, 'IN', type, rdata, LAZY);
  }

  /** The structured form (see {@link ZoneRecord.data}); computed from `rdata` on first access. */
  get data(): unknown {
    let d = this.#data;
    if (d === LAZY) {
      d = structuredData(this.type, this.rdata);
      this.#data = d;
    }
    return d;
  }

  set data(value: unknown) {
    this.#data = value;
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
