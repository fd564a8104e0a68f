/**
 * Zone files (`zoneward/zonefile`): an RFC 1035 master-file parser and writer, usable on its own.
 *
 * @module zoneward/zonefile
 */
import type { Result } from 'neverthrow';
import { parse } from './parse.js';
import type { ParsedZone, ParseZoneFileOptions, WriteZoneFileOptions, ZoneFileError, ZoneFileInput } from './types.js';
import { write } from './write.js';

export type { ParsedZone, ParseZoneFileOptions, WriteZoneFileOptions, ZoneFileError, ZoneFileInput, ZoneRecord } from './types.js';

/**
 * Reads a master file (RFC 1035 §5) into records with canonical, validated record data.
 *
 * Supports `$ORIGIN`, `$TTL`, `$GENERATE` (BIND form), `@`, blank owners, TTL and class in either
 * order, TTL units, parentheses, comments, quoted strings with escapes, CRLF and RFC 3597 `\#`
 * data. `$INCLUDE` is refused without reading any file, and so is a byte-order mark before the first
 * line (as BIND, Knot and NSD refuse it). A zone holds one SOA, at its apex (the `origin` of the
 * result), and at most one CNAME and one DNAME per owner (identical copies count once). Records
 * outside the origin are kept: deciding what belongs to a zone is the caller's business.
 *
 * @param text - The file, as text or as bytes (decoded as strict UTF-8).
 * @param options - Origin, default TTL and limits; see {@link ParseZoneFileOptions}.
 * @returns `Ok` with the zone, or `Err` with the first problem's line, column and message. Never throws.
 * @example
 * ```ts
 * const zone = parseZoneFile('$ORIGIN example.com.\n$TTL 1h\n@ MX 10 mail\n');
 * if (zone.isOk()) zone.value.records[0]; // { name: 'example.com.', ttl: 3600, type: 'MX', rdata: '10 mail.example.com.', … }
 * ```
 * @category Zone files
 */
export function parseZoneFile(text: string | Uint8Array, options?: ParseZoneFileOptions): Result<ParsedZone, ZoneFileError> {
  return parse(text, options);
}

/**
 * Writes records as a master file that {@link parseZoneFile} reads back to the same records.
 *
 * The file starts with `$ORIGIN` and (when given) `$TTL`, then every SOA, then the other records;
 * every line carries an absolute owner and an explicit TTL so that nothing depends on context.
 *
 * @param zone - Origin, default TTL and records (only `name`, `ttl`, `class`, `type`, `rdata` are read).
 * @param options - Record order; see {@link WriteZoneFileOptions}.
 * @returns The file text, ending with a newline.
 * @example
 * ```ts
 * writeZoneFile({ origin: 'example.com.', ttl: 3600, records: [
 *   { name: 'example.com.', ttl: 3600, class: 'IN', type: 'A', rdata: '192.0.2.1' },
 * ] }); // '$ORIGIN example.com.\n$TTL 3600\nexample.com. 3600 IN A 192.0.2.1\n'
 * ```
 * @category Zone files
 */
export function writeZoneFile(zone: ZoneFileInput, options?: WriteZoneFileOptions): string {
  return write(zone, options);
}
