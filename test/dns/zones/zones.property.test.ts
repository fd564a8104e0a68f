import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDnsService, type RequestContext, type ZoneBody } from '../../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../../src/testing/index.js';

const PROJECTS = ['p1', 'p2', 'p3'] as const;
const ctx = (p: string): RequestContext => ({ projectId: p, roles: ['member'] });
const NAMES = ['a.com.', 'b.com.', 'x.a.com.', 'c.org.', 'd.org.', 'A.COM.'];

type Op =
  | { kind: 'create'; project: number; name: number; ttl: number }
  | { kind: 'update'; project: number; target: number; ttl: number }
  | { kind: 'delete'; project: number; target: number }
  | { kind: 'bad'; project: number; target: number; body: unknown };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), project: fc.nat(2), name: fc.nat(NAMES.length - 1), ttl: fc.integer({ min: 0, max: 100_000 }) }),
  fc.record({ kind: fc.constant('update' as const), project: fc.nat(2), target: fc.nat(9), ttl: fc.integer({ min: 0, max: 100_000 }) }),
  fc.record({ kind: fc.constant('delete' as const), project: fc.nat(2), target: fc.nat(9) }),
  fc.record({
    kind: fc.constant('bad' as const),
    project: fc.nat(2),
    target: fc.nat(9),
    body: fc.oneof(fc.constant({ ttl: -5 }), fc.constant({ name: 'renamed.com.' }), fc.constant({ bogus: true }), fc.constant([]), fc.string()),
  }),
);

async function replay(ops: readonly Op[], observe?: (zones: Map<string, ZoneBody>) => void) {
  const clock = manualClock('2026-01-01T00:00:00Z');
  const dns = createDnsService({ clock, ids: sequentialIds(), random: seededRandom(7), quotas: { zones: 4 }, tasks: 'inline' });
  const created: string[] = [];
  const last = new Map<string, ZoneBody>();
  for (const op of ops) {
    clock.advance(1500);
    const caller = ctx(PROJECTS[op.project]!);
    if (op.kind === 'create') {
      const r = await dns.zones.create(caller, { name: NAMES[op.name], email: 'h@example.com', ttl: op.ttl });
      if (r.isOk()) created.push(r.value.id);
    } else {
      const id = created[op.target % Math.max(1, created.length)] ?? '00000000-0000-4000-8000-00000000dead';
      if (op.kind === 'update') await dns.zones.update(caller, id, { ttl: op.ttl });
      else if (op.kind === 'delete') await dns.zones.delete(caller, id);
      else {
        const before = await dns.snapshot();
        const r = await dns.zones.update(caller, id, op.body);
        expect(r.isErr()).toBe(true);
        expect(await dns.snapshot()).toEqual(before);
      }
    }
    for (const id of created) {
      for (const p of PROJECTS) {
        const g = await dns.zones.get(ctx(p), id);
        if (g.isOk()) {
          const prev = last.get(id);
          if (prev !== undefined) {
            expect(g.value.serial).toBeGreaterThanOrEqual(prev.serial);
            expect(g.value.version).toBeGreaterThanOrEqual(prev.version);
          }
          last.set(id, g.value);
        }
      }
    }
    observe?.(last);
  }
  return { dns, created };
}

describe('zone laws', () => {
  it('a project sees exactly its own live zones; every other id is a 404', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 25 }), async (ops) => {
        const { dns, created } = await replay(ops);
        const admin = { projectId: 'ops', roles: ['admin'], allProjects: true };
        const all = ((await dns.zones.list(admin, { limit: 'max' }))._unsafeUnwrap() as { zones: ZoneBody[] }).zones;
        for (const p of PROJECTS) {
          const own = all.filter((z) => z.project_id === p).map((z) => z.id).sort();
          const listed = ((await dns.zones.list(ctx(p), { limit: 'max' }))._unsafeUnwrap() as { zones: ZoneBody[]; metadata: { total_count: number } });
          expect(listed.zones.map((z) => z.id).sort()).toEqual(own);
          expect(listed.metadata.total_count).toBe(own.length);
          for (const id of created) {
            const g = await dns.zones.get(ctx(p), id);
            if (own.includes(id)) expect(g._unsafeUnwrap().project_id).toBe(p);
            else expect(g._unsafeUnwrapErr().status).toBe(404);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('serial and version never go down, and a rejected command changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 20 }), async (ops) => {
        await replay(ops);
      }),
      { numRuns: 60 },
    );
  });

  it('marker paging visits every zone once, in order, for any page size and direction', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom('created_at', 'name', 'id', 'serial'),
        fc.constantFrom('asc', 'desc'),
        async (count, limit, sortKey, sortDir) => {
          const clock = manualClock('2026-01-01T00:00:00Z');
          const dns = createDnsService({ clock, ids: sequentialIds(), quotas: { zones: -1 }, tasks: 'inline' });
          for (let i = 0; i < count; i++) {
            if (i % 3 !== 0) clock.advance(1000); // equal timestamps too: ties are broken by id
            (await dns.zones.create(ctx('p1'), { name: `z${(i * 7919) % 1000}.example.`, email: 'h@example.com' }))._unsafeUnwrap();
          }
          const everything = ((await dns.zones.list(ctx('p1'), { limit: 'max', sort_key: sortKey, sort_dir: sortDir }))._unsafeUnwrap() as { zones: ZoneBody[] }).zones;
          const seen: string[] = [];
          let marker: string | undefined;
          for (;;) {
            const page = (await dns.zones.list(ctx('p1'), { limit: String(limit), sort_key: sortKey, sort_dir: sortDir, ...(marker ? { marker } : {}) }))._unsafeUnwrap() as {
              zones: ZoneBody[];
              links: { next?: string };
            };
            seen.push(...page.zones.map((z) => z.id));
            expect(page.links.next !== undefined).toBe(page.zones.length === limit);
            if (page.links.next === undefined) break;
            marker = page.zones[page.zones.length - 1]!.id;
          }
          expect(seen).toEqual(everything.map((z) => z.id));
          expect(new Set(seen).size).toBe(count);
        },
      ),
      { numRuns: 80 },
    );
  });
});
