/**
 * Zone, transfer and import answers against the real service (the designate-oracle): the same
 * commands, in the same order, on both, and every answer compared (see differential.ts). Where
 * the two differ on purpose, `KNOWN` says why; a known difference that stops differing fails the
 * suite, so the list only shrinks.
 */
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { genZoneFile } from '../dns/imports-exports/zone-arbitraries.js';
import { Session, type Step } from './differential.js';
import { describeWith } from '../support/requires.js';
import { debianVersionAtLeast, Oracle, oracleRequirement, oracleVersion } from './oracle-process.js';

/** Differences we keep, by step description, with the reason. */
const KNOWN: Record<string, string> = {
  'create other {"name":"Example.COM.","email":"a@example.com","type":"PRIMARY"}':
    'Name equality is the database\'s (reference §4.2): the oracle runs on SQLite (case-sensitive); we follow MySQL\'s default collation, where Example.COM. and example.com. are one name.',
  'import imp unsupported type':
    'Issue 5: keep the real service\'s list of types, but say which type on which line was refused instead of its storage enum error.',
  'import imp ttl on SOA 0':
    'The real service passes the database\'s NOT NULL error text through (reference §8.4: "SOA TTL 0 → storage NOT NULL failure text", which differs by database); we say what happened in its "An undefined error occurred. " form.',
  'import imp mixed-case owner':
    'Issue 5: owner names compare case-insensitively; the real service fails on a mixed-case owner inside its zone, a bug not to copy.',
  'import imp class before TTL':
    'RFC 1035 §5.1 lets the class come before the TTL (and the spec takes "DNS master file syntax"); dnspython 2.3 reads only TTL then class, so the real service calls `www IN 300 A …` a malformed file. We import it. The generated-file property writes the TTL first.',
  'import imp empty':
    'API.md decision: an empty body is a 400 empty_request_body at once, not an import that fails.',
  'create pool {"name":"c49.test.","email":"a@example.com","type":"PRIMARY","attributes":{"pool_id":"x"}}':
    'The oracle configures the scheduler filters pool_id_attribute and random; the default deployment (reference §2, scheduler_filters = default_pool) ignores attributes and picks the default pool.',
};

interface CreateCase {
  readonly name: unknown;
  readonly email: unknown;
  readonly ttl?: unknown;
  readonly description?: unknown;
  readonly extra?: Record<string, unknown>;
  /** Default: one of a series of projects, a fresh one every 8 creates (the real quota is 10). */
  readonly project?: string;
}

const long = (n: number, c = 'a'): string => c.repeat(n);

