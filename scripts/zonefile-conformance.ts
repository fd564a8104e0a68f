/**
 * `npm run conformance`: runs the zone-file conformance corpus (../shared/conformance/zonefiles,
 * or $ZONEWARD_CONFORMANCE_DIR) through parseZoneFile and prints agreement per source.
 *
 * The corpus is read in place and never copied into this repository (several sources are GPL or
 * MPL licensed). Exit status: 0 when every disagreement is listed in
 * test/zonefile/known-disagreements.json and agreement is at least THRESHOLD; 1 otherwise,
 * including when a listed case starts agreeing (a ratchet: delete its entry).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseZoneFile } from '../src/zonefile/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The floor (99%); measured: 1364/1375 (99.2%), the 11 others listed in known-disagreements.json. */
export const THRESHOLD = 0.99;

export interface CorpusCase {
  case: string;
  zone: string;
  origin: string;
  expect: { ok: boolean; records?: [string, number, string, string, string][] };
  basis: string;
  must_refuse_include?: boolean;
}

export interface CaseResult {
  id: string;
  source: string;
  verdictAgrees: boolean;
  /** Whether the records agree; `null` where either side refused the file. */
  recordsAgree: boolean | null;
  detail: string;
}

export interface KnownDisagreement {
  case: string;
  reason: string;
}

export function corpusDir(): string {
  return process.env['ZONEWARD_CONFORMANCE_DIR'] ?? join(root, '..', 'shared', 'conformance', 'zonefiles');
}

export function knownDisagreements(): KnownDisagreement[] {
  return JSON.parse(readFileSync(join(root, 'test', 'zonefile', 'known-disagreements.json'), 'utf8')) as KnownDisagreement[];
}

type Row = [string, number, string, string, string];

