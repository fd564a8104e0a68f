/**
 * A page of a zone's recordsets reads only what it may show (src/dns/kernel/recordset-pages.ts):
 * three streams in the page's order, merged. The law: for every sort key, direction, limit and
 * marker, a page equals the page of the whole zone sorted as the list sorts it (the path a
 * filter matching everything takes), whatever mix of imported, written, changed and deleted
 * recordsets the zone holds, with the zone ACTIVE or PENDING; and the export lists them in the
 * default order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDnsService, type DnsService, type RecordsetBody, type RequestContext } from '../../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../../src/testing/index.js';

const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const SORT_KEYS = ['created_at', 'id', 'updated_at', 'name', 'type', 'ttl', 'status'] as const;

interface Page {
  recordsets: { id: string }[];
  links: { next?: string };
  metadata: { total_count: number };
}

/** A zone file of `n` recordsets over a few names, types and TTLs (so that sort keys tie). */
function zoneFile(n: number): string {
  const lines = ['$ORIGIN pages.test.', '$TTL 300', '@ IN SOA ns1.example.org. h.pages.test. 1 3600 600 86400 300', '@ IN NS ns1.example.org.'];
  for (let i = 0; i < n; i++) {
    const owner = `${i % 3 === 0 ? 'A' : 'b'}${i % 40}`;
    if (i % 3 === 1) lines.push(`${owner} ${i % 2 === 0 ? '60 ' : ''}IN TXT "t${i}"`);
    else lines.push(`${owner} ${i % 5 === 0 ? '120 ' : ''}IN ${i % 3 === 0 ? 'A 192.0.2.1' : 'AAAA 2001:db8::1'}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Every page of one order, checked against the whole-zone path: the pages, put end to end, are
 * the whole zone as that path sorts it, each one full but the last, and each counts the zone.
 * That makes every page the whole zone's page after its marker; every 16th page (and the last)
 * is also compared with that path's own page after the same marker, field by field.
 */
async function walk(dns: DnsService, z: string, sortKey: string, sortDir: string, limit: number): Promise<string[]> {
  const whole = (await dns.recordsets.list(alice, z, { limit: 'max', sort_key: sortKey, sort_dir: sortDir, name: '*' }))._unsafeUnwrap() as unknown as Page;
  const seen: Page['recordsets'] = [];
  let marker: string | undefined;
  for (let n = 0; n < 1000; n++) {
    const query = { limit: String(limit), sort_key: sortKey, sort_dir: sortDir, ...(marker === undefined ? {} : { marker }) };
    const page = (await dns.recordsets.list(alice, z, query))._unsafeUnwrap() as unknown as Page;
    const last = page.links.next === undefined;
    if (n % 16 === 0 || last) {
      const slow = (await dns.recordsets.list(alice, z, { ...query, name: '*' }))._unsafeUnwrap() as unknown as Page;
      expect(page).toEqual({ ...slow, links: page.links });
    }
    if (!last) expect(page.recordsets.length).toBe(limit);
    expect(page.metadata.total_count).toBe(page.recordsets.length === 0 ? 0 : whole.metadata.total_count);
    seen.push(...page.recordsets);
    if (last) break;
    marker = page.recordsets[page.recordsets.length - 1]!.id;
  }
  expect(seen).toEqual(whole.recordsets);
  return seen.map((r) => r.id);
}

describe('recordset list pages', () => {
  it('equal the whole zone sorted, for every sort key and direction, in any mix of imported and written recordsets', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), name: fc.constantFrom('A3', 'b7', 'new', 'Zed', 'x.y'), type: fc.constantFrom('A', 'TXT', 'MX'), ttl: fc.option(fc.constantFrom(60, 120, 3600)), empty: fc.boolean() }),
      fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), ttl: fc.option(fc.constantFrom(60, 120, 7200)), description: fc.boolean() }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('tick' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), fc.boolean(), fc.constantFrom(1, 4, 25, 400), async (ops, pending, limit) => {
        const clock = manualClock('2026-01-01T00:00:00Z');
        const dns = createDnsService({ clock, ids: sequentialIds(), random: seededRandom(3), tasks: 'manual', quotas: { zone_recordsets: -1, zone_records: -1 } });
        const imp = (await dns.imports.create(alice, zoneFile(300), 'text/dns'))._unsafeUnwrap();
        await dns.tasks.settle();
        const z = (await dns.imports.get(alice, imp.id))._unsafeUnwrap().zone_id!;
        let k = 0;
        for (const o of ops) {
          const ids = ((await dns.recordsets.list(alice, z, { limit: 'max' }))._unsafeUnwrap() as unknown as Page).recordsets.map((r) => r.id).slice(2);
          if (o.kind === 'tick') clock.advance(1);
          else if (o.kind === 'create') {
            const body = { name: `${o.name}${k++}.pages.test.`, type: o.type, records: o.empty ? [] : [o.type === 'A' ? '192.0.2.9' : o.type === 'MX' ? '10 mx.example.org.' : '"w"'], ...(o.ttl === null ? {} : { ttl: o.ttl }) };
            (await dns.recordsets.create(alice, z, body))._unsafeUnwrap();
          } else if (ids.length > 0) {
            const id = ids[o.pick % ids.length]!;
            if (o.kind === 'update') (await dns.recordsets.update(alice, z, id, { ...(o.ttl === null ? {} : { ttl: o.ttl }), ...(o.description ? { description: 'd' } : {}) }))._unsafeUnwrap();
            else (await dns.recordsets.delete(alice, z, id))._unsafeUnwrap();
          }
        }
        // Settled, the zone is ACTIVE again; left pending, its recordsets show three statuses.
        if (!pending) await dns.tasks.settle();
        const total = ((await dns.recordsets.list(alice, z, {}))._unsafeUnwrap() as unknown as Page).metadata.total_count;
        expect(total).toBeGreaterThan(100);
        for (const sortKey of SORT_KEYS) {
          for (const sortDir of ['asc', 'desc']) {
            const seen = await walk(dns, z, sortKey, sortDir, limit);
            expect(seen.length).toBe(total);
            expect(new Set(seen).size).toBe(total);
          }
        }
        // The export lists the stored recordsets in the same order as the default list.
        const listed = ((await dns.recordsets.list(alice, z, { limit: 'max' }))._unsafeUnwrap() as unknown as { recordsets: RecordsetBody[] }).recordsets.slice(2);
        const exp = (await dns.exports.create(alice, z))._unsafeUnwrap();
        await dns.tasks.settle();
        const lines = (await dns.exports.file(alice, exp.id))._unsafeUnwrap().split('\n').filter((l) => / IN /.test(l) && !/ IN (SOA|NS) /.test(l));
        expect(lines).toEqual(listed.flatMap((r) => r.records.map((d) => `${r.name} ${r.ttl === null || r.ttl === 0 ? '' : r.ttl} IN ${r.type} ${d}`)));
      }),
      { numRuns: 12, seed: 19 },
    );
  }, 300_000);

  it('of GET /v2/recordsets equal the whole scope sorted, over many zones, transfers and colliding clocks', async () => {
    const bob: RequestContext = { projectId: 'bob', roles: ['member'] };
    const admin: RequestContext = { projectId: 'admin', roles: ['admin'], allProjects: true };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('zone' as const), owner: fc.boolean(), imported: fc.boolean() }),
      fc.record({ kind: fc.constant('create' as const), pick: fc.nat(), empty: fc.boolean() }),
      fc.record({ kind: fc.constant('update' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('transfer' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('tick' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 30 }), fc.constantFrom(1, 3, 20), async (ops, limit) => {
        const clock = manualClock('2026-01-01T00:00:00Z');
        const dns = createDnsService({ clock, ids: sequentialIds(), random: seededRandom(5), tasks: 'inline', quotas: { zone_recordsets: -1, zone_records: -1 } });
        const zones: { id: string; owner: RequestContext; name: string }[] = [];
        let n = 0;
        for (const o of ops) {
          if (o.kind === 'tick') clock.advance(1);
          else if (o.kind === 'zone') {
            const owner = o.owner ? alice : bob;
            const name = `z${n++}.test.`;
            if (o.imported) {
              const file = `$ORIGIN ${name}\n$TTL 300\n@ IN SOA ns1.example.org. h.${name} 1 3600 600 86400 300\n@ IN NS ns1.example.org.\n${Array.from({ length: 12 }, (_, i) => `h${i} IN A 192.0.2.${i}`).join('\n')}\n`;
              const imp = (await dns.imports.create(owner, file, 'text/dns'))._unsafeUnwrap();
              await dns.tasks.settle();
              zones.push({ id: (await dns.imports.get(owner, imp.id))._unsafeUnwrap().zone_id!, owner, name });
            } else {
              zones.push({ id: (await dns.zones.create(owner, { name, email: 'a@example.com' }))._unsafeUnwrap().id, owner, name });
            }
          } else if (zones.length > 0) {
            const z = zones[o.pick % zones.length]!;
            if (o.kind === 'create') {
              (await dns.recordsets.create(z.owner, z.id, { name: `w${n++}.${z.name}`, type: 'TXT', records: o.empty ? [] : ['"w"'] }))._unsafeUnwrap();
            } else if (o.kind === 'transfer') {
              const req = (await dns.transferRequests.create(z.owner, z.id, {}))._unsafeUnwrap();
              const to = z.owner === alice ? bob : alice;
              (await dns.transferAccepts.create(to, { zone_transfer_request_id: req.id, key: req.key }))._unsafeUnwrap();
              await dns.tasks.settle();
              z.owner = to;
            } else {
              const ids = ((await dns.recordsets.list(z.owner, z.id, { limit: 'max' }))._unsafeUnwrap() as unknown as Page).recordsets.map((r) => r.id).slice(2);
              const id = ids[o.pick % Math.max(1, ids.length)];
              if (id !== undefined && o.kind === 'update') (await dns.recordsets.update(z.owner, z.id, id, { ttl: 77 }))._unsafeUnwrap();
              if (id !== undefined && o.kind === 'delete') (await dns.recordsets.delete(z.owner, z.id, id))._unsafeUnwrap();
            }
          }
        }
        for (const who of [alice, bob, admin]) {
          for (const sortDir of ['asc', 'desc']) {
            const seen: string[] = [];
            let marker: string | undefined;
            for (let pages = 0; pages < 1000; pages++) {
              const query = { limit: String(limit), sort_dir: sortDir, ...(marker === undefined ? {} : { marker }) };
              const page = (await dns.recordsets.listAll(who, query))._unsafeUnwrap() as Page;
              const slow = (await dns.recordsets.listAll(who, { ...query, name: '*' }))._unsafeUnwrap() as Page;
              expect(page).toEqual({ ...slow, links: page.links });
              seen.push(...page.recordsets.map((r) => r.id));
              if (page.links.next === undefined) break;
              marker = page.recordsets[page.recordsets.length - 1]!.id;
            }
            const total = ((await dns.recordsets.listAll(who, { limit: '1' }))._unsafeUnwrap() as Page).metadata.total_count;
            expect(new Set(seen).size).toBe(total);
          }
        }
        // Another project's recordset is no marker here.
        const theirs = ((await dns.recordsets.listAll(bob, {}))._unsafeUnwrap() as Page).recordsets[0];
        if (theirs !== undefined) expect((await dns.recordsets.listAll(alice, { marker: theirs.id }))._unsafeUnwrapErr().type).toBe('marker_not_found');
      }),
      { numRuns: 25, seed: 19 },
    );
  }, 300_000);

  it('of a new zone: the SOA before the NS, the SOA never updated, an empty last page counts 0 (as the real service)', async () => {
    // Ids drawn in descending order: the SOA, drawn before the NS, gets the larger one unless the create orders them.
    let n = 999_999;
    const ids = () => `00000000-0000-4000-8000-${String(n--).padStart(12, '0')}`;
    const dns = createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids, random: seededRandom(1) });
    const z = (await dns.zones.create(alice, { name: 'new.test.', email: 'a@new.test' }))._unsafeUnwrap().id;
    await dns.tasks.settle();
    const page = (await dns.recordsets.list(alice, z))._unsafeUnwrap() as unknown as { recordsets: RecordsetBody[] };
    expect(page.recordsets.map((r) => [r.type, r.updated_at])).toEqual([
      ['SOA', null],
      ['NS', null],
    ]);
    const last = page.recordsets[1]!.id;
    for (const query of [{ limit: '1', marker: last }, { marker: last }, { limit: '1', marker: last, type: 'NS' }]) {
      const empty = (await dns.recordsets.list(alice, z, query))._unsafeUnwrap() as unknown as Page;
      expect([empty.recordsets, empty.metadata.total_count]).toEqual([[], 0]);
    }
    for (const query of [{ marker: last }, { marker: last, type: 'NS' }]) {
      const empty = (await dns.recordsets.listAll(alice, query))._unsafeUnwrap() as unknown as Page;
      expect([empty.recordsets, empty.metadata.total_count]).toEqual([[], 0]);
    }
    // A serial raise rewrites the SOA: from then on it has been updated.
    await dns.zones.update(alice, z, { ttl: 600 });
    const soa = (await dns.recordsets.get(alice, z, page.recordsets[0]!.id))._unsafeUnwrap();
    expect(soa.updated_at).not.toBeNull();
  });
});