/** Create bodies: each field's edges, in the body shapes a REST client can send. */
const CREATES: CreateCase[] = [
  { name: 'example.com.', email: 'a@example.com' },
  { name: 'example.com', email: 'a@example.com' },
  { name: 'com.', email: 'a@example.com' },
  { name: 'a..example.com.', email: 'a@example.com' },
  { name: '.example.com.', email: 'a@example.com' },
  { name: '-a.example.com.', email: 'a@example.com' },
  { name: 'a-.example.com.', email: 'a@example.com' },
  { name: '*.example.com.', email: 'a@example.com' },
  { name: 'a_b.c1.test.', email: 'a@example.com' },
  { name: 'xn--bcher-kva.c2.test.', email: 'a@example.com' },
  { name: 'bücher.c3.test.', email: 'a@example.com' },
  { name: 'UPPER.C4.Test.', email: 'a@example.com' },
  { name: `${long(63)}.c5.test.`, email: 'a@example.com' },
  { name: `${long(64)}.c6.test.`, email: 'a@example.com' },
  { name: `${[long(63), long(63), long(63), long(52)].join('.')}.c7.test.`, email: 'a@example.com' },
  { name: `${[long(63), long(63), long(63), long(40)].join('.')}.c8.test.`, email: 'a@example.com' },
  { name: `${Array.from({ length: 128 }, () => 'b').join('.')}.`, email: 'a@example.com' },
  { name: 'c9.123.', email: 'a@example.com' },
  { name: 'c10.test.123.', email: 'a@example.com' },
  { name: '1.2.3.4.', email: 'a@example.com' },
  { name: 'c11 .test.', email: 'a@example.com' },
  { name: 'c12.test..', email: 'a@example.com' },
  { name: '.', email: 'a@example.com' },
  { name: '', email: 'a@example.com' },
  { name: 5, email: 'a@example.com' },
  { name: true, email: 'a@example.com' },
  { name: 1e-7, email: 'a@example.com' },
  { name: null, email: 'a@example.com' },
  { name: ['a.test.'], email: 'a@example.com' },
  { name: { a: 1 }, email: 'a@example.com' },
  { name: 'c13.test.', email: 'bad' },
  { name: 'c14.test.', email: '' },
  { name: 'c15.test.', email: null },
  { name: 'c16.test.', email: 5 },
  { name: 'c16b.test.', email: ['a@example.com'] },
  { name: 'c17.test.', email: 'a@b' },
  { name: 'c18.test.', email: 'a.b@example.com' },
  { name: 'c19.test.', email: 'a@@example.com' },
  { name: 'c20.test.', email: 'a@example.com.' },
  { name: 'c21.test.', email: '@example.com' },
  { name: 'c22.test.', email: `${long(250)}@example.com` },
  { name: 'c22b.test.', email: `${long(60)}@${long(60, 'b')}.${long(60, 'c')}.${long(60, 'd')}.com` },
  { name: 'c23.test.', email: 'a b@example.com' },
  { name: 'c24.test.', email: 'a+b@example.com' },
  { name: 'c25.test.', email: 'a@ex_ample.com' },
  { name: 'c26.test.', email: 'a@example.com', ttl: -1 },
  { name: 'c27.test.', email: 'a@example.com', ttl: 0 },
  { name: 'c28.test.', email: 'a@example.com', ttl: 2147483647 },
  { name: 'c29.test.', email: 'a@example.com', ttl: 2147483648 },
  { name: 'c30.test.', email: 'a@example.com', ttl: 'abc' },
  { name: 'c31.test.', email: 'a@example.com', ttl: '300' },
  { name: 'c32.test.', email: 'a@example.com', ttl: 1.5 },
  { name: 'c33.test.', email: 'a@example.com', ttl: true },
  { name: 'c34.test.', email: 'a@example.com', ttl: ' 42 ' },
  { name: 'c35.test.', email: 'a@example.com', ttl: '' },
  { name: 'c36.test.', email: 'a@example.com', ttl: [] },
  { name: 'c37.test.', email: 'a@example.com', ttl: '1e3' },
  { name: 'c37b.test.', email: 'a@example.com', ttl: '+7' },
  { name: 'c37c.test.', email: 'a@example.com', ttl: '1_000' },
  { name: 'c37d.test.', email: 'a@example.com', ttl: { a: 1 } },
  { name: 'c37e.test.', email: 'a@example.com', ttl: "a'b" },
  { name: 'c37f.test.', email: 'a@example.com', ttl: 'a"b\'c\\d\ne\u0001f\u00a0g\u200bh' },
  { name: 'c37g.test.', email: 'a@example.com', ttl: '\u0663\u0660' },
  { name: 'c37h.test.', email: 'a@example.com', ttl: '\u001c12\u0085' },
  { name: 'c37i.test.', email: 'a@example.com', ttl: '\ufeff12' },
  { name: 'c37j.test.', email: 'a@example.com', ttl: '1__0' },
  { name: 'c37k.test.', email: 'a@example.com', ttl: '-0' },
  { name: 'c37l.test.', email: 'a@example.com', ttl: '1'.repeat(4300) },
  { name: 'c37m.test.', email: 'a@example.com', ttl: '1_'.repeat(4300) + '1' },
  { name: 'c38.test.', email: 'a@example.com', description: 'hello' },
  { name: 'c39.test.', email: 'a@example.com', description: long(160) },
  { name: 'c40.test.', email: 'a@example.com', description: long(161) },
  { name: 'c41.test.', email: 'a@example.com', description: 5 },
  { name: 'c41b.test.', email: 'a@example.com', description: false },
  { name: 'c41c.test.', email: 'a@example.com', description: 0.5 },
  { name: 'c41d.test.', email: 'a@example.com', description: ['x'] },
  { name: 'c42.test.', email: 'a@example.com', description: '' },
  { name: 'c43.test.', email: 'a@example.com', extra: { foo: 1 } },
  { name: 'c44.test.', email: 'a@example.com', extra: { id: 'x' } },
  { name: 'c45.test.', email: 'a@example.com', extra: { status: 'ACTIVE' } },
  { name: 'c46.test.', email: 'a@example.com', extra: { masters: [] } },
  { name: 'c47.test.', email: 'a@example.com', extra: { masters: ['192.0.2.1'] } },
  { name: 'c48.test.', email: 'a@example.com', extra: { attributes: {} } },
  { name: 'c49.test.', email: 'a@example.com', extra: { attributes: { pool_id: 'x' } }, project: 'pool' },
  { name: 'c49b.test.', email: 'a@example.com', extra: { attributes: { color: 'blue' } } },
  { name: 'c50.test.', email: 'a@example.com', extra: { serial: 5 } },
  { name: 'c51.test.', email: 'a@example.com', extra: { project_id: 'other' } },
  { name: 'c52.test.', email: 'a@example.com', extra: { links: {} } },
  { name: 'c53.test.', email: 'a@example.com', extra: { zzz: 1, aaa: 2 } },
  { name: 'example.com.', email: 'a@example.com', project: 'other' },
  { name: 'Example.COM.', email: 'a@example.com', project: 'other' },
  { name: 'sub.example.com.', email: 'a@example.com', project: 'other' },
];

