import { describe, expect, it } from 'vitest';
import { parseZoneFile, writeZoneFile, type ZoneRecord } from '../../src/zonefile/index.js';
import { nameHash } from '../../src/zonefile/lexer.js';

const ok = (text: string | Uint8Array, options?: Parameters<typeof parseZoneFile>[1]) => {
  const r = parseZoneFile(text, options);
  if (r.isErr()) throw new Error(`unexpected error ${JSON.stringify(r.error)}`);
  return r.value;
};
const bad = (text: string | Uint8Array, options?: Parameters<typeof parseZoneFile>[1]) => {
  const r = parseZoneFile(text, options);
  if (r.isOk()) throw new Error(`unexpectedly accepted: ${JSON.stringify(r.value.records)}`);
  return r.error;
};
const rows = (text: string, options?: Parameters<typeof parseZoneFile>[1]) =>
  ok(text, options).records.map((r) => `${r.name} ${r.ttl} ${r.class} ${r.type} ${r.rdata}`);

describe('master-file syntax', () => {
  it('applies $ORIGIN (absolute and relative), @ and relative names', () => {
    expect(rows('$ORIGIN example.com.\n$TTL 60\n@ NS ns1\nwww A 192.0.2.1\n$ORIGIN sub\nx CNAME www\n')).toEqual([
      'example.com. 60 IN NS ns1.example.com.',
      'www.example.com. 60 IN A 192.0.2.1',
      'x.sub.example.com. 60 IN CNAME www.sub.example.com.',
    ]);
  });

  it('takes a blank owner from the previous record and refuses it on the first record', () => {
    expect(rows('$ORIGIN e.\n$TTL 1\na A 192.0.2.1\n\tAAAA 2001:db8::1\n')).toEqual(['a.e. 1 IN A 192.0.2.1', 'a.e. 1 IN AAAA 2001:db8::1']);
    expect(bad('$ORIGIN e.\n$TTL 1\n  A 192.0.2.1\n')).toMatchObject({ line: 3, message: expect.stringContaining('no owner name') });
  });

  it('reads TTL and class in either order, TTL units, and the last stated TTL', () => {
    expect(rows('$ORIGIN e.\na IN 1w2d3h4m5s A 192.0.2.1\nb 1h IN A 192.0.2.2\nc A 192.0.2.3\n').map((l) => l.split(' ')[1])).toEqual([
      String(7 * 86400 + 2 * 86400 + 3 * 3600 + 4 * 60 + 5),
      '3600',
      '3600',
    ]);
  });

  it('uses the SOA minimum when no $TTL is given, and options.defaultTtl first', () => {
    const soa = '@ IN SOA ns hostmaster 1 2 3 4 300\nwww A 192.0.2.1\n';
    expect(ok(soa, { origin: 'e.' }).records.map((r) => r.ttl)).toEqual([300, 300]);
    expect(ok(soa, { origin: 'e.', defaultTtl: 10 }).records.map((r) => r.ttl)).toEqual([10, 10]);
    expect(bad('www A 192.0.2.1\n', { origin: 'e.' }).message).toContain('$TTL');
  });

  it('joins parentheses across lines and ignores comments anywhere', () => {
    const z = ok('$ORIGIN e.\n$TTL 1\n@ SOA ns ( ; primary\n  host ; mailbox\n  1 2 3 ; timers\n  4 5 ) ; end\n');
    expect(z.records[0]?.rdata).toBe('ns.e. host.e. 1 2 3 4 5');
    expect(z.records[0]?.data).toEqual({ mname: 'ns.e.', rname: 'host.e.', serial: 1, refresh: 2, retry: 3, expire: 4, minimum: 5 });
  });

  it('reads quoted strings with \\" \\\\ and \\DDD escapes and escaped dots in labels', () => {
    expect(rows('$ORIGIN e.\n$TTL 1\na TXT "say \\"hi\\"" "back\\\\slash" "\\065\\255" plain\nfirst\\.last A 192.0.2.1\n')).toEqual([
      'a.e. 1 IN TXT "say \\"hi\\"" "back\\\\slash" "A\\255" "plain"',
      'first\\.last.e. 1 IN A 192.0.2.1',
    ]);
  });

  it('accepts CRLF, tabs and a last line without newline, as text or bytes', () => {
    const text = '$ORIGIN e.\r\n$TTL 1\r\n@\tIN\tA\t192.0.2.1';
    expect(rows(text)).toEqual(['e. 1 IN A 192.0.2.1']);
    expect(ok(new TextEncoder().encode(text)).records).toHaveLength(1);
  });

  it('refuses a UTF-8 BOM before the first line (BIND, Knot, NSD and dnspython do), as text or bytes', () => {
    const text = '\ufeff$ORIGIN e.\r\n$TTL 1\r\n@\tIN\tA\t192.0.2.1';
    expect(bad(text)).toMatchObject({ line: 1, column: 1 });
    expect(bad(new TextEncoder().encode(text))).toMatchObject({ line: 1, column: 1 });
  });

  it('refuses invalid UTF-8 bytes', () => {
    expect(bad(Uint8Array.of(0x40, 0x20, 0xff, 0x0a)).message).toContain('UTF-8');
  });

  it('expands $GENERATE (BIND form) and can refuse it', () => {
    expect(rows('$ORIGIN e.\n$TTL 1\n$GENERATE 1-3/2 host-${10,3,d} A 192.0.2.$\n')).toEqual([
      'host-011.e. 1 IN A 192.0.2.1',
      'host-013.e. 1 IN A 192.0.2.3',
    ]);
    expect(bad('$GENERATE 1-3 h$ A 192.0.2.$\n', { origin: 'e.', defaultTtl: 1, allowGenerate: false }).message).toContain('$GENERATE is disabled');
    expect(bad('$GENERATE 1-100000 h$ A 192.0.2.1\n', { origin: 'e.', defaultTtl: 1 }).message).toContain('maxGeneratedRecords');
    expect(bad('$GENERATE 1-1 h$ TXT x${2147483647}\n', { origin: 'e.', defaultTtl: 1 }).message).toContain('2147483647');
  });

  it('refuses $INCLUDE without reading anything', () => {
    expect(bad('$INCLUDE /etc/passwd\n', { origin: 'e.' })).toEqual({ line: 1, column: 1, message: expect.stringContaining('$INCLUDE is not supported') });
  });

  it('reports line and column of the offending token', () => {
    expect(bad('$ORIGIN e.\n$TTL 1\na A 192.0.2.1\nb A 300.0.0.1\n')).toEqual({ line: 4, column: 5, message: expect.stringContaining('IPv4') });
    expect(bad('$ORIGIN e.\n$TTL 1\na TXT ( "x"\n').message).toContain("'(' is never closed");
    expect(bad('$ORIGIN e.\n$TTL 1\na TXT "x\n').message).toContain('quote');
  });
});

