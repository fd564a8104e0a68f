import { beforeAll, describe, expect } from 'vitest';
import { test as propTest, fc } from '@fast-check/vitest';
import type { TransferRequestBody } from '../../../src/dns/transfers/index.js';
import { ADMIN, ADMIN_ALL, ctx, harness, zoneOf, type Harness } from './harness.js';

const PROJECTS = ['p0', 'p1', 'p2', 'p3'] as const;
const REDUCED = ['id', 'zone_id', 'description', 'status', 'zone_name', 'links'] as const;

const reduce = (r: TransferRequestBody): Record<string, unknown> =>
  Object.fromEntries(REDUCED.map((k) => [k, r[k]]));

const requestSpec = fc.record({
  owner: fc.constantFrom(...PROJECTS),
  target: fc.option(fc.constantFrom(...PROJECTS, 'outsider'), { nil: null }),
  description: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
  /** Created by an all-projects admin (its own project becomes the creator, not the zone owner). */
  viaAdmin: fc.boolean(),
  /** Accepted afterwards by this project where the rules allow it (COMPLETE requests stay visible). */
  acceptBy: fc.option(fc.constantFrom(...PROJECTS), { nil: null }),
});

describe('visibility of transfer requests (reference §6, §11.1)', () => {
  propTest.prop([fc.array(requestSpec, { maxLength: 8 })], { numRuns: 40 })(
    'each project lists and reads exactly what the rules allow, field by field',
    async (specs) => {
      const h = harness({ quotas: { zones: -1 } });
      const created: TransferRequestBody[] = [];
      for (const [i, spec] of specs.entries()) {
        const zoneId = await zoneOf(h, ctx(spec.owner), `z${i}.example.com.`);
        h.clock.advance(1);
        const body = { target_project_id: spec.target, description: spec.description };
        const r = (await h.transferRequests.create(spec.viaAdmin ? ADMIN_ALL : ctx(spec.owner), zoneId, body))._unsafeUnwrap();
        if (spec.acceptBy !== null && (spec.target === null || spec.target === spec.acceptBy)) {
          (await h.transferAccepts.create(ctx(spec.acceptBy), { zone_transfer_request_id: r.id, key: r.key }))._unsafeUnwrap();
        }
        created.push((await h.transferRequests.get(ADMIN, r.id))._unsafeUnwrap());
      }
      for (const p of [...PROJECTS, 'outsider', 'p-admin']) {
        const caller = ctx(p);
        const expectedList = created
          .filter((r) => r.project_id === p || r.target_project_id === p)
          .map((r) => (r.project_id === p ? r : reduce(r)));
        const listed = (await h.transferRequests.list(caller, { limit: 'max' }))._unsafeUnwrap();
        expect(listed.transfer_requests).toEqual(expectedList);
        // Paging one at a time yields the same rows.
        const paged: unknown[] = [];
        let marker: string | undefined;
        for (;;) {
          const page = (await h.transferRequests.list(caller, { limit: '1', ...(marker ? { marker } : {}) }))._unsafeUnwrap();
          paged.push(...page.transfer_requests);
          if (page.links.next === undefined) break;
          marker = page.transfer_requests[0]!.id;
        }
        expect(paged).toEqual(expectedList);
        for (const r of created) {
          const got = await h.transferRequests.get(caller, r.id);
          if (r.project_id === p) expect(got._unsafeUnwrap()).toEqual(r);
          else if (r.target_project_id === p || r.target_project_id === null) expect(got._unsafeUnwrap()).toEqual(reduce(r));
          else expect(got._unsafeUnwrapErr().toJSON()).toEqual({ code: 403, type: 'forbidden' });
          if (r.project_id !== p) {
            // §11.1: PATCH is 403 for everyone but the creator; DELETE is 403 for the target, 404 for the rest.
            expect((await h.transferRequests.update(caller, r.id, {}))._unsafeUnwrapErr().toJSON()).toEqual({ code: 403, type: 'forbidden' });
            const del = (await h.transferRequests.delete(caller, r.id))._unsafeUnwrapErr();
            expect(del.status).toBe(r.target_project_id === p ? 403 : 404);
          }
        }
      }
      for (const r of created) expect((await h.transferRequests.get(ADMIN, r.id))._unsafeUnwrap()).toEqual(r);
      expect((await h.transferRequests.list(ADMIN_ALL, { limit: 'max' }))._unsafeUnwrap().transfer_requests).toEqual(created);
    },
  );
});

describe('keys', () => {
  let h: Harness;
  let id: string;
  let key: string;
  beforeAll(async () => {
    h = harness();
    const zoneId = await zoneOf(h, ctx('owner'), 'example.com.');
    const r = (await h.transferRequests.create(ctx('owner'), zoneId))._unsafeUnwrap();
    id = r.id;
    key = r.key!;
  });

  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('replace' as const), at: fc.nat({ max: 7 }), ch: fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }) }),
    fc.record({ kind: fc.constant('append' as const), at: fc.constant(0), ch: fc.string({ minLength: 1, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat({ max: 7 }), ch: fc.constant('') }),
  );

  propTest.prop([mutation], { numRuns: 200 })('a key that differs in any position (or in length) is refused', async (m) => {
    const wrong =
      m.kind === 'replace' ? key.slice(0, m.at) + m.ch + key.slice(m.at + 1) : m.kind === 'append' ? key + m.ch : key.slice(0, m.at);
    fc.pre(wrong !== key);
    const e = (await h.transferAccepts.create(ctx('taker'), { zone_transfer_request_id: id, key: wrong }))._unsafeUnwrapErr();
    expect([e.status, e.type, e.message]).toEqual([403, 'invalid_key', 'Key does not match stored key for request']);
  });

  propTest.prop([fc.nat({ max: 7 })], { numRuns: 8 })('changing only the case of one letter is refused', async (at) => {
    const c = key[at]!;
    fc.pre(c.toLowerCase() !== c);
    const wrong = key.slice(0, at) + c.toLowerCase() + key.slice(at + 1);
    expect((await h.transferAccepts.create(ctx('taker'), { zone_transfer_request_id: id, key: wrong }))._unsafeUnwrapErr().type).toBe('invalid_key');
  });
});
