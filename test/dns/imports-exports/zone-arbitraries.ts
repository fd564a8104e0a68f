/**
 * fast-check zones for the import/export laws: every record type the service stores by default
 * (SOA and apex NS are the pool's), owners in mixed case, TXT-like strings with the escapes a
 * master file allows, and NAPTR regular expressions full of backslashes.
 */
import fc from 'fast-check';

export interface GenSet {
  owner: string;
  type: string;
  ttl: number;
  records: string[];
}

export interface GenZone {
  origin: string;
  soaTtl: number;
  serial: number;
  rname: string;
  sets: GenSet[];
}

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/);
const mixCase = (s: string, flips: number): string =>
  [...s].map((c, i) => ((flips >> i % 16) & 1 ? c.toUpperCase() : c)).join('');
// TTL 0 is left out: the reference layout writes such a recordset without a TTL, and what a
// TTL-less line means on the way back in (the $TTL, or the last stated TTL as dnspython reads it)
// is the parser's rule, not the export's; exports.test.ts covers the TTL-less line itself.
const ttl = fc.oneof(fc.integer({ min: 1, max: 2147483647 }), fc.constantFrom(300, 3600, 86400));
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
const ipv6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((p) => p.map((x) => x.toString(16)).join(':'));
const host = fc.array(label, { minLength: 1, maxLength: 3 }).map((l) => `${l.join('.')}.example.org.`);
const hex = (bytes: number): fc.Arbitrary<string> => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));

/** One character of a quoted string as a master file may write it: plain, `\"`, `\\`, `\;` or `\DDD`. */
const stringChar = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[ -!#-[\]-~]$/) },
  { weight: 1, arbitrary: fc.constantFrom('\\"', '\\\\', '\\;', '\\(') },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }).map((n) => `\\${String(n).padStart(3, '0')}`) },
);
const quoted = fc.array(stringChar, { maxLength: 20 }).map((cs) => `"${cs.join('')}"`);
const txt = fc.array(quoted, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' '));

const naptr = fc.oneof(
  // A rewrite by regular expression (the replacement is then the root)...
  fc
    .tuple(fc.nat(65535), fc.nat(65535), fc.constantFrom('U', 'u', ''), fc.constantFrom('E2U+sip', 'E2U+email:mailto', 'SIP+D2U'), fc.constantFrom(
      '"!^.*$!sip:info@example.com!"',
      '"!^\\\\+1(.*)$!sip:\\\\1@example.com!i"',
      '"/urn:cid:.+@([^\\\\.]+\\\\.)(.*)$/\\\\2/i"',
    ))
    .map(([order, pref, flags, service, regexp]) => `${order} ${pref} "${flags}" "${service}" ${regexp} .`),
  // ... or a replacement name, with an empty expression.
  fc.tuple(fc.nat(65535), fc.nat(65535), fc.constantFrom('S', 'A', ''), fc.constantFrom('SIP+D2T', 'http+I2R'), host).map(
    ([order, pref, flags, service, h]) => `${order} ${pref} "${flags}" "${service}" "" ${h}`,
  ),
);

const rdataOf: Record<string, fc.Arbitrary<string>> = {
  A: ipv4,
  AAAA: ipv6,
  TXT: txt,
  SPF: txt,
  MX: fc.tuple(fc.nat(65535), host).map(([p, h]) => `${p} ${h}`),
  SRV: fc.tuple(fc.nat(65535), fc.nat(65535), fc.nat(65535), host).map(([a, b, c, h]) => `${a} ${b} ${c} ${h}`),
  CAA: fc.tuple(fc.constantFrom('issue', 'iodef', 'issuewild'), fc.stringMatching(/^[a-z.]{1,12}$/)).map(([t, v]) => `0 ${t} "${v}"`),
  PTR: host,
  NS: host,
  CNAME: host,
  SSHFP: fc
    .tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom(1, 2))
    .chain(([alg, fp]) => hex(fp === 1 ? 20 : 32).map((digest) => `${alg} ${fp} ${digest}`)),
  NAPTR: naptr,
  CERT: fc
    .tuple(fc.constantFrom('PKIX', 'PGP', '1', '3'), fc.nat(65535), fc.constantFrom('0', '8', 'RSASHA256'), fc.uint8Array({ minLength: 1, maxLength: 48 }))
    .map(([type, tag, alg, data]) => `${type} ${tag} ${alg} ${Buffer.from(data).toString('base64')}`),
};

