import { err, ok, ResultAsync, type Result } from 'neverthrow';
import { rangeMany, type Storage, type StorageTransaction } from '../ports/storage.js';
import { ApiError, type ErrorDialect } from './api-error.js';

/** A storage call failed: the whole command is rolled back and answered 500. @internal */
export const storageFailure = (cause: unknown, dialect: ErrorDialect = 'dns'): ApiError =>
  new ApiError(500, 'storage_failure', 'The storage failed; nothing was changed.', { cause, dialect });

/** A defect in the core: answered 500 `unknown` (the real service's type for unexpected errors). @internal */
export const unexpected = (cause: unknown, dialect: ErrorDialect = 'dns'): ApiError =>
  new ApiError(500, 'unknown', 'An unexpected error occurred; nothing was changed.', { cause, dialect, showMessage: false });

// Thrown only to unwind a transaction; never seen outside this module.
class Abort extends Error {
  constructor(readonly error: ApiError) {
    super('command aborted');
  }
}
class StorageFault extends Error {
  constructor(override readonly cause: unknown) {
    super('storage failed');
  }
}
class Defect extends Error {
  constructor(override readonly cause: unknown) {
    super('defect');
  }
}

const fault = (cause: unknown): never => {
  throw new StorageFault(cause);
};

/**
 * Wraps one adapter method so that a rejection (or a synchronous throw, should an adapter throw)
 * is tagged as a storage fault and can be told from a defect in the core. `then` rather than an
 * async wrapper, because every storage call of every command goes through it.
 */
const guard =
  <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
  (...args: A): Promise<R> => {
    try {
      return f(...args).then(undefined, fault);
    } catch (cause) {
      return Promise.reject(new StorageFault(cause));
    }
  };

/** Tags every rejection of the adapter so it can be told from a defect in the core. */
function guardTransaction(tx: StorageTransaction): StorageTransaction {
  return {
    get: guard((c: string, id: string) => tx.get(c, id)),
    put: guard((c, id, value, keys) => tx.put(c, id, value, keys)),
    delete: guard((c: string, id: string) => tx.delete(c, id)),
    range: guard((c, index, query) => tx.range(c, index, query)),
    rangeMany: guard((requests) => rangeMany(tx, requests)),
    count: guard((c, index, prefix) => tx.count(c, index, prefix)),
    scan: guard((c: string, after: string | undefined, limit: number) => tx.scan(c, after, limit)),
  };
}

/**
 * What a command may do besides reading and writing: effects that must only happen once its
 * transaction has committed (events to listeners, waking the task runner).
 * @internal
 */
export interface UnitOfWork {
  readonly tx: StorageTransaction;
  /** Runs `effect` after a successful commit, in registration order; never after a rollback. */
  afterCommit(effect: () => void): void;
}

/**
 * Runs one command as one storage transaction and turns every way it can end into a
 * `ResultAsync` that never rejects: `Err` from the work rolls the transaction back, an adapter
 * rejection becomes 500 `storage_failure`, a thrown defect 500 `unknown`.
 * @internal
 */
export function runInTransaction<T>(
  storage: Storage,
  work: (uow: UnitOfWork) => Promise<Result<T, ApiError>>,
  dialect: ErrorDialect = 'dns',
): ResultAsync<T, ApiError> {
  const promise = (async (): Promise<Result<T, ApiError>> => {
    const effects: (() => void)[] = [];
    try {
      const value = await storage.transaction(async (raw) => {
        effects.length = 0;
        let result: Result<T, ApiError>;
        try {
          result = await work({ tx: guardTransaction(raw), afterCommit: (e) => effects.push(e) });
        } catch (error) {
          if (error instanceof StorageFault) throw error;
          throw new Defect(error);
        }
        if (result.isErr()) throw new Abort(result.error);
        return result.value;
      });
      for (const effect of effects) effect();
      return ok(value);
    } catch (error) {
      if (error instanceof Abort) return err(error.error);
      if (error instanceof Defect) return err(unexpected(error.cause, dialect));
      if (error instanceof StorageFault) return err(storageFailure(error.cause, dialect));
      return err(storageFailure(error, dialect));
    }
  })();
  return new ResultAsync(promise);
}

/**
 * Lifts a pure step (validation, authorization) into a command: a thrown defect still becomes an
 * `Err`, so a command never rejects.
 * @internal
 */
export function fromSafePromise<T>(promise: Promise<Result<T, ApiError>>, dialect: ErrorDialect = 'dns'): ResultAsync<T, ApiError> {
  return new ResultAsync(promise.catch((cause: unknown) => err(unexpected(cause, dialect))));
}