describe('limits', () => {
  it('refuses labels over 63 octets, names over 255 octets, strings over 255 octets and TTLs over 2^32-1', () => {
    expect(bad(`${'a'.repeat(64)}.e. 1 A 192.0.2.1\n`).message).toContain('63');
    expect(bad(`${Array(64).fill('abc').join('.')}.e. 1 A 192.0.2.1\n`).message).toContain('255');
    expect(bad(`e. 1 TXT "${'x'.repeat(256)}"\n`).message).toContain('255');
    expect(ok(`e. 1 TXT "${'x'.repeat(255)}"\n`).records).toHaveLength(1);
    expect(bad('e. 4294967296 A 192.0.2.1\n').message).toContain('4294967295');
    expect(bad('$TTL 4294967296\ne. A 192.0.2.1\n').message).toContain('4294967295');
    expect(ok('e. 2147483647 A 192.0.2.1\n').records[0]?.ttl).toBe(2147483647);
  });

  it('reads a TTL with the top bit set as 0 (RFC 2181 §8, as BIND does), but keeps 32-bit SOA timers', () => {
    expect(ok('e. 2147483648 A 192.0.2.1\n').records[0]?.ttl).toBe(0);
    expect(ok('$TTL 4294967295\ne. A 192.0.2.1\n').records[0]?.ttl).toBe(0);
    const soa = ok('e. SOA ns.e. h.e. 1 4294967295 2 3 4294967295\n').records[0]!;
    expect(soa.rdata).toBe('ns.e. h.e. 1 4294967295 2 3 4294967295');
    expect(soa.ttl).toBe(0);
    expect(bad('e. 1 SOA ns.e. h.e. 1 4294967296 2 3 4\n').message).toContain('4294967295');
  });

  it('refuses input over maxBytes with a clear error', () => {
    expect(bad('e. 1 A 192.0.2.1\n', { maxBytes: 8 }).message).toContain('maxBytes');
    expect(bad(new Uint8Array(9), { maxBytes: 8 }).message).toContain('maxBytes');
  });

  it('refuses a CNAME beside other data unless told not to', () => {
    const text = '$ORIGIN e.\n$TTL 1\na A 192.0.2.1\nA CNAME b\n';
    expect(bad(text)).toMatchObject({ line: 4, message: expect.stringContaining('and other data') });
    expect(ok(text, { cnameRule: false }).records).toHaveLength(2);
  });

  it('tells owners whose hashes collide apart in the CNAME rule', () => {
    // `aaan` and `aac0` have the same case-insensitive owner hash (97·31 + 110 = 99·31 + 48).
    expect(nameHash('aaan.e.')).toBe(nameHash('aac0.e.'));
    expect(rows('$ORIGIN e.\n$TTL 1\naaan A 192.0.2.1\naac0 CNAME x\naaan TXT t\n')).toHaveLength(3);
    expect(bad('$ORIGIN e.\n$TTL 1\naaan A 192.0.2.1\naac0 CNAME x\nAAAN CNAME y\n')).toMatchObject({ line: 5, message: expect.stringContaining('aaan.e. has a CNAME') });
  });

  it('keeps the CNAME rule right when hundreds of owners share one hash (made to collide)', () => {
    // Strings of `aaan`/`aac0` blocks all have the same hash: 256 owners of 8 blocks.
    const names = Array.from({ length: 256 }, (_, i) => Array.from({ length: 8 }, (_, b) => ((i >> b) & 1 ? 'aac0' : 'aaan')).join(''));
    expect(new Set(names.map((x) => nameHash(`${x}.e.`))).size).toBe(1);
    const cnames = names.slice(0, 128).map((x) => `${x} CNAME t`);
    const others = names.slice(128).map((x) => `${x} A 192.0.2.1`);
    const text = `$ORIGIN e.\n$TTL 1\n${[...cnames, ...others].join('\n')}\n`;
    expect(ok(text).records).toHaveLength(256);
    // The clash comes after every other owner has used up the comparisons along the hash chain.
    expect(bad(`${text}${names[5]!.toUpperCase()} TXT x\n`)).toMatchObject({ line: 8, message: expect.stringContaining(`${names[5]!.toUpperCase()}.e. has a CNAME (line 8)`) });
  });

  it('keeps file order and the CNAME rule across tens of thousands of records', () => {
    const n = 40_000;
    const lines = Array.from({ length: n }, (_, i) => `h${i} A 192.0.2.${i % 256}`);
    const text = `$ORIGIN e.\n$TTL 1\n${lines.join('\n')}\n`;
    const records = ok(text).records;
    expect(records).toHaveLength(n);
    expect(records.every((r, i) => r.name === `h${i}.e.`)).toBe(true);
    // The CNAME far from the other record of its owner.
    expect(bad(`${text}H3 CNAME x\n`)).toMatchObject({ line: n + 3, message: expect.stringContaining('h3.e. has a CNAME') });
  });
});

  it('refuses record data longer than 65,512 octets, the most that fits in one DNS message', () => {
    const strings = (n: number, last: number): string => [...Array(n).fill(`"${'x'.repeat(255)}"`), `"${'y'.repeat(last)}"`].join(' ');
    // 256 × 256 = 65,536 is too much; 255 × 256 = 65,280, plus 1 + 231 = 65,512 exactly.
    expect(ok(`e. 1 TXT ${strings(255, 231)}\n`).records).toHaveLength(1);
    expect(ok(`e. 1 TXT ( ${strings(255, 231)} )\n`, { structured: true }).records).toHaveLength(1);
    for (const structured of [false, true]) {
      expect(bad(`e. 1 TXT ${strings(255, 232)}\n`, { structured }).message).toContain('65513 octets');
    }
    expect(bad(`e. 1 TYPE65280 \\# 65513 ${'00'.repeat(65513)}\n`).message).toContain('65512');
    expect(bad(`e. 1 CAA 0 issue "${'a'.repeat(65506)}"\n`).message).toContain('65513 octets');
    expect(ok(`e. 1 CAA 0 issue "${'a'.repeat(65505)}"\n`).records).toHaveLength(1);
    expect(bad(`e. 1 OPENPGPKEY ${Buffer.alloc(65513).toString('base64')}\n`).message).toContain('65513 octets');
  });

