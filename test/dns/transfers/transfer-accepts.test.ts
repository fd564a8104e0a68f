import { describe, expect, it } from 'vitest';
import { fc } from '@fast-check/vitest';
import { memoryStorage } from '../../../src/adapters/memory/memory-storage.js';
import type { Storage, StorageTransaction } from '../../../src/ports/storage.js';
import { TRANSFER_ACCEPTS } from '../../../src/dns/transfers/transfer-accept.js';
import { TRANSFER_REQUESTS, transferRequestKeys, type StoredTransferRequest } from '../../../src/dns/transfers/transfer-request.js';
import { ZONES } from '../../../src/dns/kernel/zone-store.js';
import { restoreSnapshot, takeSnapshot } from '../../../src/kernel/snapshot.js';
import { DNS_COLLECTIONS } from '../../../src/dns/service.js';
import { TRANSFER_COLLECTIONS } from '../../../src/dns/transfers/index.js';
import { ADMIN, ADMIN_ALL, ctx, harness, zoneOf, type Harness } from './harness.js';

/** A body sent as a server would pass it (`unknown`): deliberately outside the typed input. */
const untyped = (body: unknown): unknown => body;

const A = ctx('p-a');
const B = ctx('p-b');
const C = ctx('p-c');
const BASE = 'http://localhost:9001';

async function offered(h: Harness, body: object = {}) {
  const zoneId = await zoneOf(h, A, 'example.com.');
  const r = (await h.transferRequests.create(A, zoneId, body))._unsafeUnwrap();
  return { zoneId, r };
}

/** Everything the accept touches, as stored. */
async function state(h: Harness): Promise<unknown> {
  const snap = await takeSnapshot(h.deps.storage, 'dns', {
    ...TRANSFER_COLLECTIONS,
    [ZONES]: () => ({}),
    'dns.recordsets': () => ({}),
  });
  return snap.collections;
}

