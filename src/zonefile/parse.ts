/** The master-file reader: directives, owners, TTL/class/type fields, then the type's rdata reader. */
import { err, ok, type Result } from 'neverthrow';
import { EOF, EOL, Lexer, QUOTED, WORD, ZoneSyntaxError } from './lexer.js';
import { MAX_TTL, READERS, clampTtl, genericText, isMetaType, readGeneric, ttlValue, type RdataOut } from './rdata.js';
import { prefixedNumber, typeFromText, typeOfPackedKey, typeToText } from './registry.js';
import { BLANK, LineScanner, NOT_HANDLED, SLICE_MIN } from './lines.js';
import { lazyType, ParsedRecord } from './record.js';
import { RecordColumns } from './columns.js';
import type { ParsedZone, ParseZoneFileOptions, ZoneFileError, ZoneRecord } from './types.js';
import { checkGeneric, decodeWire } from './wire.js';
import { CnameRule, NO_CLASH, OwnerTable, type ProbeCounter } from './owners.js';

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_GENERATED = 65536;
const SOA = 6;
const CNAME = 5;
const DNAME = 39;
/** Records per chunk: the largest array whose elements (8 bytes each) stay out of the large-object space (128 KiB). */
const CHUNK = 16000;

/**
 * The reader's options: the public ones, and one rule only imports use.
 * @internal
 */
export interface ReaderOptions extends ParseZoneFileOptions {
  /**
   * dnspython's TTL rule, which the real service's importer follows (reference §8.3): once the
   * first SOA is read, its minimum is the TTL of every later record that states none, unless a
   * `$TTL` came first. The engine's own rule (RFC 1035 §5.1, BIND, and the conformance corpus)
   * gives such records the last stated TTL instead.
   */
  readonly soaMinimumDefault?: boolean;
  /**
   * AAAA data as the file writes it (checked, not rewritten), as the real service's dnspython 2.3
   * stores it: `0:0:0:0:0:0:0:1` and `::1` stay two spellings of one address. The engine's own
   * form is the canonical one (RFC 5952, later dnspython, the conformance corpus).
   */
  readonly aaaaAsWritten?: boolean;
  /**
   * Whether the zone rules that dnspython does not apply are checked: one SOA, at the apex
   * (RFC 1035 §5.2), and one DNAME per owner (RFC 6672 §2.4). Imports read with `false`: the
   * real service's dnspython keeps the last SOA or DNAME, and the import refuses an SOA off the
   * apex with dnspython's own message.
   */
  readonly singletonRules?: boolean;
  /**
   * The real service's importer learns the zone's name only from a `$ORIGIN` before the first
   * record (reference §8.4): with this set, the read stops with {@link ORIGIN_NOT_FIRST} at the
   * first statement other than `$TTL` unless it is `$ORIGIN` (and at the end when there is none).
   * A byte-order mark makes the first token something else, as for dnspython.
   */
  readonly originFirst?: boolean;
  /** Counts the CNAME rule's probes of its owner table (tests state bounds on it). */
  readonly probeCounter?: ProbeCounter;
}

/**
 * The message of the error that {@link ReaderOptions.originFirst} makes.
 * @internal
 */
export const ORIGIN_NOT_FIRST = 'the first statement (after any $TTL lines) must be $ORIGIN, which names the zone';

class Reader implements RdataOut {
  /**
   * An idle reader with its lexer, columns and line scanners, held for the life of the process.
   * Optimised code holds the hidden classes (maps) of the objects it was made for weakly: once no
   * reader, lexer or scanner is alive, a full collection frees those maps and throws away the
   * code that V8 optimised for them, so the next import runs unoptimised again, recompiling
   * everything. One object of each keeps them (a 100k import in a fresh process, after a small
   * one and a full collection: 10–15 % less CPU, docs/benchmarks.md). Never read.
   */
  static readonly shapes: readonly object[] = [new Reader(new Lexer(' '), {}, new RecordColumns()), new LineScanner(' ', true, true), new LineScanner(' ')];

  lx: Lexer;
  readonly aaaaAsWritten: boolean;
  origin: string | null = null;
  rdata = '';
  data: unknown = undefined;
  str = '';
  strOctets = 0;
  type = 0;
  fromWire = false;
  /** Records in chunks (see `add`); `records()` joins them. */
  private chunk: ZoneRecord[] = [];
  private readonly chunks: ZoneRecord[][] = [];
  private count = 0;
  firstOrigin: string | null = null;
  firstTtl: number | null = null;
  firstSoaOwner: string | null = null;
  private dollarTtl: number | null = null;
  private lastTtl: number | null = null;
  private lastOwner: string | null = null;
  private generated = 0;
  private generating = false;
  /** The column of the `$GENERATE` being expanded: its records' rules report it. */
  private genCol = 1;
  /** Per SOA or DNAME record (few in any zone): its index, line, owner column and type column. */
  private readonly singletons: number[] = [];
  private soaTtl: number | null = null;
  private readonly structured: boolean;
  /** Whether {@link ReaderOptions.originFirst} still waits for the first statement other than `$TTL`. */
  private awaitingOrigin: boolean;

