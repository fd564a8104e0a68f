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
 * How an {@link OwnerTable}'s caller names its items (records, usually): the table itself holds
 * only numbers, so that a look-up whose hash matches no owner touches no string at all.
 * @internal
 */
export interface OwnerKeys {
  /** Whether `item` names owner `owner` (asked only when their hashes agree). */
  same(owner: number, item: number): boolean;
  /** The name of owner `owner` in one case: the key of the Map that the table moves to under a flood. */
  ownerKey(owner: number): string;
  /** The name of `item` in the same case (asked only once the table has moved to the Map). */
  itemKey(item: number): string;
}

/**
 * Owner names numbered 0, 1, 2, … in the order they were first added. Items (the caller's
 * numbers, such as record indexes) come with their name's hash, which must be equal for equal
 * names (the parser's owner hash, or the import's FNV of the name under the zone); the caller
 * keeps what names each owner. An open-addressing table of numbers, as a Map of a few hundred
 * thousand fresh strings costs several times more; names are compared (by
 * {@link OwnerKeys.same}) only where hashes agree.
 *
 * Neither hash is a secret, and names made to share a hash or to crowd one run of slots take a
 * fraction of a second to find: probed slot by slot, such names make every look-up walk all the
 * others. So the table budgets its probe steps past each item's home slot (linear probing at
 * most half full averages under 2.5 a look-up) and, once the budget is spent, moves every owner
 * to a Map keyed by {@link OwnerKeys.ownerKey}, whose string hash V8 seeds per process.
 * Look-ups then cost one Map operation each.
 * @internal
 */
export class OwnerTable {
  /** Owners added so far. */
  count = 0;
  /** Per owner: its hash. */
  private readonly hashes: Int32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly capacity: number;
  private budget: number;
  private byKey: Map<string, number> | undefined;
  /** A bit filter of the owners' hashes (see `mayHold`), or null. */
  private readonly filter: Int32Array | null;
  private readonly shift: number;

  /**
   * `expected`: how many owners at most (the table never grows; past this many it moves to the
   * Map as a flood would); `filter`: keep a bit filter of at least 32 bits per owner for
   * {@link mayHold}; `counter`: counts every slot visited and every Map operation.
   */
  constructor(
    private readonly names: OwnerKeys,
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
   * False only when no owner has hash `h`: on a file's records whose owners are rarely in the
   * table, the filter stays in the cache where the table's slots would not, and lets about 3 % of
   * the others through.
   */
  mayHold(h: number): boolean {
    const filter = this.filter;
    if (filter === null || this.byKey !== undefined) return true;
    const bit = Math.imul(h, GOLDEN) >>> this.shift;
    return (filter[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }

  /** The owner number of `item`'s name (hash `h`); a new one when `add` (else -1 when it is not there). */
  lookup(item: number, h: number, add: boolean): number {
    if (this.byKey === undefined) {
      const { slots, mask, hashes, counter } = this;
      let slot = (h ^ (h >>> 15)) & mask;
      for (;;) {
        if (counter !== undefined) counter.probes++;
        const at = slots[slot]!;
        if (at < 0) {
          if (!add) return -1;
          if (this.count < this.capacity) return (slots[slot] = this.add(h));
          break;
        }
        if (hashes[at] === h && this.names.same(at, item)) return at;
        if (--this.budget < 0) break;
        slot = (slot + 1) & mask;
      }
      this.byKey = new Map();
      for (let o = 0; o < this.count; o++) this.byKey.set(this.names.ownerKey(o), o);
      if (counter !== undefined) counter.probes += this.count;
    }
    if (this.counter !== undefined) this.counter.probes++;
    const key = this.names.itemKey(item);
    let owner = this.byKey.get(key);
    if (owner === undefined) {
      if (!add) return -1;
      owner = this.add(h);
      this.byKey.set(key, owner);
    }
    return owner;
  }

  private add(h: number): number {
    const o = this.count++;
    // Hashes are read only before the move to the Map, which comes before `expected` is passed.
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

/** Owner flags: the owner has a CNAME, the owner has other data. */
const HAS_CNAME = 1;
const HAS_OTHER = 2;

/**
 * The CNAME rule (RFC 1034 §3.6.2, RFC 2181 §10.1): an owner with a CNAME holds no other data,
 * except the types that may stand beside one (`mayStandBesideCname`: NSEC, NSEC3, RRSIG, KEY).
 * Records come in as (owner number, CNAME or not) and the rule answers the clash each one makes:
 * the engine gives it every CNAME first and then the other records, so the first clash is the
 * first other record in file order at a CNAME's owner; an import gives it the file in order, as
 * dnspython reads it. The callers keep which CNAME a clash names and whether two CNAMEs may share
 * an owner (the engine refuses two different ones; in an import the later replaces the earlier).
 * @internal
 */
export class CnameRule {
  private readonly flags: Uint8Array;

  /** `owners`: how many owner numbers at most. */
  constructor(owners: number) {
    this.flags = new Uint8Array(owners);
  }

  /** Whether a record of type code `type` counts as other data beside a CNAME. */
  static counts(type: number): boolean {
    return !mayStandBesideCname(type);
  }

  /**
   * Adds a record at `owner`: a CNAME, or other data (of a type that {@link counts}). Returns the
   * clash it makes: {@link NO_CLASH}, {@link CNAME_AFTER_DATA} or {@link DATA_AFTER_CNAME}.
   */
  add(owner: number, cname: boolean): number {
    const before = this.flags[owner]!;
    this.flags[owner] = before | (cname ? HAS_CNAME : HAS_OTHER);
    if (cname) return (before & HAS_OTHER) !== 0 ? CNAME_AFTER_DATA : NO_CLASH;
    return (before & HAS_CNAME) !== 0 ? DATA_AFTER_CNAME : NO_CLASH;
  }
}
