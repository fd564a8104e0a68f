import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseZoneFile, writeZoneFile, type ZoneRecord } from '../../src/zonefile/index.js';
import { nameHash } from '../../src/zonefile/lexer.js';
import type { ProbeCounter } from '../../src/zonefile/owners.js';
import { parse } from '../../src/zonefile/parse.js';
import { HOSTILE_OPTIONS, HOSTILE_SHAPES } from './hostile-shapes.js';

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

/**
 * The work of `run`, counted: characters read through the string methods the reader uses
 * (`charCodeAt` and `codePointAt` one each; `indexOf` the characters it passed; `slice`,
 * `substring`, `toLowerCase` and `toUpperCase` the characters they made) and those encoded into
 * the byte-level reader's windows. The count is the same on any machine under any load. The
 * byte-level reader's own loops over its window are not counted: each window is encoded once
 * (counted), and a reader that went back over earlier windows would have to encode them again.
 */
function charactersRead(run: () => void): number {
  let count = 0;
  const restore: (() => void)[] = [];
  const patch = (target: object, name: string, cost: (self: string, args: unknown[], out: unknown) => number): void => {
    const original = Reflect.get(target, name) as (...args: unknown[]) => unknown;
    Reflect.set(target, name, function (this: string, ...args: unknown[]) {
      const out = Reflect.apply(original, this, args);
      count += cost(this, args, out);
      return out;
    });
    restore.push(() => Reflect.set(target, name, original));
  };
  const proto = String.prototype;
  patch(proto, 'charCodeAt', () => 1);
  patch(proto, 'codePointAt', () => 1);
  patch(proto, 'indexOf', (self, args, out) => 1 + ((out as number) < 0 ? self.length : (out as number)) - Math.max(0, Number(args[1] ?? 0)));
  for (const name of ['slice', 'substring', 'toLowerCase', 'toUpperCase']) patch(proto, name, (_, __, out) => 1 + (out as string).length);
  patch(TextEncoder.prototype, 'encodeInto', (_, args) => (args[0] as string).length);
  try {
    run();
  } finally {
    for (const undo of restore) undo();
  }
  return count;
}

describe('linear work (characters read, counted)', () => {
  const work = (input: string): number => charactersRead(() => void parseZoneFile(input, HOSTILE_OPTIONS));
  it.each(HOSTILE_SHAPES)('%s: 8× the input costs at most 12× the work', (_, make) => {
    const n = 20000;
    const small = work(make(n));
    const large = work(make(8 * n));
    // Linear is about 8×, quadratic about 64×; counted, so no room is needed for noise. Up to 12×
    // because the byte-level reader's window starts small (a small file pays for a small window).
    expect(small).toBeGreaterThan(0);
    expect(large / small).toBeLessThanOrEqual(12);
  });

  it('the count sees a quadratic reader', () => {
    // A reader that copies the text before each line again.
    const quadratic = (text: string): void => {
      for (let i = 0; i < text.length; i = text.indexOf('\n', i) + 1 || text.length) text.slice(0, i);
    };
    const make = HOSTILE_SHAPES.find(([name]) => name === 'many records')![1];
    expect(charactersRead(() => quadratic(make(8 * 2000))) / charactersRead(() => quadratic(make(2000)))).toBeGreaterThan(30);
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
