import { blockBounds, type RecordsetColumns } from './blocks.js';
import { keyedHash, type OwnerKey } from './owner-index.js';
import { TYPE_CODE_BASE } from './recordset.js';
import { COLUMN_MASK, COLUMN_SHIFT, RecordColumns } from '../../zonefile/columns.js';
import { parseIPv6 } from '../../zonefile/codec.js';
import { ORIGIN_NOT_FIRST, parseColumns } from '../../zonefile/parse.js';
import { CNAME_AFTER_DATA, CnameRule, NO_CLASH, OwnerTable, type OwnerKeys, type ProbeCounter } from '../../zonefile/owners.js';
import { typeFromText, typeToText } from '../../zonefile/registry.js';

// The types the real service stores are the recordsets' (both imports and the API write them).
export { DEFAULT_IMPORT_RECORD_TYPES } from './record-types.js';

/**
 * Options of the import commands and task.
 *
 * @category Imports
 */
export interface ZoneImportOptions {
  /**
   * Record types an import may store (upper-case mnemonics). SOA and apex NS are always replaced
   * by the pool's own whatever this says.
   *
   * @defaultValue {@link DEFAULT_IMPORT_RECORD_TYPES}: the real service's 14 types
   */
  readonly recordTypes?: readonly string[];
}

/** Exact outcome messages of the real service (reference §8.4). @internal */
export const IMPORT_MESSAGES = Object.freeze({
  origin: 'The $ORIGIN statement is required and must be the first statement in the zonefile.',
  malformed: 'Malformed zonefile.',
  noSoa: 'An SOA record is required.',
  duplicate: 'Duplicate zone.',
  quota: 'Quota exceeded during zone import.',
  undefinedPrefix: 'An undefined error occurred. ',
});

/** `An undefined error occurred. ` + the first 130 characters of the detail. @internal */
export const undefinedError = (detail: string): string => `${IMPORT_MESSAGES.undefinedPrefix}${detail.slice(0, 130)}`;

/** dnspython's two messages: a CNAME added to a name with other data, and other data added to a CNAME's name. */
const CNAME_CLASH = 'CNAME rdataset is not compatible with a regular data node';
const DATA_CLASH = 'rdataset type is not compatible with a CNAME node';
/** dnspython's message for an SOA inside the zone but off its apex. */
const SOA_OFF_APEX = 'add() has non-origin SOA';

const TYPE_NS = typeFromText('NS');
const TYPE_CNAME = typeFromText('CNAME');
const TYPE_SOA = typeFromText('SOA');
const TYPE_AAAA = typeFromText('AAAA');

/**
 * An AAAA record's address (the parser has checked it) as a key equal for every spelling of it:
 * its eight 16-bit groups as eight UTF-16 code units, with no canonical text written.
 */
const addressOf = (data: string): string => {
  const b = parseIPv6(data, 0, data.length);
  if (b === null) return data;
  const g = new Uint16Array(8);
  for (let k = 0; k < 8; k++) g[k] = (b[2 * k]! << 8) | b[2 * k + 1]!;
  return String.fromCharCode(g[0]!, g[1]!, g[2]!, g[3]!, g[4]!, g[5]!, g[6]!, g[7]!);
};

/** Per type code in `planColumns`: not met yet, and met but refused. */
const UNSEEN = -2;
const REFUSED = -1;

/** Turns a block's type codes into its `typeCodes` string. */
const CODES = new TextDecoder('utf-16le');

/** Records in a recordset from which duplicates are found with a set rather than by a walk. */
const BIG_SET = 32;

