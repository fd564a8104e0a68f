import type { Storage, StorageTransaction } from '../ports/storage.js';
import { tupleKey } from './keys.js';

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
  tx: StorageTransaction,
  id: string,
  kind: string,
  subject: string,
  data: StoredTask['data'],
): Promise<StoredTask> {
  const meta = (await tx.get(META, SEQ_ID)) as { next: number } | undefined;
  const seq = meta?.next ?? 1;
  await tx.put(META, SEQ_ID, Object.freeze({ next: seq + 1 }), {});
  const task: StoredTask = Object.freeze({ id, seq, kind, subject, data: Object.freeze({ ...data }) });
  await tx.put(TASKS, id, task, { [QUEUE]: tupleKey(seq) });
  return task;
}

/** Removes a finished task inside the handler's last transaction. @internal */
export async function finishTask(tx: StorageTransaction, task: StoredTask): Promise<void> {
  await tx.delete(TASKS, task.id);
}

/**
 * The worker behind `dns.tasks`: one task at a time, first in first out, so the steps of one
 * zone always apply in the order they were asked for.
 *
 * In `'auto'` mode a commit that queued work wakes the worker; in `'manual'` mode nothing runs
 * until `runNext()` or `settle()`. No timers: the worker is a promise chain, so it never fights a
 * host test's fake timers.
 * @internal
 */
export class TaskRunner {
  readonly #storage: Storage;
  readonly #handlers = new Map<string, TaskHandler>();
  readonly #auto: boolean;
  /** Tasks in storage, kept in step after every commit so `pending()` needs no storage read. */
  #pending = 0;
  #serial: Promise<unknown> = Promise.resolve();
  #drain: Promise<void> | undefined;

  constructor(storage: Storage, mode: 'auto' | 'manual') {
    this.#storage = storage;
    this.#auto = mode === 'auto';
  }

  /** Registers the handler of a task kind. */
  register(kind: string, handler: TaskHandler): void {
    this.#handlers.set(kind, handler);
  }

  /** Counts tasks already in storage (after a restore). */
  async recount(): Promise<void> {
    this.#pending = await this.#storage.transaction((tx) => tx.count(TASKS, QUEUE));
    this.kick();
  }

  /** Called after a commit that queued a task. */
  queued(): void {
    this.#pending += 1;
    this.kick();
  }

  pending(): number {
    return this.#pending;
  }

  /** Starts draining the queue in the background, in auto mode. */
  kick(): void {
    if (!this.#auto || this.#drain !== undefined || this.#pending === 0) return;
    this.#drain = (async () => {
      try {
        while (await this.runNext());
      } finally {
        this.#drain = undefined;
      }
    })();
  }

  /** Runs the oldest task; false when none was waiting. */
  runNext(): Promise<boolean> {
    const next = this.#serial.then(() => this.#runOne());
    this.#serial = next.catch(() => undefined);
    return next;
  }

  /** Resolves when no task is left, running them if nothing else does. */
  async settle(): Promise<void> {
    for (;;) {
      if (this.#drain !== undefined) {
        await this.#drain;
        continue;
      }
      if (!(await this.runNext())) return;
    }
  }

  async #runOne(): Promise<boolean> {
    if (this.#pending === 0) return false;
    let task: StoredTask | undefined;
    try {
      const first = await this.#storage.transaction((tx) => tx.range(TASKS, QUEUE, { limit: 1 }));
      task = first[0]?.value as StoredTask | undefined;
    } catch {
      return false; // storage unreadable: nothing can run now; the task stays queued
    }
    if (task === undefined) {
      this.#pending = 0;
      return false;
    }
    const handler = this.#handlers.get(task.kind);
    let outcome: boolean | 'retry' | void = false;
    try {
      if (handler !== undefined) outcome = await handler(task);
    } catch {
      // A handler defect must not wedge the queue; the removal below takes the task out.
    }
    if (outcome === 'retry') return false;
    if (outcome !== true) {
      const t = task;
      const removed = await this.#storage.transaction((tx) => finishTask(tx, t)).then(
        () => true,
        () => false,
      );
      if (!removed) return false; // still queued: a later runNext() or settle() retries it
    }
    this.#pending = Math.max(0, this.#pending - 1);
    return true;
  }

  /** Forgets every queued task (after a reset). */
  cleared(): void {
    this.#pending = 0;
  }
}