  /**
   * `columns`: append every record there instead of building record objects (the import's mode;
   * no CNAME rule then, so no owner hashes either).
   */
  constructor(
    lx: Lexer,
    private readonly options: ReaderOptions,
    private readonly columns: RecordColumns | null = null,
  ) {
    this.lx = lx;
    this.structured = options.structured === true;
    this.aaaaAsWritten = options.aaaaAsWritten === true;
    this.awaitingOrigin = options.originFirst === true;
    if (options.defaultTtl !== undefined) {
      this.dollarTtl = options.defaultTtl;
      this.firstTtl = options.defaultTtl;
    }
  }

  /** The byte-level reader (lines.ts), or null: every line is read by the lexer and the full readers. */
  private lines: LineScanner | null = null;

  /** `lines`: the byte-level reader of simple lines and data (lines.ts), or null to read every line with the lexer. */
  run(lines: LineScanner | null): void {
    this.lines = lines;
    const lx = this.lx;
    for (;;) {
      if (lines !== null && !this.awaitingOrigin && lx.atLineStart() && this.simpleLine(lines)) continue;
      const indented = lx.atIndentedLine();
      const k = lx.next();
      if (k === EOF) {
        if (this.awaitingOrigin) lx.failAt(1, 1, ORIGIN_NOT_FIRST);
        return;
      }
      if (k === EOL) continue;
      const directive = !indented && k === WORD && lx.s.charCodeAt(lx.start) === 36; /* $ */
      if (this.awaitingOrigin && !(directive && lx.is('$TTL'))) {
        if (!(directive && lx.is('$ORIGIN'))) lx.fail(ORIGIN_NOT_FIRST);
        this.awaitingOrigin = false;
      }
      if (directive) this.directive();
      else this.record(indented);
    }
  }

  /**
   * Lets lines.ts read the line at the scanner's position; false (nothing changed) where it cannot,
   * and the lexer reads the line instead. What follows mirrors `record` for the fast readers' types.
   */
  private simpleLine(lines: LineScanner): boolean {
    const lx = this.lx;
    const origin = this.origin;
    const reuse = this.lastOwner !== null && this.prevOwnerLexer === lx && this.prevOwnerOrigin === origin ? this.lastOwner : null;
    const got = lines.line(lx.pos, origin, reuse, this.prevOwnerStart, this.prevOwnerEnd, this.lastOwner);
    if (got === NOT_HANDLED) return false;
    if (got === BLANK) {
      lx.skipLine(lines.next);
      return true;
    }
    let ttl = lines.ttl;
    if (ttl < 0) {
      ttl = this.dollarTtl ?? this.lastTtl ?? this.soaTtl ?? -1;
      // No TTL applies: the lexer's path reports it.
      if (ttl < 0) return false;
    } else {
      this.lastTtl = ttl;
    }
    const line = lx.line;
    lx.skipLine(lines.next);
    const owner = lines.owner;
    if (lines.fresh) {
      this.ownerHash = lines.ownerHash;
      this.prevOwnerLexer = lx;
      this.prevOwnerOrigin = origin;
      this.prevOwnerStart = lines.ownerStart;
      this.prevOwnerEnd = lines.ownerEnd;
    }
    this.lastOwner = owner;
    const type = lines.type;
    if (this.columns !== null) this.columns.push(owner, ttl, type, lines.rdata, line);
    else this.add(new ParsedRecord(owner, ttl, fastTypeText(type), lines.rdata), type, line);
    return true;
  }

  /** The data of a record whose fields the lexer read, by the byte-level reader up to the end of its line; null where it cannot. */
  private simpleData(lines: LineScanner, type: number): string | null {
    const lx = this.lx;
    const rdata = lines.data(lx.pos, type, this.origin);
    if (rdata !== null) lx.skipLine(lines.next);
    return rdata;
  }

  /**
   * Appends a record with the owner hash of the last owner read. Records go into arrays of
   * {@link CHUNK}, joined once at the end: one growing array of a million records leaves about
   * 16 MB of outgrown copies in the large-object space, which only a full collection frees.
   */
  private add(rec: ZoneRecord, type: number, line: number): void {
    let chunk = this.chunk;
    if (chunk.length === CHUNK) {
      this.chunks.push(chunk);
      chunk = this.chunk = [];
    }
    chunk.push(rec);
    const at = this.count++;
    if (at === this.ownerHashes.length) {
      const grown = new Int32Array(at * 2);
      grown.set(this.ownerHashes);
      this.ownerHashes = grown;
    }
    this.ownerHashes[at] = this.ownerHash;
    if (type === CNAME) this.cnames.push(at, line);
  }