/** What a valid import file turns into. @internal */
export interface ImportPlan {
  readonly name: string;
  readonly email: string;
  /** The SOA RR's TTL (0 left to the caller: it means "use min_ttl"). */
  readonly ttl: number;
  readonly serial: number;
  readonly retry: number;
  readonly expire: number;
  /** The recordsets to store, in the order the real service creates them (see `nodeOrder`), cut into blocks. */
  readonly blocks: readonly RecordsetColumns[];
  /**
   * Per recordset, in the blocks' order: the hash of its owner name that the owner table
   * computed (`ownerNameHash` in owner-index.ts), which the owner index reuses.
   */
  readonly ownerHashes: Uint32Array;
  /** The key those hashes were made with (`drawOwnerKey`); the owner index keeps it. */
  readonly ownerKey: OwnerKey;
  readonly recordsetCount: number;
  readonly recordCount: number;
  /** Records in the largest recordset (for the per-recordset quota). */
  readonly largestRecordset: number;
}

/**
 * RNAME → email as the real service converts it (reference §8.3): the name without its final dot
 * (the root stays `.`), then its first dot becomes `@`, even an escaped one. So
 * `first\\.last.example.com.` gives `first\\@last.example.com` and `.` gives `@`, which the email
 * check then refuses, as there.
 */
export function emailFromRname(rname: string): string {
  const text = rname !== '.' && rname.endsWith('.') ? rname.slice(0, -1) : rname;
  return text.replace('.', '@');
}

/**
 * The reader's rules for imports, the real service's (reference §8.3): a record without a TTL takes
 * the SOA minimum once the SOA is read (unless a `$TTL` came first), AAAA data keeps the file's
 * spelling, as dnspython 2.3 stores it (`0:0:0:0:0:0:0:1`, `::FFFF:1.2.3.4`), and the first
 * statement after any `$TTL` must be `$ORIGIN` (reference §8.4).
 * @internal
 */
export const IMPORT_READING = Object.freeze({ soaMinimumDefault: true, aaaaAsWritten: true, originFirst: true });

/**
 * How an import reads its file: the zone's origin and records, or why not: `origin` when the
 * file's first statement is not `$ORIGIN`, `malformed` when it is not a valid zone file.
 * @internal
 */
export type ImportReader = (text: string, maxBytes: number) => { origin: string; columns: RecordColumns } | 'origin' | 'malformed';

/**
 * The import's reader: the parser fills columns, not the record objects of `parseZoneFile`. The
 * import reads each record once, and a million objects kept that long made most of the parse's
 * garbage-collection work. No CNAME rule: the conversion applies its own to the zone's names only
 * and reports it with dnspython's message (reference §8.4); the rules of {@link IMPORT_READING}.
 * @internal
 */
export const readColumns: ImportReader = (text, maxBytes) => {
  const parsed = parseColumns(text, { maxBytes, ...IMPORT_READING });
  if (parsed.isOk()) return parsed.value;
  return parsed.error.message === ORIGIN_NOT_FIRST ? 'origin' : 'malformed';
};

/**
 * The line of record `index` of a file that {@link readColumns} read: the file is read again,
 * keeping lines this time, as only an error message needs one. 0 where there is none.
 * @internal
 */
export function lineOfRecord(text: string, maxBytes: number, index: number): number {
  const again = parseColumns(text, { maxBytes, ...IMPORT_READING }, true, true);
  return again.isOk() ? (again.value.columns.lines?.[index] ?? 0) : 0;
}

/**
 * Parses and converts an import file as the real service does (reference §8.3), with the fixes
 * the issue asks for (case-insensitive owners, a helpful message for a refused type). `read`
 * is only ever changed by the tests.
 * @internal
 */
export function planImport(
  text: string,
  maxBytes: number,
  allowed: ReadonlySet<string>,
  key: OwnerKey,
  read: ImportReader = readColumns,
): { ok: ImportPlan } | { error: string } {
  const parsed = read(text, maxBytes);
  if (parsed === 'origin') return { error: IMPORT_MESSAGES.origin };
  if (parsed === 'malformed') return { error: IMPORT_MESSAGES.malformed };
  return planColumns(parsed.origin, parsed.columns, allowed, key, (index) => lineOfRecord(text, maxBytes, index));
}

