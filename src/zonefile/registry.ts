/** Mnemonics for record types, classes, DNSSEC algorithms and CERT types. */

const TYPES: readonly (readonly [string, number])[] = [
  ['A', 1], ['NS', 2], ['MD', 3], ['MF', 4], ['CNAME', 5], ['SOA', 6], ['MB', 7], ['MG', 8], ['MR', 9],
  ['NULL', 10], ['WKS', 11], ['PTR', 12], ['HINFO', 13], ['MINFO', 14], ['MX', 15], ['TXT', 16], ['RP', 17],
  ['AFSDB', 18], ['X25', 19], ['ISDN', 20], ['RT', 21], ['NSAP', 22], ['NSAP-PTR', 23], ['SIG', 24],
  ['KEY', 25], ['PX', 26], ['GPOS', 27], ['AAAA', 28], ['LOC', 29], ['NXT', 30], ['SRV', 33], ['NAPTR', 35],
  ['KX', 36], ['CERT', 37], ['A6', 38], ['DNAME', 39], ['OPT', 41], ['APL', 42], ['DS', 43], ['SSHFP', 44],
  ['IPSECKEY', 45], ['RRSIG', 46], ['NSEC', 47], ['DNSKEY', 48], ['DHCID', 49], ['NSEC3', 50],
  ['NSEC3PARAM', 51], ['TLSA', 52], ['SMIMEA', 53], ['HIP', 55], ['NINFO', 56], ['CDS', 59],
  ['CDNSKEY', 60], ['OPENPGPKEY', 61], ['CSYNC', 62], ['ZONEMD', 63], ['SVCB', 64], ['HTTPS', 65], ['DSYNC', 66],
  ['SPF', 99], ['UNSPEC', 103], ['NID', 104], ['L32', 105], ['L64', 106], ['LP', 107], ['EUI48', 108],
  ['EUI64', 109], ['TKEY', 249], ['TSIG', 250], ['IXFR', 251], ['AXFR', 252], ['MAILB', 253], ['MAILA', 254],
  ['ANY', 255], ['URI', 256], ['CAA', 257], ['AVC', 258], ['AMTRELAY', 260], ['RESINFO', 261], ['WALLET', 262], ['TA', 32768], ['DLV', 32769],
];

const typeByName = new Map<string, number>(TYPES);
const nameByType = new Map<number, string>(TYPES.map(([n, v]) => [v, n]));

/** Meta and query-only types that cannot appear as zone data. */
export const META_TYPES: ReadonlySet<number> = new Set([41, 249, 250, 251, 252, 253, 254, 255]);

/** The type number for a mnemonic or `TYPE<n>` (upper case), or -1. */
export function typeFromText(upper: string): number {
  const known = typeByName.get(upper);
  if (known !== undefined) return known;
  return prefixedNumber(upper, 'TYPE');
}

/**
 * The types that may stand beside a CNAME (RFC 4035 §2.5: NSEC, RRSIG, and KEY; NSEC3 as dnspython
 * has it): the one list both the engine's CNAME rule and the import's use.
 * @internal
 */
export function mayStandBesideCname(type: number): boolean {
  return type === 47 || type === 46 || type === 25 || type === 50;
}

export function typeToText(type: number): string {
  return nameByType.get(type) ?? `TYPE${type}`;
}

/** A number written as `<prefix><digits>` (e.g. `TYPE65534`, `CLASS1`), or -1. */
export function prefixedNumber(upper: string, prefix: string): number {
  if (!upper.startsWith(prefix) || upper.length === prefix.length || upper.length > prefix.length + 5) return -1;
  let v = 0;
  for (let i = prefix.length; i < upper.length; i++) {
    const c = upper.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v > 65535 ? -1 : v;
}

const ALGORITHMS: readonly (readonly [string, number])[] = [
  ['RSAMD5', 1], ['DH', 2], ['DSA', 3], ['ECC', 4], ['RSASHA1', 5], ['DSANSEC3SHA1', 6],
  ['RSASHA1NSEC3SHA1', 7], ['RSASHA256', 8], ['RSASHA512', 10], ['ECCGOST', 12], ['ECDSAP256SHA256', 13],
  ['ECDSAP384SHA384', 14], ['ED25519', 15], ['ED448', 16], ['INDIRECT', 252], ['PRIVATEDNS', 253],
  ['PRIVATEOID', 254],
];
const algorithmByName = new Map<string, number>(ALGORITHMS);
const nameByAlgorithm = new Map<number, string>(ALGORITHMS.map(([n, v]) => [v, n]));

export function algorithmFromText(upper: string): number {
  return algorithmByName.get(upper) ?? -1;
}

export function algorithmToText(alg: number): string {
  return nameByAlgorithm.get(alg) ?? String(alg);
}

const CERT_TYPES: readonly (readonly [string, number])[] = [
  ['PKIX', 1], ['SPKI', 2], ['PGP', 3], ['IPKIX', 4], ['ISPKI', 5], ['IPGP', 6], ['ACPKIX', 7],
  ['IACPKIX', 8], ['URI', 253], ['OID', 254],
];
const certTypeByName = new Map<string, number>(CERT_TYPES);
const nameByCertType = new Map<number, string>(CERT_TYPES.map(([n, v]) => [v, n]));

export function certTypeFromText(upper: string): number {
  return certTypeByName.get(upper) ?? -1;
}

export function certTypeToText(type: number): string {
  return nameByCertType.get(type) ?? String(type);
}

/**
 * The commonest record types by their mnemonic's letters packed into one number (5 bits each,
 * case folded, up to five letters), else -1: one switch decides per record, in both the lexer
 * path and the byte path of the parser. None of these mnemonics is also a class name.
 * @internal
 */
export function typeOfPackedKey(key: number): number {
  switch (key) {
    case 0x1: // A
      return 1;
    case 0x1d3: // NS
      return 2;
    case 0x1b8: // MX
      return 15;
    case 0x93: // DS
      return 43;
    case 0x5314: // TXT
      return 16;
    case 0x4e56: // SRV
      return 33;
    case 0xc21: // CAA
      return 257;
    case 0x4292: // PTR
      return 12;
    case 0x4de1: // SOA
      return 6;
    case 0x8421: // AAAA
      return 28;
    case 0x3705a5: // CNAME
      return 5;
    default:
      return -1;
  }
}