const recordset = fc
  .constantFrom(...Object.keys(rdataOf))
  .chain((type) =>
    fc.record({
      owner: label,
      flips: fc.nat(),
      type: fc.constant(type),
      ttl,
      records: fc.uniqueArray(rdataOf[type]!, { minLength: 1, maxLength: type === 'CNAME' ? 1 : 4 }),
    }),
  )
  .map(({ owner, flips, type, ttl: t, records }) => ({
    // One owner per recordset (a type prefix keeps CNAMEs and delegations apart from other data).
    owner: mixCase(`${type.toLowerCase()}-${owner}`, flips),
    type,
    ttl: t,
    records,
  }));

/** A zone of up to 12 recordsets of the default types, each at an owner of its own. */
export const genZone: fc.Arbitrary<GenZone> = fc.record({
  origin: fc.tuple(label, fc.constantFrom('com', 'net', 'org')).map(([a, b]) => `${a}.${b}.`),
  soaTtl: fc.integer({ min: 1, max: 2147483647 }),
  // From 1: the real service refuses an import with serial 0 (its SOA record's serial starts at 1).
  serial: fc.integer({ min: 1, max: 4294967295 }),
  rname: fc.tuple(label, label).map(([a, b]) => `${a}.${b}.com.`),
  sets: fc.uniqueArray(recordset, { maxLength: 12, selector: (s) => s.owner.toLowerCase() }),
});

/** The zone as a master file, one line per record. */
export function renderZone(z: GenZone): string {
  const lines = [`$ORIGIN ${z.origin}`, `@ ${z.soaTtl} IN SOA ns1.example.org. ${z.rname} ${z.serial} 7200 3600 1209600 300`];
  for (const s of z.sets) for (const r of s.records) lines.push(`${s.owner} ${s.ttl} IN ${s.type} ${r}`);
  return `${lines.join('\n')}\n`;
}

/** A name relative to the origin (completed with it on import), `@`, or absolute in mixed case. */
const target = fc.oneof(
  { weight: 3, arbitrary: host },
  { weight: 2, arbitrary: fc.array(label, { minLength: 1, maxLength: 2 }).map((l) => l.join('.')) },
  { weight: 1, arbitrary: fc.constant('@') },
  { weight: 1, arbitrary: fc.tuple(host, fc.nat()).map(([h, flips]) => mixCase(h, flips)) },
);

/** An IPv6 address as files write it: full with leading zeros, compressed, upper-case, with an IPv4 tail. */
const ipv6Written = fc.oneof(
  ipv6,
  fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((p) => p.map((x) => x.toString(16).padStart(4, '0')).join(':')),
  fc.tuple(fc.array(fc.nat(0xffff), { maxLength: 3 }), fc.array(fc.nat(0xffff), { maxLength: 3 })).map(([a, b]) => `${a.map((x) => x.toString(16)).join(':')}::${b.map((x) => x.toString(16)).join(':')}`),
  fc.tuple(fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }), fc.nat(7)).map(([p, zeros]) =>
    p.map((x, i) => (i < zeros ? 0 : x).toString(16).toUpperCase()).join(':'),
  ),
  fc.tuple(fc.constantFrom('::ffff:', '::', '64:ff9b::'), ipv4).map(([prefix, v4]) => `${prefix}${v4}`),
);

/** Hex split into groups, in either case (SSHFP digests as tools print them). */
const hexWritten = (digest: string): fc.Arbitrary<string> =>
  fc.tuple(fc.boolean(), fc.nat(digest.length)).map(([upper, cut]) => {
    const h = upper ? digest.toUpperCase() : digest;
    return cut > 0 && cut < h.length ? `${h.slice(0, cut)} ${h.slice(cut)}` : h;
  });