describe('record data', () => {
  const one = (line: string): ZoneRecord => ok(`$ORIGIN example.com.\n$TTL 1\n${line}\n`).records[0]!;
  it.each([
    ['@ AAAA 2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['@ AAAA ::ffff:192.0.2.1', '::ffff:192.0.2.1'],
    ['@ AAAA 2001:0DB8:CA42:9bff:0000:0000:0000:9BDA', '2001:db8:ca42:9bff::9bda'],
    ['@ AAAA 1:2:3:4:5:6::7', '1:2:3:4:5:6:0:7'],
    ['@ AAAA 1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['@ AAAA 1:0:0:2:3:0:0:4', '1::2:3:0:0:4'],
    ['@ AAAA 0:0:0:0:0:0:0:0', '::'],
    ['@ AAAA 0001:0:0:0:0:0:0:0', '1::'],
    ['@ AAAA 0:0:0:0:0:FFFF:c000:0201', '::ffff:192.0.2.1'],
    ['@ AAAA 0:0:0:0:0:0:c000:0201', '::192.0.2.1'],
    ['@ AAAA 0:0:0:0:0:1:c000:0201', '::1:c000:201'],
    ['@ MX 10 mail', '10 mail.example.com.'],
    ['@ SRV 0 5 443 host', '0 5 443 host.example.com.'],
    ['@ CAA 0 issue letsencrypt.org', '0 issue "letsencrypt.org"'],
    ['@ NAPTR 100 10 S SIP+D2U "" _sip._udp', '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.'],
    ['@ SSHFP 1 1 AA549BFE898489C02D1715D97D79C57BA2FA76AB', '1 1 aa549bfe898489c02d1715d97d79c57ba2fa76ab'],
    ['@ DS 12345 RSASHA256 2 ( 49FD46E6C4B45C55D4AC69CBD3CD3440 9A7F4F52C2AE5DA7C3D2B8E7F4B9F5A1 )', '12345 8 2 49fd46e6c4b45c55d4ac69cbd3cd34409a7f4f52c2ae5da7c3d2b8e7f4b9f5a1'],
    ['@ HINFO PC Linux', '"PC" "Linux"'],
    ['@ URI 10 1 "https://example.com/"', '10 1 "https://example.com/"'],
    ['@ TLSA 3 1 1 ABCDEF00', '3 1 1 abcdef00'],
    ['@ HTTPS 1 . alpn=h2,h3 port=443 ipv6hint=2001:db8::1', '1 . alpn="h2,h3" port="443" ipv6hint="2001:db8::1"'],
    ['@ LOC 52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m', '52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000.00m 10.00m'],
    ['@ TYPE65534 \\# 4 0A000001', '\\# 4 0a000001'],
    ['@ A \\# 4 C0000201', '192.0.2.1'],
    ['@ MX \\# 5 000A 0178 00', '10 x.'],
    ['@ URI 10 1 ""', '10 1 ""'],
    ['@ LOC 0 N 0 E 0 90000000.01 1 1', '0 0 0.000 N 0 0 0.000 E 0.00m 90000000.00m 1.00m 1.00m'],
    ['@ WKS 192.0.2.1 tcp tcpmux smtp 80', '192.0.2.1 6 1 25 80'],
    ['@ NXT next A NS SOA', 'next.example.com. A NS SOA'],
    ['@ NXT \\# 2 00 24', '. NS CNAME'],
    ['@ MR \\# 3 016d00', 'm.'],
    ['@ DNSKEY ZONE|SEP 3 8 AQAB', '257 3 8 AQAB'],
    ['@ KEY NOKEY|ZONE 3 5', '49408 3 5'],
    ['@ KEY \\# 4 C1000305', '49408 3 5'],
    ['@ CDS 0 0 0 00', '0 0 0 00'],
    ['@ NSEC3 1 0 1 - CPNMUOJ1E8CPNMUOJ1E8CPNMUOJ1E8CP', '1 0 1 - cpnmuoj1e8cpnmuoj1e8cpnmuoj1e8cp'],
    ['@ NSEC3 2 0 1 - CPNMU', '2 0 1 - cpnmu==='],
    ['@ HTTPS 1 . dohpath=/dns-query{?dns}', '1 . key7="/dns-query{?dns}"'],
    ['@ HTTPS 1 . key7', '1 . key7'],
    ['@ SVCB \\# 35 0010 03666f6f076578616d706c65036f726700 0001 000c 08 665c6f6f2c626172 02 6832', '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"'],
  ])('%s → %s', (line, rdata) => {
    expect(one(line).rdata).toBe(rdata);
    // The same through the lexer's readers only (the byte-level reader is off with `structured`).
    expect(ok(`$ORIGIN example.com.\n$TTL 1\n${line}\n`, { structured: true }).records[0]?.rdata).toBe(rdata);
  });

  it('gives structured data for known types and none for RFC 3597 data of unknown types', () => {
    expect(one('@ MX 10 mail').data).toEqual({ preference: 10, exchange: 'mail.example.com.' });
    expect(one('@ TXT "a" "b"').data).toEqual(['a', 'b']);
    expect(one('@ TYPE65534 \\# 1 00')).not.toHaveProperty('data');
  });

  it.each([
    ['computed on first access', '@ MX 10 mail', { preference: 10, exchange: 'mail.example.com.' }],
    ['computed while parsing', '@ HINFO "PC" "Linux"', ['PC', 'Linux']],
  ])('keeps data %s: the same value on every access, settable, shown by JSON, not an enumerable key', (_, line, data) => {
    const r = one(line);
    expect(Object.keys(r)).toEqual(['name', 'ttl', 'class', 'type', 'rdata']);
    const first = r.data;
    expect(first).toEqual(data);
    expect(r.data).toBe(first);
    expect(Object.keys(r)).toEqual(['name', 'ttl', 'class', 'type', 'rdata']);
    expect(JSON.parse(JSON.stringify(r))).toEqual({ name: r.name, ttl: r.ttl, class: 'IN', type: r.type, rdata: r.rdata, data });
    r.data = 'replaced';
    expect(r.data).toBe('replaced');
    expect(ok(`$ORIGIN example.com.\n$TTL 1\n${line}\n`, { structured: true }).records[0]?.data).toEqual(data);
  });

  it('gives data of a frozen record too (computed again, equal each time)', () => {
    const r = Object.freeze(one('@ MX 10 mail'));
    expect(r.data).toEqual({ preference: 10, exchange: 'mail.example.com.' });
    expect(r.data).toEqual(r.data);
  });

  it.each([
    ['@ A 192.0.2', 'IPv4'],
    ['@ A 192.0.2.01', 'IPv4'],
    ['@ AAAA 2001:db8:::1', 'IPv6'],
    ['@ MX 65536 mail', 'out of range'],
    ['@ MX 10', 'missing'],
    ['@ A 192.0.2.1 extra', 'unexpected'],
    ['@ BOGUS foo', 'unknown record type'],
    ['@ CH A 192.0.2.1', 'class'],
    ['@ TYPE65534 \\# 2 00', 'length'],
    ['@ DS 1 8 2 abcd', 'digest'],
    ['@ DNSKEY 256 3 8 not*base64', 'base64'],
    ['@ DNSKEY BOGUS 3 8 AQAB', 'mnemonic'],
    ['@ KEY 65535 3 5 AQAB', 'no key'],
    ['@ NSEC . TYPE0 A', 'TYPE0'],
    ['@ CSYNC 0 0 TYPE0', 'TYPE0'],
    ['@ NSEC3 0 0 0 - 12345', 'trailing bits'],
    ['@ NSEC3 0 0 0 - 123', 'base32hex'],
    ['@ NSEC3 1 0 0 - CPNMUOJ1', 'SHA-1'],
    ['@ RRSIG A 8 2 3600 22260101000000 20240101000000 1 . AQAB', '2106'],
    ['@ CDS 0 0 0 0102', 'digest'],
    ['@ MINFO \\# 0', 'does not decode'],
    ['@ NXT . TYPE300', '127'],
    ['@ HTTPS 1 . dohpath', 'dohpath needs a value'],
    ['@ HTTPS 1 . dohpath=/dns-query{é?dns}', 'not a variable'],
    ['@ HTTPS 1 . dohpath=/dns-query', 'dns variable'],
    ['@ HTTPS 1 . key7=dns-query{?dns}', 'start with'],
  ])('refuses %s', (line, message) => {
    const e = bad(`$ORIGIN example.com.\n$TTL 1\n${line}\n`);
    expect(e.line).toBe(3);
    expect(e.message).toContain(message);
  });

  it('writes canonical data that dns-packet can encode for the types it models faithfully', async () => {
    const { default: packet } = await import('dns-packet');
    const z = ok('$ORIGIN e.\n$TTL 1\n@ A 192.0.2.1\n@ AAAA 2001:db8::1\n@ MX 10 m\n@ SRV 1 2 3 t\n@ TXT "a b"\n');
    for (const r of z.records) {
      const d = r.data as Record<string, unknown>;
      const data =
        r.type === 'A' || r.type === 'AAAA' ? d['address'] : r.type === 'TXT' ? (r.data as string[]) : r.type === 'MX' ? { preference: d['preference'], exchange: d['exchange'] } : d;
      const bytes = packet.encode({ type: 'response', answers: [{ type: r.type, name: r.name, ttl: r.ttl, class: 'IN', data } as never] });
      expect(bytes.length).toBeGreaterThan(12);
    }
  });
});

describe('writeZoneFile', () => {
  it('emits $ORIGIN, $TTL, the SOA first, then the records', () => {
    const records = ok('$ORIGIN e.\n$TTL 60\nwww A 192.0.2.1\n@ SOA ns host 1 2 3 4 5\n').records;
    expect(writeZoneFile({ origin: 'e.', ttl: 60, records })).toBe('$ORIGIN e.\n$TTL 60\ne. 60 IN SOA ns.e. host.e. 1 2 3 4 5\nwww.e. 60 IN A 192.0.2.1\n');
  });

  it('sorts by owner, type and data on request', () => {
    const records = ok('$ORIGIN e.\n$TTL 1\nb A 192.0.2.2\nA A 192.0.2.1\nb AAAA ::1\n').records;
    expect(writeZoneFile({ origin: 'e.', records }, { order: 'sorted' }).split('\n').slice(1, 4)).toEqual([
      'A.e. 1 IN A 192.0.2.1',
      'b.e. 1 IN A 192.0.2.2',
      'b.e. 1 IN AAAA ::1',
    ]);
  });
});