/**
 * Owners of an import's records, the first stage of {@link planColumns}: each name inside the zone
 * gets a number from the {@link OwnerTable} (the same for every spelling in any case; the table's
 * own fallback keeps names made to collide linear), names outside get -1. The key is the name in
 * lower case, the hash `keyedHash` of the part before the zone's suffix, which every owner shares.
 */
class ImportOwners implements OwnerKeys {
  /** The owner name of the last look-up in lower case. */
  lower = '';
  private readonly table: OwnerTable;
  /** Per owner: its name in lower case. */
  private readonly keys: string[];
  /** Per owner: its first recordset (-1 before it has one), for the recordset stage. */
  readonly firstSet: Int32Array;
  /**
   * The owners first written otherwise than in lower case, with that spelling: dnspython keeps
   * one node per owner, named as the owner was first written, and the real service names every
   * recordset of the node so. Only those: the others' first spelling is their key (an array of
   * a slot per record would cost the garbage collector a scan of it).
   */
  private readonly mixedCase = new Map<number, string>();
  /** The owner table's hash of the last name looked up (see `ownerNameHash`), for the owner index. */
  hash = 0;
  private readonly key: OwnerKey;
  private readonly lowerOrigin: string;
  private readonly suffix: string;
  // The previous look-up, as written and as found: runs of one owner (the usual layout, and every
  // blank owner) skip the look-up.
  private prevName: string | undefined;
  private prevOwner = -1;

  /** `lowerOrigin`: the zone's name in lower case; `records`: how many look-ups at most; `key`: the hashes'. */
  constructor(lowerOrigin: string, records: number, key: OwnerKey, counter: ProbeCounter | undefined) {
    this.key = key;
    this.lowerOrigin = lowerOrigin;
    this.suffix = lowerOrigin === '.' ? '.' : `.${lowerOrigin}`;
    this.table = new OwnerTable(this, records, false, counter);
    this.keys = new Array<string>(records);
    this.firstSet = new Int32Array(records).fill(-1);
  }

  /** Owner `owner`'s name as first written. */
  spelled(owner: number): string {
    return this.mixedCase.size === 0 ? this.keys[owner]! : (this.mixedCase.get(owner) ?? this.keys[owner]!);
  }

  /** How many owners have been numbered (0 … count - 1, in the order they first occur). */
  get count(): number {
    return this.table.count;
  }

  // The name being looked up is `lower`: the table's items are not needed to name it.
  same(owner: number): boolean {
    return this.keys[owner] === this.lower;
  }

  ownerKey(owner: number): string {
    return this.keys[owner]!;
  }

  itemKey(): string {
    return this.lower;
  }

  /** The owner number of `name` (absolute, as the parser gives it), or -1 outside the zone; sets `lower`. */
  of(name: string): number {
    if (name === this.prevName) return this.prevOwner;
    const { lowerOrigin, suffix } = this;
    let owner = -1;
    let lower = name;
    // A name that ends with the (lower-case) suffix and has no upper-case or non-ASCII character
    // before it is its own lower-case form: the usual case, with no `toLowerCase` copy.
    let inZone = name === lowerOrigin || name.endsWith(suffix);
    let end = name.length - suffix.length;
    for (let i = 0; inZone && i < end; i++) {
      const c = name.charCodeAt(i);
      if (c >= 65 && (c <= 90 || c > 127)) inZone = false;
    }
    if (!inZone) {
      lower = name.toLowerCase();
      inZone = lower === lowerOrigin || lower.endsWith(suffix);
      end = lower.length - suffix.length;
    }
    this.lower = lower;
    if (inZone) {
      const h = keyedHash(lower, end, this.key) | 0;
      const fresh = this.table.count;
      owner = this.table.lookup(0, h, true);
      if (owner === fresh) {
        this.keys[owner] = lower;
        if (lower !== name) this.mixedCase.set(owner, name);
      }
      this.hash = h;
    }
    this.prevName = name;
    this.prevOwner = owner;
    return owner;
  }
}

