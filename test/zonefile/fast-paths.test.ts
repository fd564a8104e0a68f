import { fc, test } from '@fast-check/vitest';
import { readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseZoneFile } from '../../src/zonefile/index.js';

/**
 * The simple-form readers (the byte-level reader's, src/zonefile/lines.ts, for whole lines and for
 * the data of records whose fields the lexer read) must give exactly what the full readers give:
 * the same records, the same structured data, the same errors. `structured: true` uses the full
 * readers only.
 */
const both = (text: string) => {
  const fast = parseZoneFile(text, { origin: 'example.com.', defaultTtl: 60 });
  const full = parseZoneFile(text, { origin: 'example.com.', defaultTtl: 60, structured: true });
  if (full.isErr()) {
    expect(fast.isErr() && fast.error).toEqual(full.error);
    return;
  }
  expect(fast.isOk()).toBe(true);
  const a = fast._unsafeUnwrap().records;
  const b = full.value.records;
  expect(a.map((r) => [r.name, r.ttl, r.class, r.type, r.rdata])).toEqual(b.map((r) => [r.name, r.ttl, r.class, r.type, r.rdata]));
  expect(a.map((r) => r.data)).toEqual(b.map((r) => r.data));
};

const sp = fc.constantFrom(' ', '  ', '\t', ' ( ', ' ;c\n ', ' (\n ', '\t\t');
const num = fc.oneof(fc.integer({ min: 0, max: 70000 }).map(String), fc.constantFrom('0', '00', '010', '65535', '65536', '255', '256', '-1', 'x', '4294967296'));
const hex = fc.constantFrom('0', '00', 'db8', '0db8', 'DB8', 'ffff', '1', 'abcd', '00000');
const v6 = fc.oneof(
  fc.array(hex, { minLength: 1, maxLength: 9 }).map((g) => g.join(':')),
  fc.tuple(fc.array(hex, { maxLength: 4 }), fc.array(hex, { maxLength: 4 })).map(([a, b]) => `${a.join(':')}::${b.join(':')}`),
  fc.constantFrom('::', '::1', '1::', '::ffff:1.2.3.4', '::1.2.3.4', '0:0:0:0:0:ffff:102:304', '1:0:0:2:0:0:0:3', '1:0:0:2::3', '1::2:0:0:3', '2001:db8::0:1', '::ffff:0:0'),
);
const v4 = fc.oneof(fc.tuple(num, num, num, num).map((p) => p.join('.')), fc.constantFrom('1.2.3', '1.2.3.4.5', '01.2.3.4', '1..2.3'));
const label = fc.constantFrom('a', 'mx1', 'Host-1', '*', '@', 'x\\.y', 'a\\065', '', 'a.b', 'é');
const name = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([ls, abs]) => ls.join('.') + (abs ? '.' : ''));
const str = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => `"${s.replace(/["\\\n]/g, '')}"`),
  fc.constantFrom('"a b"', '""', 'word', '"\\"q\\""', '"x\\065"', '"caf\\233"', '"' + 'y'.repeat(256) + '"', 'semi;colon', '"tab\there"'),
);
const data: fc.Arbitrary<[string, string[]]> = fc.oneof(
  v4.map((a): [string, string[]] => ['A', [a]]),
  fc.tuple(fc.constantFrom('AAAA', 'aaaa'), v6).map(([t, a]): [string, string[]] => [t, [a]]),
  name.map((n): [string, string[]] => ['NS', [n]]),
  name.map((n): [string, string[]] => ['CNAME', [n]]),
  name.map((n): [string, string[]] => ['PTR', [n]]),
  fc.tuple(num, name).map(([p, n]): [string, string[]] => ['MX', [p, n]]),
  fc.tuple(num, num, num, name).map(([a, b, c, n]): [string, string[]] => ['SRV', [a, b, c, n]]),
  fc.array(str, { minLength: 1, maxLength: 4 }).map((ss): [string, string[]] => ['TXT', ss]),
  fc.array(str, { minLength: 1, maxLength: 2 }).map((ss): [string, string[]] => ['SPF', ss]),
  fc.tuple(num, fc.constantFrom('issue', 'iodef', 'ISSUEwild', 'is-sue', '"issue"'), str).map(([f, t, v]): [string, string[]] => ['CAA', [f, t, v]]),
  fc.tuple(num, fc.constantFrom('8', '13', 'RSASHA256', '08'), fc.constantFrom('1', '2', '4', '0', '3'), fc.constantFrom('a'.repeat(40), 'b'.repeat(64), 'C'.repeat(64), 'c'.repeat(96), 'ab', 'g'.repeat(64), 'a'.repeat(32) + ' ' + 'a'.repeat(32))).map(
    ([k, a, t, d]): [string, string[]] => ['DS', [k, a, t, d]],
  ),
);
const line = fc.tuple(data, fc.array(sp, { minLength: 6, maxLength: 6 }), fc.constantFrom('', ' ; end', '\t', ' )', ' extra')).map(([[type, fields], gaps, tail]) => {
  let out = `host ${type}`;
  fields.forEach((f, i) => (out += gaps[i] + f));
  const opens = (out.match(/\(/g) ?? []).length;
  return out + tail + (opens > 0 && !tail.includes(')') ? ' )'.repeat(opens) : '');
});

describe('fast readers agree with the full readers', () => {
  test.prop([fc.array(line, { minLength: 1, maxLength: 5 })], { numRuns: 3000 })('records, data and errors', (lines) => both(lines.join('\n') + '\n'));

  it('on a generated zone', () => {
    const file = new URL('../../.bench-tmp/gen-100000.zone', import.meta.url);
    const text = existsSync(file) ? readFileSync(file, 'utf8').slice(0, 2_000_000) : '';
    if (text) both(text.slice(0, text.lastIndexOf('\n') + 1));
  });
});
