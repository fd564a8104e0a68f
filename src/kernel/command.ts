import { err, ok, ResultAsync, type Result } from 'neverthrow';
import {
  completeTransaction,
  failsNever,
  type CompleteTransaction,
  type IndexKeys,
  type RangeQuery,
  type RangeRequest,
  type Storage,
  type StorageLock,
  type StorageTransaction,
  type StoredEntry,
  type StoredRow,
} from '../ports/storage.js';
import { ApiError, type ErrorDialect } from './api-error.js';
import { resolveCaller, type Caller, type ForbiddenStatus } from './context.js';

/** A storage call failed: the whole command is rolled back and answered 500. @internal */
export const storageFailure = (cause: unknown, dialect: ErrorDialect = 'dns'): ApiError =>
  new ApiError(500, 'storage_failure', 'The storage failed; nothing was changed.', { cause, dialect });

/** A defect in the core: answered 500 `unknown` (the real service's type for unexpected errors). @internal */
export const unexpected = (cause: unknown, dialect: ErrorDialect = 'dns'): ApiError =>
  new ApiError(500, 'unknown', 'An unexpected error occurred; nothing was changed.', { cause, dialect, showMessage: false });

/**
 * The restore of a `from` snapshot failed: the service holds no state it could answer from, so
 * every command, `settle()`, `snapshot()` and `reset()` say so rather than answer as if empty.
 * @internal
 */
export const restoreFailed = (cause: unknown, dialect: ErrorDialect = 'dns'): ApiError =>
  new ApiError(
    500,
    'storage_failure',
    `Restoring the snapshot given as \`from\` failed, so this service has no usable state; create it again once the storage works (${describe(cause)}).`,
    { cause, dialect },
  );

/**
 * An id source (the `ids` option) gave an id the storage already holds for another entity: the
 * put would have replaced it. Usually a service restored from a snapshot with a fresh
 * `sequentialIds()` that counts again from 1 (docs/testing.md shows the safe pattern).
 * @internal
 */
export const duplicateId = (collection: string, id: string): ApiError =>
  new ApiError(
    500,
    'duplicate_id',
    `The id source (the \`ids\` option) gave ${id}, which ${collection} already holds for another entity; nothing was changed. ` +
      'A service restored from a snapshot needs ids that never repeat the snapshot\'s, e.g. sequentialIds() with a prefix of its own.',
  );

/**
 * An id source (the `ids` option) gave something that is not UUID-shaped: what it created could
 * never be read again, since every path id must be one.
 * @internal
 */
export const invalidIdSource = (id: unknown): ApiError =>
  new ApiError(
    500,
    'invalid_id_source',
    `The id source (the \`ids\` option) gave ${typeof id === 'string' ? `'${id.slice(0, 100)}'` : String(id)}, which is not UUID-shaped (32 hex digits, hyphens optional); nothing was changed.`,
  );

/**
 * A value an adapter handed back is not what its collection stores. Thrown by a repository, it
 * unwinds the command's transaction like a storage failure; the pipeline answers it with
 * {@link corruptValue}.
 * @internal
 */
export class CorruptValue extends Error {
  constructor(
    readonly collection: string,
    readonly id: string,
    readonly problem: string,
  ) {
    super(`the storage holds a value under ${collection}/${id} that is not one it stores (${problem})`);
    this.name = 'CorruptValue';
  }
}

/** 500 `corrupt_value`: the storage handed back something no command wrote; nothing was changed. @internal */
export const corruptValue = (cause: CorruptValue, dialect: ErrorDialect = 'dns'): ApiError =>
  new ApiError(
    500,
    'corrupt_value',
    `The storage returned a value under ${cause.collection}/${cause.id.slice(0, 100)} that is not one this service stores (${cause.problem}); nothing was changed.`,
    { cause, dialect },
  );

const describe = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause));

/*
 * Thrown only to unwind a transaction and caught below; never seen outside this module. Not
 * `Error`s: every command that answers an error throws one, and an `Error` would capture a stack
 * trace nobody reads.
 */
class Abort {
  constructor(readonly error: ApiError) {}
}

/**
 * Ends the current command with `error` from deep inside its transaction (an id source's check,
 * an insert's), where threading a `Result` through every caller would add nothing: the
 * transaction is rolled back and the command answers `error`. Only valid inside
 * {@link runInTransaction}'s work.
 * @internal
 */
export function abort(error: ApiError): never {
  unwind(new Abort(error));
}

/**
 * Stores a new entity under a freshly drawn id, refusing (500 `duplicate_id`) to replace one the
 * storage already holds: an id source that repeats itself must fail loudly, never overwrite.
 * @internal
 */
export async function insertNew(tx: CompleteTransaction, collection: string, id: string, value: unknown, keys: IndexKeys): Promise<void> {
  if (!(await tx.insert(collection, id, value, keys))) abort(duplicateId(collection, id));
}
class StorageFault {
  constructor(readonly cause: unknown) {}
}
class Defect {
  constructor(readonly cause: unknown) {}
}

