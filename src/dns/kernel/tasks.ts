import { ok, type Result } from 'neverthrow';
import type { CompleteTransaction, Storage, StorageTransaction } from '../../ports/storage.js';
import type { ApiError } from '../../kernel/api-error.js';
import { CorruptValue } from '../../kernel/command.js';
import { tupleKey } from '../../kernel/keys.js';
import { checked, isInteger, isPlainObject, isString, repository, shapeCheck, type Collection } from '../../kernel/stored.js';

/** A queued piece of asynchronous work, stored with the state it belongs to. @internal */
export interface StoredTask {
  readonly id: string;
  readonly seq: number;
  readonly kind: string;
  /** The id of what the task works on (a zone, an import, an export). */
  readonly subject: string;
  readonly data: Readonly<Record<string, string | number | null>>;
}

/** Tasks collection; index `queue` orders them first in, first out. @internal */
export const TASKS = 'dns.tasks';
const QUEUE = 'queue';
const META = 'dns.meta';
const SEQ_ID = 'task-seq';

/** The tasks collection, its check and its index keys. @internal */
export const taskCollection: Collection<StoredTask> = {
  name: TASKS,
  problem: shapeCheck({
    id: isString,
    seq: isInteger,
    kind: isString,
    subject: isString,
    data: (d) => isPlainObject(d) && Object.values(d).every((v) => v === null || typeof v === 'string' || typeof v === 'number'),
  }),
  idOf: (t) => t.id,
  keys: (t) => ({ [QUEUE]: tupleKey(t.seq) }),
};
const collection = taskCollection;
const tasks = repository(collection);

const metaProblem = shapeCheck({ next: isInteger });

/** The next sequence number of the queue, checked. */
async function nextSeq(tx: StorageTransaction): Promise<number> {
  const meta = await tx.get(META, SEQ_ID);
  if (meta === undefined) return 1;
  const problem = metaProblem(meta);
  if (problem !== undefined) throw new CorruptValue(META, SEQ_ID, problem);
  return (meta as { readonly next: number }).next;
}

/**
 * Runs a task. It should finish it with `finishTask` inside its last transaction (so the task
 * disappears together with the state change it made) and resolve `true`. `'retry'` means it
 * could not get at storage: the task stays queued and the worker stops until the next kick,
 * `runNext()` or `settle()`. Anything else (or a rejection) makes the runner remove the task
 * itself, so one bad task never blocks the queue.
 * @internal
 */
export type TaskHandler = (task: StoredTask) => Promise<boolean | 'retry' | void>;

/** Queues a task inside the caller's transaction. @internal */
export async function enqueueTask(
  tx: CompleteTransaction,
  id: string,
  kind: string,
  subject: string,
  data: StoredTask['data'],
): Promise<StoredTask> {
  const seq = await nextSeq(tx);
  await tx.put(META, SEQ_ID, Object.freeze({ next: seq + 1 }), {});
  const task: StoredTask = Object.freeze({ id, seq, kind, subject, data: Object.freeze({ ...data }) });
  await tasks.insert(tx, task);
  return task;
}

/** Removes a finished task inside the handler's last transaction. @internal */
export async function finishTask(tx: StorageTransaction, task: StoredTask): Promise<void> {
  await tasks.delete(tx, task.id);
}

/**
 * How many times in a row `settle()` retries the queue when the storage fails before it gives up
 * and rejects. Retries follow each other at once (the runner has no timers): this absorbs a
 * one-off fault, not an outage.
 */
const SETTLE_ATTEMPTS = 5;

/**
 * Most tasks of a concurrent kind (see {@link TaskRunner.register}) running at once; past it they
 * wait their turn in the queue, and the other tasks go on.
 */
const MAX_IN_FLIGHT = 8;

/** A concurrent task started and not finished: its subject, and whether it ran (false: it could not reach the storage). */
interface InFlight {
  readonly subject: string;
  readonly done: Promise<boolean>;
}

/**
 * The worker behind `dns.tasks`: first in first out, so the steps of one zone always apply in the
 * order they were asked for.
 *
 * Tasks run one at a time, except those of a kind registered as concurrent (transfers from
 * masters, which wait on the network): when the worker drains the queue (auto mode, `settle()`)
 * it starts such a task and goes on with the next one, so a master that never answers holds only
 * its own zone. A task whose subject has a concurrent task running waits for it, so one zone's
 * steps still apply in order. `runNext()` runs every task to its end.
 *
 * In `'auto'` mode a commit that queued work wakes the worker; in `'manual'` mode nothing runs
 * until `runNext()` or `settle()`. No timers: the worker is a promise chain, so it never fights a
 * host test's fake timers.
 * @internal
 */