/** Quoted strings with non-ASCII text and `\DDD`, and unquoted words. */
const txtWritten = fc.oneof(
  txt,
  fc.array(fc.oneof(stringChar, fc.constantFrom('é', 'ü', '日本', '€', 'ß')), { maxLength: 12 }).map((cs) => `"${cs.join('')}"`),
  fc.array(fc.stringMatching(/^[a-zA-Z0-9=.:-]{1,10}$/), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
);

/** Record data as real files write it, per type (genZone's forms among them). */
const writtenRdataOf: Record<string, fc.Arbitrary<string>> = {
  ...rdataOf,
  AAAA: ipv6Written,
  TXT: txtWritten,
  SPF: txtWritten,
  MX: fc.tuple(fc.nat(65535), target).map(([p, h]) => `${p} ${h}`),
  SRV: fc.tuple(fc.nat(65535), fc.nat(65535), fc.nat(65535), target).map(([a, b, c, h]) => `${a} ${b} ${c} ${h}`),
  PTR: target,
  NS: target,
  CNAME: target,
  SSHFP: fc
    .tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom(1, 2))
    .chain(([alg, fp]) => hex(fp === 1 ? 20 : 32).chain(hexWritten).map((digest) => `${alg} ${fp} ${digest}`)),
  CERT: fc
    .tuple(rdataOf['CERT']!, fc.nat(60))
    .map(([cert, cut]) => {
      // Base64 split anywhere, as long keys are wrapped.
      const at = cert.lastIndexOf(' ') + 1 + cut;
      return at < cert.length ? `${cert.slice(0, at)} ${cert.slice(at)}` : cert;
    }),
  CAA: fc
    .tuple(fc.constantFrom(0, 128), fc.constantFrom('issue', 'iodef', 'issuewild', 'ISSUE'), fc.stringMatching(/^[a-z.;=]{0,12}$/))
    .map(([flags, tag, value]) => `${flags} ${tag} "${value}"`),
};

/** How one record line is written. */
interface LineStyle {
  readonly owner: 'relative' | 'absolute' | 'blank';
  readonly ttl: 'stated' | 'unit' | 'none';
  readonly cls: 'IN' | 'in' | 'none';
  readonly lowerType: boolean;
  readonly comment: boolean;
  readonly split: boolean;
  readonly twice: boolean;
}

const lineStyle: fc.Arbitrary<LineStyle> = fc.record({
  owner: fc.constantFrom('relative', 'relative', 'absolute', 'blank'),
  ttl: fc.constantFrom('stated', 'stated', 'unit', 'none'),
  cls: fc.constantFrom('IN', 'IN', 'in', 'none'),
  lowerType: fc.boolean(),
  comment: fc.boolean(),
  split: fc.boolean(),
  twice: fc.boolean(),
});

interface FileSet {
  readonly owner: string;
  readonly type: string;
  readonly ttl: number;
  readonly records: readonly { readonly data: string; readonly style: LineStyle }[];
}

/** A zone file in the layouts people use, and the origin it names. */
export interface GenZoneFile {
  readonly origin: string;
  readonly text: string;
}

const fileSet = (owner: fc.Arbitrary<string>): fc.Arbitrary<FileSet> =>
  fc.constantFrom(...Object.keys(writtenRdataOf)).chain((type) =>
    fc.record({
      owner,
      type: fc.constant(type),
      ttl,
      records: fc.uniqueArray(fc.record({ data: writtenRdataOf[type]!, style: lineStyle }), {
        minLength: 1,
        maxLength: type === 'CNAME' ? 1 : 4,
        selector: (r) => r.data,
      }),
    }),
  );

