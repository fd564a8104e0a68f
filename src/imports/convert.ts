import { parseZoneFile, type ZoneRecord } from '../zonefile/index.js';

/**
 * The record types the real service stores (its storage enum): an import with any other type
 * fails unless the service is configured with a wider list.
 *
 * @category Imports
 */
export const DEFAULT_IMPORT_RECORD_TYPES: readonly string[] = Object.freeze([
  'A',
  'AAAA',
  'CNAME',
  'MX',
  'SRV',
  'TXT',
  'SPF',
  'NS',
  'PTR',
  'SSHFP',
  'SOA',
  'NAPTR',
  'CAA',
  'CERT',
]);

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

const CNAME_CLASH = 'CNAME rdataset is not compatible with a regular data node';

/** One recordset an import will store. @internal */
export interface PlannedRecordset {
  readonly name: string;
  readonly type: string;
  readonly ttl: number | null;
  readonly records: string[];
}

/** What a valid import file turns into. @internal */
export interface ImportPlan {
  readonly name: string;
  readonly email: string;
  /** The SOA RR's TTL (0 left to the caller: it means "use min_ttl"). */
  readonly ttl: number;
  readonly serial: number;
  readonly retry: number;
  readonly expire: number;
  readonly recordsets: PlannedRecordset[];
  readonly recordCount: number;
}

/** Strips a `;` comment outside quotes and splits into tokens (quotes kept together). */
function tokens(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) {
      cur += c + line[i + 1]!;
      i++;
      continue;
    }
    if (c === '"') {
      quoted = !quoted;
      cur += c;
      continue;
    }
    if (!quoted && c === ';') break;
    if (!quoted && (c === ' ' || c === '\t' || c === '\r' || c === '(' || c === ')')) {
      if (cur !== '') out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur !== '') out.push(cur);
  return out;
}

/**
 * Whether the first statement of the file is `$ORIGIN` (the real service learns the origin only
 * from a `$ORIGIN` before the first record). `$TTL` may come before it.
 */
function originFirst(text: string): boolean {
  let start = 0;
  if (text.charCodeAt(0) === 0xfeff) start = 1;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const t = tokens(text.slice(start, end));
    start = end + 1;
    const first = t[0];
    if (first === undefined) continue;
    const upper = first.toUpperCase();
    if (upper === '$ORIGIN') return true;
    if (upper === '$TTL') continue;
    return false;
  }
  return false;
}

/** The 1-based line of the first record whose type token is `type` (best effort; 0 when not found). */
export function lineOfType(text: string, type: string, nth = 1): number {
  const wanted = type.toUpperCase();
  let start = 0;
  let line = 0;
  let seen = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end);
    start = end + 1;
    line++;
    const t = tokens(raw);
    if (t[0]?.startsWith('$') === true && t[0].toUpperCase() !== '$GENERATE') continue;
    const from = /^[ \t]/.test(raw) ? 0 : 1;
    for (let i = from; i < t.length; i++) {
      if (t[i]!.toUpperCase() === wanted) {
        seen++;
        if (seen >= nth) return line;
        break;
      }
    }
  }
  return 0;
}

/** RNAME → email: no final dot, the first unescaped dot becomes `@`, escaped dots become dots. */
export function emailFromRname(rname: string): string {
  const name = rname.endsWith('.') && !rname.endsWith('\\.') ? rname.slice(0, -1) : rname;
  let out = '';
  let done = false;
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '\\' && name[i + 1] === '.') {
      out += '.';
      i++;
    } else if (c === '.' && !done) {
      out += '@';
      done = true;
    } else out += c;
  }
  return out;
}

/**
 * Parses and converts an import file as the real service does (reference §8.3), with the fixes
 * the issue asks for (case-insensitive owners, a helpful message for a refused type).
 * @internal
 */
export function planImport(text: string, maxBytes: number, allowed: ReadonlySet<string>): { ok: ImportPlan } | { error: string } {
  if (!originFirst(text)) {
    // A syntax error before the first record would be reported by the parser first; anything else
    // lacks the origin the real service needs.
    return { error: IMPORT_MESSAGES.origin };
  }
  const parsed = parseZoneFile(text, { maxBytes });
  if (parsed.isErr()) {
    // dnspython reports a CNAME beside other data as a non-syntax error (reference §8.4). The engine has
    // no error codes, so its wording is matched loosely.
    if (/\bCNAME\b.*\bother data\b/.test(parsed.error.message)) return { error: undefinedError(CNAME_CLASH) };
    return { error: IMPORT_MESSAGES.malformed };
  }
  const origin = parsed.value.origin;
  const lowerOrigin = origin.toLowerCase();
  const suffix = lowerOrigin === '.' ? '.' : `.${lowerOrigin}`;
  const inZone = (lower: string): boolean => lower === lowerOrigin || lower.endsWith(suffix);

  let soa: ZoneRecord | undefined;
  // Owner (lower case) → type → recordset: no concatenated keys to hash.
  const sets = new Map<string, Map<string, PlannedRecordset & { min: number }>>();
  const order: (PlannedRecordset & { min: number })[] = [];
  const cnameNames = new Set<string>();
  const otherNames = new Set<string>();
  let recordCount = 0;
  const records = parsed.value.records;
  for (let index = 0; index < records.length; index++) {
    const r = records[index]!;
    const lower = r.name.toLowerCase();
    if (!inZone(lower)) continue;
    if (r.type === 'SOA') {
      if (lower === lowerOrigin && soa === undefined) soa = r;
      continue;
    }
    if (!allowed.has(r.type)) {
      let nth = 0;
      for (let j = 0; j <= index; j++) if (records[j]!.type === r.type) nth++;
      const line = lineOfType(text, r.type, nth);
      return { error: `Record type ${r.type}${line > 0 ? ` on line ${line}` : ''} is not supported by this service.` };
    }
    if (r.type === 'NS' && lower === lowerOrigin) continue;
    if (r.type === 'CNAME') {
      if (lower === lowerOrigin || otherNames.has(lower)) return { error: undefinedError(CNAME_CLASH) };
      cnameNames.add(lower);
    } else {
      if (cnameNames.has(lower)) return { error: undefinedError(CNAME_CLASH) };
      otherNames.add(lower);
    }
    let byType = sets.get(lower);
    if (byType === undefined) {
      byType = new Map();
      sets.set(lower, byType);
    }
    let set = byType.get(r.type);
    if (set === undefined) {
      set = { name: r.name, type: r.type, ttl: null, min: r.ttl, records: [] };
      byType.set(r.type, set);
      order.push(set);
    }
    if (r.ttl < set.min) set.min = r.ttl;
    if (r.type === 'CNAME') {
      // CNAME is a singleton: a later record replaces the earlier one (dnspython).
      recordCount -= set.records.length;
      set.records.length = 0;
      set.records.push(r.rdata);
      recordCount++;
    } else if (!set.records.includes(r.rdata)) {
      set.records.push(r.rdata);
      recordCount++;
    }
  }
  if (soa === undefined) return { error: IMPORT_MESSAGES.noSoa };
  const fields = soa.rdata.split(' ');
  const rname = fields[1] ?? '';
  const recordsets: PlannedRecordset[] = order.map((s) => ({ name: s.name, type: s.type, ttl: s.min === 0 ? null : s.min, records: s.records }));
  return {
    ok: {
      name: origin,
      email: emailFromRname(rname),
      ttl: soa.ttl,
      serial: Number(fields[2]),
      retry: Number(fields[4]),
      expire: Number(fields[5]),
      recordsets,
      recordCount,
    },
  };
}
