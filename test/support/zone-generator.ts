/**
 * The project's own generator of realistic master files, for tests and benches: the same
 * options and seed give the same bytes, on any machine, with nothing outside the repository.
 *
 * What a zone holds, roughly in the proportions of hosted zones: hosts with one to four A
 * records and sometimes AAAA (compressed and full forms), aliases (CNAME to in-zone hosts, CDNs,
 * ACME challenges), mail (MX sets with SPF), TXT of every shape (SPF, DMARC, site verification,
 * DKIM keys split over parenthesised lines, several strings, escapes, empty strings, `;` inside
 * quotes, bare words), SRV services, CAA policies, SSHFP, wildcards, delegations with glue (and
 * DS with `ds`), and department blocks under their own `$ORIGIN` and `$TTL`. How it is written
 * varies as in hand-kept files: `@`, relative and absolute owners, blank owners continuing the
 * previous one, TTLs in seconds and in units (`1h30m`), the class written, in lower case or
 * left out, tabs or spaces, comments on their own lines and after records, and names and types
 * in mixed case. Every name has one kind of data (no CNAME beside other data), each RRset one
 * TTL, and nothing sits below a delegation but its glue, so named-checkzone, kzonecheck and
 * nsd-checkzone accept every file, and the DNS service imports it (without `ds`, whose DS
 * records it refuses by default).
 */
import { seededRandom } from '../../src/testing/index.js';

/** What {@link generateZone} writes. */
export interface ZoneGeneratorOptions {
  /** Exactly this many records, SOA included (at least 20). */
  readonly records: number;
  /** Same seed, same file. @defaultValue 1 */
  readonly seed?: number | string;
  /** The zone's name, absolute. @defaultValue 'example.com.' */
  readonly origin?: string;
  /** Also write DS records at delegations. @defaultValue false */
  readonly ds?: boolean;
  /** Also write some records as `<class> <ttl> <type>` (RFC 1035 allows both orders; some tools refuse this one). @defaultValue false */
  readonly classBeforeTtl?: boolean;
}

interface Rec {
  readonly owner: string; // absolute, lower case
  readonly ttl: string | null;
  readonly type: string;
  readonly data: string | readonly string[]; // an array: parenthesised over several lines
  readonly note?: string | undefined;
}

const WORDS = {
  host: ['www', 'app', 'api', 'db', 'mail', 'vpn', 'git', 'ci', 'static', 'shop', 'blog', 'docs', 'auth', 'sso', 'portal', 'dev', 'stage', 'lb', 'edge', 'cache', 'mq', 'search', 'metrics', 'logs', 'backup', 'files', 'wiki', 'crm', 'proxy', 'gw', 'nas', 'vm', 'worker', 'status', 'grafana'],
  alias: ['www', 'cdn', 'assets', 'media', 'download', 'go', 'link', 'track', 'email', 'autodiscover', 'help', 'support', 'm'],
  zone: ['corp', 'lab', 'eu', 'us', 'customer', 'partner', 'research'],
  region: ['eu-west', 'eu-central', 'us-east', 'us-west', 'ap-south'],
};
const EXTERNAL = {
  cname: ['cdn.cloudprovider.net.', 'azurewebsites.net.', 'cloudfront.net.', 'herokudns.com.', 'github.io.', 'edgekey.net.'],
  mx: ['aspmx.l.google.com.', 'alt1.aspmx.l.google.com.', 'mx1.mail-provider.net.', 'mx2.mail-provider.net.', 'mx.zoho.eu.'],
  ns: ['ns1.dns-provider.net.', 'ns2.dns-provider.net.', 'ns-123.awsdns-15.com.', 'a.ns.hoster.org.', 'b.ns.hoster.org.'],
  srv: ['sip.voip-provider.net.', 'xmpp.chat-provider.org.', 'ldap.directory.example.net.'],
};
const SERVICES: readonly (readonly [string, number])[] = [
  ['_sip._tcp', 5060], ['_sips._tcp', 5061], ['_xmpp-client._tcp', 5222], ['_ldap._tcp', 389],
  ['_kerberos._udp', 88], ['_imaps._tcp', 993], ['_submission._tcp', 587], ['_caldavs._tcp', 443],
];
const AUTHORITIES = ['letsencrypt.org', 'pki.goog', 'digicert.com', 'sectigo.com', 'globalsign.com'];
const NOTES = ['managed by terraform', 'owner: platform team', 'do not delete', 'legacy', 'see OPS-1234', 'round robin'];
const TTLS = ['60', '300', '600', '3600', '7200', '86400', '5m', '1h', '2h30m', '1d', '1W', '30M'];
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const HEX = '0123456789abcdef';

