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
  serial: fc.nat(4294967295),
  rname: fc.tuple(label, label).map(([a, b]) => `${a}.${b}.com.`),
  sets: fc.uniqueArray(recordset, { maxLength: 12, selector: (s) => s.owner.toLowerCase() }),
});

/** The zone as a master file, one line per record. */
export function renderZone(z: GenZone): string {
  const lines = [`$ORIGIN ${z.origin}`, `@ ${z.soaTtl} IN SOA ns1.example.org. ${z.rname} ${z.serial} 7200 3600 1209600 300`];
  for (const s of z.sets) for (const r of s.records) lines.push(`${s.owner} ${s.ttl} IN ${s.type} ${r}`);
  return `${lines.join('\n')}\n`;
}
