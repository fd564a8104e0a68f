import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/zonefile/parse.js';
import type { ParseZoneFileOptions } from '../../src/zonefile/types.js';
import { generateZone } from '../support/zone-generator.js';

/**
 * The byte-level line reader (src/zonefile/lines.ts) against the lexer-only path: same records,
 * same data, same errors (line and column included), on generated zones and mutations of them.
 * Windows are 64 KiB, then 128 KiB, ... up to 1 MiB: files of a few hundred KB cross several
 * window boundaries, and the mutations move lines across them.
 */
const gen = (records: number, seed: number): string => generateZone({ records, seed, ds: true });

const view = (text: string | Uint8Array, options: ParseZoneFileOptions, byteLines: boolean) => {
  const r = parse(text, options, byteLines);
  if (r.isErr()) return { error: r.error };
  const { origin, ttl, records } = r.value;
  return { origin, ttl, records: records.map((x) => [x.name, x.ttl, x.class, x.type, x.rdata]), data: records.slice(0, 40).map((x) => x.data) };
};

const same = (text: string, options: ParseZoneFileOptions = { maxBytes: 1 << 30 }) => {
  const expected = view(text, options, false);
  expect(view(text, options, true)).toEqual(expected);
  return expected;
};

describe('byte-level line reader = lexer path', () => {
  it.each([
    [300, 1],
    [5000, 2],
    [5000, 3],
    [20000, 4],
  ])('generated zone of %i records, seed %i', (records, seed) => {
    const text = gen(records, seed);
    const r = same(text);
    expect(r.records?.length).toBe(records);
    // CRLF, other blanks between fields (the canonical text is then built, not sliced), bytes.
    same(text.replace(/\n/g, '\r\n'));
    same(text.replace(/ /g, '\t'));
    same(text.replace(/ /g, '  '));
    same(text.replace(/([^ \t\n]) ([^ \t\n])/g, '$1 \t $2'));
    expect(view(new TextEncoder().encode(text), { maxBytes: 1 << 30 }, true)).toEqual(view(text, { maxBytes: 1 << 30 }, false));
  });

  it('non-ASCII text, long lines, errors and a last line without newline around window boundaries', () => {
    const base = gen(3000, 5);
    for (const at of [65536 - 40, 65536 - 1, 65536, 65536 + 3, 196608 - 10]) {
      const nl = base.indexOf('\n', at - 80) + 1;
      const head = base.slice(0, nl);
      const tail = base.slice(nl);
      same(head + 'x\tTXT "caf\u00e9 \ud83d\ude00"\n' + tail);
      same(head + '; \u00e9\u00e9\u00e9 comment ' + 'y'.repeat(at % 97) + '\n' + tail);
      same(head + 'z A 192.0.2.' + 'x'.repeat(70000) + '\n' + tail);
      same(head + 'w A 192.0.2.300\n' + tail);
      same(head + 'w A 192.0.2.3 ( \n ) \n' + tail);
      same(head + 'w TXT "unterminated\n' + tail);
      same(head + 'w\tIN\tCNAME\tother\n' + 'w A 192.0.2.1\n' + tail);
      same(base.slice(0, at) + '\u00e9' + base.slice(at));
      same(base.slice(0, at) + '\ud800' + base.slice(at));
      same(base.slice(0, at));
    }
    same('$ORIGIN example.com.\n$TTL 60\n' + 'a A 192.0.2.1\n'.repeat(10) + '\u00e9 A 192.0.2.1\n' + 'b A 192.0.2.2\n'.repeat(10));
    const l63 = 'a'.repeat(63);
    const names = [l63, 'a'.repeat(64), `${l63}.${l63}.${l63}.${l63.slice(0, 60)}`, `${l63}.${l63}.${l63}.${l63.slice(0, 61)}.`, `${l63}.${l63}.${l63}.${l63.slice(0, 62)}.`, 'a..b', '.a', 'a.', '*', '_srv._tcp', 'A-b.C', '@', '.', 'x@y', 'a$b'];
    const ttls = ['', '0', '0100', '2147483647', '2147483648', '4294967295', '4294967296', '99999999999', '1h30m', '1H', '1x', 'IN 5', '5 IN', 'IN', 'CLASS1', 'IN IN', '5 6', 'ch'];
    let zone = '$ORIGIN example.com.\n';
    for (const n of names) for (const t of ttls) zone += `${n} ${t} A 192.0.2.1\n`;
    for (const n of names) zone += `x NS ${n}\nx MX 1 ${n}\nx SRV 1 2 3 ${n}\nx\tMX\t1\t${n}\n`;
    const strings = ['"a\\"b"', '"\\\\"', '"\\065"', '"\\233"', '"\\256"', '"\\0"', '"\\a"', '"\\034"', '"\\092"', '"x\\', '"' + 'a'.repeat(254) + '\\233"', '"' + 'a'.repeat(255) + '\\233"', '"' + 'a'.repeat(253) + '\\\\\\""'];
    for (const t of strings) zone += `t TXT ${t}\nt TXT "x" ${t} y\nt CAA 0 issue ${t}\n`;
    same('$TTL 1\n' + zone);
    for (const line of zone.split('\n')) same('$TTL 1\n' + line + '\n', { origin: 'example.com.' });
    same('a A 192.0.2.1\n', { origin: 'example.com.' });
    same(' A 192.0.2.1\n', { origin: 'example.com.', defaultTtl: 5 });
    same('a A 192.0.2.1\n@ NS a\n. CNAME x.\n', {});
    same('a A 192.0.2.1\n', { origin: 'example.com.', defaultTtl: 5, structured: true });
  });

  const base = gen(1300, 9);
  const lines = base.split('\n');
  const pieces = ['"', '(', ')', '\\', ';', ' ', '\t', '\r', '$', '@', '.', '\u00e9', '\ud83d\ude00', '0', 'A', '\\065', '"x"', '\n'];
  const edit = fc.oneof(
    fc.tuple(fc.constant('insert' as const), fc.nat(), fc.constantFrom(...pieces)),
    fc.tuple(fc.constant('delete' as const), fc.nat(), fc.integer({ min: 1, max: 4 })),
    fc.tuple(fc.constant('tabs' as const), fc.nat(), fc.constant('')),
    fc.tuple(fc.constant('crlf' as const), fc.nat(), fc.constant('')),
    fc.tuple(fc.constant('comment' as const), fc.nat(), fc.constantFrom(' ; note', ';\u00e9t\u00e9', ' ; ( " \\', '\t;')),
    fc.tuple(fc.constant('parens' as const), fc.nat(), fc.constant('')),
    fc.tuple(fc.constant('nonAsciiTxt' as const), fc.nat(), fc.constantFrom('\u00e9', '\u00fc\u00df', '\ud83d\ude00', '\u2028')),
    fc.tuple(fc.constant('blankOwner' as const), fc.nat(), fc.constant('')),
    fc.tuple(fc.constant('duplicate' as const), fc.nat(), fc.constantFrom('A 192.0.2.1', 'CNAME x.example.net.', 'MX 10 mx', 'TXT "t"')),
    fc.tuple(fc.constant('pad' as const), fc.nat(), fc.integer({ min: 1, max: 300 }).map(String)),
  );

  test.prop([fc.array(edit, { minLength: 1, maxLength: 6 }), fc.boolean()], { numRuns: 150 })('mutated zones', (edits, dropLastNewline) => {
    const ls = lines.slice();
    for (const [kind, at, arg] of edits) {
      const k = at % ls.length;
      const l = ls[k]!;
      switch (kind) {
        case 'insert': {
          const p = l.length === 0 ? 0 : at % (l.length + 1);
          ls[k] = l.slice(0, p) + arg + l.slice(p);
          break;
        }
        case 'delete': {
          const p = l.length === 0 ? 0 : at % l.length;
          ls[k] = l.slice(0, p) + l.slice(p + Number(arg));
          break;
        }
        case 'tabs':
          ls[k] = l.replace(/ +/g, '\t');
          break;
        case 'crlf':
          ls[k] = l + '\r';
          break;
        case 'comment':
          ls[k] = l + arg;
          break;
        case 'parens': {
          const parts = l.split(/([ \t]+)/);
          if (parts.length > 4) ls[k] = parts.slice(0, 4).join('') + '( ' + parts.slice(4).join('') + '\n )';
          break;
        }
        case 'nonAsciiTxt':
          ls[k] = l.replace('"', '"' + arg);
          break;
        case 'blankOwner':
          ls[k] = l.replace(/^\S+/, '');
          break;
        case 'duplicate': {
          const owner = /^\S+/.exec(l)?.[0] ?? '@';
          ls.splice(k + 1, 0, `${owner} ${arg}`);
          break;
        }
        case 'pad':
          ls.splice(k, 0, ';' + 'p'.repeat(Number(arg)));
          break;
      }
    }
    let text = ls.join('\n');
    if (dropLastNewline) text = text.replace(/\n+$/, '');
    same(text);
  });
});