  /** Every record read, in file order (call once, at the end). */
  records(): ZoneRecord[] {
    const chunks = this.chunks;
    if (chunks.length === 0) return this.chunk;
    chunks.push(this.chunk);
    return ([] as ZoneRecord[]).concat(...chunks);
  }

  private directive(): void {
    const lx = this.lx;
    const line = lx.tLine;
    const col = lx.tCol;
    if (lx.is('$ORIGIN')) {
      if (lx.next() !== WORD) lx.fail('$ORIGIN needs a domain name, e.g. $ORIGIN example.com.');
      this.origin = lx.name(this.origin, '$ORIGIN name');
      // Owners and names relative to it are built from it: kept by the columns.
      if (this.columns !== null) this.origin = owned(this.origin);
      this.firstOrigin ??= this.origin;
      this.lastOwner ??= null;
    } else if (lx.is('$TTL')) {
      if (lx.next() !== WORD) lx.fail('$TTL needs a TTL, e.g. $TTL 3600 or $TTL 1h');
      const v = ttlValue(lx.s, lx.start, lx.end);
      if (v === -1) lx.fail(`$TTL value ${lx.describe()} is not a TTL: use seconds or a duration like 1h30m`);
      if (v === -2) lx.fail(`$TTL value ${lx.describe()} is larger than 4294967295 (2^32 - 1)`);
      this.dollarTtl = v;
      this.firstTtl ??= v;
    } else if (lx.is('$INCLUDE')) {
      lx.failAt(line, col, '$INCLUDE is not supported: paste the included file into this one (no file is ever read)');
    } else if (lx.is('$GENERATE')) {
      if (this.options.allowGenerate === false) lx.failAt(line, col, '$GENERATE is disabled (options.allowGenerate is false): expand the records in the file');
      this.generate(line, col);
      return;
    } else {
      lx.fail(`unknown directive ${lx.describe()}: expected $ORIGIN, $TTL, $GENERATE or a record`);
    }
    this.endOfLine('directive');
  }

  private endOfLine(what: string): void {
    const k = this.lx.next();
    if (k !== EOL && k !== EOF) this.lx.fail(`unexpected ${this.lx.describe()} after the ${what}: check for a missing ';' before a comment or a missing quote`);
  }