export class TaskRunner {
  readonly #storage: Storage;
  readonly #handlers = new Map<string, TaskHandler>();
  readonly #concurrent = new Set<string>();
  readonly #auto: boolean;
  /** Tasks in storage, kept in step after every commit so `pending()` needs no storage read. */
  #pending = 0;
  #serial: Promise<unknown> = Promise.resolve();
  #drain: Promise<void> | undefined;
  /** Whether the drain must look at the queue again before it stops. */
  #again = false;
  /** Concurrent tasks started and not finished, by task id. */
  readonly #inFlight = new Map<string, InFlight>();
  /**
   * The oldest task in storage, when this runner knows it without reading: a commit queued it
   * into a queue that held nothing else. Taken by the next run; dropped by anything else that
   * changes the queue's head.
   */
  #head: StoredTask | undefined;

  #restored: Promise<Result<void, ApiError>> = Promise.resolve(ok(undefined));
  /** Whether the restore is known to have succeeded (or there was none), so `settle()` may answer at once. */
  #restoredOk = true;
  /** Why the last attempt to run a task could not reach the storage, for `settle()`'s rejection. */
  #lastFault: unknown;

  constructor(storage: Storage, mode: 'auto' | 'manual') {
    this.#storage = storage;
    this.#auto = mode === 'auto';
  }

  /**
   * Registers the handler of a task kind.
   * @param concurrent - whether a drain may start it and go on without waiting for it (a task
   *   that waits on the world, not on storage)
   */
  register(kind: string, handler: TaskHandler, concurrent = false): void {
    this.#handlers.set(kind, handler);
    if (concurrent) this.#concurrent.add(kind);
  }

  /**
   * Holds every task back until a restore of a `from` snapshot is done; when it failed, `runNext()`
   * and `settle()` reject with its error.
   *
   * @param restored - the outcome of the restore
   * @param restoredTasks - how many tasks the snapshot holds, so `pending()` counts them from the start
   */
  waitFor(restored: Promise<Result<void, ApiError>>, restoredTasks: number): void {
    this.#restored = restored;
    this.#restoredOk = false;
    void restored.then(
      (r) => {
        this.#restoredOk = r.isOk();
      },
      () => undefined,
    );
    this.#pending = restoredTasks;
    this.#head = undefined;
  }

  /** Counts tasks already in storage (after a restore) and starts them in auto mode. */
  async recount(): Promise<void> {
    this.#pending = await this.#storage.transaction((tx) => tx.count(TASKS, QUEUE));
    this.#head = undefined;
    this.kick();
  }