/**
 * The recordsets of an import, the second stage of {@link planColumns}. Recordsets are numbered in
 * creation order and held in arrays allocated once at their largest size (a million pushes onto
 * growing arrays cost copies and garbage-collector work for every one of them); the records of
 * each one are a chain through `next` (record index to record index), whose data the duplicate
 * check and the blocks read from the rdata column.
 */
class ImportRecordsets {
  count = 0;
  recordCount = 0;
  /** Per recordset: its owner's number (`ImportOwners`); named as the blocks are made. */
  readonly owner: Int32Array;
  /** Per recordset: its type's index into `typeNames`. */
  readonly type: Uint16Array;
  /** Per recordset: its smallest TTL (TTLs are 0 … 2^32 - 1). */
  readonly min: Uint32Array;
  readonly size: Int32Array;
  readonly head: Int32Array;
  private readonly tail: Int32Array;
  /** Per recordset: the next recordset of its owner, or -1 (in creation order). */
  readonly nextOfOwner: Int32Array;
  /**
   * Per recordset: its last record's index, duplicates and replaced CNAMEs included: dnspython
   * replaces a node's rdataset with every record it reads (the rdataset moves to the end of the
   * node), so a node's recordsets are created in the order of their last records.
   */
  readonly lastAt: Int32Array;
  /** Per recordset: its owner's hash (`ImportOwners.hash`). */
  readonly ownerHash: Uint32Array;
  /**
   * Whether creation order (recordset numbers) is already the real service's order (see
   * `nodeOrder`): each owner's recordsets made one after another, owners in the order they
   * first occur, and only an owner's newest recordset given records later. The usual file, where
   * the reordering is then skipped.
   */
  inNodeOrder = true;
  /** The owner of the newest recordset. */
  private lastOwner = -1;
  /** Per record: the next one of its recordset, or -1. */
  readonly next: Int32Array;
  readonly typeNames: string[] = [];
  /** Types seen so far by type code, numbered (or UNSEEN, REFUSED): one look-up per record does the allow-list. */
  private readonly typeIds: Int32Array;
  private readonly big = new Map<number, Set<string>>();
  // Each AAAA record's address in one spelling, read once, and only for records compared with another.
  private addresses: string[] | undefined;

  constructor(
    private readonly columns: RecordColumns,
    private readonly allowed: ReadonlySet<string>,
  ) {
    const total = columns.count;
    this.owner = new Int32Array(total);
    this.type = new Uint16Array(total);
    this.min = new Uint32Array(total);
    this.size = new Int32Array(total);
    this.head = new Int32Array(total);
    this.tail = new Int32Array(total);
    this.nextOfOwner = new Int32Array(total);
    this.lastAt = new Int32Array(total);
    this.ownerHash = new Uint32Array(total);
    this.next = new Int32Array(total).fill(-1);
    // None for an empty file (the idle one of `shapes` holds no quarter megabyte).
    this.typeIds = new Int32Array(total === 0 ? 0 : 65536).fill(UNSEEN);
  }

  dataAt(k: number): string {
    return this.columns.rdata[k >>> COLUMN_SHIFT]![k & COLUMN_MASK]!;
  }

  private addressAt(k: number): string {
    return ((this.addresses ??= new Array<string>(this.columns.count))[k] ??= addressOf(this.dataAt(k)));
  }

  /** The number of type code `type` among the stored types, or REFUSED. */
  typeId(type: number): number {
    let id = this.typeIds[type]!;
    if (id === UNSEEN) {
      const mnemonic = typeToText(type);
      id = this.allowed.has(mnemonic) ? this.typeNames.push(mnemonic) - 1 : REFUSED;
      this.typeIds[type] = id;
    }
    return id;
  }

