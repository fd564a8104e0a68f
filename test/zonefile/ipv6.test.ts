/**
 * The one IPv6 grammar (codec.ts `IPv6Text`) that the full reader, the lexer's fast path and the
 * byte-level line reader share: every way of writing eight groups reads back as those groups, and
 * what RFC 4291 §2.2 does not allow is refused, whichever reader sees it.
 */
import { fc, test } from '@fast-check/vitest';
import { isIPv6 } from 'node:net';
import { describe, expect, it } from 'vitest';
import { IPv6Text, parseIPv6 } from '../../src/zonefile/codec.js';
import { parseZoneFile } from '../../src/zonefile/index.js';

const groupsOf = (bytes: Uint8Array): number[] => Array.from({ length: 8 }, (_, k) => (bytes[2 * k]! << 8) | bytes[2 * k + 1]!);

/** Eight groups written one of the ways RFC 4291 §2.2 allows: any case, leading zeros, one `::` over a zero run, a dotted-quad tail. */
const written = fc
  .tuple(
    fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 }),
    fc.array(fc.tuple(fc.boolean(), fc.nat(3)), { minLength: 8, maxLength: 8 }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([groups, styles, compress, tail]) => {
    const text = groups.map((g, k) => {
      const hex = g.toString(16).padStart(Math.min(4, g.toString(16).length + styles[k]![1]), '0');
      return styles[k]![0] ? hex.toUpperCase() : hex;
    });
    let parts = tail ? [...text.slice(0, 6), `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`] : text;
    if (compress) {
      // The first run of zero groups (not the tail's) becomes `::`.
      const limit = tail ? 6 : 8;
      const start = groups.findIndex((g, k) => g === 0 && k < limit);
      if (start >= 0) {
        let end = start;
        while (end < limit && groups[end] === 0) end++;
        const left = parts.slice(0, start).join(':');
        const right = parts.slice(end).join(':');
        return { groups, text: `${left}::${right}` };
      }
    }
    parts = [...parts];
    return { groups, text: parts.join(':') };
  });

describe('IPv6 text (one grammar for every reader)', () => {
  test.prop([written])('every way of writing eight groups reads back as them', ({ groups, text }) => {
    const bytes = parseIPv6(text, 0, text.length);
    expect(bytes && groupsOf(bytes)).toEqual(groups);
    expect(isIPv6(text)).toBe(true);
    // The same data through the parser's readers (byte-level, lexer, structured).
    for (const structured of [false, true]) {
      const r = parseZoneFile(`e. 1 AAAA ${text}\n`, { structured });
      expect(r.isOk() && r.value.records[0]!.rdata).toBe(parseZoneFile(`e. 1 AAAA ${text.toLowerCase()}\n`)._unsafeUnwrap().records[0]!.rdata);
    }
  });

  test.prop([fc.stringMatching(/^[0-9a-fA-F:.]{0,24}$/)])('refuses what Node refuses, accepts what it accepts (no zone ids)', (text) => {
    const ours = parseIPv6(text, 0, text.length) !== null;
    // Node reads an IPv4 tail with leading zeros as decimal; dnspython and the engine refuse it.
    const leadingZero = /(^|[.:])0\d/.test(text.slice(text.lastIndexOf(':') + 1)) && text.includes('.');
    if (!leadingZero) expect(ours).toBe(isIPv6(text));
    expect(new IPv6Text().read(text, 0, text.length) || !ours).toBe(true);
  });

  it('refuses the forms RFC 4291 does not allow', () => {
    for (const bad of ['', ':', ':::', '1:::2', '1::2::3', '12345::', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7:8::', ':1::', '1::2:', '::1.2.3', '1:2:3:4:5:6:7:1.2.3.4', '::g']) {
      expect(parseIPv6(bad, 0, bad.length), bad).toBeNull();
      expect(new IPv6Text().read(bad, 0, bad.length), bad).toBe(false);
      expect(parseZoneFile(`e. 1 AAAA ${bad === '' ? '""' : bad}\n`).isErr(), bad).toBe(true);
    }
  });
});
