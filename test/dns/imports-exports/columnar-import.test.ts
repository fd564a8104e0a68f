import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMPORT_RECORD_TYPES, IMPORT_MESSAGES, lineOfRecord, planColumns, planImport, readColumns } from '../../../src/dns/kernel/import-plan.js';
import type { OwnerKey } from '../../../src/dns/kernel/owner-index.js';
import type { ProbeCounter } from '../../../src/zonefile/owners.js';
import type { RecordColumns } from '../../../src/zonefile/columns.js';
import { parse, parseColumns } from '../../../src/zonefile/parse.js';
import { typeToText } from '../../../src/zonefile/registry.js';
import { generatedZone } from './harness.js';
import { collidingOwners, unkeyedHash } from '../../support/colliding-names.js';
import { IMPORT_RULES, readRecords, referencePlan } from './plan-reference.js';

/**
 * The import's columnar reader (records appended to columns by the parser) against the reference
 * (`parseZoneFile`'s record objects put into columns): the same columns, the same errors, and the
 * same import plan, also equal to the plain planner's (plan-reference.ts), on generated zones,
 * hand-written edge cases and fast-check zone files.
 */

const MAX = 1 << 30;
const DEFAULT_TYPES = new Set(DEFAULT_IMPORT_RECORD_TYPES);
const WIDE_TYPES = new Set([...DEFAULT_IMPORT_RECORD_TYPES, 'DS', 'HINFO', 'LOC', 'TYPE65280', 'NSEC', 'RRSIG']);

/** Every column as plain arrays, cut to the records there are, with type mnemonics for codes. */
const flat = (c: RecordColumns) => ({
  count: c.count,
  owners: c.owners.flat().slice(0, c.count),
  rdata: c.rdata.flat().slice(0, c.count),
  ttls: Array.from(c.ttls.subarray(0, c.count)),
  types: Array.from(c.types.subarray(0, c.count), typeToText),
});

/**
 * parseColumns against parse (no CNAME rule), with `byteLines` and the engine's rules or the import's: the columns hold the
 * records' fields (compared with the records themselves, so that the columns' own indexing is
 * checked too), with the same origin and the same errors.
 */
function sameColumns(text: string): void {
  for (const [byteLines, imports] of [[true, true], [false, true], [true, false], [false, false]] as const) {
    const rules = imports ? { soaMinimumDefault: true, aaaaAsWritten: true } : {};
    const expected = parse(text, { maxBytes: MAX, cnameRule: false, singletonRules: false, ...rules }, byteLines);
    const got = parseColumns(text, { maxBytes: MAX, ...rules }, byteLines);
    if (expected.isErr()) {
      expect(got.isErr() && got.error).toEqual(expected.error);
      continue;
    }
    expect(got.isOk()).toBe(true);
    const { origin, columns } = got._unsafeUnwrap();
    const records = expected.value.records;
    expect(origin).toBe(expected.value.origin);
    expect(flat(columns)).toEqual({
      count: records.length,
      owners: records.map((r) => r.name),
      rdata: records.map((r) => r.rdata),
      ttls: records.map((r) => r.ttl),
      types: records.map((r) => r.type),
    });
    expect(records.every((r) => r.class === 'IN')).toBe(true);
  }
}

/** A key for the owner hashes, as an import draws one per zone. */
const KEY: OwnerKey = [0x5eed, 0xc0ffee];

/**
 * The import plan (or error) through the columnar reader, through the reference reader (the same
 * planning code), and from the plain planner of plan-reference.ts, for two allow-lists.
 */
function samePlan(text: string): ReturnType<typeof planImport> {
  let first: ReturnType<typeof planImport> | undefined;
  const parsed = parse(text, { maxBytes: MAX, ...IMPORT_RULES });
  for (const allowed of [DEFAULT_TYPES, WIDE_TYPES]) {
    const got = planImport(text, MAX, allowed, KEY, readColumns);
    expect(got).toEqual(planImport(text, MAX, allowed, KEY, readRecords));
    if (!('error' in got && got.error === IMPORT_MESSAGES.origin)) {
      expect(got).toEqual(parsed.isErr() ? { error: IMPORT_MESSAGES.malformed } : referencePlan(parsed.value, allowed, KEY, (index) => lineOfRecord(text, MAX, index)));
    }
    first ??= got;
  }
  return first!;
}

