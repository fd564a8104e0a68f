import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseZoneFile, writeZoneFile, type ZoneRecord } from '../../src/zonefile/index.js';
import { nameHash } from '../../src/zonefile/lexer.js';
import type { ProbeCounter } from '../../src/zonefile/owners.js';
import { parse } from '../../src/zonefile/parse.js';

const label = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,14}$/);
const name = fc.array(label, { minLength: 0, maxLength: 3 }).map((ls) => [...ls, 'example', 'com', ''].join('.'));
const ttl = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const octet = fc.integer({ min: 0, max: 255 });
const u16 = fc.integer({ min: 0, max: 65535 });
const text = fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)), maxLength: 40 });

/** Records as a user would write them; the parser's canonical form is what we compare. */
const rdata: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(octet, octet, octet, octet).map(([a, b, c, d]): [string, string] => ['A', `${a}.${b}.${c}.${d}`]),
  fc.array(u16, { minLength: 8, maxLength: 8 }).map((g): [string, string] => ['AAAA', g.map((x) => x.toString(16)).join(':')]),
  fc.tuple(u16, name).map(([p, n]): [string, string] => ['MX', `${p} ${n}`]),
  fc.tuple(u16, u16, u16, name).map(([a, b, c, n]): [string, string] => ['SRV', `${a} ${b} ${c} ${n}`]),
  fc.array(text, { minLength: 1, maxLength: 3 }).map((ss): [string, string] => ['TXT', ss.map((s) => '"' + [...s].map((ch) => `\\${String(ch.charCodeAt(0)).padStart(3, '0')}`).join('') + '"').join(' ')]),
  name.map((n): [string, string] => ['NS', n]),
  fc.tuple(octet, fc.constantFrom('issue', 'iodef', 'issuewild'), text).map(([f, t, v]): [string, string] => ['CAA', `${f} ${t} "${[...v].map((ch) => `\\${String(ch.charCodeAt(0)).padStart(3, '0')}`).join('')}"`]),
  fc.uint8Array({ maxLength: 20 }).map((b): [string, string] => ['TYPE65534', `\\# ${b.length} ${Buffer.from(b).toString('hex')}`]),
);

const zone = fc.array(fc.tuple(name, ttl, rdata), { maxLength: 20 }).map((rows) => rows.map(([n, t, [type, data]]) => `${n} ${t} IN ${type} ${data}`).join('\n') + '\n');

const strip = (rs: readonly ZoneRecord[]) => rs.map(({ name, ttl, class: c, type, rdata }) => ({ name, ttl, class: c, type, rdata }));

describe('laws', () => {
  test.prop([zone])('parse(write(parse(f))) ≡ parse(f)', (file) => {
    const first = parseZoneFile(file, { origin: 'example.com.', cnameRule: false })._unsafeUnwrap();
    const again = parseZoneFile(writeZoneFile({ origin: first.origin, ttl: 300, records: first.records }), { cnameRule: false })._unsafeUnwrap();
    expect(strip(again.records)).toEqual(strip(first.records));
    expect(again.records.map((r) => r.data)).toEqual(first.records.map((r) => r.data));
  });

  test.prop([zone])('canonical data is a fixed point', (file) => {
    const first = parseZoneFile(file, { origin: 'example.com.', cnameRule: false })._unsafeUnwrap();
    const lines = first.records.map((r) => `${r.name} ${r.ttl} ${r.class} ${r.type} ${r.rdata}`).join('\n');
    expect(strip(parseZoneFile(lines, { cnameRule: false })._unsafeUnwrap().records)).toEqual(strip(first.records));
  });
});

const noThrow = (input: string | Uint8Array): void => {
  const r = parseZoneFile(input, { origin: 'example.com.', defaultTtl: 60 });
  if (r.isErr()) {
    expect(r.error.message).not.toMatch(/^internal error/);
    expect(r.error.line).toBeGreaterThanOrEqual(1);
    expect(r.error.column).toBeGreaterThanOrEqual(1);
  }
};

describe('fuzz: never throws', () => {
  test.prop([fc.string({ maxLength: 300 })], { numRuns: 2000 })('arbitrary strings', (s) => noThrow(s));
  test.prop([fc.uint8Array({ maxLength: 300 })], { numRuns: 1000 })('arbitrary bytes', (b) => noThrow(b));

  const alphabet = fc.constantFrom(...' \t\n\r()";\\$@.#0123456789abcdefINAXTSOVC=,:-'.split(''), 'IN', 'TXT', 'SOA', '\\#', '$ORIGIN', '$TTL', '$GENERATE', 'SVCB', 'LOC', 'TYPE1', '\\065');
  test.prop([fc.array(alphabet, { maxLength: 120 }).map((a) => a.join(''))], { numRuns: 3000 })('strings from master-file symbols', (s) => noThrow(s));

  test.prop([zone, fc.array(fc.tuple(fc.nat(), fc.constantFrom('delete', 'insert', 'replace'), fc.constantFrom(...'()"\\;\n \t$@.#='.split(''))), { minLength: 1, maxLength: 8 })], { numRuns: 1000 })(
    'mutations of valid zones',
    (file, edits) => {
      let s = file;
      for (const [at, op, ch] of edits) {
        const i = s.length === 0 ? 0 : at % s.length;
        s = op === 'delete' ? s.slice(0, i) + s.slice(i + 1) : op === 'insert' ? s.slice(0, i) + ch + s.slice(i) : s.slice(0, i) + ch + s.slice(i + 1);
      }
      noThrow(s);
    },
  );
});