/** BIND's text is not dnspython's canonical form: compare it without spacing, quotes or padding. */
function loose(rdata: string): string {
  return rdata.replace(/[\s"=]+/g, '');
}

/** Names compare case-insensitively, and records equal but for the case of a name are merged. */
function key(r: Row, bind: boolean): string {
  return JSON.stringify([r[0].toLowerCase(), r[1], r[2], r[3], (bind ? loose(r[4]) : r[4]).toLowerCase()]);
}

/** The corpus's normal form: lower-case owners, RRset TTL = its minimum (one TTL per RRset), merged, sorted. */
function normalise(rows: Row[], bind: boolean): string[] {
  const minTtl = new Map<string, number>();
  for (const r of rows) {
    const k = r[0].toLowerCase() + ' ' + r[3];
    minTtl.set(k, Math.min(minTtl.get(k) ?? Infinity, r[1]));
  }
  const keys = rows.map((r) => key([r[0], minTtl.get(r[0].toLowerCase() + ' ' + r[3])!, r[2], r[3], r[4]], bind));
  return [...new Set(keys)].sort();
}

/**
 * RFC 3597 §5: `TYPE262 \# 1 00` and `WALLET ""` are the same record. dnspython prints the generic
 * form for types it does not know (KEY, WALLET, RESINFO in 2.3), so an expected row in generic form
 * is compared by its wire data: it is decoded with the library's RFC 3597 decoder into the type's
 * presentation form (and mnemonic), which denotes exactly the same octets. Rows of types the library
 * does not know either stay as they are.
 */
function fromGeneric(r: Row): Row {
  if (!r[4].startsWith('\\# ')) return r;
  const decoded = parseZoneFile(`. ${r[1]} IN ${r[3]} ${r[4]}\n`, { origin: '.', cnameRule: false });
  if (decoded.isErr() || decoded.value.records.length !== 1) return r;
  const d = decoded.value.records[0]!;
  return d.rdata.startsWith('\\# ') ? r : [r[0], r[1], r[2], d.type, d.rdata];
}

function inZone(owner: string, origin: string): boolean {
  const o = owner.toLowerCase();
  const z = origin.toLowerCase();
  return z === '.' || o === z || o.endsWith('.' + z);
}

export function runCase(dir: string, c: CorpusCase): CaseResult {
  const source = c.case.split('/')[0] ?? c.case;
  const bytes = readFileSync(join(dir, c.zone));
  const result = parseZoneFile(new Uint8Array(bytes), { origin: c.origin });
  const ours = result.isOk();
  const verdictAgrees = ours === c.expect.ok;
  let detail = result.isErr() ? `refused at ${result.error.line}:${result.error.column}: ${result.error.message}` : 'accepted';
  if (result.isErr() && result.error.message.startsWith('internal error')) {
    return { id: c.case, source, verdictAgrees: false, recordsAgree: null, detail };
  }
  if (c.must_refuse_include && ours) detail += ' (but $INCLUDE must be refused)';
  if (!result.isOk() || !c.expect.ok) return { id: c.case, source, verdictAgrees, recordsAgree: null, detail };
  const expected = c.expect.records ?? [];
  const bind = expected.some((r) => r[4].startsWith('(bind text)'));
  const want = normalise(
    expected.map((r) => (bind ? [r[0], r[1], r[2], r[3], r[4].replace(/^\(bind text\) /, '')] : fromGeneric(r))),
    bind,
  );
  const got = normalise(
    result.value.records.filter((r) => inZone(r.name, c.origin)).map((r) => [r.name, r.ttl, r.class, r.type, r.rdata]),
    bind,
  );
  const recordsAgree = JSON.stringify(want) === JSON.stringify(got);
  if (!recordsAgree) {
    const missing = want.filter((k) => !got.includes(k));
    const extra = got.filter((k) => !want.includes(k));
    detail = `records differ; expected but not produced: ${missing.slice(0, 3).join(' ')}; produced but not expected: ${extra.slice(0, 3).join(' ')}`;
  }
  return { id: c.case, source, verdictAgrees, recordsAgree, detail };
}

export function runCorpus(dir: string): CaseResult[] {
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as CorpusCase[];
  return index.map((c) => runCase(dir, c));
}

export const agrees = (r: CaseResult): boolean => r.verdictAgrees && r.recordsAgree !== false;

function pct(n: number, d: number): string {
  return d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`;
}

function main(): void {
  const dir = corpusDir();
  if (!existsSync(join(dir, 'index.json'))) {
    console.log(`zone-file conformance: skipped (no corpus at ${dir}; set ZONEWARD_CONFORMANCE_DIR)`);
    return;
  }
  const results = runCorpus(dir);
  const known = new Map(knownDisagreements().map((k) => [k.case, k.reason]));
  const sources = [...new Set(results.map((r) => r.source))].sort();
  console.log('| source | cases | verdict agrees | records agree (both accepted) | case agrees |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  const row = (name: string, rs: CaseResult[]): void => {
    const compared = rs.filter((r) => r.recordsAgree !== null);
    const v = rs.filter((r) => r.verdictAgrees).length;
    const rec = compared.filter((r) => r.recordsAgree).length;
    const all = rs.filter(agrees).length;
    console.log(`| ${name} | ${rs.length} | ${v} (${pct(v, rs.length)}) | ${rec}/${compared.length} (${pct(rec, compared.length)}) | ${all} (${pct(all, rs.length)}) |`);
  };
  for (const s of sources) row(s, results.filter((r) => r.source === s));
  row('**overall**', results);
  const unexpected = results.filter((r) => !agrees(r) && !known.has(r.id));
  const fixed = results.filter((r) => agrees(r) && known.has(r.id));
  const missingCases = [...known.keys()].filter((id) => !results.some((r) => r.id === id));
  const rate = results.filter(agrees).length / results.length;
  console.log(`\nknown disagreements: ${known.size}; unexpected disagreements: ${unexpected.length}; listed but now agreeing: ${fixed.length}`);
  for (const r of unexpected) console.log(`  DISAGREES ${r.id}: ${r.detail}`);
  for (const r of fixed) console.log(`  NOW AGREES (remove from known-disagreements.json) ${r.id}`);
  for (const id of missingCases) console.log(`  UNKNOWN CASE in known-disagreements.json: ${id}`);
  if (rate < THRESHOLD) console.log(`agreement ${(100 * rate).toFixed(2)}% is below the threshold ${(100 * THRESHOLD).toFixed(0)}%`);
  if (unexpected.length > 0 || fixed.length > 0 || missingCases.length > 0 || rate < THRESHOLD) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
