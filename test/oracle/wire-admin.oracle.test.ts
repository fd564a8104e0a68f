/**
 * zoneward/http against the real Designate 15 API on the wire, for the admin resources of issue
 * 27: the same raw requests go to both, and status, media type, error type, `Location` and the
 * body (ids and times masked; keys, types, values and error messages kept) must agree, except
 * where a {@link decision} says why not. The real service runs here on its own (its TLDs,
 * blacklists and pools are the whole service's, and would change what the other wire suite's
 * zone creates answer).
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeWith } from '../support/requires.js';
import { blacklistCases, cleanUp, otherAdminCases, tldCases, tsigkeyCases } from './wire-admin-cases.js';
import { WireProcess, wireRequirement } from './wire-process.js';
import { ruleSequence } from './wire-rules.js';
import { compareOnWire, normalised, unexplained, type WireAnswer, type WireRequest } from './wire.js';

const SEED = Number(process.env['ZONEWARD_WIRE_SEED'] ?? 20);

const bodyOf = (a: WireAnswer) => a.body as Record<string, unknown> | null;

/** Why ours may answer `request` differently from the real service; undefined when they must agree. */
export function adminDecision(request: WireRequest, ours: WireAnswer, theirs: WireAnswer): string | undefined {
  const path = request.path.split('?')[0]!;
  const query = new URLSearchParams(request.path.split('?')[1] ?? '');
  const [mine, real] = [bodyOf(ours), bodyOf(theirs)];
  if (ours.status !== theirs.status) return undefined;
  if (path.startsWith('/v2/zones/tasks/imports/') && typeof (mine?.['links'] as Record<string, unknown>)?.['href'] === 'string') {
    return "the spec's import body links its zone as `links.href`; Designate names it `links.zone`";
  }
  if (path === '/v2/blacklists' && ours.status === 400 && typeof mine?.['message'] === 'string' && mine['message'].startsWith(`${String(real?.['message'])} for this service`)) {
    return 'a pattern both refuse: ours says why (a pattern must be searchable in linear time)';
  }
  if (path.startsWith('/v2/pools') && request.method === 'GET' && JSON.stringify(mine).replace(/"updated_at":null/g, '') === JSON.stringify(real).replace(/"updated_at":"[^"]*"/g, '')) {
    return "the harness's `pool update` at start stamps the default pool's `updated_at`; a configured pool never updated shows null";
  }
  if (/^\/v2\/service_status(es)?$/.test(path) && Array.isArray(real?.['service_statuses']) && (real['service_statuses'] as unknown[]).length === 0) {
    return 'the harness runs no services that heartbeat (its list is empty); zoneward reports its five as UP';
  }
  const filter = [...query.entries()].find(([k, v]) => (k === 'name' || k === 'pattern') && !v.includes('*'));
  if (filter !== undefined && ours.status === 200) {
    const [field, value] = filter;
    const items = (b: Record<string, unknown> | null) => (Object.values(b ?? {}).find(Array.isArray) ?? []) as Record<string, unknown>[];
    const extra = items(mine).filter((i) => !items(real).some((r) => r['id'] !== undefined && r[field] === i[field]));
    if (extra.length > 0 && extra.every((i) => String(i[field]).toLowerCase() === value.toLowerCase() && i[field] !== value)) {
      return "name equality is the database's: MySQL's default collation matches case-insensitively, the harness's SQLite does not";
    }
  }
  if (mine?.['type'] === 'SECONDARY' && mine['email'] === null && mine['ttl'] === null) {
    const asSpec = { ...real, email: null, ttl: null };
    if (JSON.stringify(normalised(asSpec)) === JSON.stringify(normalised(mine))) return 'the spec: a SECONDARY zone shows `email` and `ttl` null (the real service shows the managed email and the default TTL)';
  }
  if (query.get('sort_key') === 'name' && ours.status === 200) {
    const names = (b: Record<string, unknown> | null) => ((Object.values(b ?? {}).find(Array.isArray) ?? []) as Record<string, unknown>[]).map((i) => String(i['name']));
    const [a, b] = [names(mine), names(real)];
    if (a.join('\n') !== b.join('\n') && [...a].sort().join('\n') === [...b].sort().join('\n') && a.join('\n').toLowerCase() === b.join('\n').toLowerCase()) {
      return "names sort in the database's collation: MySQL's ignores case, the harness's SQLite puts capitals first";
    }
  }
  return undefined;
}

let runs = 0;
const prefix = () => `adm${process.pid % 1000}r${++runs}`;

/** Deletes what a sequence left on the real service (all but the configured pool). */
async function clean(origin: string): Promise<void> {
  for (const list of cleanUp.lists) {
    const r = await fetch(`${origin}/v2/${list}`, { headers: cleanUp.headers });
    const items = ((await r.json()) as Record<string, { id: string; name?: string }[]>)[list] ?? [];
    for (const item of items) {
      if (list === 'pools' && item.name === 'default') continue;
      await fetch(`${origin}/v2/${list}/${item.id}`, { method: 'DELETE', headers: cleanUp.headers });
    }
  }
}

describeWith(wireRequirement('designate-api'), 'zoneward/http and the real DNS API on the wire: the admin resources', () => {
  let real: WireProcess | undefined;
  beforeAll(async () => {
    real = await WireProcess.start('designate-api');
  }, 120_000);
  afterEach(async () => {
    if (real !== undefined) await clean(real.origin);
  });
  afterAll(() => real?.stop());

  const sequences = { TLDs: tldCases, blacklists: blacklistCases, tsigkeys: tsigkeyCases, 'pools, service statuses, limits, recordsets by id, floating IPs': otherAdminCases };
  for (const [what, cases] of Object.entries(sequences)) {
    it(`agree on ${what}, bodies included`, async () => {
      const diffs = await compareOnWire(real!.origin, cases(prefix()), adminDecision, { bodies: true });
      expect(unexplained(diffs)).toEqual([]);
    }, 240_000);
  }

  it('agree on seeded random sequences mixing TLD and blacklist writes with zone creates, imports, SECONDARY creates and transfers, bodies included', async () => {
    let cut = 0;
    const runsWanted = 8;
    await fc.assert(
      fc.asyncProperty(
        fc.integer().chain(() => ruleSequence(prefix())),
        async (steps) => {
          try {
            const diffs = await compareOnWire(real!.origin, steps, adminDecision, { bodies: true });
            expect(unexplained(diffs)).toEqual([]);
            if (diffs.at(-1)?.theirs.status === 504) cut++;
          } finally {
            await clean(real!.origin);
          }
        },
      ),
      { seed: SEED, numRuns: runsWanted, endOnFailure: true },
    );
    // A sequence the real service's RPC timeout cut short compares less: most must run whole.
    expect(cut).toBeLessThanOrEqual(runsWanted / 4);
  }, 400_000);
});
