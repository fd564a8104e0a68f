/**
 * How a command ends (the contract of `runInTransaction`, API.md "Errors"): a value commits and
 * then runs its after-commit effects; an `Err` rolls back and is answered as is; an adapter
 * rejection is a 500 `storage_failure`; anything else thrown is a 500 `unknown` without message.
 */
import { err, ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/memory-storage.js';
import type { Storage, StorageTransaction } from '../../src/ports/storage.js';
import { ApiError } from '../../src/kernel/api-error.js';
import { command, runInTransaction } from '../../src/kernel/command.js';

const STORAGE_FAILURE = { code: 500, type: 'storage_failure', message: 'The storage failed; nothing was changed.' };
const UNKNOWN = { code: 500, type: 'unknown' };

const read = (storage: Storage, id: string) => storage.transaction((tx) => tx.get('c', id));

describe('runInTransaction', () => {
  it('commits the work and answers its value', async () => {
    const storage = memoryStorage();
    const r = await runInTransaction(storage, async ({ tx }) => {
      await tx.put('c', 'a', { v: 1 }, {});
      return ok('done');
    });
    expect(r._unsafeUnwrap()).toBe('done');
    expect(await read(storage, 'a')).toEqual({ v: 1 });
  });

  it('runs after-commit effects once, in registration order, after the commit', async () => {
    const storage = memoryStorage();
    const seen: string[] = [];
    await runInTransaction(storage, async (uow) => {
      uow.afterCommit(() => seen.push('first'));
      await uow.tx.put('c', 'a', 1, {});
      uow.afterCommit(() => seen.push('second'));
      seen.push('work done');
      return ok(undefined);
    });
    expect(seen).toEqual(['work done', 'first', 'second']);
  });

  it('rolls an Err back, answers it unchanged, and runs no effect', async () => {
    const storage = memoryStorage();
    const refusal = new ApiError(409, 'duplicate_zone', 'Duplicate Zone');
    let ran = false;
    const r = await runInTransaction(storage, async (uow) => {
      await uow.tx.put('c', 'a', 1, {});
      uow.afterCommit(() => (ran = true));
      return err(refusal);
    });
    expect(r._unsafeUnwrapErr()).toBe(refusal);
    expect(await read(storage, 'a')).toBeUndefined();
    expect(ran).toBe(false);
  });

  it('answers a thrown defect as 500 unknown, without message, keeping the cause', async () => {
    const storage = memoryStorage();
    const defect = new TypeError('x is undefined');
    const r = await runInTransaction(storage, async ({ tx }) => {
      await tx.put('c', 'a', 1, {});
      throw defect;
    });
    const error = r._unsafeUnwrapErr();
    expect(error.toJSON()).toEqual(UNKNOWN);
    expect(error.message).toBe('An unexpected error occurred; nothing was changed.');
    expect(error.cause).toBe(defect);
    expect(await read(storage, 'a')).toBeUndefined();
  });

  /** A transaction whose every method answers `value`, or rejects with `failure` for `failing`. */
  const fakeStorage = (failing: keyof StorageTransaction | undefined, failure: unknown, calls: unknown[][] = []): Storage => ({
    transaction: async (work) => {
      const method = (name: keyof StorageTransaction) =>
        (...args: unknown[]) => {
          calls.push([name, ...args]);
          // An adapter may reject with anything, not only an Error.
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          return name === failing ? Promise.reject(failure) : Promise.resolve(`${name} answer`);
        };
      const tx = { get: method('get'), put: method('put'), delete: method('delete'), range: method('range'), count: method('count'), scan: method('scan') };
      return work(tx as unknown as StorageTransaction);
    },
  });

  it('passes every storage call through with its arguments and answer', async () => {
    const calls: unknown[][] = [];
    const r = await runInTransaction(fakeStorage(undefined, undefined, calls), async ({ tx }) =>
      ok([
        await tx.get('c', 'id'),
        await tx.put('c', 'id', 'v', { i: 'k' }),
        await tx.delete('c', 'id'),
        await tx.range('c', 'i', { prefix: 'p' }),
        await tx.count('c', 'i', 'p'),
        await tx.scan('c', 'after', 5),
      ]),
    );
    expect(r._unsafeUnwrap()).toEqual(['get answer', 'put answer', 'delete answer', 'range answer', 'count answer', 'scan answer']);
    expect(calls).toEqual([
      ['get', 'c', 'id'],
      ['put', 'c', 'id', 'v', { i: 'k' }],
      ['delete', 'c', 'id'],
      ['range', 'c', 'i', { prefix: 'p' }],
      ['count', 'c', 'i', 'p'],
      ['scan', 'c', 'after', 5],
    ]);
  });

  it.each(['get', 'put', 'delete', 'range', 'count', 'scan'] as const)('answers a rejected %s as 500 storage_failure, keeping the cause', async (method) => {
    const failure = new Error('connection reset');
    let ran = false;
    const r = await runInTransaction(fakeStorage(method, failure), async (uow) => {
      uow.afterCommit(() => (ran = true));
      await (uow.tx[method] as (...a: unknown[]) => Promise<unknown>)('c', 'i', 'p', {});
      return ok(undefined);
    });
    expect(r._unsafeUnwrapErr().toJSON()).toEqual(STORAGE_FAILURE);
    expect(r._unsafeUnwrapErr().cause).toBe(failure);
    expect(ran).toBe(false);
  });

  it('still calls it a storage failure when the work catches nothing and the adapter rejects with a non-Error', async () => {
    const r = await runInTransaction(fakeStorage('get', 'plain string'), async ({ tx }) => ok(await tx.get('c', 'i')));
    expect(r._unsafeUnwrapErr().toJSON()).toEqual(STORAGE_FAILURE);
    expect(r._unsafeUnwrapErr().cause).toBe('plain string');
  });

  it('answers a failing commit as 500 storage_failure and runs no effect', async () => {
    const failure = new Error('commit failed');
    let ran = false;
    const storage: Storage = {
      transaction: async (work) => {
        await work({} as StorageTransaction); // never used: the work only registers an effect
        throw failure;
      },
    };
    const r = await runInTransaction(storage, async (uow) => {
      uow.afterCommit(() => (ran = true));
      return Promise.resolve(ok(1));
    });
    expect(r._unsafeUnwrapErr().toJSON()).toEqual(STORAGE_FAILURE);
    expect(r._unsafeUnwrapErr().cause).toBe(failure);
    expect(ran).toBe(false);
  });

  it('runs only the effects of the attempt that committed when the storage retries the work', async () => {
    const storage = memoryStorage();
    const retrying: Storage = {
      transaction: (work) => storage.transaction(async (tx) => {
        await work(tx);
        return work(tx);
      }),
    };
    const seen: number[] = [];
    let attempt = 0;
    await runInTransaction(retrying, async (uow) => {
      const n = (attempt += 1);
      uow.afterCommit(() => seen.push(n));
      return Promise.resolve(ok(undefined));
    });
    expect(seen).toEqual([2]);
  });

  it('answers in the quota service shape when asked to', async () => {
    const storage = memoryStorage();
    const defect = await runInTransaction(storage, () => Promise.reject(new Error('bug')), 'quota');
    expect(defect._unsafeUnwrapErr().toJSON()).toEqual({ code: 500, title: 'Internal Server Error', description: 'An unexpected error occurred; nothing was changed.' });
    const failed = await runInTransaction(fakeStorage('get', new Error('down')), async ({ tx }) => ok(await tx.get('c', 'i')), 'quota');
    expect(failed._unsafeUnwrapErr().toJSON()).toEqual({ code: 500, title: 'Internal Server Error', description: 'The storage failed; nothing was changed.' });
    const commit = await runInTransaction({ transaction: () => Promise.reject(new Error('x')) }, () => Promise.resolve(ok(1)), 'quota');
    expect(commit._unsafeUnwrapErr().toJSON()).toMatchObject({ description: 'The storage failed; nothing was changed.' });
  });
});

describe('command', () => {
  const env = (dialect: 'dns' | 'quota') => ({ storage: memoryStorage(), restored: Promise.resolve(ok(undefined)), forbiddenStatus: 403 as const, dialect });
  const caller = { projectId: 'p', roles: ['member'] };
  it('passes a result through and turns a defect thrown by any step into 500 unknown', async () => {
    expect((await command(env('dns'), caller, { transaction: () => Promise.resolve(ok(3)) }))._unsafeUnwrap()).toBe(3);
    const refusal = new ApiError(400, 'bad_request', 'no');
    expect((await command(env('dns'), caller, { parse: () => err(refusal), transaction: () => Promise.resolve(ok(3)) }))._unsafeUnwrapErr()).toBe(refusal);
    const defect = new Error('bug');
    const thrower = (): never => {
      throw defect;
    };
    const r = await command(env('dns'), caller, { parse: thrower, transaction: () => Promise.resolve(ok(3)) });
    expect(r._unsafeUnwrapErr().toJSON()).toEqual(UNKNOWN);
    expect(r._unsafeUnwrapErr().cause).toBe(defect);
    const q = await command(env('quota'), caller, { authorize: thrower, transaction: () => Promise.resolve(ok(3)) });
    expect(q._unsafeUnwrapErr().toJSON()).toMatchObject({ code: 500, title: 'Internal Server Error' });
  });
});