  /** One record; the lexer holds its first token (the owner, or the first field when `indented`). */
  record(indented: boolean): void {
    const lx = this.lx;
    const ownerCol = lx.tCol;
    let owner: string;
    if (indented) {
      if (this.lastOwner === null) return lx.fail('this record has no owner name and there is no previous record to take it from: start the line with a name or @');
      owner = this.lastOwner;
    } else {
      if (lx.kind === QUOTED) lx.fail('an owner name cannot be a quoted string');
      const a = lx.start;
      const len = lx.end - a;
      const p = this.prevOwnerStart;
      if (this.lastOwner !== null && this.prevOwnerLexer === lx && this.prevOwnerOrigin === this.origin && len === this.prevOwnerEnd - p && sameText(lx.s, a, p, len)) {
        // The same owner written again (common in generated zones): same name, same hash.
        owner = this.lastOwner;
      } else {
        owner = lx.name(this.origin, 'owner name');
        if (this.columns !== null) owner = owned(owner);
        this.ownerHash = lx.nameHash;
        this.prevOwnerLexer = lx;
        this.prevOwnerOrigin = this.origin;
        this.prevOwnerStart = a;
        this.prevOwnerEnd = lx.end;
      }
      lx.next();
    }
    this.lastOwner = owner;
    let ttl = -1;
    let klass = false;
    let common = -1;
    for (;;) {
      if (lx.kind !== WORD) lx.fail(lx.kind === QUOTED ? `expected a TTL, class or type, found ${lx.describe()}` : 'missing record type after the owner name');
      const c = lx.s.charCodeAt(lx.start);
      if (ttl < 0 && c >= 48 && c <= 57) {
        const v = ttlValue(lx.s, lx.start, lx.end);
        if (v === -2) lx.fail(`TTL ${lx.describe()} is larger than 4294967295 (2^32 - 1)`);
        if (v === -1) lx.fail(`TTL ${lx.describe()} is not a TTL: use seconds or a duration like 1h30m`);
        ttl = v;
        lx.next();
        continue;
      }
      if (!klass && isIn(lx)) {
        klass = true;
        lx.next();
        continue;
      }
      common = commonType(lx);
      if (common < 0 && !klass && isOtherClass(lx)) lx.fail(`class ${lx.describe()} is not supported: zone data must be class IN`);
      break;
    }
    let type = common;
    if (type < 0) {
      type = typeFromText(lx.text().toUpperCase());
      if (type < 0) lx.fail(`unknown record type ${lx.describe()}: use a type mnemonic such as A or TXT, or TYPE<n> with RFC 3597 data`);
      if (isMetaType(type)) lx.fail(`type ${lx.describe()} is a query or meta type and cannot appear in a zone`);
    }
    const typeLine = lx.tLine;
    const typeCol = lx.tCol;
    // Common types in simple form on the rest of this line: canonical text sliced from the input by
    // the byte-level reader's own data readers, no structured data yet.
    const fast = this.lines !== null && !this.generating && lx.depth === 0 ? this.simpleData(this.lines, type) : null;
    const reader = fast === null ? READERS.get(type) : undefined;
    this.type = type;
    const k = fast === null ? lx.next() : EOL;
    const generic = k === WORD && lx.end - lx.start === 2 && lx.s.charCodeAt(lx.start) === 92 && lx.s.charCodeAt(lx.start + 1) === 35;
    if (fast !== null) {
      this.rdata = fast;
    } else if (generic) {
      const bytes = readGeneric(this);
      if (reader) decodeWire(this, type, bytes, reader);
      else {
        checkGeneric(this, type, bytes);
        this.rdata = genericText(bytes);
        this.data = undefined;
      }
    } else {
      lx.unget();
      if (!reader) return lx.fail(`type ${typeToText(type)} has no presentation form here: write its data as RFC 3597 \\# <length> <hex>`);
      reader(this);
    }
    if (fast === null) this.endOfLine('record data');
    if (ttl >= 0) {
      this.lastTtl = ttl;
    } else {
      // $TTL first, then the last stated TTL (RFC 1035 §5.1, BIND, the conformance corpus), then
      // the SOA minimum; inside $GENERATE the SOA minimum comes before the last stated TTL, as in
      // dnspython. Imports add dnspython's own rule (`soaMinimumDefault`) by setting the $TTL.
      ttl = this.dollarTtl ?? (this.generating ? this.soaTtl ?? this.lastTtl : this.lastTtl ?? this.soaTtl) ?? -1;
      if (ttl < 0 && type === SOA) ttl = clampTtl((this.data as { minimum: number }).minimum);
      if (ttl < 0) lx.failAt(typeLine, typeCol, 'this record has no TTL and none applies: add a $TTL line at the top or give the record a TTL');
    }
    if (type === SOA) {
      // Without $TTL, the first SOA's minimum is the TTL of records that follow no stated TTL.
      this.soaTtl ??= clampTtl((this.data as { minimum: number }).minimum);
      if (this.options.soaMinimumDefault === true) this.dollarTtl ??= this.soaTtl;
      this.firstSoaOwner ??= owner;
    }
    if ((type === SOA || type === DNAME) && this.columns === null) this.singletons.push(this.count, typeLine, this.generating ? this.genCol : ownerCol, this.generating ? this.genCol : typeCol);
    // The lexer's strings may be slices of the file: the columns keep copies (see `LineScanner.own`).
    if (this.columns !== null) return this.columns.push(owner, ttl, type, fast ?? owned(this.rdata), typeLine);
    let rec: ZoneRecord;
    if (fast !== null) {
      rec = new ParsedRecord(owner, ttl, fastTypeText(type), fast);
    } else if (this.data === undefined) {
      // RFC 3597 data of an unknown type: no `data` at all, not even an accessor.
      rec = { name: owner, ttl, class: 'IN', type: typeToText(type), rdata: this.rdata };
    } else if (this.structured) {
      rec = { name: owner, ttl, class: 'IN', type: typeToText(type), rdata: this.rdata, data: this.data };
    } else if (!generic && lazyType(type)) {
      rec = new ParsedRecord(owner, ttl, typeToText(type), this.rdata);
    } else {
      rec = ParsedRecord.withData(owner, ttl, typeToText(type), this.rdata, this.data);
    }
    this.add(rec, type, typeLine);
  }

  /** Index and line of every CNAME record, so the CNAME rule costs nothing in zones without any. */
  readonly cnames: number[] = [];
  /** Case-insensitive owner hashes, parallel to `records`: the CNAME rule compares numbers, not strings. */
  private ownerHashes = new Int32Array(1024);
  private ownerHash = 0;
  /** Where the last owner read by name() was written, to reuse it when the next line repeats it. */
  private prevOwnerLexer: Lexer | null = null;
  private prevOwnerOrigin: string | null = null;
  private prevOwnerStart = 0;
  private prevOwnerEnd = 0;

