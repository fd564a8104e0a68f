/**
 * zoneward against NSD: the same zones (exported by zoneward, loaded by NSD), the same queries,
 * asked of both; rcode, AA and TC, the answer section, and the authority section of negative
 * answers and referrals must agree. Zones: a generated one built to hold every shape of answer
 * (wildcards, CNAME chains, delegations with and without glue, empty non-terminals, an RRset too
 * big for UDP), and the valid cases of the public zone-file corpus that import as zones.
 *
 * Differences allowed, with their reasons, are in {@link KNOWN}.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveDns, type DnsServer } from '../../../src/adapters/dns-server/index.js';
import { createDnsService, type DnsService } from '../../../src/index.js';
import { parseZoneFile } from '../../../src/zonefile/index.js';
import { nsdRequirement, startNsdZones, type RunningServer } from '../../dns/secondary/nsd.js';
import { describeWith, requirement } from '../../support/requires.js';
import { corpusDir } from '../../../scripts/zonefile-conformance.js';
import { ask, type Answer, type Rec } from './client.js';

const CORPUS = corpusDir();
const corpus = requirement('the zone-file corpus', existsSync(join(CORPUS, 'index.json')), `put it at ${CORPUS} or name it in ZONEWARD_CONFORMANCE_DIR`);

const ctx = { projectId: 'diff', roles: ['member'] };

/** A deterministic generator (mulberry32): the same zone on every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A zone file holding every shape of answer the server must give. */
function generatedZone(origin: string, seed: number): string {
  const r = rng(seed);
  const lines = [`$ORIGIN ${origin}`, '$TTL 600', `@ IN SOA ns1.${origin} hostmaster.${origin} 2024010101 3600 600 86400 300`, `@ IN NS ns1.${origin}`, 'ns1 IN A 192.0.2.1'];
  lines.push('@ IN MX 10 mail', '@ IN TXT "v=spf1 -all"', '@ IN CAA 0 issue "ca.example.net"', 'mail IN A 192.0.2.25');
  for (let i = 0; i < 30; i++) {
    const owner = r() < 0.3 ? `Host${i}` : `host${i}`;
    lines.push(`${owner} ${300 + i} IN A 192.0.2.${10 + i}`);
    if (r() < 0.5) lines.push(`${owner} IN AAAA 2001:db8::${(i + 1).toString(16)}`);
    if (r() < 0.3) lines.push(`${owner} IN TXT "host ${i}" "second string"`);
  }
  lines.push('c1 IN CNAME c2', 'c2 IN CNAME host1', `c3 IN CNAME www.example.net.`, 'c4 IN CNAME missing', 'c5 IN CNAME x.w', 'loop1 IN CNAME loop2', 'loop2 IN CNAME loop1');
  lines.push('*.w IN A 192.0.2.200', '*.w IN TXT "wild"', 'x.w IN MX 5 mail', 'a.b.c IN A 192.0.2.201', '*.wc IN CNAME host2');
  lines.push('sub IN NS ns.sub', 'sub IN NS ns.other.net.', 'ns.sub IN A 192.0.2.53', 'ns.sub IN AAAA 2001:db8::53', 'deleg IN NS ns.other.net.');
  lines.push('_sip._tcp IN SRV 10 5 5060 host3', 'ptr IN PTR host4', 'naptr IN NAPTR 100 10 "S" "SIP+D2U" "" _sip._tcp', 'ssh IN SSHFP 1 1 0123456789abcdef0123456789abcdef01234567');
  for (let i = 0; i < 20; i++) lines.push(`big IN TXT "${'x'.repeat(90)}${i}"`);
  for (let i = 0; i < 6; i++) lines.push(`mid IN TXT "${'m'.repeat(150)}${i}"`);
  return lines.join('\n') + '\n';
}