describeWith(oracleRequirement(), 'answers against the real service (designate-oracle)', () => {
  let oracle!: Oracle;
  // Started here, not while vitest collects the block (it collects a skipped block's body too).
  beforeAll(() => {
    oracle = new Oracle();
  });
  afterAll(() => oracle.close());
  const steps: Step[] = [];

  it('is the package the reference describes (15.0.2, with the ownership backport), or later', () => {
    const version = oracleVersion() ?? 'unknown';
    expect(debianVersionAtLeast(version, '1:15.0.2'), `python3-designate ${version}: upgrade it (apt-get install python3-designate)`).toBe(true);
  });

  it('answers every create body as the real service does', async () => {
    const s = new Session(oracle, steps);
    let i = 0;
    for (const c of CREATES) {
      const project = c.project ?? `p${Math.floor(i++ / 8)}`;
      const body: Record<string, unknown> = { name: c.name, email: c.email, type: 'PRIMARY', ...c.extra };
      if (c.ttl !== undefined) body['ttl'] = c.ttl;
      if (c.description !== undefined) body['description'] = c.description;
      await s.createZone(project, body);
    }
    await s.settle();
    expectAgreement(steps);
  });

  it('answers any create body built from those edges as the real service does (fast-check)', async () => {
    const s = new Session(oracle, steps);
    const label = fc.oneof(
      fc.constantFrom('a', 'A1', 'x_y', 'a-b', '-a', 'a-', '*', '', 'xn--bcher-kva', 'b\u00fccher', ' ', 'a b', '1', '0x', 'a'.repeat(63), 'a'.repeat(64)),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
    );
    const scalar = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
    const body = fc.record(
      {
        prefix: fc.array(label, { minLength: 0, maxLength: 3 }).map((l) => l.join('.')),
        dot: fc.boolean(),
        email: fc.oneof(fc.constantFrom('a@example.com', 'a.b@c.d', 'a@b', '@b.c', 'a@@b.c', 'a+b@c.d', 'a@-b.c', '', 'x'), scalar),
        ttl: fc.oneof(fc.integer({ min: -2, max: 2 ** 31 + 1 }), fc.constantFrom('60', ' 7 ', '1_0', 'x', '', '-1', '2147483648'), scalar),
        description: fc.oneof(fc.string({ maxLength: 170 }), scalar),
        hasTtl: fc.boolean(),
        hasDescription: fc.boolean(),
      },
      { requiredKeys: ['prefix', 'dot', 'email', 'ttl', 'description', 'hasTtl', 'hasDescription'] },
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        run++;
        // A fresh parent per run keeps names apart; the generated labels in front are what vary.
        const name = `${b.prefix}${b.prefix === '' ? '' : '.'}r${run}.fuzz${b.dot ? '.' : ''}`;
        const sent: Record<string, unknown> = { name, email: b.email, type: 'PRIMARY' };
        // The oracle's create_zone cannot send an explicit null ttl or description.
        if (b.hasTtl && b.ttl !== null) sent['ttl'] = b.ttl;
        if (b.hasDescription && b.description !== null) sent['description'] = b.description;
        const before = steps.length;
        await s.createZone(`fz${Math.floor(run / 8)}`, sent);
        const step = steps[before];
        expect(step === undefined ? undefined : JSON.stringify(step.theirs), step?.what).toBe(step === undefined ? undefined : JSON.stringify(step.ours));
      }),
      { numRuns: Number(process.env["ORACLE_RUNS"] ?? 200), seed: Number(process.env["ORACLE_SEED"] ?? 20261122), endOnFailure: true },
    );
    await s.settle();
  });

  it('answers any update body built from those edges as the real service does (fast-check)', async () => {
    const s = new Session(oracle, steps);
    const zone = await s.createZone('upd', { name: 'upd.fuzz.', email: 'a@example.com', type: 'PRIMARY' });
    if (zone === undefined) throw new Error('the zone to update was not created on both sides');
    const scalar = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
    const text = fc.oneof(fc.constantFrom('a@example.com', 'b.c@d.e', 'x', '', 'upd.fuzz.', 'other.fuzz.', 'PRIMARY', 'SECONDARY', '192.0.2.1', '192.0.2.1:5353'), fc.string({ maxLength: 60 }));
    const value = fc.oneof(text, scalar, fc.array(text, { maxLength: 2 }), fc.dictionary(fc.constantFrom('k', 'pool_id', 'x'.repeat(51)), fc.oneof(text, scalar), { maxKeys: 2 }));
    const key = fc.constantFrom('email', 'ttl', 'description', 'name', 'type', 'masters', 'attributes', 'serial', 'status', 'id', 'version', 'foo');
    await fc.assert(
      // masters: null is left out: the spec says masters is null for PRIMARY zones, so we take it
      // (as no masters), where the real service fails to iterate it.
      fc.asyncProperty(fc.dictionary(key, value, { minKeys: 0, maxKeys: 3 }).filter((c) => c['masters'] !== null), async (changes) => {
        const before = steps.length;
        await s.updateZone('upd', zone, { ...changes });
        const step = steps[before];
        expect(step === undefined ? undefined : JSON.stringify(step.theirs), step?.what).toBe(step === undefined ? undefined : JSON.stringify(step.ours));
      }),
      { numRuns: Number(process.env['ORACLE_RUNS'] ?? 200), seed: Number(process.env['ORACLE_SEED'] ?? 20261122), endOnFailure: true },
    );
    await s.settle();
    await s.getZone('upd', zone);
  });

  it('takes a zone through updates, subzones and delete as the real service does', async () => {
    const s = new Session(oracle, steps);
    await s.createZone('life', { name: 'a.life.', email: 'a@example.com', type: 'PRIMARY' });
    await s.settle();
    await s.getZone('life', '#1');
    await s.getZone('stranger', '#1');
    for (const changes of [
      { email: 'b@example.com' },
      { ttl: 60 },
      { ttl: null },
      { ttl: '120' },
      { description: 'x' },
      { description: null },
      { description: 7 },
      { email: null },
      { email: 'no-at-sign' },
      { name: 'a.life.' },
      { name: 'b.life.' },
      { type: 'PRIMARY' },
      { type: 'SECONDARY' },
      { serial: 5 },
      { status: 'ACTIVE' },
      { version: 1 },
      { pool_id: '794ccc2c-d751-44fe-b57f-8894c9f5c842' },
      { masters: ['192.0.2.1'] },
      { attributes: { color: 'blue' } },
      { attributes: {} },
      {},
      { foo: 1, bar: 2 },
    ]) {
      await s.updateZone('life', '#1', changes);
    }
    await s.updateZone('stranger', '#1', { email: 'b@example.com' });
    await s.settle();
    await s.getZone('life', '#1');
    await s.createZone('life', { name: 'sub.a.life.', email: 'a@example.com', type: 'PRIMARY' });
    await s.createZone('stranger', { name: 'x.sub.a.life.', email: 'a@example.com', type: 'PRIMARY' });
    await s.createZone('life', { name: 'life.', email: 'a@example.com', type: 'PRIMARY' });
    await s.settle();
    await s.listZones('life');
    await s.listZones('stranger');
    await s.deleteZone('life', '#1');
    await s.deleteZone('stranger', '#2');
    await s.deleteZone('life', '#2');
    await s.deleteZone('life', '#2');
    await s.updateZone('life', '#2', { email: 'c@example.com' });
    await s.getZone('life', '#2');
    await s.settle();
    await s.getZone('life', '#2');
    await s.deleteZone('life', '#1');
    await s.settle();
    await s.listZones('life');
    expectAgreement(steps);
  });

  it('imports zone files as the real service does', async () => {
    const s = new Session(oracle, steps);
    const soa = (origin: string) => `${origin} 3600 IN SOA ns.${origin} admin.${origin} 7 3600 600 86400 300\n${origin} 3600 IN NS ns.${origin}\n`;
    const files: [string, string][] = [
      ['plain', `$ORIGIN imp1.test.\n$TTL 300\n${soa('imp1.test.')}www IN A 192.0.2.1\nwww IN A 192.0.2.2\nmail 600 IN MX 10 mx.imp1.test.\ntxt IN TXT "hello world" "two"\n`],
      ['no SOA', '$ORIGIN imp2.test.\nwww 300 IN A 192.0.2.1\n'],
      ['no origin', `imp3.test. 3600 IN SOA ns.imp3.test. admin.imp3.test. 1 2 3 4 5\nwww.imp3.test. 300 IN A 192.0.2.1\n`],
      ['malformed', `$ORIGIN imp4.test.\n${soa('imp4.test.')}www IN A 999.1.1.1\n`],
      ['duplicate', `$ORIGIN imp1.test.\n${soa('imp1.test.')}`],
      ['delegation', `$ORIGIN imp5.test.\n${soa('imp5.test.')}child 300 IN NS ns1.other.test.\nchild 300 IN NS ns2.other.test.\n`],
      ['outside the zone', `$ORIGIN imp6.test.\n${soa('imp6.test.')}www.elsewhere.test. 300 IN A 192.0.2.1\n`],
      ['unsupported type', `$ORIGIN imp7.test.\n${soa('imp7.test.')}www 300 IN HINFO "a" "b"\n`],
      ['cname at apex', `$ORIGIN imp8.test.\n${soa('imp8.test.')}@ 300 IN CNAME other.test.\n`],
      ['one label', `$ORIGIN imp9.\n${soa('imp9.')}`],
      ['ttl on SOA 0', `$ORIGIN imp10.test.\nimp10.test. 0 IN SOA ns.imp10.test. admin.imp10.test. 7 3600 600 86400 300\nimp10.test. 300 IN NS ns.imp10.test.\n`],
      ['types', `$ORIGIN imp11.test.\n${soa('imp11.test.')}a IN AAAA 2001:db8::1\n_sip._tcp IN SRV 10 20 5060 sip.imp11.test.\nc IN CNAME a\np IN PTR a.imp11.test.\ns IN SSHFP 1 1 0123456789abcdef0123456789abcdef01234567\nq IN CAA 0 issue "letsencrypt.org"\nn IN NAPTR 100 10 "U" "E2U+sip" "!^.*$!sip:info@example.com!" .\nspf IN SPF "v=spf1 -all"\n`],
      ['escaped rname', `$ORIGIN imp12.test.\nimp12.test. 3600 IN SOA ns.imp12.test. first\\.last.imp12.test. 7 3600 600 86400 300\nimp12.test. 3600 IN NS ns.imp12.test.\n`],
      ['root rname', `$ORIGIN imp13.test.\nimp13.test. 3600 IN SOA ns.imp13.test. . 7 3600 600 86400 300\nimp13.test. 3600 IN NS ns.imp13.test.\n`],
      ['mixed-case owner', `$ORIGIN imp14.test.\n${soa('imp14.test.')}WWW.Imp14.Test. 300 IN A 192.0.2.1\n`],
      ['over the record quota', `$ORIGIN imp15.test.\n${soa('imp15.test.')}${Array.from({ length: 21 }, (_, i) => `big 300 IN A 192.0.2.${i + 1}`).join('\n')}\n`],
      ['bad class', `$ORIGIN imp16.test.\n${soa('imp16.test.')}www 300 CH A 192.0.2.1\n`],
      ['include', `$ORIGIN imp17.test.\n${soa('imp17.test.')}$INCLUDE /etc/passwd\n`],
      ['generate', `$ORIGIN imp18.test.\n${soa('imp18.test.')}$GENERATE 1-3 host$ 300 IN A 192.0.2.$\n`],
      ['ttl inheritance', `$ORIGIN imp19.test.\na 600 IN A 192.0.2.1\nb IN A 192.0.2.2\nimp19.test. IN SOA ns.imp19.test. admin.imp19.test. 7 3600 600 86400 300\nimp19.test. 3600 IN NS ns.imp19.test.\nc 900 IN A 192.0.2.3\nd IN A 192.0.2.4\n$GENERATE 1-2 g$ A 192.0.2.$\n$TTL 1200\ne IN A 192.0.2.5\n`],
      ['class before TTL', `$ORIGIN imp20.test.\n${soa('imp20.test.')}www IN 300 A 192.0.2.1\n`],
      ['empty', ''],
    ];
    const imported = new Map<string, string>();
    for (const [what, text] of files) {
      const label = await s.importZone('imp', text, what);
      if (label !== undefined) imported.set(what, label);
    }
    // Exports of what was imported: the same records in each side's file.
    for (const [what, label] of imported) await s.exportZone('imp', label, what);
    // Another project (the zone quota is 10): generic data, CNAME clashes made by $GENERATE, UTF-8 text.
    const more: [string, string][] = [
      ['generic data', `$ORIGIN imp30.test.\n$TTL 300\n${soa('imp30.test.')}a IN AAAA \\# 16 20010db8000000000000000000000001\nb IN A \\# 4 c0000201\n`],
      ['generated CNAME after data', `$ORIGIN imp31.test.\n$TTL 300\n${soa('imp31.test.')}h1 IN A 192.0.2.1\n$GENERATE 1-2 h$ CNAME x.imp31.test.\n`],
      ['generated CNAME before data', `$ORIGIN imp32.test.\n$TTL 300\n${soa('imp32.test.')}$GENERATE 1-2 h$ CNAME x.imp32.test.\nh1 IN A 192.0.2.1\n`],
      ['UTF-8 text', `$ORIGIN imp33.test.\n$TTL 300\n${soa('imp33.test.')}t IN TXT "héllo" "\\\\195\\\\169"\n@ IN MX 10 @\nm IN CNAME @\n`],
    ];
    for (const [what, text] of more) {
      const label = await s.importZone('imp2', text, what);
      if (label !== undefined) await s.exportZone('imp2', label, what);
    }
    // A third project: the zone rules that dnspython applies differently from the engine (a BOM
    // hides the $ORIGIN; the last SOA replaces the first; an SOA off the apex fails as it is added).
    const rules: [string, string][] = [
      ['BOM', `\ufeff$ORIGIN imp40.test.\n$TTL 300\n${soa('imp40.test.')}`],
      ['BOM before $TTL', `\ufeff$TTL 300\n$ORIGIN imp41.test.\n${soa('imp41.test.')}`],
      ['two SOAs', `$ORIGIN imp42.test.\n$TTL 300\n${soa('imp42.test.')}@ 600 IN SOA ns.imp42.test. second.imp42.test. 9 3600 600 86400 300\n`],
      ['two SOAs, the smaller TTL first', `$ORIGIN imp43.test.\n$TTL 300\nimp43.test. 60 IN SOA ns.imp43.test. first.imp43.test. 7 3600 600 86400 300\n@ 600 IN SOA ns.imp43.test. second.imp43.test. 9 3600 600 86400 300\n@ NS ns\n`],
      ['SOA off the apex', `$ORIGIN imp44.test.\n$TTL 300\n${soa('imp44.test.')}sub IN SOA ns.imp44.test. admin.imp44.test. 1 2 3 4 5\n`],
      ['SOA off the apex after a CNAME clash', `$ORIGIN imp45.test.\n$TTL 300\n${soa('imp45.test.')}c CNAME x.test.\nc A 192.0.2.1\nsub IN SOA ns.imp45.test. admin.imp45.test. 1 2 3 4 5\n`],
      ['SOA off the apex beside a CNAME', `$ORIGIN imp46.test.\n$TTL 300\n${soa('imp46.test.')}sub CNAME x.test.\nsub IN SOA ns.imp46.test. admin.imp46.test. 1 2 3 4 5\n`],
      ['SOA off the apex after a refused type', `$ORIGIN imp47.test.\n$TTL 300\n${soa('imp47.test.')}h HINFO "a" "b"\nsub IN SOA ns.imp47.test. admin.imp47.test. 1 2 3 4 5\n`],
      ['SOA outside the zone', `$ORIGIN imp48.test.\n$TTL 300\n${soa('imp48.test.')}other.test. IN SOA ns.other.test. admin.other.test. 1 2 3 4 5\n`],
      ['two CNAMEs', `$ORIGIN imp49.test.\n$TTL 300\n${soa('imp49.test.')}w CNAME one.test.\nw 60 CNAME two.test.\n`],
      ['bad $TTL before a record', '$TTL xyz\nfoo.imp50.test. 300 IN A 192.0.2.1\n'],
    ];
    for (const [what, text] of rules) {
      const label = await s.importZone('imp3', text, what);
      if (label !== undefined) await s.exportZone('imp3', label, what);
    }
    expectAgreement(steps);
  });

  it('imports generated zone files as the real service does (fast-check)', async () => {
    const s = new Session(oracle, steps);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.constant(null).chain(() => genZoneFile(`g${++run}`)), async (file) => {
        const before = steps.length;
        // One zone per run, and a fresh project every 8 runs: the real quota is 10 zones.
        const project = `gen${Math.floor(run / 8)}`;
        const label = await s.importZone(project, file.text, file.origin);
        if (label !== undefined) await s.exportZone(project, label, file.origin);
        for (const step of steps.slice(before)) expect(JSON.stringify(step.theirs), `${step.what}\n${file.text}`).toBe(JSON.stringify(step.ours));
      }),
      { numRuns: Number(process.env['ORACLE_RUNS'] ?? 40), seed: Number(process.env['ORACLE_SEED'] ?? 20261122), endOnFailure: true },
    );
  });

  it('transfers zones between projects as the real service does', async () => {
    const s = new Session(oracle, steps);
    const zones: string[] = [];
    for (const name of ['xfer1.test.', 'xfer2.test.', 'xfer3.test.', 'xfer4.test.']) {
      const label = await s.createZone('giver', { name, email: 'a@example.com', type: 'PRIMARY' });
      if (label !== undefined) zones.push(label);
    }
    await s.settle();
    const [zone, other, third, fourth] = zones;
    if (zone === undefined || other === undefined || third === undefined || fourth === undefined) {
      expectAgreement(steps);
      throw new Error('the zones to transfer were not created on both sides');
    }
    const open = await s.requestTransfer('giver', zone, {});
    await s.requestTransfer('stranger', zone, {});
    await s.requestTransfer('giver', zone, { target_project_id: 'taker' });
    const targeted = await s.requestTransfer('giver', other, { target_project_id: 'taker', description: 'for you' });
    await s.requestTransfer('giver', third, { description: 'd'.repeat(161) });
    await s.requestTransfer('giver', third, { description: 5 });
    await s.requestTransfer('giver', fourth, { target_project_id: 5 });
    if (open === undefined || targeted === undefined) {
      expectAgreement(steps);
      throw new Error('the transfer requests were not created on both sides');
    }
    await s.acceptTransfer('taker', open, 'with a wrong key', true);
    await s.acceptTransfer('stranger', targeted, 'by a project that is not the target');
    await s.acceptTransfer('taker', targeted, 'by the target');
    await s.getZone('taker', other);
    await s.getZone('giver', other);
    await s.acceptTransfer('taker', targeted, 'a second time');
    await s.acceptTransfer('giver', open, 'by the project that asked for it');
    await s.acceptTransfer('taker', open, 'by anyone, with the key');
    await s.getZone('taker', zone);
    await s.settle();
    await s.listZones('taker');
    await s.listZones('giver');
    expectAgreement(steps);
  });
});

/** Every step agrees, except the known ones, which must still differ. */
function expectAgreement(steps: readonly Step[]): void {
  const differ = (s: Step): boolean => JSON.stringify(s.theirs) !== JSON.stringify(s.ours);
  const unexplained = steps.filter((s) => differ(s) && !(s.what in KNOWN));
  if (process.env['ORACLE_REPORT'] !== undefined) writeFileSync(process.env['ORACLE_REPORT'], JSON.stringify(process.env['ORACLE_ALL'] === undefined ? unexplained : steps, null, 1));
  expect(unexplained).toEqual([]);
  expect(steps.filter((s) => !differ(s) && s.what in KNOWN).map((s) => s.what)).toEqual([]);
}