  /**
   * RFC 1035 §5.2: one SOA, at the apex; RFC 6672 §2.4: one DNAME per owner. Identical copies
   * are one record (RFC 2181 §5) and pass, as BIND, Knot and NSD let them. Names outside the zone
   * are not the zone's data (BIND ignores them; the caller decides what to do with them) and are
   * left alone. The first offending record in file order is reported: an SOA at its owner, a
   * second SOA or DNAME at its type.
   */
  checkSingletons(records: readonly ZoneRecord[], apex: string): void {
    const s = this.singletons;
    if (s.length === 0) return;
    const lowerApex = apex.toLowerCase();
    let soa: ZoneRecord | null = null;
    let soaLine = 0;
    let dnames: Map<string, { record: ZoneRecord; line: number }> | null = null;
    for (let k = 0; k < s.length; k += 4) {
      const r = records[s[k]!]!;
      const line = s[k + 1]!;
      const lower = r.name.toLowerCase();
      if (!inZone(lower, lowerApex)) continue;
      if (r.type === 'SOA') {
        if (lower !== lowerApex) {
          this.lx.failAt(line, s[k + 2]!, `an SOA record must be at the zone apex ${apex}, not at ${r.name} (RFC 1035 §5.2): check the owner name and any $ORIGIN before it`);
        }
        if (soa === null) {
          soa = r;
          soaLine = line;
        } else if (!sameData(soa, r)) {
          this.lx.failAt(line, s[k + 3]!, `a zone has one SOA record, and line ${soaLine} already gave a different one (RFC 1035 §5.2): keep one of them`);
        }
      } else {
        const first = (dnames ??= new Map<string, { record: ZoneRecord; line: number }>()).get(lower);
        if (first === undefined) dnames.set(lower, { record: r, line });
        else if (!sameData(first.record, r)) {
          this.lx.failAt(line, s[k + 3]!, `${r.name} already has a different DNAME (line ${first.line}): a name holds at most one DNAME (RFC 6672 §2.4); keep one of them`);
        }
      }
    }
  }

  /**
   * RFC 1034 §3.6.2 (and RFC 2181 §10.1): a CNAME owner holds no other data, and no second,
   * different CNAME (identical copies are one record) inside the zone at `apex` (outside it,
   * as {@link checkSingletons} explains). Checked once at the end, by the {@link CnameRule}: every
   * CNAME first (two different ones at an owner are reported at the later one), then the other
   * records in file order, so the first other record at a CNAME's owner is reported, at the
   * line of that owner's last CNAME. Only the CNAMEs' owners go into the {@link OwnerTable}; every
   * record is looked up by its owner's hash (read by the lexer), and names are compared only
   * where hashes agree: the owners' strings are not touched otherwise.
   */
  checkCnames(records: readonly ZoneRecord[], apex: string): void {
    const cnames = this.cnames;
    if (cnames.length === 0) return;
    const hashes = this.ownerHashes;
    const count = cnames.length / 2;
    // Items are record indexes; names are read only where hashes agree (or under a flood).
    const lower = (i: number): string => records[i]!.name.toLowerCase();
    // Per CNAME owner: its first CNAME's record (which names it) and its last CNAME (numbered in `cnames`).
    const first = new Int32Array(count);
    const last = new Int32Array(count);
    const names = { same: (o: number, i: number): boolean => lower(first[o]!) === lower(i), ownerKey: (o: number): string => lower(first[o]!), itemKey: lower };
    const table = new OwnerTable(names, count, true, this.options.probeCounter);
    const rule = new CnameRule(count);
    const lowerApex = apex.toLowerCase();
    for (let j = 0; j < count; j++) {
      const at = cnames[2 * j]!;
      const owners = table.count;
      const owner = table.lookup(at, hashes[at]!, true);
      rule.add(owner, true);
      if (owner === owners) first[owner] = at;
      else {
        const k = last[owner]!;
        if (!sameData(records[cnames[2 * k]!]!, records[at]!) && inZone(lower(at), lowerApex)) this.cnameTwice(records[at]!, cnames[2 * j + 1]!, cnames[2 * k + 1]!);
      }
      last[owner] = j;
    }
    let c = 0;
    let next = cnames[0]!;
    for (let i = 0; i < records.length; i++) {
      if (i === next) {
        c += 2;
        next = c < cnames.length ? cnames[c]! : -1;
        continue;
      }
      if (!table.mayHold(hashes[i]!)) continue;
      const owner = table.lookup(i, hashes[i]!, false);
      const r = records[i]!;
      if (owner >= 0 && CnameRule.counts(typeFromText(r.type)) && rule.add(owner, false) !== NO_CLASH) this.cnameClash(r, cnames[2 * last[owner]! + 1]!);
    }
  }

