import type { Storage, StorageTransaction } from '../ports/storage.js';
import type { StorageOperation } from './faulty-storage.js';

/**
 * Which operations a rule of a {@link FaultPlan} affects. Operations are counted per rule: the
 * rule sees only the operations of its kind (and collection, when given), numbered from 1.
 *
 * - neither `nth` nor `times`: every matching operation;
 * - `times: n`: the first `n` matching operations;
 * - `nth: k`: only the `k`-th matching operation (with `times: n`: the `k`-th and the `n - 1` after it).
 *
 * @category Testing
 */
export interface FaultWhen {
  /** The first matching operation affected, counted from 1. @defaultValue 1 */
  readonly nth?: number;
  /** How many matching operations are affected. @defaultValue 1 with `nth`, otherwise all of them */
  readonly times?: number;
  /** Only operations on this collection (`transaction` has none, so it never matches a collection). */
  readonly collection?: string;
}

/**
 * Options of {@link FaultPlan.fail}.
 *
 * @category Testing
 */
export interface FailWhen extends FaultWhen {
  /** What the operation rejects with. @defaultValue an `Error` naming the operation and its index */
  readonly error?: unknown;
}

/**
 * One storage operation as a {@link FaultPlan} saw it.
 *
 * @category Testing
 */
export interface FaultPlanCall {
  /** The operation's position among all operations of the wrapped storage, from 0 (as {@link faultyStorage} counts). */
  readonly index: number;
  /** The port method called. */
  readonly operation: StorageOperation;
  /** The collection it touched; `undefined` for `transaction`. */
  readonly collection: string | undefined;
  /** What the plan did to it, in order: `'delayed'`, `'hung'`, `'failed'`; empty when it passed untouched. */
  readonly effects: readonly ('delayed' | 'hung' | 'failed')[];
}

/**
 * Options of {@link faultPlan}.
 *
 * @category Testing
 */