/** Throws one of this module's sentinels, which only this module catches. */
function unwind(sentinel: Abort | StorageFault | Defect | CorruptValue): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a sentinel, never seen outside this module (see Abort)
  throw sentinel;
}

const fault = (cause: unknown): never => unwind(new StorageFault(cause));

/**
 * The transaction a command sees: every method of the port present (see
 * {@link completeTransaction}), and every rejection of the adapter (or a synchronous throw, should
 * an adapter throw) tagged as a storage fault, so it can be told from a defect in the core.
 * Methods on the prototype rather than closures per transaction, and `then` rather than async
 * wrappers, since every storage call of an adapter other than this package's own goes through it.
 */
class GuardedTransaction implements CompleteTransaction {
  private readonly tx: CompleteTransaction;
  constructor(raw: StorageTransaction) {
    this.tx = completeTransaction(raw);
  }
  get(c: string, id: string): Promise<unknown> {
    return this.call('get', c, id);
  }
  put(c: string, id: string, value: unknown, keys: IndexKeys): Promise<void> {
    return this.call('put', c, id, value, keys);
  }
  insert(c: string, id: string, value: unknown, keys: IndexKeys): Promise<boolean> {
    return this.call('insert', c, id, value, keys);
  }
  delete(c: string, id: string): Promise<boolean> {
    return this.call('delete', c, id);
  }
  range(c: string, index: string, query?: RangeQuery): Promise<readonly StoredEntry[]> {
    return this.call('range', c, index, query);
  }
  rangeMany(requests: readonly RangeRequest[]): Promise<readonly (readonly StoredEntry[])[]> {
    return this.call('rangeMany', requests);
  }
  count(c: string, index: string, prefix?: string): Promise<number> {
    return this.call('count', c, index, prefix);
  }
  lock(locks: readonly StorageLock[], covering?: boolean): Promise<void> {
    return this.call('lock', locks, covering);
  }
  scan(c: string, after: string | undefined, limit: number): Promise<readonly StoredRow[]> {
    return this.call('scan', c, after, limit);
  }
  /** Calls the adapter's `name`, tagging its rejection, or its synchronous throw, as a storage fault. */
  private call<K extends keyof CompleteTransaction>(name: K, ...args: Parameters<CompleteTransaction[K]>): ReturnType<CompleteTransaction[K]> {
    let pending: Promise<unknown>;
    try {
      pending = (this.tx[name] as (...a: Parameters<CompleteTransaction[K]>) => Promise<unknown>).apply(this.tx, args);
    } catch (cause) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a sentinel, as `fault` throws
      return Promise.reject(new StorageFault(cause)) as ReturnType<CompleteTransaction[K]>;
    }
    return pending.then(undefined, fault) as ReturnType<CompleteTransaction[K]>;
  }
}

/**
 * What a command may do besides reading and writing: effects that must only happen once its
 * transaction has committed (events to listeners, waking the task runner).
 * @internal
 */
export interface UnitOfWork {
  readonly tx: CompleteTransaction;
  /** Runs `effect` after a successful commit, in registration order; never after a rollback. */
  afterCommit(effect: () => void): void;
}

/** One attempt of a transaction's work: its transaction and the effects it asked for. */
class Attempt implements UnitOfWork {
  effects: (() => void)[] | undefined;
  constructor(readonly tx: CompleteTransaction) {}
  afterCommit(effect: () => void): void {
    (this.effects ??= []).push(effect);
  }
}

/**
 * {@link runInTransaction} as a plain promise, for the command pipeline and the task handlers,
 * which would only unwrap a `ResultAsync` again.
 * @internal
 */
export async function transact<T>(
  storage: Storage,
  work: (uow: UnitOfWork) => PromiseLike<Result<T, ApiError>>,
  dialect: ErrorDialect = 'dns',
): Promise<Result<T, ApiError>> {
  // This package's memory adapter never fails: its calls need no tagging.
  const guarded = !failsNever(storage);
  // The attempt that committed: an adapter may run `work` again, and only the last run's effects count.
  let last: Attempt | undefined;
  try {
    const value = await storage.transaction(async (raw) => {
      const attempt = new Attempt(guarded ? new GuardedTransaction(raw) : completeTransaction(raw));
      last = attempt;
      let result: Result<T, ApiError>;
      try {
        result = await work(attempt);
      } catch (error) {
        unwind(error instanceof StorageFault || error instanceof Abort || error instanceof CorruptValue ? error : new Defect(error));
      }
      if (result.isErr()) unwind(new Abort(result.error));
      return result.value;
    });
    const effects = last?.effects;
    if (effects !== undefined) for (const effect of effects) effect();
    return ok(value);
  } catch (error) {
    if (error instanceof Abort) return err(error.error);
    if (error instanceof Defect) return err(unexpected(error.cause, dialect));
    if (error instanceof CorruptValue) return err(corruptValue(error, dialect));
    if (error instanceof StorageFault) return err(storageFailure(error.cause, dialect));
    return err(storageFailure(error, dialect));
  }
}