/** A name in random letter case. */
function shuffledCase(name: string, r: () => number): string {
  return [...name].map((c) => (r() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
}

interface Question {
  readonly name: string;
  readonly type: string;
  readonly edns?: number;
}

/** Questions for a zone: each owner with its types and others, a missing child, case variants, EDNS sizes. */
function questions(origin: string, text: string, seed: number): Question[] {
  const parsed = parseZoneFile(text, { origin });
  if (parsed.isErr()) throw new Error(parsed.error.message);
  const r = rng(seed);
  const byOwner = new Map<string, Set<string>>();
  for (const rec of parsed.value.records) {
    const owner = rec.name.toLowerCase();
    if (!byOwner.has(owner)) byOwner.set(owner, new Set());
    byOwner.get(owner)!.add(rec.type);
  }
  const out: Question[] = [];
  for (const [owner, types] of byOwner) {
    const base = owner.replace(/^\*\./, `q${Math.floor(r() * 1000)}.`);
    for (const type of new Set([...types, 'A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'SOA'])) {
      out.push({ name: base, type });
    }
    out.push({ name: `nx${Math.floor(r() * 1000)}.${base}`, type: 'A' });
    out.push({ name: shuffledCase(base, r), type: [...types][0]! });
    out.push({ name: base, type: [...types][0]!, edns: 1232 });
    out.push({ name: base, type: 'TXT', edns: 512 });
  }
  return out;
}

/**
 * Known differences: where NSD and zoneward may differ, and why. Each is a predicate over the
 * question and both answers; a mismatch matched by none fails the test.
 */
const KNOWN: readonly { readonly why: string; readonly applies: (q: Question, ours: Answer, theirs: Answer) => boolean }[] = [];

/** The parts of an answer compared: rcode, AA, TC, the answer section; the authority section where the answer is empty. */
function comparable(a: Answer, q: Question): object {
  const rec = (x: Rec) => {
    // The owner's case is compared where it is the question's own (both servers echo it).
    const name = x.name.toLowerCase() === q.name.replace(/\.$/, '').toLowerCase() ? x.name : x.name.toLowerCase();
    return `${name} ${x.type} ${x.ttl ?? ''} ${JSON.stringify(x.data)}`.replace(/"([^"]*)"/g, (m) => (/^"[a-z0-9.-]*"$/i.test(m) ? m.toLowerCase() : m));
  };
  return {
    rcode: a.rcode,
    aa: a.flag_aa,
    tc: a.flag_tc,
    answer: a.flag_tc ? [] : a.answers.map(rec).sort(),
    authority: a.answers.length === 0 && !a.flag_tc ? a.authorities.map((x) => `${x.name.toLowerCase()} ${x.type}`).sort() : [],
  };
}

async function compareZones(zones: ReadonlyMap<string, string>, dns: DnsService, server: DnsServer): Promise<{ asked: number; mismatches: string[] }> {
  // Exported by zoneward: NSD serves exactly what zoneward stored.
  const exported = new Map<string, string>();
  const listed = (await dns.zones.list(ctx, { limit: '1000' }))._unsafeUnwrap().zones;
  for (const zone of listed) {
    if (!zones.has(zone.name)) continue;
    const job = (await dns.exports.create(ctx, zone.id))._unsafeUnwrap();
    await dns.tasks.settle();
    exported.set(zone.name, (await dns.exports.file(ctx, job.id))._unsafeUnwrap());
  }
  const nsd: RunningServer = await startNsdZones(exported);
  const mismatches: string[] = [];
  let asked = 0;
  try {
    let seed = 7;
    for (const [origin, text] of exported) {
      for (const q of questions(origin, text, seed++)) {
        const opts = q.edns === undefined ? {} : { edns: q.edns };
        const [ours, theirs] = await Promise.all([ask(q.name, q.type, { port: server.port, ...opts }), ask(q.name, q.type, { port: nsd.port, ...opts })]);
        asked++;
        const a = comparable(ours, q);
        const b = comparable(theirs, q);
        if (JSON.stringify(a) === JSON.stringify(b)) continue;
        if (KNOWN.some((k) => k.applies(q, ours, theirs))) continue;
        mismatches.push(`${q.name} ${q.type}${q.edns === undefined ? '' : ` edns ${q.edns}`}\n  zoneward ${JSON.stringify(a)}\n  nsd      ${JSON.stringify(b)}`);
      }
    }
  } finally {
    await nsd.stop();
  }
  return { asked, mismatches };
}

describeWith(nsdRequirement, 'zoneward/dns-server answers as NSD does', () => {
  let dns: DnsService;
  let server: DnsServer;
  beforeAll(async () => {
    dns = createDnsService({ quotas: { zones: -1, zone_recordsets: -1, zone_records: -1, recordset_records: -1 } });
    server = await serveDns({ dns });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('on a generated zone with every shape of answer', async () => {
    const zones = new Map<string, string>();
    for (const [i, origin] of ['gen.test.', 'other.test.'].entries()) {
      const text = generatedZone(origin, i + 1);
      const job = (await dns.imports.create(ctx, text, 'text/dns'))._unsafeUnwrap();
      await dns.tasks.settle();
      const done = (await dns.imports.get(ctx, job.id))._unsafeUnwrap();
      expect(done.status, String(done.message)).toBe('COMPLETE');
      zones.set(origin, text);
    }
    const { asked, mismatches } = await compareZones(zones, dns, server);
    expect(asked).toBeGreaterThan(400);
    expect(mismatches).toEqual([]);
  });
});

interface CorpusCase {
  readonly case: string;
  readonly zone: string;
  readonly origin: string;
  readonly expect: { readonly ok: boolean };
}

describeWith([nsdRequirement, corpus], 'zoneward/dns-server answers as NSD does on the public zone-file corpus', () => {
  it('every valid case that imports as a zone (under its own name, so that they can all be served at once)', async () => {
    const dns = createDnsService({ quotas: { zones: -1, zone_recordsets: -1, zone_records: -1, recordset_records: -1 } });
    const server = await serveDns({ dns });
    try {
      const cases = (JSON.parse(readFileSync(join(CORPUS, 'index.json'), 'utf8')) as CorpusCase[]).filter((c) => c.expect.ok);
      const zones = new Map<string, string>();
      for (const [i, c] of cases.entries()) {
        const bytes = readFileSync(join(CORPUS, c.zone));
        // Each case under a name of its own: relative names follow it; a case naming absolute
        // names of its original origin no longer imports, and is left out.
        const origin = `c${i}.corpus.test.`;
        const text = `$ORIGIN ${origin}\n${bytes.toString('utf8')}`;
        const job = await dns.imports.create(ctx, text, 'text/dns');
        if (job.isErr()) continue;
        await dns.tasks.settle();
        const done = (await dns.imports.get(ctx, job.value.id))._unsafeUnwrap();
        if (done.status === 'COMPLETE') zones.set(origin, text);
      }
      const { asked, mismatches } = await compareZones(zones, dns, server);
      console.log(`corpus: ${zones.size} zones, ${asked} questions`);
      expect(zones.size).toBeGreaterThan(20);
      expect(asked).toBeGreaterThan(500);
      expect(mismatches).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