describe('linear time', () => {
  /** Time of the fastest of five runs, to damp noise from a shared machine (three once let a load of 7 through). */
  const time = (input: string): number => {
    let best = Infinity;
    for (let k = 0; k < 5; k++) {
      const t0 = performance.now();
      parseZoneFile(input, { origin: 'example.com.', defaultTtl: 60, maxBytes: 1e9 });
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  };
  const shapes: [string, (n: number) => string][] = [
    ['open parentheses', (n) => 'a TXT ' + '('.repeat(n)],
    ['backslashes', (n) => 'a TXT x' + '\\\\'.repeat(n)],
    ['escaped quotes in one string', (n) => 'a TXT "' + '\\"'.repeat(n) + '"'],
    ['unterminated quote', (n) => 'a TXT "' + 'x'.repeat(n)],
    ['many labels', (n) => 'a TXT ' + 'a.'.repeat(n)],
    ['many records', (n) => 'a 60 IN A 192.0.2.1\n'.repeat(n / 4)],
    ['long comment', (n) => ';' + 'x'.repeat(n)],
    ['many blank-owner lines', (n) => 'a 60 A 192.0.2.1\n' + ' TXT "x"\n'.repeat(n / 4)],
    ['SVCB parameters', (n) => 'a SVCB 1 . ' + Array.from({ length: n / 16 }, (_, i) => `key${i + 10}=x`).join(' ')],
  ];
  it.each(shapes)('%s: 8× the input takes well under 64× the time', (_, make) => {
    const n = 20000;
    time(make(n));
    const small = Math.max(time(make(n)), 0.5);
    const large = time(make(8 * n));
    // Linear would be about 8×; quadratic about 64×. Leave room for noise and GC.
    expect(large / small).toBeLessThan(30);
  });
});

/**
 * `count` absolute names under example.com. whose hashes (the parser's polynomial `nameHash`) are
 * all different and all have a home slot below 4 in the CNAME owners' table (the parser sizes it
 * to the power of two at least twice the CNAMEs): linear probing then crowds them into one run.
 * The hash is linear, so each name is solved for, not searched: an attacker's work is as small.
 */
function crowdedNames(count: number): string[] {
  let size = 16;
  while (size < count * 2) size *= 2;
  const bits = Math.log2(size);
  const suffix = '.example.com.';
  let power = 1;
  for (let i = 0; i < suffix.length; i++) power = Math.imul(power, 31);
  // The inverse of an odd number modulo 2^32, by Newton's iteration.
  let inverse = power;
  for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(power, inverse));
  let lettersA = 0; // the hash of 'aaaaaaaa'
  for (let i = 0; i < 8; i++) lettersA = (Math.imul(lettersA, 31) + 97) | 0;
  /** Eight lower-case letters whose hash is `target`, if its base-31 digits (plus a multiple of 2^32) allow. */
  const label = (target: number): string | null => {
    for (let m = 0; m < 400; m++) {
      let v = ((target - lettersA) >>> 0) + m * 2 ** 32;
      let text = '';
      for (let i = 0; i < 8; i++, v = Math.floor(v / 31)) text = String.fromCharCode(97 + (v % 31)) + text;
      if (v !== 0) return null;
      if (/^[a-z]{8}$/.test(text)) return text;
    }
    return null;
  };
  const names: string[] = [];
  for (let top = 0; names.length < count; top++) {
    for (let slot = 0; slot < 4 && names.length < count; slot++) {
      // The low bits that put a hash with these top bits at `slot`: (h ^ h >>> 15) & (size - 1).
      let low = 0;
      for (let k = 0; k < 3; k++) low = (slot ^ ((((top << bits) | low) >>> 0) >>> 15)) & (size - 1);
      const h = (top << bits) | low;
      if (((h ^ (h >>> 15)) & (size - 1)) !== slot) continue;
      const text = label(Math.imul((h - nameHash(suffix)) | 0, inverse));
      if (text !== null) names.push(text + suffix);
    }
  }
  return names;
}

describe('CNAME rule: owners crowded into one run of its table', () => {
  const names = crowdedNames(20000);
  const zone = (owners: readonly string[], extra = ''): string =>
    `$ORIGIN example.com.\n$TTL 60\n${owners.map((o) => `${o} CNAME target.example.net.`).join('\n')}\n${extra}`;

  it('are crowded as meant (different hashes, one run)', () => {
    expect(new Set(names.map(nameHash)).size).toBe(names.length);
  });

  it('still finds a clash, with its line and message', () => {
    const got = parseZoneFile(zone(names, `${names[12345]} A 192.0.2.1\n`));
    expect(got.isErr() && got.error).toEqual({
      line: 12348,
      column: 1,
      message: `${names[12345]} has a CNAME (line 12348) and other data (A): a name with a CNAME can hold nothing else (RFC 1034 §3.6.2); move the other records or drop the CNAME`,
    });
  });

  // Probed slot by slot they take about n^2 / 2 probes (2 * 10^8 here, 240 ms against 5 for as
  // many ordinary names); past the probe budget the owner table moves them to a Map. Counted, not timed.
  it('cost a bounded number of probes, as many ordinary owners do', () => {
    const probes = (text: string): number => {
      const counter: ProbeCounter = { probes: 0 };
      expect(parse(text, { probeCounter: counter }).isOk()).toBe(true);
      return counter.probes;
    };
    const records = names.length + 1;
    // One per CNAME added and per other record the filter lets through, plus the budget (8 a CNAME + 1024) and one move to a Map.
    const bound = names.length + records + 9 * names.length + 1025;
    expect(probes(zone(names, 'other A 192.0.2.1\n'))).toBeLessThanOrEqual(bound);
    // Names of the same length whose hashes spread as names' usually do: under 2.5 probes a CNAME.
    expect(probes(zone(names.map((_, i) => `${String(i).padStart(8, 'q')}.example.com.`), 'other A 192.0.2.1\n'))).toBeLessThan(2.5 * names.length + 10);
  });
});