  /** Adds record `index` (of an allowed type, number `typeId`) to its owner's recordset of that type. */
  add(index: number, owner: number, typeId: number, owners: ImportOwners): void {
    const { columns } = this;
    let set = owners.firstSet[owner]!;
    let last = -1;
    while (set >= 0 && this.type[set] !== typeId) {
      last = set;
      set = this.nextOfOwner[set]!;
    }
    const ttl = columns.ttls[index]!;
    if (set < 0) {
      // Another owner's recordset came between this owner's, or this owner occurred before the
      // owner of the newest recordset: the owners' order is not creation order.
      if (owner !== this.lastOwner && (last >= 0 || owner < this.lastOwner)) this.inNodeOrder = false;
      this.lastOwner = owner;
      set = this.count++;
      this.owner[set] = owner;
      this.lastAt[set] = index;
      this.ownerHash[set] = owners.hash;
      this.type[set] = typeId;
      this.min[set] = ttl;
      this.nextOfOwner[set] = -1;
      if (last < 0) owners.firstSet[owner] = set;
      else this.nextOfOwner[last] = set;
      this.head[set] = index;
      this.tail[set] = index;
      this.size[set] = 1;
      this.recordCount++;
      return;
    }
    if (ttl < this.min[set]!) this.min[set] = ttl;
    // A record for an owner's older recordset moves it after the owner's newer ones.
    if (this.nextOfOwner[set] !== -1) this.inNodeOrder = false;
    this.lastAt[set] = index;
    const type = columns.types[index]!;
    if (type === TYPE_CNAME) {
      // CNAME is a singleton: a later record replaces the earlier one (dnspython).
      this.head[set] = index;
      this.tail[set] = index;
      return;
    }
    if (this.holds(set, index, type === TYPE_AAAA)) return;
    this.next[this.tail[set]!] = index;
    this.tail[set] = index;
    this.size[set] = this.size[set]! + 1;
    this.recordCount++;
  }

  /**
   * Whether recordset `set` holds record `index`'s data already. AAAA data is kept as written, so
   * one address may come in two spellings: dnspython keeps the first (its rdatasets compare wire
   * forms), so AAAA records (`aaaa`) also compare by address.
   */
  private holds(set: number, index: number, aaaa: boolean): boolean {
    const data = this.dataAt(index);
    if (this.size[set]! < BIG_SET) {
      for (let k = this.head[set]!; k >= 0; k = this.next[k]!) {
        if (this.dataAt(k) === data || (aaaa && this.addressAt(k) === this.addressAt(index))) return true;
      }
      return false;
    }
    // A walk of the chain per record would be quadratic in a large recordset (quotas may allow any size).
    const key = aaaa ? (k: number) => this.addressAt(k) : (k: number) => this.dataAt(k);
    let seen = this.big.get(set);
    if (seen === undefined) {
      seen = new Set();
      for (let k = this.head[set]!; k >= 0; k = this.next[k]!) seen.add(key(k));
      this.big.set(set, seen);
    }
    const at = key(index);
    if (seen.has(at)) return true;
    seen.add(at);
    return false;
  }
}

/**
 * The recordsets in the order the real service creates them: dnspython's nodes in the order their
 * owners first occur, and each node's recordsets in the order of their last records (see
 * `ImportRecordsets.lastAt`); null when that is creation order already (`inNodeOrder`).
 * Recordset numbers are in the order each (owner, type) first occurs.
 */
function nodeOrder(sets: ImportRecordsets, owners: ImportOwners): Int32Array | null {
  if (sets.inNodeOrder) return null;
  const order = new Int32Array(sets.count);
  const { lastAt, nextOfOwner } = sets;
  let at = 0;
  for (let owner = 0; owner < owners.count; owner++) {
    const start = at;
    // A node has a handful of recordsets: an insertion sort by last record.
    for (let set = owners.firstSet[owner]!; set >= 0; set = nextOfOwner[set]!) {
      let k = at++;
      while (k > start && lastAt[order[k - 1]!]! > lastAt[set]!) {
        order[k] = order[k - 1]!;
        k--;
      }
      order[k] = set;
    }
  }
  return order;
}