function same(text: string): ReturnType<typeof planImport> {
  sameColumns(text);
  return samePlan(text);
}

const HEAD = '$ORIGIN example.com.\n$TTL 300\n@ 3600 IN SOA ns1.example.org. admin.example.com. 7 7200 3600 1209600 300\n';

describe('columnar import = import of parseZoneFile records (generated zones)', () => {
  it.each([
    [300, 1, true],
    [5000, 2, true],
    [20000, 3, true],
    [5000, 4, false],
    [20000, 5, false],
  ])('generated zone of %i records, seed %i, no DS %s', (records, seed, noDs) => {
    const text = generatedZone(records, seed, !noDs);
    const plan = same(text);
    // Without --no-ds the zone has DS records, which the default allow-list refuses (with a line).
    if (noDs) expect('ok' in plan && plan.ok.recordCount).toBeGreaterThan(records * 0.7);
    else expect('error' in plan && plan.error).toMatch(/^Record type DS on line \d+ is not supported/);
    // Lines the byte reader leaves to the lexer: tabs between fields, CRLF, parentheses.
    same(text.replace(/ +/g, '\t').replace(/\n/g, '\r\n'));
    same(text.replace(/^(\S+\s+)(A|AAAA|MX|TXT) /gm, '$1$2 ( ').replace(/^(\S+\s+(?:A|AAAA|MX|TXT) \(.*)$/gm, '$1\n )'));
  });
});

describe('columnar import = import of parseZoneFile records (edge cases)', () => {
  const cases: [string, string][] = [
    ['mixed-case owners and duplicates', `${HEAD}WWW A 192.0.2.1\nwww A 192.0.2.1\nWwW 60 A 192.0.2.2\nwww A 192.0.2.1\nMail.Example.COM. MX 10 mx\nmail MX 10 MX\n`],
    ['out-of-zone names', `${HEAD}a.example.net. A 192.0.2.1\nexample.org. NS ns1.example.org.\nb A 192.0.2.2\nxexample.com. A 192.0.2.3\n`],
    ['CNAME beside other data', `${HEAD}c CNAME x.example.net.\nc A 192.0.2.1\n`],
    ['other data then CNAME', `${HEAD}c A 192.0.2.1\nC CNAME x.example.net.\n`],
    ['CNAME at the apex', `${HEAD}@ CNAME x.example.net.\n`],
    ['CNAME twice (the later one wins)', `${HEAD}c CNAME x.example.net.\nc 60 CNAME y.example.net.\n`],
    ['CNAME beside RRSIG and NSEC', `${HEAD}c CNAME x.example.net.\nc NSEC d.example.com. A\nc RRSIG A 8 3 300 20300101000000 20200101000000 1 example.com. AAAA\n`],
    ['refused types (the second HINFO)', `${HEAD}h A 192.0.2.1\nh 60 HINFO "a" "b"\nj HINFO "c" "d"\nk LOC 52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m\n`],
    ['refused type out of zone', `${HEAD}h.example.net. HINFO "a" "b"\nh A 192.0.2.1\n`],
    ['$GENERATE', `${HEAD}$GENERATE 1-40 host-$ A 192.0.2.$\n$GENERATE 1-10/3 alias-\${0,3,x} CNAME host-$\n$GENERATE 5-9 Host-$ TXT "n $"\n`],
    ['$GENERATE of a refused type', `${HEAD}$GENERATE 1-3 h$ HINFO "a" "$"\n`],
    ['$TTL and $ORIGIN changes', `${HEAD}a A 192.0.2.1\n$TTL 60\nb A 192.0.2.2\n$ORIGIN sub.example.com.\nc A 192.0.2.3\n@ NS ns1.example.org.\n$ORIGIN example.net.\nd A 192.0.2.4\n$ORIGIN example.com.\ne 5 A 192.0.2.5\n A 192.0.2.6\n`],
    ['multi-line records', `${HEAD}t TXT ( "a"\n  "b" ) ; note\nm MX ( 10\n mx )\nsrv SRV 0 5 443 (\n target )\n`],
    ['generic \\# data', `${HEAD}g TYPE65280 \\# 3 abcdef\ng A \\# 4 c0000201\ng TXT \\# 2 0161\ng CAA \\# 8 0005697373756561\n`],
    ['no SOA', '$ORIGIN example.com.\n$TTL 60\na A 192.0.2.1\n'],
    ['SOA out of zone only', '$ORIGIN example.com.\n$TTL 60\nexample.net. SOA ns1 admin 1 2 3 4 5\na A 192.0.2.1\n'],
    ['two SOAs: the last one, the smaller TTL', `${HEAD}@ 5 SOA ns2.example.org. other.example.com. 9 1 2 3 4\n`],
    ['two SOAs: the last one, the smaller TTL (first)', `${HEAD}@ 9000 SOA ns2.example.org. other.example.com. 9 1 2 3 4\n`],
    ['SOA off the apex', `${HEAD}a A 192.0.2.1\nsub SOA ns1 admin 1 2 3 4 5\nh HINFO "a" "b"\n`],
    ['SOA off the apex after a refused type', `${HEAD}h HINFO "a" "b"\nsub SOA ns1 admin 1 2 3 4 5\n`],
    ['SOA off the apex beside a CNAME', `${HEAD}sub CNAME x.example.net.\nsub SOA ns1 admin 1 2 3 4 5\n`],
    ['CNAME clash before an SOA off the apex', `${HEAD}c CNAME x.example.net.\nc A 192.0.2.1\nsub SOA ns1 admin 1 2 3 4 5\n`],
    ['SOA without TTL or $TTL', '$ORIGIN example.com.\n@ SOA ns1.example.org. admin.example.com. 1 2 3 4 77\na A 192.0.2.1\n'],
    ['apex NS and blank owners', `${HEAD}@ NS ns1.example.org.\n NS ns2.example.org.\n A 192.0.2.9\nx A 192.0.2.1\n  AAAA 2001:db8::1\n`],
    ['syntax error', `${HEAD}a A 192.0.2.300\n`],
    ['syntax error after a CNAME clash', `${HEAD}c CNAME x.example.net.\nc A 192.0.2.1\nd TXT "unterminated\n`],
    ['no $ORIGIN first', '$TTL 60\n@ SOA ns1 admin 1 2 3 4 5\n'],
    ['root origin', '$ORIGIN .\n$TTL 60\n@ SOA ns1.example. admin.example. 1 2 3 4 5\nexample. A 192.0.2.1\n'],
    ['escapes in owners', `${HEAD}a\\.b A 192.0.2.1\n\\065bc A 192.0.2.2\nAbc A 192.0.2.3\n`],
    ['large recordset with duplicates', `${HEAD}${Array.from({ length: 80 }, (_, i) => `big A 192.0.2.${i % 50}\n`).join('')}`],
    ['BOM, CRLF and no final newline', `\ufeff${HEAD.replace(/\n/g, '\r\n')}a A 192.0.2.1`],
  ];
  it.each(cases)('%s', (_, text) => {
    same(text);
  });

  const outcome = (text: string): string => {
    const plan = same(text);
    return 'error' in plan ? plan.error : 'ok';
  };

  it('names the line of the refused record, as the reader read it', () => {
    const refused = (line: number): string => `Record type HINFO on line ${line} is not supported by this service.`;
    expect(outcome(`${HEAD}a A 192.0.2.1\nh (\n HINFO "a" "b" )\n`)).toBe(refused(6));
    expect(outcome(`${HEAD}; HINFO in a comment\n$GENERATE 1-3 h$.example.net. HINFO "a" "$"\nx HINFO "c" "d"\n`)).toBe(refused(6));
    expect(outcome(`${HEAD}a A 192.0.2.1\n$GENERATE 1-3 h$ HINFO "a" "$"\n`)).toBe(refused(5));
    expect(outcome(`${HEAD.replace(/\n/g, '\r\n')}a TXT ( "x"\r\n "y" )\r\nb\tHINFO "a" "b"\r\n`)).toBe(refused(6));
  });

  it('needs $ORIGIN as the first statement after any $TTL lines, as the real service', () => {
    expect(outcome(`\ufeff${HEAD}`)).toBe(IMPORT_MESSAGES.origin);
    expect(outcome(`\ufeff$TTL 60\n${HEAD}`)).toBe(IMPORT_MESSAGES.origin);
    expect(outcome('')).toBe(IMPORT_MESSAGES.origin);
    expect(outcome('$TTL 60\n; nothing else\n')).toBe(IMPORT_MESSAGES.origin);
    expect(outcome('www.example.com. 60 A 999.1.1.1\n$ORIGIN example.com.\n')).toBe(IMPORT_MESSAGES.origin);
    expect(outcome(' A 192.0.2.1\n$ORIGIN example.com.\n')).toBe(IMPORT_MESSAGES.origin);
    // The real service reads the $TTL line first and calls the file malformed.
    expect(outcome('$TTL xyz\nfoo.example.com. 60 A 192.0.2.1\n')).toBe(IMPORT_MESSAGES.malformed);
    expect(outcome(`$TTL 60\n; comment\n\n${HEAD}`)).toBe('ok');
  });
});

const label = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9-]{0,6}$/);
const owner = fc.oneof(
  label,
  fc.constantFrom('@', '', '*', 'WWW', 'www', 'Www', 'sub.www'),
  label.map((l) => `${l}.example.com.`),
  label.map((l) => `${l}.Example.COM.`),
  label.map((l) => `${l}.example.net.`),
);
const ttlField = fc.constantFrom('', '0 ', '60 ', '1h ', '4294967295 ', 'IN ', '60 IN ', 'IN 60 ');
const recordData = fc.oneof(
  fc.tuple(fc.constant('A'), fc.nat(255).map((n) => `192.0.2.${n % 4}`)),
  fc.tuple(fc.constantFrom('AAAA', 'aaaa'), fc.nat(3).map((n) => `2001:db8::${n}`)),
  fc.tuple(fc.constantFrom('CNAME', 'cname'), label.map((l) => `${l}.example.net.`)),
  fc.tuple(fc.constant('MX'), fc.tuple(fc.nat(20), label).map(([p, l]) => `${p} ${l}`)),
  fc.tuple(fc.constant('TXT'), fc.constantFrom('"a"', '"a" "b"', '( "x"\n "y" )', '"caf\u00e9"')),
  fc.tuple(fc.constant('NS'), fc.constantFrom('ns1.example.org.', 'ns2')),
  fc.tuple(fc.constant('SOA'), fc.constantFrom('ns1.example.org. a.b.c. 1 2 3 4 5', 'ns2 admin 9 1 2 3 300')),
  fc.tuple(fc.constantFrom('HINFO', 'DS', 'TYPE65280', 'LOC'), fc.constant('')).map(([t]) =>
    [t, t === 'HINFO' ? '"pc" "os"' : t === 'DS' ? '1 8 1 0123456789ABCDEF0123456789ABCDEF01234567' : t === 'LOC' ? '1 N 2 E 3m' : '\\# 1 ff'] as [string, string],
  ),
  fc.tuple(fc.constantFrom('NSEC', 'RRSIG'), fc.constant('')).map(([t]) =>
    [t, t === 'NSEC' ? 'z.example.com. A' : 'A 8 3 300 20300101000000 20200101000000 1 example.com. AAAA'] as [string, string],
  ),
  fc.constantFrom<[string, string]>(['A', '\\# 4 c0000201'], ['TXT', '\\# 2 0161'], ['TYPE1', '\\# 4 c0000202']),
);
/** Now and then a line that does not parse, so that errors are compared too. */
const badLine = fc.constantFrom('x A 999.1.1.1', 'x TXT "open', 'x BOGUS 1', '$INCLUDE other.zone');
const line = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(owner, ttlField, recordData).map(([o, t, [type, data]]) => `${o === '' ? ' ' : o} ${t}${type} ${data}`) },
  { weight: 1, arbitrary: fc.constantFrom('$TTL 30', '$TTL 2h', '$ORIGIN sub.example.com.', '$ORIGIN example.com.', '$ORIGIN example.net.', '; comment', '') },
  { weight: 1, arbitrary: fc.tuple(fc.nat(5), label).map(([n, l]) => `$GENERATE 1-${n + 1} ${l}-$ A 192.0.2.$`) },
  { weight: 1, arbitrary: fc.tuple(fc.nat(9), fc.constantFrom('TXT', 'CNAME', 'HINFO')).map(([n, t]) => `$GENERATE 0-${n} g$ ${t} ${t === 'HINFO' ? '"a" "$"' : t === 'TXT' ? '"$"' : 'c$.example.net.'}`) },
);
const zoneFile = fc
  .tuple(fc.nat(5), fc.boolean(), fc.array(line, { maxLength: 30 }), fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(fc.nat(), badLine) }), fc.constantFrom('\n', '\r\n', '\t\n'))
  .map(([soa, dollarTtl, lines, bad, eol]) => {
    const head = ['$ORIGIN example.com.', ...(dollarTtl ? ['$TTL 300'] : []), ...(soa > 0 ? ['@ 3600 IN SOA ns1.example.org. admin.example.com. 7 7200 3600 1209600 300'] : [])];
    if (bad !== null) lines.splice(bad[0] % (lines.length + 1), 0, bad[1]);
    return [...head, ...lines].join(eol) + '\n';
  });