/**
 * Runs one command as one storage transaction and turns every way it can end into a
 * `ResultAsync` that never rejects: `Err` from the work rolls the transaction back, an adapter
 * rejection becomes 500 `storage_failure`, a value read back that no command wrote 500
 * `corrupt_value`, a thrown defect 500 `unknown`.
 * @internal
 */
export function runInTransaction<T>(
  storage: Storage,
  work: (uow: UnitOfWork) => PromiseLike<Result<T, ApiError>>,
  dialect: ErrorDialect = 'dns',
): ResultAsync<T, ApiError> {
  return new ResultAsync(transact(storage, work, dialect));
}

/**
 * What every command of one service shares: where state lives, the outcome of the restore of a
 * `from` snapshot (every command waits for it), how policy refusals are answered.
 * @internal
 */
export interface CommandEnv {
  readonly storage: Storage;
  /** Settles once a restore is done: `Err` when it failed, and then every command answers that error. */
  readonly restored: Promise<Result<void, ApiError>>;
  readonly forbiddenStatus: ForbiddenStatus;
  readonly dialect: ErrorDialect;
}

/**
 * A request body an adapter could not read (wrong media type, too large, not UTF-8, not JSON, a
 * client gone mid-body), handed to a command in place of the body so that the command answers
 * its error at the point the real service reads the body, not where the adapter happened to.
 * @internal
 */
export class UnreadBody {
  constructor(readonly error: ApiError) {}
}

/**
 * A body as a command's `parse` reads it: an {@link UnreadBody}'s error at this point, otherwise
 * the body. For commands that read the body after a policy check of their own (the quota PUT).
 * @internal
 */
export const readBody = (body: unknown): Result<unknown, ApiError> => (body instanceof UnreadBody ? err(body.error) : ok(body));

/**
 * The steps of one command after authentication, in the order the pipeline runs them. `parse`
 * and `authorize` are pure and run before any storage access; rules that need stored state (the
 * owner of a zone) run inside `transaction`, through the concept's policy module.
 * @internal
 */
export interface CommandSteps<I, T> {
  /**
   * The request body, for a command that reads it as Designate does: before any check of the
   * caller but a refused elevation (its middleware refuses those before routing) and after the
   * path ids. Only an {@link UnreadBody} changes anything here; `parse` never sees one.
   */
  readonly body?: unknown;
  /** The syntax of the path ids, checked before `body`; a bad id is answered in place of the body's error. */
  readonly ids?: () => Result<unknown, ApiError>;
  /** Reads the request (path ids, body, query) into the command's input; no storage access. */
  readonly parse?: (caller: Caller) => Result<I, ApiError>;
  /** The policy rules that need only the caller and the input. */
  readonly authorize?: (caller: Caller, input: I) => Result<unknown, ApiError>;
  /** The work: one transaction over the storage port; effects go to `uow.afterCommit`. */
  readonly transaction: (uow: UnitOfWork, caller: Caller, input: I) => PromiseLike<Result<T, ApiError>>;
}

/** What a command whose body could not be read answers: elevation refused, else bad id (after the caller), else the body's error. */
function unreadBodyError(caller: Result<Caller, ApiError>, body: UnreadBody, ids: (() => Result<unknown, ApiError>) | undefined): ApiError {
  if (caller.isErr() && caller.error.type === 'forbidden') return caller.error;
  const checked = ids?.();
  if (checked === undefined || checked.isOk()) return body.error;
  return caller.isErr() ? caller.error : checked.error;
}

/**
 * The one way a command runs: wait for the restore → authenticate → parse → authorize → one
 * transaction → effects after commit, with an unread `body` answered where {@link CommandSteps}
 * says. Never rejects: a defect anywhere is a 500 `unknown`.
 * @internal
 */
export function command<I, T>(env: CommandEnv, ctx: unknown, steps: CommandSteps<I, T>): ResultAsync<T, ApiError> {
  return new ResultAsync(runCommand(env, ctx, steps));
}

/** {@link command}'s pipeline as one async function: plain `Result`s inside, one `ResultAsync` at the boundary. */
async function runCommand<I, T>(env: CommandEnv, ctx: unknown, steps: CommandSteps<I, T>): Promise<Result<T, ApiError>> {
  try {
    const restored = await env.restored;
    if (restored.isErr()) return err(restored.error);
    const caller = resolveCaller(ctx, env.forbiddenStatus, env.dialect);
    if (steps.body instanceof UnreadBody) return err(unreadBodyError(caller, steps.body, steps.ids));
    if (caller.isErr()) return err(caller.error);
    const parsed = steps.parse === undefined ? ok(undefined as I) : steps.parse(caller.value);
    if (parsed.isErr()) return err(parsed.error);
    const allowed = steps.authorize?.(caller.value, parsed.value);
    if (allowed?.isErr()) return err(allowed.error);
    return await transact(env.storage, (uow) => steps.transaction(uow, caller.value, parsed.value), env.dialect);
  } catch (cause) {
    return err(unexpected(cause, env.dialect));
  }
}