  /**
   * Called after a commit that queued a task.
   * @param task - the task queued, when the caller has it: if the queue held nothing else, the
   *   next run takes it without reading the queue
   */
  queued(task?: StoredTask): void {
    this.#pending += 1;
    // A task queued behind others leaves the known head (or not knowing it) as it was.
    if (this.#pending === 1) this.#head = task;
    this.kick();
  }

  pending(): number {
    return this.#pending;
  }

  /** Concurrent tasks running now. */
  inFlight(): number {
    return this.#inFlight.size;
  }

  /** Starts draining the queue in the background, in auto mode. */
  kick(): void {
    if (!this.#auto || this.#pending === 0) return;
    // A kick during a drain (a running task finished, freeing its zone's next one) makes it look again.
    this.#again = true;
    if (this.#drain !== undefined) return;
    this.#drain = (async () => {
      try {
        while (this.#again) {
          this.#again = false;
          // Past the last task, no step to find the queue empty: the count says so.
          while (this.#pending > this.#inFlight.size && (await this.#step(true)));
        }
      } finally {
        this.#drain = undefined;
      }
    })();
  }

  /**
   * Runs the oldest task that can run, to its end; false when none was waiting or it could not
   * reach the storage (it then stays queued). Rejects when the restore of a `from` snapshot failed.
   */
  runNext(): Promise<boolean> {
    return this.#step(false);
  }

  #step(detach: boolean): Promise<boolean> {
    const next = this.#serial.then(() => this.#runOne(detach));
    this.#serial = next.catch(() => undefined);
    return next;
  }

  /**
   * Resolves when no task is left, running them if nothing else does (concurrent ones side by
   * side). A task that could not reach the storage is retried; after {@link SETTLE_ATTEMPTS}
   * failures in a row it rejects with the storage's error, the tasks still queued. Rejects at
   * once when the restore failed.
   */
  async settle(): Promise<void> {
    let failures = 0;
    for (;;) {
      // Nothing queued, running or restoring: done, without a step to learn it.
      if (this.#pending === 0 && this.#drain === undefined && this.#inFlight.size === 0 && this.#restoredOk) return;
      if (this.#drain !== undefined) {
        await this.#drain;
        continue;
      }
      if (await this.#step(true)) {
        failures = 0;
        continue;
      }
      if (this.#inFlight.size > 0) {
        // Nothing else can run: wait for a running task, which may free its zone's next one.
        if (await Promise.race([...this.#inFlight.values()].map((f) => f.done))) failures = 0;
        else failures += 1;
      } else {
        if (this.#pending === 0) return;
        failures += 1;
      }
      if (failures >= SETTLE_ATTEMPTS) {
        const cause = this.#lastFault;
        throw new Error(
          `settle(): ${this.#pending} task(s) still queued: the storage failed ${failures} times in a row ` +
            `(${cause instanceof Error ? cause.message : String(cause)}); they run again on the next settle() or runNext().`,
          { cause },
        );
      }
    }
  }

  /**
   * The oldest task that can run now: not running already, its subject not held by a running
   * concurrent task, and, for a concurrent kind started by a drain, a free slot. `'empty'` when the
   * queue holds no task at all, `'blocked'` when every one waits for a running one.
   */
  async #pick(detach: boolean): Promise<StoredTask | 'empty' | 'blocked'> {
    const busy = new Set<string>();
    for (const f of this.#inFlight.values()) busy.add(f.subject);
    let after: { key: string; id: string } | undefined;
    for (;;) {
      // One page, and with nothing running exactly the oldest task: a page a transaction, as
      // tasks are taken one at a time and a later page is read only past running ones.
      const size = this.#inFlight.size + 1 + (after === undefined ? 0 : 64);
      const from = after;
      const page = await this.#storage.transaction((tx) => tx.range(TASKS, QUEUE, { limit: size, ...(from === undefined ? {} : { after: from }) }));
      for (const e of page) {
        if (this.#inFlight.has(e.id)) continue;
        // A task that does not read as one stays queued: settle() rejects naming it, nothing is lost.
        const task = checked(collection, e.id, e.value);
        if (busy.has(task.subject)) continue;
        if (detach && this.#concurrent.has(task.kind) && this.#inFlight.size >= MAX_IN_FLIGHT) continue;
        return task;
      }
      const last = page[page.length - 1];
      if (last === undefined) return after === undefined ? 'empty' : 'blocked';
      if (page.length < size) return 'blocked';
      after = { key: last.key, id: last.id };
    }
  }

  async #runOne(detach: boolean): Promise<boolean> {
    const restored = await this.#restored;
    if (restored.isErr()) throw restored.error;
    if (this.#pending <= this.#inFlight.size) return false;
    let task: StoredTask | 'empty' | 'blocked';
    const head = this.#head;
    this.#head = undefined;
    try {
      // Queued into an empty queue and not run since: still the oldest.
      if (head !== undefined && this.#inFlight.size === 0) task = head;
      else if (this.#inFlight.size === 0) {
        // Nothing running (the common case): the oldest task, read as cheaply as it can be.
        const first = await this.#storage.transaction((tx) => tx.range(TASKS, QUEUE, { limit: 1 }));
        task = first[0] === undefined ? 'empty' : checked(collection, first[0].id, first[0].value);
      } else task = await this.#pick(detach);
    } catch (cause) {
      this.#lastFault = cause;
      return false; // storage unreadable: nothing can run now; the task stays queued
    }
    if (task === 'empty') {
      this.#pending = 0;
      return false;
    }
    if (task === 'blocked') return false;
    if (detach && this.#concurrent.has(task.kind)) {
      const t = task;
      const done = this.#run(t).then((ran) => {
        this.#inFlight.delete(t.id);
        // Not after a retry: the storage is down, and the next kick, runNext() or settle() tries again.
        if (ran) this.kick();
        return ran;
      });
      this.#inFlight.set(t.id, { subject: t.subject, done });
      return true;
    }
    return this.#run(task);
  }

  /** Runs one task and takes it out of the queue unless it asked to be retried; false then. */
  async #run(task: StoredTask): Promise<boolean> {
    const handler = this.#handlers.get(task.kind);
    let outcome: boolean | 'retry' | void = false;
    try {
      if (handler !== undefined) outcome = await handler(task);
    } catch {
      // A handler defect must not wedge the queue; the removal below takes the task out.
    }
    if (outcome === 'retry') {
      this.#lastFault = new Error(`task ${task.kind} of ${task.subject} could not reach the storage`);
      return false;
    }
    if (outcome !== true) {
      const removed = await this.#storage.transaction((tx) => finishTask(tx, task)).then(
        () => true,
        (cause: unknown) => {
          this.#lastFault = cause;
          return false;
        },
      );
      if (!removed) return false; // still queued: a later runNext() or settle() retries it
    }
    this.#pending = Math.max(0, this.#pending - 1);
    return true;
  }

  /** Forgets every queued task (after a reset). */
  cleared(): void {
    this.#pending = 0;
    this.#head = undefined;
  }
}
