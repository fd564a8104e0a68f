import { parseIPv4, parseIPv6 } from '../../zonefile/codec.js';
import { DEFAULT_IMPORT_RECORD_TYPES } from '../kernel/record-types.js';
import { pyInt } from '../../kernel/validation.js';

/**
 * How the real service judges one record of a recordset written through the API: `'ok'`,
 * `'bad'` (the record is refused with "'<data>' is not a '<type>' Record"), or, for the few
 * inputs where its parser fails in a way it does not expect, the text of that failure (the whole
 * request is then refused with "Provided object is not valid. Got a … error with message …").
 *
 * These are the API's rules, not the zone-file grammar's: an API record is one line of
 * single-space separated fields with no quoting or escapes beyond TXT's own, MX, SSHFP and CAA
 * want the canonical integer spelling where SRV takes anything Python's `int()` reads, CAA values
 * are unquoted, names must be absolute and wildcard-free. Only the address readers are shared
 * with the zone-file engine: dotted-quad IPv4 without leading zeros and IPv6 as `inet_pton`
 * reads it are what both the real API (dnspython, netaddr) and the engine accept.
 * @internal
 */
export type RecordVerdict = 'ok' | 'bad' | { readonly crash: string };

/**
 * The record types the real service accepts through the API: its configured list, the same one
 * imports keep to by default.
 * @internal
 */
export const API_RECORD_TYPES: ReadonlySet<string> = new Set(DEFAULT_IMPORT_RECORD_TYPES);

/** Python's `str.isspace()` characters (the information separators U+001C–U+001F among them). */
const PY_SPACES = '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';
const isPySpace = (ch: string): boolean => ch !== '' && PY_SPACES.includes(ch);
const hasPySpace = (s: string): boolean => [...s].some(isPySpace);