  /** Fails at the later CNAME's line: `r` is a second, different CNAME at its owner. */
  private cnameTwice(r: ZoneRecord, line: number, firstLine: number): never {
    return this.lx.failAt(line, 1, `${r.name} already has a different CNAME (line ${firstLine}): a name holds at most one CNAME (RFC 2181 §10.1); keep one of them`);
  }

  /** Fails at the CNAME's line: `r` stands beside it. */
  private cnameClash(r: ZoneRecord, line: number): never {
    return this.lx.failAt(line, 1, `${r.name} has a CNAME (line ${line}) and other data (${r.type}): a name with a CNAME can hold nothing else (RFC 1034 §3.6.2); move the other records or drop the CNAME`);
  }

  private generate(line: number, col: number): void {
    const lx = this.lx;
    if (lx.next() !== WORD) lx.fail('$GENERATE needs a range, e.g. $GENERATE 1-10 host$ A 192.0.2.$');
    const range = lx.text();
    const m = /^(\d{1,10})-(\d{1,10})(?:\/(\d{1,10}))?$/.exec(range);
    if (!m) return lx.fail(`$GENERATE range ${lx.describe()} must be start-stop or start-stop/step`);
    const start = Number(m[1]);
    const stop = Number(m[2]);
    const step = m[3] === undefined ? 1 : Number(m[3]);
    if (start > stop || step === 0) lx.fail(`$GENERATE range ${lx.describe()} must have start ≤ stop and a step of at least 1`);
    if (lx.next() !== WORD) lx.fail('$GENERATE needs an owner template after the range');
    const lhs = lx.text();
    const middle: string[] = [];
    for (;;) {
      if (lx.next() !== WORD) lx.fail('$GENERATE needs a record type and a data template');
      middle.push(lx.text());
      if (typeFromText(lx.text().toUpperCase()) >= 0 && !(lx.is('IN') || lx.is('CLASS1'))) break;
    }
    let rhs = '';
    for (;;) {
      const k = lx.next();
      if (k === EOL || k === EOF) break;
      rhs += (rhs ? ' ' : '') + (k === QUOTED ? '"' + lx.text() + '"' : lx.text());
    }
    if (rhs === '') lx.failAt(line, col, '$GENERATE needs a data template after the type');
    const count = Math.floor((stop - start) / step) + 1;
    const max = this.options.maxGeneratedRecords ?? DEFAULT_MAX_GENERATED;
    this.generated += count;
    if (this.generated > max) lx.failAt(line, col, `$GENERATE would produce ${this.generated} records in all, more than maxGeneratedRecords (${max})`);
    const outer = this.lx;
    this.generating = true;
    this.genCol = col;
    try {
      for (let i = start; i <= stop; i += step) {
        const text = `${substitute(outer, lhs, i)} ${middle.join(' ')} ${substitute(outer, rhs, i)}`;
        this.lx = new Lexer(text, line);
        this.lx.next();
        this.record(false);
      }
    } catch (e) {
      if (e instanceof ZoneSyntaxError) throw new ZoneSyntaxError(line, col, `in $GENERATE: ${e.message}`);
      throw e;
    } finally {
      this.lx = outer;
      this.generating = false;
    }
  }
}

/** Whether `lower` is `apex` or below it (both in lower case). */
function inZone(lower: string, apex: string): boolean {
  return apex === '.' || lower === apex || (lower.endsWith(apex) && lower.charCodeAt(lower.length - apex.length - 1) === 46);
}

/** Whether two records of one type hold the same data: their names compare without case (RFC 4343). */
function sameData(a: ZoneRecord, b: ZoneRecord): boolean {
  return a.rdata === b.rdata || a.rdata.toLowerCase() === b.rdata.toLowerCase();
}

function isOtherClass(lx: Lexer): boolean {
  const c = lx.s.charCodeAt(lx.start) | 32;
  if (c !== 99 && c !== 104 && c !== 110 && c !== 97) return false;
  return lx.is('CH') || lx.is('HS') || lx.is('CHAOS') || lx.is('HESIOD') || lx.is('NONE') || lx.is('ANY') || prefixedNumber(lx.text().toUpperCase(), 'CLASS') >= 0;
}

