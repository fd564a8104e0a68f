/**
 * The recipe of docs/testing.md, run as a test: every code block of that page is a part of this
 * file (keep them in step).
 */
// --- 1. A fetch-like adapter: zoneward behind the HTTP shape the client under test uses -------
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDnsService, memoryStorage, type ApiError, type DnsService, type ServiceSnapshot } from '../../src/index.js';
import { controllablePoolTargets, faultPlan, inspectDns, manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';
import type { ResultAsync } from 'neverthrow';

type Fetch = (url: string, init?: { method?: string; body?: string; headers?: Record<string, string> }) => Promise<Response>;

/** Routes the few requests the client makes to the service; the token header names the project. */
function fakeDesignate(dns: DnsService): Fetch {
  const reply = async (result: ResultAsync<unknown, ApiError>, status = 200): Promise<Response> => {
    const r = await result;
    return r.isOk()
      ? new Response(r.value === undefined ? null : JSON.stringify(r.value), { status: r.value === undefined ? 204 : status })
      : new Response(JSON.stringify(r.error.toJSON()), { status: r.error.status });
  };
  return async (url, init = {}) => {
    const ctx = { projectId: init.headers?.['x-project-id'] ?? null, roles: ['member'] };
    const path = new URL(url).pathname;
    const body: unknown = init.body === undefined ? undefined : JSON.parse(init.body);
    const zone = /^\/v2\/zones\/([^/]+)$/.exec(path)?.[1];
    if (path === '/v2/zones' && init.method === 'POST') return reply(dns.zones.create(ctx, body), 202);
    if (zone !== undefined && (init.method ?? 'GET') === 'GET') return reply(dns.zones.get(ctx, zone));
    if (zone !== undefined && init.method === 'DELETE') return reply(dns.zones.delete(ctx, zone), 202);
    return new Response(JSON.stringify({ code: 404, type: 'not_found' }), { status: 404 });
  };
}

// --- 2. The client under test (your code): creates a zone and waits until it is ACTIVE --------
class DnsClient {
  constructor(
    private readonly fetch: Fetch,
    private readonly project: string,
    private readonly wait: () => Promise<void>,
  ) {}

  async createZone(name: string, attempts = 3): Promise<{ id: string; status: string }> {
    for (let attempt = 1; ; attempt += 1) {
      const res = await this.fetch('http://dns.test/v2/zones', {
        method: 'POST',
        headers: { 'x-project-id': this.project },
        body: JSON.stringify({ name, email: `hostmaster@${name.slice(0, -1)}` }),
      });
      if (res.status >= 500 && attempt < attempts) continue; // retry server errors
      if (!res.ok) throw new Error(`create failed: ${res.status}`);
      let zone = (await res.json()) as { id: string; status: string };
      while (zone.status === 'PENDING') {
        await this.wait();
        const polled = await this.fetch(`http://dns.test/v2/zones/${zone.id}`, { headers: { 'x-project-id': this.project } });
        zone = (await polled.json()) as { id: string; status: string };
      }
      return zone;
    }
  }
}

// --- 3. The suite: one fixture state, restored fresh before each test --------------------------
describe('DnsClient against zoneward', () => {
  let fixture: ServiceSnapshot;
  let dns: DnsService;

  const deterministic = () => ({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1) });

  beforeAll(async () => {
    const seed = createDnsService(deterministic());
    await seed.zones.create({ projectId: 'acme', roles: ['member'] }, { name: 'existing.com.', email: 'h@existing.com' });
    fixture = await seed.snapshot(); // frozen, JSON-serialisable: could as well live in a .json file
  });

  beforeEach(() => {
    dns = createDnsService({ ...deterministic(), ids: sequentialIds('a'), from: fixture });
  });

  it('creates a zone (auto mode: PENDING, ACTIVE once its push ran)', async () => {
    const client = new DnsClient(fakeDesignate(dns), 'acme', () => dns.tasks.settle());
    const zone = await client.createZone('new.com.');
    expect(zone.status).toBe('ACTIVE');
    expect((await dns.zones.list({ projectId: 'acme', roles: ['member'] }))._unsafeUnwrap()).toMatchObject({ metadata: { total_count: 2 } });
  });

  it('sees a clash with the fixture zone as an error', async () => {
    const client = new DnsClient(fakeDesignate(dns), 'acme', () => dns.tasks.settle());
    await expect(client.createZone('existing.com.')).rejects.toThrow('create failed: 409');
  });

  // --- 4. Manual tasks: observe the PENDING state the real service answers first ----------------
  it('polls while the zone is PENDING (manual tasks)', async () => {
    const manual = createDnsService({ ...deterministic(), ids: sequentialIds('b'), from: fixture, tasks: 'manual' });
    const seen: string[] = [];
    const client = new DnsClient(fakeDesignate(manual), 'acme', async () => {
      const [zone] = (await inspectDns(await manual.snapshot()).zones()).filter((z) => z.name === 'new.com.');
      seen.push(zone!.status); // what the client saw between polls
      await manual.tasks.runNext(); // let the push happen now
    });
    const zone = await client.createZone('new.com.');
    expect(seen).toEqual(['PENDING']);
    expect(zone.status).toBe('ACTIVE');
  });

  // --- 5. Fault injection: a storage failure once, and DNS servers that fail ---------------------
  it('retries a 500 storage_failure, and nothing was half-written', async () => {
    const storage = memoryStorage();
    await createDnsService({ storage, from: fixture }).snapshot(); // load the fixture into it
    const plan = faultPlan().fail('put', { times: 1 }); // the first write fails, then all is well
    const faulty = createDnsService({ ...deterministic(), ids: sequentialIds('c'), storage: plan.wrap(storage) });
    const client = new DnsClient(fakeDesignate(faulty), 'acme', () => faulty.tasks.settle());
    const zone = await client.createZone('retry.com.');
    expect(zone.status).toBe('ACTIVE');
    expect(plan.calls().filter((c) => c.effects.includes('failed'))).toHaveLength(1);
    expect((await inspectDns(storage).zones()).map((z) => z.name)).toEqual(['existing.com.', 'retry.com.']);
  });

  it('reports a zone the DNS servers refused (ERROR)', async () => {
    const targets = controllablePoolTargets().fail({ method: 'createZone' });
    const failing = createDnsService({ ...deterministic(), ids: sequentialIds('d'), from: fixture, poolTargets: targets });
    const client = new DnsClient(fakeDesignate(failing), 'acme', () => failing.tasks.settle());
    const zone = await client.createZone('refused.com.');
    expect(zone.status).toBe('ERROR');
    expect(targets.calls().map((c) => [c.method, c.zone.name, c.outcome])).toEqual([['createZone', 'refused.com.', 'failed']]);
  });

  afterEach(async () => {
    await dns.tasks.settle(); // nothing left running between tests
  });
});

// --- (keeps docs/testing.md in step with this file) ---------------------------------------------
describe('docs/testing.md', () => {
  it('shows exactly the code of this file', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../../docs/testing.md', import.meta.url), 'utf8');
    const self = (await readFile(new URL(import.meta.url), 'utf8'))
      .replaceAll("'../../src/index.js'", "'zoneward'")
      .replaceAll("'../../src/testing/index.js'", "'zoneward/testing'");
    // Sections 2 to 6 are this file; section 1 (msw) is test/adapters/http/msw.test.ts, which checks its own.
    const blocks = [...doc.slice(doc.indexOf('## 2.'), doc.indexOf('## Who may call what')).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(5);
    for (const block of blocks) expect(self).toContain(block);
  });
});