/** A TTL in BIND's units (`1h30m`), the way files often state them. */
function ttlWithUnits(t: number): string {
  const units: [string, number][] = [['w', 604800], ['d', 86400], ['h', 3600], ['m', 60]];
  let rest = t;
  let out = '';
  for (const [unit, size] of units) {
    if (rest >= size) {
      out += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return rest > 0 || out === '' ? `${out}${rest}s` : out;
}

/** Record data over several lines in parentheses, with a comment inside. */
const splitData = (data: string): string => {
  const at = data.indexOf(' ');
  return at < 0 || data.startsWith('"') ? `( ${data} )` : `( ${data.slice(0, at)} ; first field\n\t${data.slice(at + 1)} )`;
};

/**
 * A zone file as people write one for the differential import property: the recordsets of every
 * stored type at lower-case owners (the real service fails on mixed-case owners inside the zone,
 * a difference kept on purpose), some at the apex, written with `$TTL` or without it, relative
 * and absolute names, blank owners, `@`, TTLs in units or left out, class and type in either
 * case, comments, parentheses over several lines, duplicate lines, AAAA in non-canonical forms,
 * SOA serials from 0,
 * hex in either case, wrapped base64, TXT with non-ASCII text and `\DDD`. `zone` must be a fresh
 * label so that generated origins never collide.
 */
export const genZoneFile = (zone: string): fc.Arbitrary<GenZoneFile> =>
  fc
    .record({
      origin: fc.constantFrom('zwgen', 'zwfile').map((tld) => `${zone}.${tld}.`),
      soaTtl: fc.integer({ min: 1, max: 2147483647 }),
      serial: fc.oneof({ weight: 9, arbitrary: fc.nat(4294967295) }, { weight: 1, arbitrary: fc.constant(0) }),
      minimum: fc.constantFrom(300, 3600, 86400, 1),
      rname: fc.tuple(label, label).map(([a, b]) => `${a}.${b}.com.`),
      dollarTtl: fc.constantFrom('none', 'before', 'after'),
      dollarTtlValue: ttl,
      header: fc.boolean(),
      soaOwner: fc.constantFrom('@', 'absolute'),
      soaSplit: fc.boolean(),
      soaTtlStated: fc.boolean(),
      apexNs: fc.boolean(),
      apex: fc.uniqueArray(fileSet(fc.constant('@')).filter((s) => s.type !== 'CNAME' && s.type !== 'NS'), { maxLength: 2, selector: (s) => s.type }),
      sets: fc.uniqueArray(
        fileSet(label).map((s) => ({ ...s, owner: `${s.type.toLowerCase()}-${s.owner}` })),
        { maxLength: 10, selector: (s) => s.owner },
      ),
    })
    .map((z) => {
      const lines: string[] = [];
      if (z.header) lines.push(`; zone ${z.origin} as exported by hand`, '');
      const dollarTtl = `$TTL ${z.dollarTtlValue}`;
      if (z.dollarTtl === 'before') lines.push(dollarTtl);
      lines.push(`$ORIGIN ${z.origin}`);
      if (z.dollarTtl === 'after') lines.push(dollarTtl);
      const soaOwner = z.soaOwner === '@' ? '@' : z.origin;
      const soaData = `ns1.example.org. ${z.rname} ${z.serial} 7200 3600 1209600 ${z.minimum}`;
      // Without a stated TTL the SOA takes the $TTL or its own minimum.
      const soaTtl = z.soaTtlStated || z.dollarTtl === 'none' ? `${z.soaTtl} ` : '';
      lines.push(`${soaOwner} ${soaTtl}IN SOA ${z.soaSplit ? `ns1.example.org. ${z.rname} (\n\t${z.serial} ; serial\n\t7200 3600 1209600\n\t${z.minimum} )` : soaData}`);
      if (z.apexNs) lines.push(`\tIN NS ns1.example.org.`);
      for (const s of [...z.apex, ...z.sets]) {
        s.records.forEach(({ data, style }, i) => {
          const owner =
            s.owner === '@' ? (style.owner === 'absolute' ? z.origin : i > 0 && style.owner === 'blank' ? '' : '@')
            : style.owner === 'absolute' ? `${s.owner}.${z.origin}`
            : style.owner === 'blank' && i > 0 ? ''
            : s.owner;
          const t = style.ttl === 'stated' ? `${s.ttl}` : style.ttl === 'unit' ? ttlWithUnits(s.ttl) : '';
          const cls = style.cls === 'none' ? '' : style.cls === 'in' ? 'in' : 'IN';
          const type = style.lowerType ? s.type.toLowerCase() : s.type;
          // The TTL before the class: the real service refuses the other order (see KNOWN in zones.oracle.test.ts).
          const line = [owner === '' ? '\t' : owner, t, cls, type, style.split ? splitData(data) : data].filter((f) => f !== '').join(' ');
          const written = style.comment ? `${line} ; ${s.type} record ${i + 1}` : line;
          lines.push(written);
          if (style.twice) lines.push(written);
        });
      }
      return { origin: z.origin, text: `${lines.join('\n')}\n` };
    });