/** The mnemonic of a type that has a fast reader, without a map lookup. */
function fastTypeText(type: number): string {
  switch (type) {
    case 1:
      return 'A';
    case 2:
      return 'NS';
    case 5:
      return 'CNAME';
    case 12:
      return 'PTR';
    case 15:
      return 'MX';
    case 16:
      return 'TXT';
    case 28:
      return 'AAAA';
    case 33:
      return 'SRV';
    case 43:
      return 'DS';
    case 99:
      return 'SPF';
    case 257:
      return 'CAA';
    default:
      return typeToText(type);
  }
}

/** Whether s[a, a+len) and s[b, b+len) hold the same characters. */
function sameText(s: string, a: number, b: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (s.charCodeAt(a + k) !== s.charCodeAt(b + k)) return false;
  return true;
}

/** Whether the current token is the class IN (or CLASS1), in any case. */
function isIn(lx: Lexer): boolean {
  const len = lx.end - lx.start;
  if (len === 2) return (lx.s.charCodeAt(lx.start) | 32) === 105 && (lx.s.charCodeAt(lx.start + 1) | 32) === 110;
  return len === 6 && lx.is('CLASS1');
}

/**
 * The commonest types (none of them also a class name), else -1. Up to five letters are packed
 * into one number (5 bits each, case folded) so that one switch decides: this runs once per record.
 */
function commonType(lx: Lexer): number {
  const s = lx.s;
  const start = lx.start;
  const len = lx.end - start;
  if (len > 5) return -1;
  let key = 0;
  for (let i = start; i < start + len; i++) {
    const c = s.charCodeAt(i) | 32;
    if (c < 97 || c > 122) return -1;
    key = (key << 5) | (c - 96);
  }
  return typeOfPackedKey(key);
}

/** BIND's `$GENERATE` substitution: `$`, `${offset,width,base}`, `\$` for a literal dollar. */
function substitute(lx: Lexer, template: string, i: number): string {
  let out = '';
  for (let k = 0; k < template.length; k++) {
    const c = template[k]!;
    if (c === '\\' && template[k + 1] === '$') {
      out += '\\$';
      k++;
    } else if (c === '$') {
      if (template[k + 1] === '{') {
        const close = template.indexOf('}', k);
        if (close < 0) lx.fail('$GENERATE modifier ${...} is not closed');
        const [offText = '0', widthText = '0', base = 'd'] = template.slice(k + 2, close).split(',');
        const offset = Number(offText);
        const width = Number(widthText);
        if (!Number.isInteger(offset) || !Number.isInteger(width) || width < 0 || width > 255 || !'doxXnN'.includes(base) || base.length !== 1) {
          lx.fail(`$GENERATE modifier ${template.slice(k, close + 1)} must be \${offset,width,base} with base d, o, x, X, n or N`);
        }
        const v = i + offset;
        if (v < 0) lx.fail(`$GENERATE modifier ${template.slice(k, close + 1)} makes a negative number`);
        // BIND computes the value in a signed 32-bit int and refuses what overflows it.
        if (v > 2147483647) lx.fail(`$GENERATE modifier ${template.slice(k, close + 1)} makes ${v}, more than 2147483647`);
        let text: string;
        if (base === 'n' || base === 'N') {
          // BIND's nibble form: nibbles least significant first, each followed by a dot, cut to `width` characters.
          text = v.toString(16).split('').reverse().join('.') + '.';
          while (text.length < width) text += '0.';
          text = width > 0 ? text.slice(0, width) : text.slice(0, -1);
          if (base === 'N') text = text.toUpperCase();
        } else {
          text = v.toString(base === 'o' ? 8 : base === 'd' ? 10 : 16).padStart(width, '0');
          if (base === 'X') text = text.toUpperCase();
        }
        out += text;
        k = close;
      } else if (template[k + 1] === '$') {
        out += '\\$';
        k++;
      } else {
        out += String(i);
      }
    } else out += c;
  }
  return out;
}

/** Normalises `options.origin` to an absolute name in presentation form. */
function originOption(origin: string): string {
  const lx = new Lexer(origin);
  if (lx.next() !== WORD || lx.next() !== EOF) lx.fail(`options.origin "${origin}" is not a domain name`);
  lx.pos = 0;
  lx.next();
  return lx.name('.', 'options.origin');
}

// `ignoreBOM: true` keeps a BOM as text rather than dropping it; only one at the very start is
// looked for (and refused) before decoding.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A byte-order mark before the first line: BIND, Knot, NSD and dnspython all read it as part of
 * the first token and refuse the file, so the real service's import fails on it too.
 */
const bomError = (options: ReaderOptions): ZoneFileError => ({
  line: 1,
  column: 1,
  message: options.originFirst === true ? ORIGIN_NOT_FIRST : 'the zone file starts with a byte-order mark (U+FEFF), which zone files do not have: save it as UTF-8 without a BOM',
});