describe('transferAccepts.create (reference §7)', () => {
  it('moves the zone, closes the request, records the accept; 201 body with the key echoed', async () => {
    const h = harness();
    const { zoneId, r } = await offered(h, { target_project_id: 'p-b' });
    const before = (await h.zones.get(A, zoneId))._unsafeUnwrap();
    h.clock.advance(60_000);
    const a = (await h.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrap();
    expect(Object.keys(a)).toEqual([
      'id', 'zone_transfer_request_id', 'project_id', 'key', 'status', 'zone_id', 'created_at', 'updated_at', 'links',
    ]);
    expect(a).toEqual({
      id: a.id,
      zone_transfer_request_id: r.id,
      project_id: 'p-b',
      key: r.key,
      status: 'COMPLETE',
      zone_id: zoneId,
      created_at: '2026-01-01T00:01:00.000000',
      updated_at: '2026-01-01T00:01:00.000000',
      links: { self: `${BASE}/v2/zones/tasks/transfer_accepts/${a.id}`, zone: `${BASE}/v2/zones/${zoneId}` },
    });
    const after = (await h.zones.get(B, zoneId))._unsafeUnwrap();
    expect(after).toEqual({
      ...before,
      project_id: 'p-b',
      version: before.version + 1,
      updated_at: '2026-01-01T00:01:00.000000',
    });
    expect(after.transferred_at).toBe(before.transferred_at);
    expect((await h.zones.get(A, zoneId))._unsafeUnwrapErr().status).toBe(404);
    const req = (await h.transferRequests.get(A, r.id))._unsafeUnwrap();
    expect([req.status, req.updated_at]).toEqual(['COMPLETE', '2026-01-01T00:01:00.000000']);
    expect(h.events.filter((e) => e.type.startsWith('dns.zone_transfer_accept'))).toEqual([
      { type: 'dns.zone_transfer_accept.create', payload: a },
    ]);
    // No zone event for the move.
    expect(h.events.at(-1)!.type).toBe('dns.zone_transfer_accept.create');
    // The new owner may offer it again; the old owner's request stays readable.
    expect((await h.transferRequests.create(B, zoneId)).isOk()).toBe(true);
  });

  it('GET shows key null; other projects 404; admin list only', async () => {
    const h = harness();
    const { r } = await offered(h);
    const a = (await h.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrap();
    const got = (await h.transferAccepts.get(B, a.id))._unsafeUnwrap();
    expect(got).toEqual({ ...a, key: null });
    for (const who of [A, C, ADMIN]) {
      expect((await h.transferAccepts.get(who, a.id))._unsafeUnwrapErr().toJSON()).toEqual({
        code: 404,
        type: 'zone_transfer_accept_not_found',
        message: 'Could not find ZoneTransferAccept',
      });
    }
    expect((await h.transferAccepts.get(ADMIN_ALL, a.id))._unsafeUnwrap()).toEqual(got);
    expect((await h.transferAccepts.get(B, 'zz'))._unsafeUnwrapErr().message).toBe('Invalid UUID transfer_accept_id: zz');
    expect((await h.transferAccepts.list(B))._unsafeUnwrapErr().toJSON()).toEqual({ code: 403, type: 'forbidden' });
    expect((await h.transferAccepts.list(ADMIN))._unsafeUnwrap()).toEqual({
      transfer_accepts: [],
      links: { self: `${BASE}/v2/zones/tasks/transfer_accepts` },
      metadata: { total_count: 0 },
    });
    expect((await h.transferAccepts.list(ADMIN_ALL))._unsafeUnwrap()).toEqual({
      transfer_accepts: [got],
      links: { self: `${BASE}/v2/zones/tasks/transfer_accepts` },
      metadata: { total_count: 1 },
    });
    const adminB = { projectId: 'p-b', roles: ['admin'] };
    expect((await h.transferAccepts.list(adminB, { limit: '1' }))._unsafeUnwrap()).toEqual({
      transfer_accepts: [got],
      links: {
        self: `${BASE}/v2/zones/tasks/transfer_accepts?limit=1`,
        next: `${BASE}/v2/zones/tasks/transfer_accepts?limit=1&marker=${a.id}`,
      },
      metadata: { total_count: 1 },
    });
  });

  it('missing key → structured required error', async () => {
    const h = harness();
    const { r } = await offered(h);
    const e = (await h.transferAccepts.create(B, { zone_transfer_request_id: r.id }))._unsafeUnwrapErr();
    expect(e.toJSON()).toEqual({
      code: 400,
      type: 'invalid_object',
      errors: { errors: [{ path: ['records', '0', 'key'], message: "'key' is a required property" }] },
    });
  });

  it('the request id is a UUID field: text that is no UUID is refused as Python reads it, other spellings of one are that UUID (as on the real API)', async () => {
    const h = harness();
    const { r } = await offered(h);
    const refused = async (id: string) => (await h.transferAccepts.create(B, { zone_transfer_request_id: id, key: r.key }))._unsafeUnwrapErr().message;
    expect(await refused('{tr}')).toBe('Provided object is not valid. Got a ValueError error with message badly formed hexadecimal UUID string');
    expect(await refused('z'.repeat(32))).toBe(`Provided object is not valid. Got a ValueError error with message invalid literal for int() with base 16: '${'z'.repeat(32)}'`);
    const a = await h.transferAccepts.create(B, { zone_transfer_request_id: `{${r.id.toUpperCase()}}`, key: r.key });
    expect(a._unsafeUnwrap().zone_transfer_request_id).toBe(r.id);
  });

  it('other keys → invalid_object unless null', async () => {
    const h = harness();
    const { r } = await offered(h);
    const e = (await h.transferAccepts.create(B, untyped({ zone_transfer_request_id: r.id, key: r.key, zone_id: 'x', status: null })))._unsafeUnwrapErr();
    expect(e.message).toBe("Provided object does not match schema. Keys ['zone_id'] are not valid for transfer_accept");
  });

  it('missing or unknown request id → 404 zone_transfer_request_not_found', async () => {
    const h = harness();
    const notFound = { code: 404, type: 'zone_transfer_request_not_found', message: 'Could not find ZoneTransferRequest' };
    expect((await h.transferAccepts.create(B, { key: 'AAAAAAAA' }))._unsafeUnwrapErr().toJSON()).toEqual(notFound);
    expect(
      (await h.transferAccepts.create(B, { zone_transfer_request_id: '00000000-0000-4000-8000-0000000000ff', key: 'A' }))._unsafeUnwrapErr().toJSON(),
    ).toEqual(notFound);
  });

  it('targeted at another project → 403 before the key is even checked', async () => {
    const h = harness();
    const { r } = await offered(h, { target_project_id: 'p-b' });
    expect((await h.transferAccepts.create(C, { zone_transfer_request_id: r.id, key: 'WRONG' }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 403,
      type: 'forbidden',
    });
  });

  it('a wrong key → 403 invalid_key (forbiddenStatus applies)', async () => {
    for (const status of [403, 401] as const) {
      const h = harness({ forbiddenStatus: status });
      const { r } = await offered(h);
      const wrong = r.key!.toLowerCase();
      expect((await h.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: wrong }))._unsafeUnwrapErr().toJSON()).toEqual({
        code: status,
        type: 'invalid_key',
        message: 'Key does not match stored key for request',
      });
    }
  });

  it('the creator of a request targeted at someone else: readable, but accept is 403 after the key check', async () => {
    const h = harness();
    const { r } = await offered(h, { target_project_id: 'p-b' });
    expect((await h.transferAccepts.create(A, { zone_transfer_request_id: r.id, key: 'WRONG' }))._unsafeUnwrapErr().type).toBe('invalid_key');
    expect((await h.transferAccepts.create(A, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 403,
      type: 'forbidden',
    });
  });

  it('an owner may accept its own untargeted request (quota counted +1)', async () => {
    const h = harness();
    const { zoneId, r } = await offered(h);
    (await h.transferAccepts.create(A, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrap();
    expect((await h.zones.get(A, zoneId))._unsafeUnwrap().version).toBe(3);
  });

  it('a used request → 400 Zone Transfer Request has been used', async () => {
    const h = harness();
    const { r } = await offered(h);
    (await h.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrap();
    expect((await h.transferAccepts.create(C, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'invalid_zone_transfer_request',
      message: 'Zone Transfer Request has been used',
    });
  });

  it('a deleting zone → 400 Can not transfer a deleting zone, nothing changed', async () => {
    const h = harness({ tasks: 'manual' });
    const { zoneId, r } = await offered(h);
    await h.zones.delete(A, zoneId);
    const before = await state(h);
    expect((await h.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'bad_request',
      message: 'Can not transfer a deleting zone',
    });
    expect(await state(h)).toEqual(before);
  });

  it('a project-less admin → 401 missing_project_id', async () => {
    const h = harness();
    const { r } = await offered(h);
    const e = (await h.transferAccepts.create({ roles: ['admin'] }, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrapErr();
    expect([e.status, e.type]).toEqual([401, 'missing_project_id']);
  });

  it('over quota → 413 and zone, request and accepts exactly as before', async () => {
    const h = harness({ quotas: { zones: 1 } });
    const { zoneId, r } = await offered(h);
    await zoneOf(h, B, 'b-own.com.');
    const before = await state(h);
    const eventsBefore = h.events.length;
    const e = (await h.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrapErr();
    expect(e.toJSON()).toEqual({ code: 413, type: 'over_quota', message: 'Quota exceeded for zones.' });
    expect(await state(h)).toEqual(before);
    expect(h.events.length).toBe(eventsBefore);
    expect((await h.zones.get(A, zoneId))._unsafeUnwrap().project_id).toBe('p-a');
    expect((await h.transferRequests.get(A, r.id))._unsafeUnwrap().status).toBe('ACTIVE');
    // Raising the acceptor's quota makes the same accept pass.
    (await h.quotas.set(ADMIN_ALL, 'p-b', { zones: 2 }))._unsafeUnwrap();
    expect((await h.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: r.key })).isOk()).toBe(true);
  });

  it('storage holds no key for accepts', async () => {
    const h = harness();
    const { r } = await offered(h);
    (await h.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrap();
    const s = (await state(h)) as Record<string, { value: object }[]>;
    expect(JSON.stringify(s[TRANSFER_ACCEPTS])).not.toContain(r.key);
    expect(s[TRANSFER_REQUESTS]).toHaveLength(1);
  });
});

describe('racing accepts', () => {
  it('Promise.all: exactly one wins, the other gets Zone Transfer Request has been used', async () => {
    const h = harness();
    const { r } = await offered(h);
    const body = { zone_transfer_request_id: r.id, key: r.key };
    const results = await Promise.all([h.transferAccepts.create(B, body), h.transferAccepts.create(C, body)]);
    expect(results.filter((x) => x.isOk())).toHaveLength(1);
    const loser = results.find((x) => x.isErr())!._unsafeUnwrapErr();
    expect([loser.status, loser.type, loser.message]).toEqual([400, 'invalid_zone_transfer_request', 'Zone Transfer Request has been used']);
  });

  it('fast-check scheduler over the storage port: exactly one wins in every interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const inner = memoryStorage();
        let scheduling = false;
        // Without the adapter's locks (over PostgreSQL, the postgres project): a lock waits inside
        // the database for a transaction whose answers this scheduler may hold back, which would
        // deadlock; the interleavings of reads and writes are what this property explores.
        const wrapTx = (full: StorageTransaction): StorageTransaction => {
          const tx = { ...full };
          delete tx.lock;
          return {
            ...tx,
            get: (c, id) => (scheduling ? s.schedule(tx.get(c, id), `get ${c}`) : tx.get(c, id)),
            put: (c, id, v, k) => (scheduling ? s.schedule(tx.put(c, id, v, k), `put ${c}`) : tx.put(c, id, v, k)),
          };
        };
        const storage: Storage = {
          transaction: (work) =>
            scheduling
              ? s.schedule(Promise.resolve(), 'begin').then(() => inner.transaction((tx) => work(wrapTx(tx))))
              : inner.transaction(work),
        };
        const h = harness({ storage });
        const { zoneId, r } = await offered(h);
        const body = { zone_transfer_request_id: r.id, key: r.key };
        scheduling = true;
        const pending = Promise.all([h.transferAccepts.create(B, body), h.transferAccepts.create(C, body)]);
        const results = await s.waitFor(pending);
        scheduling = false;
        const winners = results.filter((x) => x.isOk());
        expect(winners).toHaveLength(1);
        expect(results.find((x) => x.isErr())!._unsafeUnwrapErr().message).toBe('Zone Transfer Request has been used');
        const owner = winners[0]!._unsafeUnwrap().project_id;
        expect((await h.zones.get(ctx(owner), zoneId))._unsafeUnwrap().project_id).toBe(owner);
        const all = (await h.transferAccepts.list(ADMIN_ALL))._unsafeUnwrap();
        expect(all.metadata.total_count).toBe(1);
      }),
      { numRuns: 30 },
    );
  });
});

describe('other request states and snapshots', () => {
  it('a request in a status other than ACTIVE/COMPLETE → 400 Zone Transfer Request Invalid', async () => {
    const h = harness();
    const { r } = await offered(h);
    await h.deps.storage.transaction(async (tx) => {
      const stored = (await tx.get(TRANSFER_REQUESTS, r.id)) as StoredTransferRequest;
      const pending = Object.freeze({ ...stored, status: 'PENDING' as const });
      await tx.put(TRANSFER_REQUESTS, r.id, pending, transferRequestKeys(pending));
    });
    expect((await h.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 400,
      type: 'invalid_zone_transfer_request',
      message: 'Zone Transfer Request Invalid',
    });
  });

  it('TRANSFER_COLLECTIONS rebuilds every index on restore', async () => {
    const h = harness();
    const { zoneId, r } = await offered(h, { target_project_id: 'p-b' });
    const keys = { ...DNS_COLLECTIONS, ...TRANSFER_COLLECTIONS };
    const snap = await takeSnapshot(h.deps.storage, 'dns', keys);
    const h2 = harness();
    await restoreSnapshot(h2.deps.storage, snap, keys);
    expect((await h2.transferRequests.list(B))._unsafeUnwrap().transfer_requests.map((x) => x.id)).toEqual([r.id]);
    expect((await h2.transferRequests.list(A))._unsafeUnwrap().transfer_requests).toEqual([r]);
    expect((await h2.transferRequests.create(A, zoneId))._unsafeUnwrapErr().type).toBe('duplicate_zone_transfer_request');
    const a = (await h2.transferAccepts.create(B, { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrap();
    const snap2 = await takeSnapshot(h2.deps.storage, 'dns', keys);
    const h3 = harness();
    await restoreSnapshot(h3.deps.storage, snap2, keys);
    expect((await h3.transferAccepts.list({ projectId: 'p-b', roles: ['admin'] }))._unsafeUnwrap().transfer_accepts).toEqual([{ ...a, key: null }]);
  });

  it('accept list validates paging before the admin-only policy', async () => {
    const h = harness();
    expect((await h.transferAccepts.list(B, { limit: '0' }))._unsafeUnwrapErr().type).toBe('invalid_limit');
  });
});