/**
 * The third stage of {@link planColumns}: the recordsets in creation order (see {@link nodeOrder})
 * cut into the storage's blocks, each field in a parallel array; the size of the largest
 * recordset; and each recordset's owner hash, for the owner index.
 */
function recordsetBlocks(sets: ImportRecordsets, owners: ImportOwners): { blocks: RecordsetColumns[]; largest: number; hashes: Uint32Array } {
  const order = nodeOrder(sets, owners);
  let sizes: Int32Array = sets.size;
  if (order !== null) {
    sizes = new Int32Array(sets.count);
    for (let i = 0; i < sets.count; i++) sizes[i] = sets.size[order[i]!]!;
  }
  const bounds = blockBounds(sizes, sets.count);
  const blocks: RecordsetColumns[] = [];
  // Each recordset's owner hash in the blocks' order: the recordsets' own when that is theirs.
  const hashes = order === null ? sets.ownerHash.subarray(0, sets.count) : new Uint32Array(sets.count);
  const localType = new Int32Array(sets.typeNames.length);
  let largest = 0;
  for (let b = 0; b + 1 < bounds.length; b++) {
    const from = bounds[b]!;
    const to = bounds[b + 1]!;
    let size = 0;
    for (let i = from; i < to; i++) size += sizes[i]!;
    const names = new Array<string>(to - from);
    // The block's types as `packTypes` makes them, from the import's type numbers (no string compared).
    const typeNames: string[] = [];
    localType.fill(-1);
    const codes = new Uint16Array(to - from);
    const ttls = new Array<number | null>(to - from);
    const ends = new Array<number>(to - from);
    const data = new Array<string>(size);
    let at = 0;
    for (let i = from; i < to; i++) {
      const j = i - from;
      const set = order === null ? i : order[i]!;
      // Recordsets of one owner share their name's string (the owner's first spelling).
      names[j] = owners.spelled(sets.owner[set]!);
      if (order !== null) hashes[i] = sets.ownerHash[set]!;
      const t = sets.type[set]!;
      if (localType[t] === -1) localType[t] = typeNames.push(sets.typeNames[t]!) - 1;
      codes[j] = TYPE_CODE_BASE + localType[t]!;
      const min = sets.min[set]!;
      ttls[j] = min === 0 ? null : min;
      for (let k = sets.head[set]!; k >= 0; k = sets.next[k]!) data[at++] = sets.dataAt(k);
      ends[j] = at;
      if (sizes[i]! > largest) largest = sizes[i]!;
    }
    blocks.push({ names, typeNames, typeCodes: CODES.decode(codes), ttls, ends, data });
  }
  return { blocks, largest, hashes };
}

/**
 * The first two stages of {@link planColumns}, a record at a time: its owner, the import's rules,
 * its recordset. One call per record rather than one loop: V8 optimises a small function called
 * often while a small import runs, where a loop of a million records in one function is compiled
 * on the stack (OSR) in the middle of the large one, running unoptimised meanwhile (the whole
 * stage inlined took 100 ms to compile, on a second core the process also pays for).
 */
class ImportPass {
  /**
   * An idle pass with its stages, held for the life of the process: optimised code holds the
   * maps of its objects weakly, and once no pass is alive a full collection frees them and
   * throws that code away (see the parser's `Reader.shapes`). Never read.
   */
  static readonly shapes: readonly object[] = [new ImportPass('.', new RecordColumns(), new Set(), [0, 0], undefined)];

  readonly owners: ImportOwners;
  readonly sets: ImportRecordsets;
  private readonly cnames: CnameRule;
  /** The last SOA at the apex: dnspython's SOA is a singleton, each one replaces the one before. */
  soa = -1;
  /** The smallest SOA TTL, as dnspython's rdataset keeps it. */
  soaTtl = 0;
  /** The first record of a type the service does not store. */
  refused = -1;