/**
 * `parseZoneFile`. `byteLines: false` reads every line with the lexer (the path the byte-level
 * reader must agree with; test/zonefile/differential.test.ts compares them).
 */
export function parse(input: string | Uint8Array, options: ReaderOptions = {}, byteLines = true): Result<ParsedZone, ZoneFileError> {
  return read(input, options, byteLines, null, (reader) => {
    const records = reader.records();
    const origin = zoneOrigin(reader);
    if (options.singletonRules !== false) reader.checkSingletons(records, origin);
    if (options.cnameRule !== false) reader.checkCnames(records, origin);
    return { origin, ttl: reader.firstTtl, records };
  });
}

/**
 * A zone file read into columns rather than record objects, for imports: the same records, errors
 * and origin as {@link parse}, without the zone rules (the import applies its own). `byteLines`
 * as for {@link parse}; `recordLines` keeps each record's line (for an import's error message).
 * @internal
 */
export function parseColumns(
  input: string | Uint8Array,
  options: Omit<ReaderOptions, 'cnameRule' | 'structured' | 'singletonRules'> = {},
  byteLines = true,
  recordLines = false,
): Result<{ origin: string; columns: RecordColumns }, ZoneFileError> {
  const columns = new RecordColumns(recordLines);
  return read(input, options, byteLines, columns, (reader) => ({ origin: zoneOrigin(reader), columns }));
}

/**
 * `s` as a string that does not point into the file's text, for the columns, which an import
 * keeps: a copy where V8 may have made it a slice or a concatenation of slices (see `SLICE_MIN`),
 * one of which would keep the whole text alive. Taking the slice flattens the concatenation into
 * a new string, which the result then points into.
 */
function owned(s: string): string {
  return s.length < SLICE_MIN ? s : (' ' + s).slice(1);
}

function zoneOrigin(reader: Reader): string {
  return reader.firstOrigin ?? reader.firstSoaOwner ?? '.';
}

/** Decodes and reads the file, then `finish` builds the result; every error becomes an `Err`. */
function read<T>(input: string | Uint8Array, options: ReaderOptions, byteLines: boolean, columns: RecordColumns | null, finish: (reader: Reader) => T): Result<T, ZoneFileError> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let text: string;
  if (typeof input === 'string') {
    // UTF-16 length bounds the UTF-8 size from below; measure only when it might matter.
    if (input.length > maxBytes || (input.length * 3 > maxBytes && Buffer.byteLength(input, 'utf8') > maxBytes)) {
      return err({ line: 1, column: 1, message: `the zone file is larger than maxBytes (${maxBytes} bytes): raise options.maxBytes or split the zone` });
    }
    if (input.charCodeAt(0) === 0xfeff) return err(bomError(options));
    text = input;
  } else {
    if (input.length > maxBytes) {
      return err({ line: 1, column: 1, message: `the zone file is ${input.length} bytes, larger than maxBytes (${maxBytes} bytes): raise options.maxBytes or split the zone` });
    }
    if (input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) return err(bomError(options));
    try {
      text = decoder.decode(input);
    } catch {
      return err(invalidUtf8(input));
    }
  }
  try {
    const reader = new Reader(new Lexer(text), options, columns);
    if (options.origin !== undefined) {
      reader.origin = originOption(options.origin);
      reader.firstOrigin = reader.origin;
    }
    if (options.defaultTtl !== undefined && !(Number.isInteger(options.defaultTtl) && options.defaultTtl >= 0 && options.defaultTtl <= MAX_TTL)) {
      return err({ line: 1, column: 1, message: `options.defaultTtl must be an integer from 0 to ${MAX_TTL}` });
    }
    reader.run(byteLines && options.structured !== true ? new LineScanner(text, options.aaaaAsWritten === true, columns !== null) : null);
    return ok(finish(reader));
  } catch (e) {
    if (e instanceof ZoneSyntaxError) return err({ line: e.line, column: e.column, message: e.message });
    if (e instanceof RangeError) return err({ line: 1, column: 1, message: `the zone file could not be read: ${e.message}` });
    return err({ line: 1, column: 1, message: `internal error while reading the zone file: ${String(e)}` });
  }
}

function invalidUtf8(bytes: Uint8Array): ZoneFileError {
  // Decode line by line (linear) to point at the first line that is not UTF-8.
  const message = 'the zone file is not valid UTF-8: re-save it as UTF-8 or write non-ASCII bytes as \\DDD escapes';
  let line = 1;
  for (let start = 0; start <= bytes.length; line++) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    try {
      decoder.decode(bytes.subarray(start, end));
    } catch {
      return { line, column: 1, message };
    }
    start = end + 1;
  }
  return { line: 1, column: 1, message };
}