export interface FaultPlanOptions {
  /**
   * How a `delay` waits. Inject your fake timers' sleep (or `() => Promise.resolve()`) for tests
   * that must not wait in real time.
   * @defaultValue a `setTimeout`-based sleep
   */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * A storage fault scenario, built step by step and applied to any number of storages with
 * {@link FaultPlan.wrap}. Every builder method returns the plan itself.
 *
 * @category Testing
 */
export interface FaultPlan {
  /** Makes matching operations reject (the core answers 500 `storage_failure` and keeps nothing). */
  fail(operation: StorageOperation | '*', when?: FailWhen): FaultPlan;
  /** Makes matching operations wait `ms` milliseconds (through the injected sleep) before they run. */
  delay(operation: StorageOperation | '*', ms: number, when?: FaultWhen): FaultPlan;
  /** Makes matching operations wait until {@link FaultPlan.release} is called, then run normally. */
  hang(operation: StorageOperation | '*', when?: FaultWhen): FaultPlan;
  /** Lets every operation held by `hang` go on; returns how many there were. */
  release(): number;
  /** How many operations `hang` holds right now. */
  hanging(): number;
  /** Every operation seen so far, in call order (a frozen copy). */
  calls(): readonly FaultPlanCall[];
  /** A storage that applies this plan to `inner`. All storages wrapped by one plan share its counters. */
  wrap(inner: Storage): Storage;
}

type Effect = 'delay' | 'hang' | 'fail';

interface Rule {
  readonly effect: Effect;
  readonly operation: StorageOperation | '*';
  readonly first: number;
  readonly last: number;
  readonly collection: string | undefined;
  readonly ms: number;
  readonly error: unknown;
  seen: number;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function checkCount(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
    throw new RangeError(`faultPlan: ${name} must be an integer >= 1, got ${String(value)}`);
  }
}

/**
 * Builds a storage fault plan: fail, delay or hang chosen storage operations, counted per rule,
 * and record every call. Richer than {@link faultyStorage} (which fails by global index) for
 * scenarios such as "the first put fails once", "the third transaction fails" or "reads are slow".
 *
 * Rules apply together: an operation matched by several is delayed, then held, then failed.
 *
 * @param options - the sleep used by `delay`
 * @returns an empty plan; add rules, then `wrap` a storage
 * @example
 * ```ts
 * import { createDnsService, memoryStorage } from 'zoneward';
 * import { faultPlan } from 'zoneward/testing';
 *
 * const plan = faultPlan()
 *   .fail('put', { times: 1 })          // the first put rejects, later ones work
 *   .fail('transaction', { nth: 3 })    // so does the third transaction
 *   .delay('get', 5);                   // every get waits 5 ms
 * const dns = createDnsService({ storage: plan.wrap(memoryStorage()) });
 * const first = await dns.zones.create({ projectId: 'p', roles: ['member'] }, { name: 'a.com.', email: 'h@a.com' });
 * first.isErr(); // true: 500 storage_failure, and nothing was written
 * ```
 * @category Testing
 */
export function faultPlan(options: FaultPlanOptions = {}): FaultPlan {
  const sleep = options.sleep ?? realSleep;
  const rules: Rule[] = [];
  const log: FaultPlanCall[] = [];
  let held: (() => void)[] = [];
  let index = 0;

  const add = (effect: Effect, operation: StorageOperation | '*', when: FailWhen, ms = 0): FaultPlan => {
    checkCount('nth', when.nth);
    checkCount('times', when.times);
    const first = when.nth ?? 1;
    const times = when.times ?? (when.nth === undefined ? Number.POSITIVE_INFINITY : 1);
    rules.push({
      effect,
      operation,
      first,
      last: first + times - 1,
      collection: when.collection,
      ms,
      error: when.error,
      seen: 0,
    });
    return plan;
  };

  /** Applies the plan to one operation, then runs it (or rejects). */
  const apply = async <T>(operation: StorageOperation, collection: string | undefined, run: () => Promise<T>): Promise<T> => {
    const call = { index: index++, operation, collection, effects: [] as ('delayed' | 'hung' | 'failed')[] };
    log.push(call);
    let delay = 0;
    let hang = false;
    let failure: { error: unknown } | undefined;
    for (const rule of rules) {
      if (rule.operation !== '*' && rule.operation !== operation) continue;
      if (rule.collection !== undefined && rule.collection !== collection) continue;
      rule.seen += 1;
      if (rule.seen < rule.first || rule.seen > rule.last) continue;
      if (rule.effect === 'delay') delay += rule.ms;
      else if (rule.effect === 'hang') hang = true;
      else failure ??= { error: rule.error ?? new Error(`injected storage failure (${operation} #${call.index})`) };
    }
    if (delay > 0) {
      call.effects.push('delayed');
      await sleep(delay);
    }
    if (hang) {
      call.effects.push('hung');
      await new Promise<void>((resolve) => held.push(resolve));
    }
    if (failure !== undefined) {
      call.effects.push('failed');
      throw failure.error;
    }
    return run();
  };

  const wrapTx = (tx: StorageTransaction): StorageTransaction => ({
    get: (c, id) => apply('get', c, () => tx.get(c, id)),
    put: (c, id, v, k) => apply('put', c, () => tx.put(c, id, v, k)),
    delete: (c, id) => apply('delete', c, () => tx.delete(c, id)),
    range: (c, i, q) => apply('range', c, () => tx.range(c, i, q)),
    count: (c, i, p) => apply('count', c, () => tx.count(c, i, p)),
    scan: (c, a, l) => apply('scan', c, () => tx.scan(c, a, l)),
  });

  const plan: FaultPlan = {
    fail: (operation, when = {}) => add('fail', operation, when),
    delay: (operation, ms, when = {}) => {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`faultPlan: delay must be a finite number >= 0, got ${String(ms)}`);
      return add('delay', operation, when, ms);
    },
    hang: (operation, when = {}) => add('hang', operation, when),
    release: () => {
      const waiting = held;
      held = [];
      for (const resolve of waiting) resolve();
      return waiting.length;
    },
    hanging: () => held.length,
    calls: () => Object.freeze(log.map((c) => Object.freeze({ ...c, effects: Object.freeze([...c.effects]) }))),
    wrap: (inner) => ({
      transaction: <T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> =>
        apply('transaction', undefined, () => inner.transaction((tx) => work(wrapTx(tx)))),
    }),
  };
  return plan;
}
