/**
 * One resource record read from, or written to, a master file.
 *
 * @category Zone files
 */
export interface ZoneRecord {
  /** Owner name, absolute with its trailing dot, in the case it was written. */
  name: string;
  /** The record's own TTL in seconds, after the `$TTL` and last-stated-TTL rules. */
  ttl: number;
  /** Class mnemonic; only `IN` is accepted by the parser. */
  class: string;
  /** Type mnemonic in upper case, or `TYPE<n>` where the type has no mnemonic. */
  type: string;
  /** Record data in canonical presentation form (absolute names, compressed IPv6, lower-case hex). */
  rdata: string;
  /**
   * Structured, validated form of the data where the type is known: an object whose keys follow the
   * RFC field names in camelCase (`{ preference, exchange }` for MX). Absent for RFC 3597 data of
   * unknown types. Ignored by {@link writeZoneFile}, which writes `rdata`. Unless
   * `options.structured` is set, {@link parseZoneFile} computes it on first access.
   */
  data?: unknown;
}

/**
 * The outcome of {@link parseZoneFile}.
 *
 * @category Zone files
 */
export interface ParsedZone {
  /**
   * The zone origin: `options.origin`, else the first `$ORIGIN`, else the owner of the first SOA,
   * else `.`, so that callers importing a zone can tell which one the file describes.
   */
  origin: string;
  /** The first `$TTL` value (or `options.defaultTtl`), `null` when the file states none. */
  ttl: number | null;
  /** Every record in file order, `$GENERATE` expansions in place. */
  records: ZoneRecord[];
}

/**
 * Why a master file was refused: the first problem found, with where it is.
 *
 * @category Zone files
 */
export interface ZoneFileError {
  /** 1-based line of the offending token. */
  line: number;
  /** 1-based column (in UTF-16 code units) of the offending token. */
  column: number;
  /** What is wrong and, where it helps, what to write instead. */
  message: string;
}

/**
 * Options for {@link parseZoneFile}.
 *
 * @category Zone files
 */
export interface ParseZoneFileOptions {
  /**
   * Origin for relative names before any `$ORIGIN` (absolute, or relative to the root).
   *
   * @defaultValue none: relative names before a `$ORIGIN` are refused
   */
  origin?: string;
  /**
   * TTL for records that state none, as if the file began with `$TTL`.
   *
   * @defaultValue none: the last stated TTL, else the SOA minimum, applies
   */
  defaultTtl?: number;
  /**
   * Largest input accepted, in bytes (UTF-8), so that a service can bound the work per upload.
   *
   * @defaultValue 16 MiB (16,777,216)
   */
  maxBytes?: number;
  /**
   * Whether `$GENERATE` is honoured; `false` refuses it like `$INCLUDE`.
   *
   * @defaultValue true
   */
  allowGenerate?: boolean;
  /**
   * Most records all `$GENERATE` lines of one file may produce, because one short line can
   * otherwise expand to billions of records.
   *
   * @defaultValue 65,536
   */
  maxGeneratedRecords?: number;
  /**
   * Whether a CNAME sharing its owner with other data (RFC 1034 §3.6.2), as the reference
   * service's importer refuses it, or with a different CNAME (RFC 2181 §10.1) is refused; NSEC,
   * NSEC3, KEY and RRSIG may still sit beside it.
   *
   * @defaultValue true
   */
  cnameRule?: boolean;
  /**
   * Whether each record's structured `data` is computed while parsing and stored as an own,
   * enumerable property. By default `data` is computed on first access instead (an accessor, cached
   * per record, shown by `JSON.stringify`), which makes large files much cheaper to read; the values
   * are the same either way. Set it where records are copied with spread or `Object.keys`.
   *
   * @defaultValue false
   */
  structured?: boolean;
}

/**
 * Options for {@link writeZoneFile}.
 *
 * @category Zone files
 */
export interface WriteZoneFileOptions {
  /**
   * Record order after the SOA: `'input'` keeps the given order (so `parse(write(z))` gives the
   * records back in the same order); `'sorted'` orders by owner (case-insensitive, parents first)
   * then type then rdata, so that equal zones give byte-identical files.
   *
   * @defaultValue 'input'
   */
  order?: 'sorted' | 'input';
}

/**
 * The zone given to {@link writeZoneFile}.
 *
 * @category Zone files
 */
export interface ZoneFileInput {
  /** The origin written as `$ORIGIN`; absolute with a trailing dot. */
  origin: string;
  /** The default TTL written as `$TTL`; records with another TTL carry their own. */
  ttl?: number;
  /** The records to write; only `name`, `ttl`, `class`, `type` and `rdata` are read. */
  records: readonly ZoneRecord[];
}
