/**
 * A plain import planner for the tests: the rules of src/dns/kernel/import-plan.ts (`planColumns`) written
 * the obvious way, with maps keyed by strings and one record object at a time, so that the fast
 * planner's own bookkeeping (hash tables, chains, columns read by index) is checked against
 * something that shares none of it.
 */
import { emailFromRname, IMPORT_MESSAGES, IMPORT_READING, undefinedError, type ImportPlan, type ImportReader } from '../../../src/dns/kernel/import-plan.js';
import { SocketAddress } from 'node:net';
import { blockBounds, type RecordsetColumns } from '../../../src/dns/kernel/blocks.js';
import { ownerNameHash, type OwnerKey } from '../../../src/dns/kernel/owner-index.js';
import { packTypes } from '../../../src/dns/kernel/recordset.js';
import { RecordColumns } from '../../../src/zonefile/columns.js';
import type { ParsedZone, ZoneRecord } from '../../../src/zonefile/index.js';
import { ORIGIN_NOT_FIRST, parse } from '../../../src/zonefile/parse.js';
import { typeFromText } from '../../../src/zonefile/registry.js';

/** The parser's rules for imports, as `readColumns` sets them, without the CNAME rule. */
export const IMPORT_RULES = { cnameRule: false, singletonRules: false, ...IMPORT_READING } as const;

/** The import's reader built on the parser's record objects, put into columns: what the columnar reader must equal. */
export const readRecords: ImportReader = (text, maxBytes) => {
  const parsed = parse(text, { maxBytes, ...IMPORT_RULES });
  if (parsed.isErr()) return parsed.error.message === ORIGIN_NOT_FIRST ? 'origin' : 'malformed';
  const columns = new RecordColumns();
  for (const r of parsed.value.records) columns.push(r.name, r.ttl, typeFromText(r.type), r.rdata, 0);
  return { origin: parsed.value.origin, columns };
};

interface Set {
  name: string;
  type: string;
  ttl: number;
  data: string[];
}

const NEUTRAL = ['NSEC', 'NSEC3', 'KEY', 'RRSIG'];

/** An AAAA address in Node's spelling: the data is kept as written, and a recordset holds each address once. */
const address = (data: string): string => new SocketAddress({ address: data, family: 'ipv6' }).address;

/**
 * The plan of `parsed` (from `parse(text, IMPORT_RULES)`), or the import's error. `lineOf` gives
 * a record's line (the records carry none; the import's own tests check the lines it gives).
 */
export function referencePlan(parsed: ParsedZone, allowed: ReadonlySet<string>, key: OwnerKey, lineOf: (index: number) => number): { ok: ImportPlan } | { error: string } {
  const origin = parsed.origin.toLowerCase();
  const inZone = (lower: string): boolean => lower === origin || lower.endsWith(origin === '.' ? '.' : `.${origin}`);
  const flags = new Map<string, { cname: boolean; other: boolean }>();
  // dnspython's nodes, in the order their owners first occur, each named as first written; a
  // node's recordsets move to its end with every record read (dnspython replaces the rdataset).
  const nodes = new Map<string, { name: string; sets: Map<string, Set> }>();
  let soa: ZoneRecord | undefined;
  let soaTtl = 0;
  let refused: ZoneRecord | undefined;
  for (const r of parsed.records) {
    const lower = r.name.toLowerCase();
    if (!inZone(lower)) continue;
    if (!nodes.has(lower)) nodes.set(lower, { name: r.name, sets: new Map() });
    const node = nodes.get(lower)!;
    if (r.type === 'SOA' && lower !== origin) return { error: undefinedError('add() has non-origin SOA') };
    const ok = allowed.has(r.type);
    if (ok || !NEUTRAL.includes(r.type)) {
      const f = flags.get(lower) ?? { cname: false, other: false };
      flags.set(lower, f);
      if (r.type === 'CNAME') {
        if (f.other) return { error: undefinedError('CNAME rdataset is not compatible with a regular data node') };
        f.cname = true;
      } else {
        if (f.cname) return { error: undefinedError('rdataset type is not compatible with a CNAME node') };
        f.other = true;
      }
    }
    if (r.type === 'SOA') {
      soaTtl = soa === undefined ? r.ttl : Math.min(soaTtl, r.ttl);
      soa = r;
      continue;
    }
    if (!ok) {
      refused ??= r;
      continue;
    }
    if (r.type === 'NS' && lower === origin) continue;
    const set = node.sets.get(r.type);
    if (set === undefined) node.sets.set(r.type, { name: node.name, type: r.type, ttl: r.ttl, data: [r.rdata] });
    else {
      set.ttl = Math.min(set.ttl, r.ttl);
      if (r.type === 'CNAME') set.data = [r.rdata];
      else if (r.type === 'AAAA' ? !set.data.some((d) => address(d) === address(r.rdata)) : !set.data.includes(r.rdata)) set.data.push(r.rdata);
      node.sets.delete(r.type);
      node.sets.set(r.type, set);
    }
  }
  if (refused !== undefined) {
    const line = lineOf(parsed.records.indexOf(refused));
    return { error: `Record type ${refused.type}${line > 0 ? ` on line ${line}` : ''} is not supported by this service.` };
  }
  if (soa === undefined) return { error: IMPORT_MESSAGES.noSoa };
  const all = [...nodes.values()].flatMap((n) => [...n.sets.values()]);
  const bounds = blockBounds(
    all.map((s) => s.data.length),
    all.length,
  );
  const blocks: RecordsetColumns[] = [];
  for (let b = 0; b + 1 < bounds.length; b++) {
    const part = all.slice(bounds[b], bounds[b + 1]);
    const ends: number[] = [];
    for (const s of part) ends.push((ends[ends.length - 1] ?? 0) + s.data.length);
    blocks.push({ names: part.map((s) => s.name), ...packTypes(part.map((s) => s.type)), ttls: part.map((s) => (s.ttl === 0 ? null : s.ttl)), ends, data: part.flatMap((s) => s.data) });
  }
  const fields = soa.rdata.split(' ');
  return {
    ok: {
      name: parsed.origin,
      email: emailFromRname(fields[1] ?? ''),
      ttl: soaTtl,
      serial: Number(fields[2]),
      retry: Number(fields[4]),
      expire: Number(fields[5]),
      blocks,
      ownerHashes: Uint32Array.from(all, (set) => ownerNameHash(set.name, parsed.origin, key)),
      ownerKey: key,
      recordsetCount: all.length,
      recordCount: all.reduce((n, s) => n + s.data.length, 0),
      largestRecordset: all.reduce((n, s) => Math.max(n, s.data.length), 0),
    },
  };
}