describe('columnar import = import of parseZoneFile records (fast-check zone files)', () => {
  test.prop([zoneFile], { numRuns: 400 })('generated zone files', (text) => {
    same(text);
  });
});

describe('columnar import: owners made to collide in its hash table', () => {
  const owners = collidingOwners(15);
  const zone = (names: readonly string[]): string => `${HEAD}${names.map((o, i) => `${o} A 10.0.${i >> 8}.${i & 255}\n`).join('')}${names[7]} A 192.0.2.1\n`;

  it('plans 32,768 owners with one hash as the reference does', () => {
    expect(new Set(owners).size).toBe(32768);
    const plan = samePlan(zone(owners));
    expect('ok' in plan && plan.ok.recordsetCount).toBe(32768);
    expect('ok' in plan && plan.ok.recordCount).toBe(32769);
  });

  // Under the unkeyed FNV-1a the import hashed with, they planned several hundred times slower
  // than as many names that do not collide (13 s against 20 ms) until the table's probe budget
  // moved them to a Map, and still spent that budget (about 10 probes a record). Under a key the
  // file cannot know they spread as any names do. Counted (the table's probes), not timed, so
  // that a busy machine cannot decide.
  it('plan them with the probes of names that do not collide: the owner hash is keyed', () => {
    expect(new Set(owners.map(unkeyedHash)).size).toBe(1);
    const probes = (text: string): number => {
      const counter: ProbeCounter = { probes: 0 };
      const read = readColumns(text, MAX);
      if (typeof read === 'string') throw new Error(read);
      const plan = planColumns(read.origin, read.columns, DEFAULT_TYPES, KEY, () => 0, counter);
      expect('ok' in plan).toBe(true);
      return counter.probes;
    };
    const records = owners.length + 2; // and the SOA
    expect(probes(zone(owners))).toBeLessThan(2.5 * records);
    // The same labels in the opposite order: names as long, which never collided.
    expect(probes(zone(owners.map((o) => o.split('.').reverse().join('.'))))).toBeLessThan(2.5 * records);
  });
});