/** An absolute name of LDH-or-underscore labels, shorter than 255 characters (the real service's zone-name pattern). */
const ZONE_NAME = /^(?:(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\.)+$/;
/** The same for names that may start with a `*` label (recordset owners). */
const HOST_NAME = /^(?:\*\.|(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\.)(?:(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\.)*$/;
/** Two underscore labels, then a zone name: where an SRV recordset may live. */
const SRV_NAME = /^(?:_[A-Za-z0-9_-]{1,63}\.){2}(?:(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\.)+$/;

/** Whether `name` passes the real service's zone-name pattern (under 255 characters). @internal */
export const isZoneStyleName = (name: string): boolean => name.length < 255 && ZONE_NAME.test(name);
/** Whether `name` passes its host-name pattern (a leading `*` label allowed). @internal */
export const isHostStyleName = (name: string): boolean => name.length < 255 && HOST_NAME.test(name);
/** Whether `name` is where an SRV recordset may live (`_service._proto.` then a zone-style name). @internal */
export const isSrvOwnerName = (name: string): boolean => name.length < 255 && SRV_NAME.test(name);

/** A name field of a record: at most 255 characters, absolute, zone-name pattern. */
const domain = (s: string): boolean => s.length <= 255 && isZoneStyleName(s);

/** Python's `int()` of a field, or undefined where it raises. */
function int(s: string): number | undefined {
  const r = pyInt(s);
  return r.isOk() ? r.value : undefined;
}

/** An integer field of the real service: `int()`, then at least 0 and at most `max`. */
const uint = (s: string, max: number): boolean => {
  const v = int(s);
  return v !== undefined && v >= 0 && v <= max;
};

/** `repr(int(s)) == s`: only the canonical spelling. */
const canonicalInt = (s: string): boolean => /^(?:0|-?[1-9][0-9]*)$/.test(s);

/** Python's `str.split(' ')`, which keeps empty fields between doubled spaces. */
const fields = (s: string): string[] => s.split(' ');

/** Python's `str.split(' ', 1)` as a pair, or undefined when there is no space. */
function splitOnce(s: string): [string, string] | undefined {
  const at = s.indexOf(' ');
  return at < 0 ? undefined : [s.slice(0, at), s.slice(at + 1)];
}

/** Python's `str.strip('"')`. */
function stripQuotes(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) === 34) a++;
  while (b > a && s.charCodeAt(b - 1) === 34) b--;
  return s.slice(a, b);
}

/**
 * Whether every `"` inside is escaped, as the real service checks it: the character before it
 * must be a backslash, and the one "before" the first character is the last one (Python's `[-1]`).
 */
function quotesEscaped(inner: string): boolean {
  for (let i = 0; i < inner.length; i++) {
    if (inner.charCodeAt(i) === 34 && inner.charAt(i === 0 ? inner.length - 1 : i - 1) !== '\\') return false;
  }
  return true;
}

function txtString(value: string): boolean {
  if (value.length > 255) return false;
  const starts = value.startsWith('"');
  const ends = value.endsWith('"');
  if (starts !== ends) return false;
  if (!(starts && ends)) return !hasPySpace(value);
  return quotesEscaped(stripQuotes(value));
}

function txt(value: string): boolean {
  if (value.endsWith('\\')) return false;
  if (value.length <= 255) return txtString(value);
  const inner = stripQuotes(value);
  if (!(value.startsWith('"') && value.endsWith('"')) && !inner.includes('" "')) return false;
  return inner.split('" "').every((part) => txtString(`"${part}"`));
}

function spf(value: string): boolean {
  if (!value.startsWith('"') && !value.endsWith('"')) return !hasPySpace(value);
  return quotesEscaped(stripQuotes(value));
}

function mx(value: string): boolean {
  const f = fields(value);
  if (f.length !== 2) return false;
  const [priority, exchange] = f as [string, string];
  return canonicalInt(priority) && uint(priority, 65535) && exchange.endsWith('.') && exchange.length <= 255;
}

function srv(value: string): boolean {
  const f = fields(value);
  if (f.length !== 4) return false;
  return uint(f[0]!, 65535) && uint(f[1]!, 65535) && uint(f[2]!, 65535) && domain(f[3]!);
}

function sshfp(value: string): boolean {
  const f = fields(value);
  if (f.length !== 3) return false;
  const [algorithm, fpType, fingerprint] = f as [string, string, string];
  if (!canonicalInt(algorithm) || !canonicalInt(fpType)) return false;
  return uint(algorithm, 4) && uint(fpType, 2) && /^(?:[0-9A-Fa-f]{10,40}|[0-9A-Fa-f]{64})$/.test(fingerprint);
}

/** A CAA value's domain part: labels of at most 63 characters, a zone-style name once a dot is added. */
const caaDomain = (idn: string): boolean => idn.split('.').every((l) => l.length <= 63) && isZoneStyleName(`${idn}.`);

function caa(value: string): RecordVerdict {
  const parts = splitOnce(value);
  if (parts === undefined) return 'bad';
  const [flags, property] = parts;
  if (!uint(flags, 1)) return 'bad';
  const tagged = splitOnce(property);
  // The real parser indexes the value after the tag without checking it is there.
  if (tagged === undefined) return { crash: 'IndexError error with message list index out of range' };
  const [tag, val] = tagged;
  if (tag === 'issue' || tag === 'issuewild') {
    const [idn = '', ...pairs] = val.split(';');
    if (!caaDomain(idn)) return 'bad';
    return pairs.every((p) => isPySpace(p.charAt(0)) && /^.[A-Za-z0-9]+=[A-Za-z0-9]+/s.test(p)) ? 'ok' : 'bad';
  }
  if (tag === 'iodef') {
    if (/^mailto:[A-Za-z0-9_-]+(?:\+[A-Za-z0-9_-]+)?@/.test(val)) return caaDomain(val.split('@')[1]!) ? 'ok' : 'bad';
    if (/^https?:\/\/.*\//.test(val)) return caaDomain(val.split('/')[2]!) ? 'ok' : 'bad';
  }
  return 'bad';
}

function naptr(value: string): boolean {
  const f = fields(value);
  if (f.length !== 6) return false;
  const [order, preference, flags, service, regexp, replacement] = f as [string, string, string, string, string, string];
  if (!uint(order, 65535) || !uint(preference, 65535)) return false;
  // Python's `$` also matches before a final newline.
  if (flags.length > 255 || !/^(?!.*(.).*\1)[APSU]+\n?$/.test(flags)) return false;
  if (service.length > 255) return false;
  if (regexp.length > 255 || (regexp !== '' && !/^([^0-9i\\])(.*)\1(?:.+|\\[1-9])\1/.test(regexp))) return false;
  return domain(replacement);
}

const CERT_TYPES = new Set(['PKIX', 'SPKI', 'PGP', 'IPKIX', 'ISPKI', 'IPGP', 'ACPKIX', 'IACPKIX', 'URI', 'OID', 'DPKIX', 'DPTR']);
const CERT_ALGOS = new Set([
  'RSAMD5',
  'DSA',
  'RSASHA1',
  'DSA-NSEC3-SHA1',
  'RSASHA1-NSEC3-SHA1',
  'RSASHA256',
  'RSASHA512',
  'ECC-GOST',
  'ECDSAP256SHA256',
  'ECDSAP384SHA384',
  'ED25519',
  'ED448',
]);

const isB64 = (c: number): boolean =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;

/**
 * Whether Python's lenient base64 decoder (`binascii.a2b_base64`, not strict) accepts the text:
 * characters outside the alphabet are skipped, a complete padding ends the input, and what
 * remains must fill whole quads.
 */
function lenientBase64(s: string): boolean {
  let quad = 0;
  let pads = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 61) {
      pads++;
      if (quad >= 2 && quad + pads >= 4) return true;
      continue;
    }
    if (!isB64(c)) continue;
    pads = 0;
    quad = (quad + 1) % 4;
  }
  return quad === 0;
}

function cert(value: string): boolean {
  const f = value.split(' ');
  if (f.length < 4) return false;
  const [type, keyTag, algo] = f as [string, string, string];
  const certificate = f.slice(3).join(' ');
  if (!CERT_TYPES.has(type) && !uint(type, 65535)) return false;
  if (!/^(?:[A-Z]+|[0-9]+)\n?$/.test(type)) return false;
  if (!uint(keyTag, 65535)) return false;
  if (!CERT_ALGOS.has(algo) && !uint(algo, 255)) return false;
  if (!/^(?:[A-Z]+[A-Z0-9-]+[A-Z0-9]|[0-9]+)\n?$/.test(algo)) return false;
  return lenientBase64(certificate);
}

function soa(value: string): boolean {
  const f = fields(value);
  if (f.length !== 7) return false;
  const [mname, rname, serial, ...times] = f as [string, string, string, string, string, string, string];
  if (!domain(mname) || !domain(rname)) return false;
  const s = int(serial);
  return s !== undefined && s >= 1 && s <= 4294967295 && times.every((t) => uint(t, 2147483647));
}

/**
 * Judges one record's data for a type of {@link API_RECORD_TYPES}.
 * @param type - the recordset's type, one of {@link API_RECORD_TYPES}
 * @param data - the record as the client sent it (already a string)
 * @internal
 */
export function checkRecord(type: string, data: string): RecordVerdict {
  switch (type) {
    case 'A':
      return parseIPv4(data, 0, data.length) ? 'ok' : 'bad';
    case 'AAAA':
      // An IPv4 text would be read as IPv4 first, which is not an AAAA address either.
      return data.length > 0 && parseIPv6(data, 0, data.length) !== null ? 'ok' : 'bad';
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return domain(data) ? 'ok' : 'bad';
    case 'MX':
      return mx(data) ? 'ok' : 'bad';
    case 'SRV':
      return srv(data) ? 'ok' : 'bad';
    case 'TXT':
      return txt(data) ? 'ok' : 'bad';
    case 'SPF':
      return spf(data) ? 'ok' : 'bad';
    case 'SSHFP':
      return sshfp(data) ? 'ok' : 'bad';
    case 'CAA':
      return caa(data);
    case 'NAPTR':
      return naptr(data) ? 'ok' : 'bad';
    case 'CERT':
      return cert(data) ? 'ok' : 'bad';
    case 'SOA':
      return soa(data) ? 'ok' : 'bad';
    default:
      return 'bad';
  }
}