/**
 * A master file of exactly `options.records` records, the same for the same options.
 *
 * @example
 * ```ts
 * const text = generateZone({ records: 1000, seed: 7 });
 * ```
 */
export function generateZone(options: ZoneGeneratorOptions): string {
  const { records, seed = 1, ds = false, classBeforeTtl = false } = options;
  const origin = (options.origin ?? 'example.com.').toLowerCase();
  if (!Number.isInteger(records) || records < 20) throw new RangeError('generateZone: records must be an integer of at least 20');
  if (!/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+$/.test(origin)) throw new RangeError('generateZone: origin must be an absolute host name');

  const random = seededRandom(`zoneward-zone:${String(seed)}`);
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chance = (p: number): boolean => random() < p;
  const text = (alphabet: string, n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)]!;
    return s;
  };
  const bare = origin.slice(0, -1);

  const out: string[] = [`; ${origin} (generated: records ${records}, seed ${String(seed)})`, '', `$ORIGIN ${origin}`, '$TTL 3600\t; one hour', ''];
  let current = origin; // the $ORIGIN relative names are written against
  let serial = 0;
  const hosts: string[] = []; // in-zone names holding addresses, for MX, SRV and CNAME targets

  const fresh = (words: readonly string[]): string => {
    serial++;
    return chance(0.15) ? `${pick(words)}-${pick(WORDS.region)}-${serial}` : `${pick(words)}${serial}`;
  };
  const cased = (name: string): string => {
    const r = random();
    if (r < 0.03) return name.toUpperCase();
    if (r < 0.05) return name.replace(/(^|\.)([a-z])/g, (_, dot: string, c: string) => dot + c.toUpperCase());
    return name;
  };
  /** A name as written: `@`, relative to the current `$ORIGIN`, or absolute. */
  const written = (name: string, absolute = 0.2): string => {
    if (name === current) return chance(0.9) ? '@' : cased(name);
    if (name.endsWith(`.${current}`) && !chance(absolute)) return cased(name.slice(0, -current.length - 1));
    return cased(name);
  };
  const target = (external: readonly string[], inZone: number): string => (hosts.length > 0 && chance(inZone) ? written(pick(hosts), 0.4) : pick(external));
  const ttl = (): string | null => (chance(0.7) ? null : pick(TTLS));
  const v4 = (n: number): string[] => {
    const net = pick([[10, int(0, 255), int(0, 255)], [172, int(16, 31), int(0, 255)], [192, 0, 2], [198, 51, 100], [203, 0, 113]]);
    const first = int(1, 250 - n);
    return Array.from({ length: n }, (_, i) => `${net.join('.')}.${first + i}`);
  };
  const v6 = (n: number): string[] => {
    const [a, b] = [int(0, 0xffff).toString(16), int(0, 0xffff).toString(16)];
    const last = int(1, 0xff00);
    const full = chance(0.2);
    return Array.from({ length: n }, (_, i) =>
      full ? `2001:0db8:${a.padStart(4, '0')}:${b.padStart(4, '0')}:0000:0000:0000:${(last + i).toString(16).padStart(4, '0')}` : `2001:db8:${a}:${b}::${(last + i).toString(16)}`,
    );
  };
  const quoted = (s: string): string => `"${s}"`;
  const txtData = (label: string): string => {
    const r = random();
    if (r < 0.2) return quoted(`v=spf1 ip4:${v4(1)[0]!} include:_spf.mail-provider.net ~all`);
    if (r < 0.35) return quoted(`google-site-verification=${text(BASE64.slice(0, 62), 43)}`);
    if (r < 0.45) return `${quoted('part one, with spaces')} ${quoted(`part two; ${pick(NOTES)}`)}`;
    if (r < 0.55) return quoted(`note: \\"${pick(NOTES)}\\" for ${label}`);
    if (r < 0.62) return `${quoted(`path=C:\\\\srv\\\\${label}`)} ${quoted('caf\\233 cr\\232me')}`;
    if (r < 0.7) return `token-${text(BASE64.slice(0, 62), 12)}`;
    if (r < 0.78) return `${quoted(`k=${int(0, 999999)}`)} "" ${quoted('after an empty string')}`;
    return quoted(`MS=ms${int(10000000, 99999999)}`);
  };

  // One entity: the records of one name (or one delegation with its glue), written together.
  const kinds: readonly (readonly [number, () => Rec[]])[] = [
    [38, () => {
      const owner = `${fresh(WORDS.host)}.${current}`;
      const t = ttl();
      const recs: Rec[] = v4(pick([1, 1, 1, 1, 2, 2, 3, 4])).map((a) => ({ owner, ttl: t, type: 'A', data: a, note: chance(0.04) ? pick(NOTES) : undefined }));
      const t6 = chance(0.7) ? t : null;
      if (chance(0.4)) recs.push(...v6(chance(0.85) ? 1 : 2).map((a) => ({ owner, ttl: t6, type: 'AAAA', data: a })));
      if (chance(0.05)) recs.push({ owner, ttl: null, type: 'SSHFP', data: `${pick([1, 3, 4])} 2 ${text(HEX, 64)}` });
      hosts.push(owner);
      return recs;
    }],
    [18, () => {
      const acme = chance(0.1);
      const label = acme ? `_acme-challenge.${fresh(WORDS.host)}` : fresh(WORDS.alias);
      const data = acme
        ? `${text('abcdefghijklmnopqrstuvwxyz0123456789', 12)}.acme.dns-provider.net.`
        : hosts.length > 0 && chance(0.55)
          ? written(pick(hosts), 0.4)
          : `${label}-${int(1, 999)}.${pick(EXTERNAL.cname)}`;
      return [{ owner: `${label}.${current}`, ttl: ttl(), type: 'CNAME', data, note: chance(0.05) ? pick(NOTES) : undefined }];
    }],
    [13, () => {
      const r = random();
      const t = ttl();
      if (r < 0.3) {
        const key = `MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${text(BASE64, 348)}`;
        const parts = [quoted('v=DKIM1; k=rsa; '), quoted(`p=${key.slice(0, 200)}`), quoted(key.slice(200))];
        return [{ owner: `sel${int(1, 3)}-${++serial}._domainkey.${current}`, ttl: t, type: 'TXT', data: chance(0.35) ? parts : parts.join(' '), note: chance(0.3) ? '2048-bit key' : undefined }];
      }
      if (r < 0.45) {
        return [{ owner: `_dmarc.${fresh(WORDS.host)}.${current}`, ttl: t, type: 'TXT', data: quoted(`v=DMARC1; p=${pick(['none', 'quarantine', 'reject'])}; rua=mailto:dmarc@${bare}; pct=100`) }];
      }
      const label = fresh(['info', 'verify', 'meta', 'policy']);
      return Array.from({ length: pick([1, 1, 1, 2, 3]) }, (_, i) => ({ owner: `${label}.${current}`, ttl: t, type: 'TXT', data: `${txtData(label)}${i > 0 ? ` "#${i}"` : ''}` }));
    }],
    [7, () => {
      const owner = `${fresh(['lists', 'mail', 'corp', 'news', 'billing'])}.${current}`;
      const t = ttl();
      const targets = [...new Set(Array.from({ length: pick([1, 2, 2, 3]) }, () => target(EXTERNAL.mx, 0.5)))];
      const recs: Rec[] = targets.map((x, i) => ({ owner, ttl: t, type: 'MX', data: `${(i + 1) * 10} ${x}` }));
      if (chance(0.6)) recs.push({ owner, ttl: null, type: 'TXT', data: quoted('v=spf1 mx include:_spf.mail-provider.net -all') });
      return recs;
    }],
    [9, () => {
      const [service, port] = pick(SERVICES);
      const owner = `${service}.${fresh(['site', 'office', 'voip', 'chat', 'dc'])}.${current}`;
      const t = ttl();
      const targets = [...new Set(Array.from({ length: pick([1, 2, 2, 3]) }, () => target(EXTERNAL.srv, 0.7)))];
      return targets.map((x) => ({ owner, ttl: t, type: 'SRV', data: `${pick([0, 10, 20])} ${pick([0, 5, 50, 100])} ${port} ${x}` }));
    }],
    [3, () => {
      const owner = `${fresh(['secure', 'pay', 'login', 'checkout'])}.${current}`;
      const t = ttl();
      const recs: Rec[] = [...new Set([pick(AUTHORITIES), pick(AUTHORITIES)])].map((ca) => ({ owner, ttl: t, type: 'CAA', data: `0 issue ${quoted(ca)}` }));
      if (chance(0.4)) recs.push({ owner, ttl: t, type: 'CAA', data: `0 issuewild ${quoted(';')}` });
      if (chance(0.4)) recs.push({ owner, ttl: t, type: 'CAA', data: `0 iodef ${quoted(`mailto:security@${bare}`)}` });
      if (chance(0.1)) recs.push({ owner, ttl: t, type: 'CAA', data: `128 tbs ${quoted('an unknown critical tag')}` });
      recs.push({ owner, ttl: null, type: 'A', data: v4(1)[0]! });
      hosts.push(owner);
      return recs;
    }],
    [3, () => {
      const owner = `*.${fresh(['apps', 'sites', 'tenants', 'preview'])}.${current}`;
      const t = ttl();
      return v4(chance(0.8) ? 1 : 2).map((a) => ({ owner, ttl: t, type: 'A', data: a }));
    }],
    [4, () => {
      const owner = `${fresh(WORDS.zone)}.${current}`;
      const t = chance(0.5) ? pick(['86400', '172800', '2d', '1D']) : null;
      if (chance(0.25)) {
        const [a, b] = [pick(EXTERNAL.ns), pick(EXTERNAL.ns)];
        return [...new Set([a, b])].map((ns) => ({ owner, ttl: t, type: 'NS', data: ns }));
      }
      const [ns1, ns2] = [`ns1.${owner}`, `ns2.${owner}`];
      const recs: Rec[] = [
        { owner, ttl: t, type: 'NS', data: written(ns1, 0.3) },
        { owner, ttl: t, type: 'NS', data: written(ns2, 0.3), note: chance(0.2) ? 'delegated to the customer' : undefined },
      ];
      if (ds && chance(0.4)) recs.push({ owner, ttl: t, type: 'DS', data: `${int(1, 65535)} ${pick([8, 13])} 2 ${text(HEX, 64).toUpperCase()}` });
      recs.push({ owner: ns1, ttl: t, type: 'A', data: v4(1)[0]! });
      recs.push(chance(0.5) ? { owner: ns2, ttl: t, type: 'AAAA', data: v6(1)[0]! } : { owner: ns2, ttl: t, type: 'A', data: v4(1)[0]! });
      return recs;
    }],
  ];
  const totalWeight = kinds.reduce((sum, [w]) => sum + w, 0);
  const entity = (): Rec[] => {
    let x = random() * totalWeight;
    for (const [w, make] of kinds) if ((x -= w) < 0) return make();
    return kinds[0]![1]();
  };

  const write = (recs: readonly Rec[]): void => {
    const spaces = chance(0.3);
    const sep = spaces ? ' ' : '\t';
    let previous: string | undefined;
    for (const r of recs) {
      const owner = r.owner === previous && chance(0.8) ? '' : written(r.owner);
      previous = r.owner;
      const cls = chance(0.6) ? (chance(0.05) ? 'in' : 'IN') : null;
      const fields = r.ttl !== null && cls !== null && classBeforeTtl && chance(0.1) ? [cls, r.ttl] : [r.ttl, cls].filter((f) => f !== null);
      fields.push(chance(0.05) ? r.type.toLowerCase() : r.type);
      const column = spaces ? owner.padEnd(24) + (owner.length >= 24 ? ' ' : '') : owner + (owner.length < 8 ? '\t\t' : '\t');
      const head = column + fields.join(sep) + sep;
      const note = r.note === undefined ? '' : ` ; ${r.note}`;
      if (typeof r.data === 'string') {
        out.push(head + r.data + note);
      } else {
        out.push(`${head}( ${r.data[0]!}`);
        r.data.slice(1).forEach((part, i) => out.push(`\t\t\t\t${part}${i === r.data.length - 2 ? ' )' : ''}`));
        if (note !== '') out[out.length - 1] += note;
      }
    }
  };

  out.push(
    `@\tIN\tSOA\tns1.${origin} hostmaster.${origin} (`,
    `\t\t\t${2024010100 + int(1, 99)}\t; serial`,
    '\t\t\t7200\t\t; refresh (2 hours)',
    '\t\t\t3600\t\t; retry (1 hour)',
    '\t\t\t1209600\t\t; expire (2 weeks)',
    '\t\t\t300 )\t\t; minimum (5 minutes)',
    '',
    '; ---- apex ----',
  );
  let left = records - 1;
  const apex: Rec[] = [
    { owner: origin, ttl: '86400', type: 'NS', data: 'ns1' },
    { owner: origin, ttl: '86400', type: 'NS', data: `ns2.${origin}` },
    { owner: origin, ttl: '86400', type: 'NS', data: 'ns3.dns-provider.net.', note: 'secondary at a provider' },
    { owner: origin, ttl: null, type: 'MX', data: '10 mx1' },
    { owner: origin, ttl: null, type: 'MX', data: `20 mx2.${origin}` },
    { owner: origin, ttl: null, type: 'TXT', data: quoted(`v=spf1 mx a:mx1.${bare} include:_spf.mail-provider.net ~all`) },
    { owner: origin, ttl: null, type: 'CAA', data: `0 issue ${quoted('letsencrypt.org')}` },
    { owner: origin, ttl: '1h', type: 'A', data: '192.0.2.10' },
    { owner: `ns1.${origin}`, ttl: null, type: 'A', data: '192.0.2.53' },
    { owner: `ns1.${origin}`, ttl: null, type: 'AAAA', data: '2001:db8::53' },
    { owner: `ns2.${origin}`, ttl: null, type: 'A', data: '198.51.100.53' },
    { owner: `mx1.${origin}`, ttl: null, type: 'A', data: '192.0.2.25' },
    { owner: `mx2.${origin}`, ttl: null, type: 'A', data: '198.51.100.25' },
  ].slice(0, left);
  write(apex);
  left -= apex.length;
  hosts.push(`ns1.${origin}`, `ns2.${origin}`, `mx1.${origin}`, `mx2.${origin}`);

  let block = 0;
  let inDepartment = 0;
  for (let n = 1; left > 0; n++) {
    if (inDepartment > 0 && --inDepartment === 0) {
      current = origin;
      out.push('', `$ORIGIN ${origin}`, '$TTL 3600');
    }
    if (inDepartment === 0 && n % 200 === 0) {
      block++;
      out.push('');
      if (block % 15 === 0) {
        current = `dept${block}.${origin}`;
        out.push(`; ---- block ${block}: a department under ${current} ----`, `$ORIGIN ${chance(0.3) ? current.toUpperCase() : current}`, '$TTL 1800');
        inDepartment = 150;
      } else {
        out.push(`; ---- block ${block}: ${pick(['web tier', 'mail', 'services', 'customers', 'infrastructure'])} ----`);
      }
    }
    if (chance(0.01)) out.push(chance(0.5) ? '' : `; ${pick(NOTES)}`);
    let recs = entity();
    // A whole entity or, at the end, single hosts: a cut delegation would lose its glue.
    if (recs.length > left) recs = [{ owner: `${fresh(WORDS.host)}.${current}`, ttl: null, type: 'A', data: v4(1)[0]! }];
    write(recs);
    left -= recs.length;
  }
  return `${out.join('\n')}\n`;
}