  constructor(
    private readonly lowerOrigin: string,
    private readonly columns: RecordColumns,
    allowed: ReadonlySet<string>,
    key: OwnerKey,
    counter: ProbeCounter | undefined,
  ) {
    this.owners = new ImportOwners(lowerOrigin, columns.count, key, counter);
    this.cnames = new CnameRule(columns.count);
    this.sets = new ImportRecordsets(columns, allowed);
  }

  /** Takes record `index`: the import's error message, or null. */
  take(index: number): string | null {
    const { columns, owners, lowerOrigin } = this;
    const name = columns.owners[index >>> COLUMN_SHIFT]![index & COLUMN_MASK]!;
    const owner = owners.of(name);
    if (owner < 0) return null;
    const lower = owners.lower;
    const type = columns.types[index]!;
    // dnspython refuses an SOA off the apex as it adds the record: before the CNAME rule looks at it.
    if (type === TYPE_SOA && lower !== lowerOrigin) return undefinedError(SOA_OFF_APEX);
    const typeId = this.sets.typeId(type);
    // The CNAME rule (RFC 1034 §3.6.2), which dnspython applies while it reads the file: so it
    // comes before a refused type's error, and counts refused types, except those that may stand
    // beside a CNAME (only which error is reported depends on them). A CNAME after a CNAME
    // replaces it (dnspython), so the rule's two-CNAMEs answer is not asked for here. Names
    // outside the zone are dropped unread, as dnspython drops them. The apex is no exception: a
    // CNAME there clashes with the SOA, whichever comes first, and without an SOA the file has none.
    if (typeId >= 0 || CnameRule.counts(type)) {
      const clash = this.cnames.add(owner, type === TYPE_CNAME);
      if (clash !== NO_CLASH) return undefinedError(clash === CNAME_AFTER_DATA ? CNAME_CLASH : DATA_CLASH);
    }
    if (type === TYPE_SOA) {
      const ttl = columns.ttls[index]!;
      this.soaTtl = this.soa < 0 ? ttl : Math.min(this.soaTtl, ttl);
      this.soa = index;
      return null;
    }
    if (typeId < 0) {
      if (this.refused < 0) this.refused = index;
      return null;
    }
    if (type === TYPE_NS && lower === lowerOrigin) return null;
    this.sets.add(index, owner, typeId, owners);
    return null;
  }
}

/**
 * The conversion of a parsed import file: each record's owner (the owner stage), the import's rules
 * and the recordsets (the recordset stage), then the storage's blocks (the block stage). `origin`
 * is the zone's; `key` the owner hashes' (`drawOwnerKey`); `lineOf` gives a record's line, for error messages; `counter` counts the owner
 * table's probes (for tests).
 * @internal
 */
export function planColumns(
  origin: string,
  columns: RecordColumns,
  allowed: ReadonlySet<string>,
  key: OwnerKey,
  lineOf: (index: number) => number,
  counter?: ProbeCounter,
): { ok: ImportPlan } | { error: string } {
  const pass = new ImportPass(origin.toLowerCase(), columns, allowed, key, counter);
  for (let index = 0; index < columns.count; index++) {
    const error = pass.take(index);
    if (error !== null) return { error };
  }
  const { owners, sets, soa, soaTtl, refused } = pass;
  const { types } = columns;
  if (refused >= 0) {
    const line = lineOf(refused);
    return { error: `Record type ${typeToText(types[refused]!)}${line > 0 ? ` on line ${line}` : ''} is not supported by this service.` };
  }
  if (soa < 0) return { error: IMPORT_MESSAGES.noSoa };
  const fields = sets.dataAt(soa).split(' ');
  const rname = fields[1] ?? '';
  const { blocks, largest, hashes } = recordsetBlocks(sets, owners);
  return {
    ok: {
      name: origin,
      email: emailFromRname(rname),
      ttl: soaTtl,
      serial: Number(fields[2]),
      retry: Number(fields[4]),
      expire: Number(fields[5]),
      blocks,
      ownerHashes: hashes,
      ownerKey: key,
      recordsetCount: sets.count,
      recordCount: sets.recordCount,
      largestRecordset: largest,
    },
  };
}
