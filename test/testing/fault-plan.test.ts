import { describe, expect, it } from 'vitest';
import { createDnsService, memoryStorage, type RequestContext } from '../../src/index.js';
import { faultPlan, manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';

const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const zone = (name: string) => ({ name, email: 'h@example.com' });
const noSleep = (): Promise<void> => Promise.resolve();

const put = (s: ReturnType<ReturnType<typeof faultPlan>['wrap']>, id: string) => s.transaction((tx) => tx.put('c', id, { id }, {}));

describe('faultPlan', () => {
  it('fail(op, { times: 1 }) fails the first matching operation only', async () => {
    const plan = faultPlan().fail('put', { times: 1 });
    const s = plan.wrap(memoryStorage());
    await expect(put(s, 'a')).rejects.toThrow('injected storage failure (put #1)');
    await expect(put(s, 'b')).resolves.toBeUndefined();
    expect(await s.transaction((tx) => tx.get('c', 'a'))).toBeUndefined();
    expect(await s.transaction((tx) => tx.get('c', 'b'))).toEqual({ id: 'b' });
    expect(plan.calls().map((c) => [c.index, c.operation, c.collection, c.effects])).toEqual([
      [0, 'transaction', undefined, []],
      [1, 'put', 'c', ['failed']],
      [2, 'transaction', undefined, []],
      [3, 'put', 'c', []],
      [4, 'transaction', undefined, []],
      [5, 'get', 'c', []],
      [6, 'transaction', undefined, []],
      [7, 'get', 'c', []],
    ]);
  });

  it('fail(op, { nth }) fails exactly the nth matching operation; { nth, times } a run of them', async () => {
    const plan = faultPlan().fail('transaction', { nth: 3 }).fail('get', { nth: 2, times: 2, error: new Error('custom') });
    const s = plan.wrap(memoryStorage());
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      outcomes.push(
        await s.transaction((tx) => tx.get('c', 'x')).then(
          () => 'ok',
          (e: Error) => e.message,
        ),
      );
    }
    // transactions 1..5; the 3rd fails before its get runs, so gets are numbered 1 (t1), 2 (t2), 3 (t4), 4 (t5)
    expect(outcomes).toEqual(['ok', 'custom', 'injected storage failure (transaction #4)', 'custom', 'ok']);
  });

  it('without nth or times, fails every matching operation; a collection narrows it', async () => {
    const plan = faultPlan().fail('put', { collection: 'bad' });
    const s = plan.wrap(memoryStorage());
    await expect(s.transaction((tx) => tx.put('bad', 'a', 1, {}))).rejects.toThrow();
    await expect(s.transaction((tx) => tx.put('bad', 'b', 1, {}))).rejects.toThrow();
    await expect(s.transaction((tx) => tx.put('good', 'a', 1, {}))).resolves.toBeUndefined();
  });

  it("'*' matches every operation kind", async () => {
    const plan = faultPlan().fail('*', { nth: 2 });
    const s = plan.wrap(memoryStorage());
    await expect(s.transaction((tx) => tx.count('c', 'i'))).rejects.toThrow('(count #1)');
    await expect(s.transaction((tx) => tx.count('c', 'i'))).resolves.toBe(0);
  });

  it('each storage operation kind is counted and can fail', async () => {
    for (const op of ['get', 'put', 'delete', 'range', 'count', 'scan'] as const) {
      const s = faultPlan().fail(op).wrap(memoryStorage());
      await expect(
        s.transaction(async (tx) => {
          await tx.get('c', 'a');
          await tx.put('c', 'a', 1, { i: 'k' });
          await tx.range('c', 'i');
          await tx.count('c', 'i');
          await tx.scan('c', undefined, 10);
          await tx.delete('c', 'a');
        }),
      ).rejects.toThrow(`(${op} #`);
    }
  });

  it('delay waits through the injected sleep, then runs the operation', async () => {
    const slept: number[] = [];
    const plan = faultPlan({ sleep: (ms) => (slept.push(ms), Promise.resolve()) })
      .delay('get', 5)
      .delay('get', 7, { nth: 2 });
    const s = plan.wrap(memoryStorage());
    await s.transaction((tx) => tx.put('c', 'a', 1, {}));
    expect(await s.transaction((tx) => tx.get('c', 'a'))).toBe(1);
    expect(await s.transaction((tx) => tx.get('c', 'a'))).toBe(1);
    expect(slept).toEqual([5, 12]);
    expect(plan.calls().filter((c) => c.operation === 'get').map((c) => c.effects)).toEqual([['delayed'], ['delayed']]);
  });

  it('the default sleep is a real timer (test tooling only)', async () => {
    const s = faultPlan().delay('get', 1).wrap(memoryStorage());
    await expect(s.transaction((tx) => tx.get('c', 'a'))).resolves.toBeUndefined();
  });

  it('hang holds operations until release, which lets them run', async () => {
    const plan = faultPlan({ sleep: noSleep }).hang('put', { times: 1 });
    const s = plan.wrap(memoryStorage());
    let done = false;
    const writing = put(s, 'a').then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    expect(plan.hanging()).toBe(1);
    expect(plan.release()).toBe(1);
    await writing;
    expect(done).toBe(true);
    expect(plan.hanging()).toBe(0);
    expect(plan.release()).toBe(0);
  });

  it('hang then fail: the held operation rejects once released', async () => {
    const plan = faultPlan().hang('put', { nth: 1 }).fail('put', { nth: 1 });
    const s = plan.wrap(memoryStorage());
    const writing = put(s, 'a');
    await new Promise((r) => setImmediate(r));
    plan.release();
    await expect(writing).rejects.toThrow('(put #1)');
    expect(plan.calls()[1]?.effects).toEqual(['hung', 'failed']);
  });

  it('refuses malformed counts and delays', () => {
    expect(() => faultPlan().fail('put', { nth: 0 })).toThrow(RangeError);
    expect(() => faultPlan().fail('put', { times: 1.5 })).toThrow(RangeError);
    expect(() => faultPlan().delay('put', -1)).toThrow(RangeError);
    expect(() => faultPlan().delay('put', Number.NaN)).toThrow(RangeError);
  });

  it('calls() is a frozen copy', () => {
    const calls = faultPlan().calls();
    expect(Object.isFrozen(calls)).toBe(true);
  });

  it('drives a DNS service: the first put fails once (500, nothing kept), the retry works', async () => {
    const storage = memoryStorage();
    const plan = faultPlan().fail('put', { times: 1 });
    const dns = createDnsService({ storage: plan.wrap(storage), clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1), tasks: 'inline' });
    const first = await dns.zones.create(alice, zone('a.com.'));
    expect(first._unsafeUnwrapErr()).toMatchObject({ status: 500, type: 'storage_failure' });
    expect((await createDnsService({ storage }).snapshot()).collections['dns.zones']).toEqual([]);
    const second = await dns.zones.create(alice, zone('a.com.'));
    expect(second._unsafeUnwrap()).toMatchObject({ name: 'a.com.', status: 'ACTIVE' });
  });
});
