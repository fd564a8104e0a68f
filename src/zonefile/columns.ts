/**
 * Records as parallel columns: the parser's internal output for zone imports, which read each
 * record once and keep only some of its fields. A million `ParsedRecord` objects held until the
 * import has read them survive every young-generation collection of the parse and are copied by
 * each; here a record is two array slots and two typed-array elements.
 */

/**
 * Slots per string chunk, a power of two so that an index splits with a shift and a mask. 8192
 * slots of 8 bytes stay below the 128 KiB above which V8 puts an array in the large-object space
 * (which only a full collection frees); one growing array would leave its outgrown copies there.
 */
export const COLUMN_SHIFT = 13;
/** Slots per string chunk (see {@link COLUMN_SHIFT}). */
export const COLUMN_CHUNK = 1 << COLUMN_SHIFT;
/** `index & COLUMN_MASK` is the slot of record `index` in its chunk. */
export const COLUMN_MASK = COLUMN_CHUNK - 1;

/**
 * `s` as one flat string. The parser joins a relative owner name to its origin by concatenation,
 * which V8 keeps as a pair of pieces (the first a slice pointing into the file's text) until
 * something reads the characters, and then copies. Read at once, the copy is made while the
 * pieces are young and they die there; read only by the import's conversion, after the parse,
 * the pieces have been copied by the young-generation collections and promoted, and all three
 * objects are alive at the import's peak (1M records: 25 MiB of peak RSS, docs/benchmarks.md).
 * Neither the pieces nor record data point into the file's text: the parser gives the columns
 * copies (`LineScanner`'s `own`).
 */
function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

/**
 * The records of a zone file in file order, one column per field: record `i` has owner
 * `owners[i >>> COLUMN_SHIFT][i & COLUMN_MASK]`, likewise `rdata`, and `ttls[i]`, `types[i]` (the
 * type code). The class is always IN. Typed arrays hold their elements outside the heap that the
 * collector copies, so they simply double.
 * @internal
 */
export class RecordColumns {
  /** Records appended so far. */
  count = 0;
  /** Owner names (absolute, as the parser gives them), in chunks of {@link COLUMN_CHUNK}. */
  readonly owners: string[][] = [];
  /** Canonical record data, in chunks of {@link COLUMN_CHUNK}. */
  readonly rdata: string[][] = [];
  /** TTLs (0 … 2^32 - 1); longer than `count`. */
  ttls = new Uint32Array(1024);
  /** Type codes; longer than `count`. */
  types = new Uint16Array(1024);
  /** Each record's line (of its type), where asked for; longer than `count`. */
  lines: Uint32Array | null;

  /** `withLines`: keep each record's line too (only an import's error message needs it, so by default not). */
  constructor(withLines = false) {
    this.lines = withLines ? new Uint32Array(1024) : null;
  }

  /** The last owner appended: a run of records of one owner shares one string, flattened once. */
  private lastOwner = '';

  /** Appends one record, read at `line`. */
  push(owner: string, ttl: number, type: number, rdata: string, line: number): void {
    const at = this.count++;
    const slot = at & COLUMN_MASK;
    if (slot === 0) {
      // Allocated at full size once: a chunk grown by pushes leaves each smaller copy as garbage.
      this.owners.push(new Array<string>(COLUMN_CHUNK));
      this.rdata.push(new Array<string>(COLUMN_CHUNK));
    }
    if (owner !== this.lastOwner) this.lastOwner = flat(owner);
    this.owners[at >>> COLUMN_SHIFT]![slot] = owner;
    this.rdata[at >>> COLUMN_SHIFT]![slot] = rdata;
    if (at === this.ttls.length) {
      const ttls = new Uint32Array(at * 2);
      ttls.set(this.ttls);
      this.ttls = ttls;
      const types = new Uint16Array(at * 2);
      types.set(this.types);
      this.types = types;
      if (this.lines !== null) {
        const lines = new Uint32Array(at * 2);
        lines.set(this.lines);
        this.lines = lines;
      }
    }
    this.ttls[at] = ttl;
    this.types[at] = type;
    if (this.lines !== null) this.lines[at] = line;
  }
}
