/**
 * Owner names numbered by a hash table, and the CNAME rule over those numbers: the one table and
 * the one rule that both the engine (parse.ts, at the end of a file) and imports (convert.ts,
 * record by record) use. Each caller keeps its own messages and its own order of looking.
 */
import { mayStandBesideCname } from './registry.js';

/**
 * Counts the slots a table visits, so that tests can state a bound on the work that holds
 * whatever the names hash to, instead of timing it.
 * @internal
 */
export interface ProbeCounter {
  probes: number;
}

/** 2^32 divided by the golden ratio: spreads a hash's bits over the filter's index. */
const GOLDEN = -1640531527;

/**
 * Owner names (keys in one case, chosen by the caller) numbered 0, 1, 2, … in the order they
 * were first added. An open-addressing table of numbers, as a Map of a few hundred thousand fresh
 * strings costs several times more; the caller supplies each key's hash, which must be equal for
 * equal keys (the parser's owner hash, or the import's FNV of the name under the zone).
 *
 * Neither hash is a secret, and names made to share a hash or to crowd one run of slots take a
 * fraction of a second to find: probed slot by slot, such names make every look-up walk all the
 * others. So the table budgets its probe steps past each key's home slot (linear probing at
 * most half full averages under 2.5 a look-up) and, once the budget is spent, moves every key
 * to a Map, whose string hash V8 seeds per process. Look-ups then cost one Map operation each.
 * @internal
 */
export class OwnerTable {
  /** Owners added so far; owner `o` is `keys[o]`. */
  count = 0;
  readonly keys: string[] = [];
  private readonly hashes: Int32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly capacity: number;
  private budget: number;
  private byKey: Map<string, number> | undefined;
  /** A bit filter of the keys' hashes (see `mayHold`), or null. */
  private readonly filter: Int32Array | null;
  private readonly shift: number;

  /**
   * `expected`: how many owners at most (the table never grows; past this many it moves to the
   * Map as a flood would); `filter`: keep a bit filter of at least 32 bits per owner for
   * {@link mayHold}; `counter`: counts every slot visited and every Map operation.
   */
  constructor(
    expected: number,
    filter = false,
    private readonly counter?: ProbeCounter,
  ) {
    let size = 16;
    while (size < expected * 2) size *= 2;
    this.mask = size - 1;
    this.capacity = expected;
    this.slots = new Int32Array(size).fill(-1);
    this.hashes = new Int32Array(Math.max(expected, 1));
    this.budget = 8 * expected + 1024;
    let bits = 10;
    while (filter && bits < 25 && 1 << bits < expected * 32) bits++;
    this.filter = filter ? new Int32Array(1 << (bits - 5)) : null;
    this.shift = 32 - bits;
  }

  /** Whether the look-ups have moved to the Map (the probe budget was spent). */
  get flooded(): boolean {
    return this.byKey !== undefined;
  }

  /**
   * False only when no owner has hash `h` (no key needed, so callers can skip building one): on
   * a file's records whose owners are rarely in the table, the filter stays in the cache where
   * the table's slots would not, and lets about 3 % of the others through.
   */
  mayHold(h: number): boolean {
    const filter = this.filter;
    if (filter === null || this.byKey !== undefined) return true;
    const bit = Math.imul(h, GOLDEN) >>> this.shift;
    return (filter[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }

  /** The number of owner `key` (hash `h`); a new one when `add` (else -1 when it is not there). */
  lookup(key: string, h: number, add: boolean): number {
    if (this.byKey === undefined) {
      const { slots, mask, hashes, keys, counter } = this;
      let slot = (h ^ (h >>> 15)) & mask;
      for (;;) {
        if (counter !== undefined) counter.probes++;
        const at = slots[slot]!;
        if (at < 0) {
          if (!add) return -1;
          if (this.count < this.capacity) return (slots[slot] = this.add(key, h));
          break;
        }
        if (hashes[at] === h && keys[at] === key) return at;
        if (--this.budget < 0) break;
        slot = (slot + 1) & mask;
      }
      this.byKey = new Map();
      for (let o = 0; o < this.count; o++) this.byKey.set(keys[o]!, o);
      if (counter !== undefined) counter.probes += this.count;
    }
    if (this.counter !== undefined) this.counter.probes++;
    let owner = this.byKey.get(key);
    if (owner === undefined) {
      if (!add) return -1;
      owner = this.add(key, h);
      this.byKey.set(key, owner);
    }
    return owner;
  }

  private add(key: string, h: number): number {
    const o = this.count++;
    this.keys[o] = key;
    if (o < this.hashes.length) this.hashes[o] = h;
    const filter = this.filter;
    if (filter !== null) {
      const bit = Math.imul(h, GOLDEN) >>> this.shift;
      filter[bit >>> 5]! |= 1 << (bit & 31);
    }
    return o;
  }
}

/** {@link CnameRule.add}: the record may stand where it is. @internal */
export const NO_CLASH = 0;
/** {@link CnameRule.add}: a CNAME comes to an owner that holds other data. @internal */
export const CNAME_AFTER_DATA = 1;
/** {@link CnameRule.add}: other data comes to an owner that holds a CNAME. @internal */
export const DATA_AFTER_CNAME = 2;

/**
 * The CNAME rule (RFC 1034 §3.6.2, RFC 2181 §10.1): an owner with a CNAME holds no other data,
 * except the types that may stand beside one (`mayStandBesideCname`: NSEC, NSEC3, RRSIG, KEY).
 * Records come in (owner number, kind) and the rule answers the clash each one makes, with the
 * CNAMEs it clashes with: the engine gives it every CNAME first and then the other records, so
 * the first clash is the first other record in file order at a CNAME's owner; an import gives it
 * the file in order, as dnspython reads it.
 * @internal
 */
export class CnameRule {
  /** Per owner: its last CNAME so far (the caller's number for it), or -1. */
  private readonly last: Int32Array;
  /** Per owner: whether it holds other data. */
  private readonly other: Uint8Array;
  /** The CNAME of the owner before the last `add` of a CNAME (-1: none), for the callers' two-CNAMEs rules. */
  previous = -1;

  /** `owners`: how many owner numbers at most. */
  constructor(owners: number) {
    this.last = new Int32Array(owners).fill(-1);
    this.other = new Uint8Array(owners);
  }

  /** Whether a record of type code `type` counts as other data beside a CNAME. */
  static counts(type: number): boolean {
    return !mayStandBesideCname(type);
  }

  /**
   * Adds a record at `owner`: a CNAME (numbered `cname` by the caller) when `cname >= 0`, else
   * other data (of a type that {@link counts}). Returns the clash it makes: {@link NO_CLASH}, {@link CNAME_AFTER_DATA} or {@link DATA_AFTER_CNAME}.
   */
  add(owner: number, cname: number): number {
    const before = this.last[owner]!;
    if (cname >= 0) {
      this.previous = before;
      this.last[owner] = cname;
      return this.other[owner] === 1 ? CNAME_AFTER_DATA : NO_CLASH;
    }
    this.other[owner] = 1;
    return before >= 0 ? DATA_AFTER_CNAME : NO_CLASH;
  }

  /** The last CNAME added at `owner` (the caller's number for it), or -1. */
  lastCname(owner: number): number {
    return this.last[owner]!;
  }
}
