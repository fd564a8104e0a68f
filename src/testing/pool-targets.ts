import type { PoolTargetPort } from '../dns/kernel/deps.js';
import type { ZoneBody } from '../dns/kernel/zone.js';

/**
 * A method of the {@link PoolTargetPort}.
 *
 * @category Testing
 */
export type PoolTargetMethod = 'createZone' | 'updateZone' | 'deleteZone';

/**
 * One call the DNS service made to {@link controllablePoolTargets}.
 *
 * @category Testing
 */
export interface PoolTargetCall {
  /** The method called. */
  readonly method: PoolTargetMethod;
  /** The zone as it was pushed (the zone's API body at that moment). */
  readonly zone: ZoneBody;
  /** How the call ended so far: `'hanging'` until released. */
  readonly outcome: 'succeeded' | 'failed' | 'hanging';
}

/**
 * Which calls a behaviour of {@link ControllablePoolTargets} applies to.
 *
 * @category Testing
 */
export interface PoolTargetWhen {
  /** Only calls of this method. @defaultValue every method */
  readonly method?: PoolTargetMethod;
  /** Only the next `times` matching calls; then older behaviours apply again. @defaultValue every later call */
  readonly times?: number;
}

/**
 * A {@link PoolTargetPort} a test steers: every call succeeds, fails or hangs as told, and is
 * recorded. Behaviours are checked newest first; one without `method` and `times` replaces all
 * earlier ones. With none, calls succeed.
 *
 * @category Testing
 */
export interface ControllablePoolTargets extends PoolTargetPort {
  /** Matching calls resolve (the zone becomes `ACTIVE`, or is removed on delete). */
  succeed(when?: PoolTargetWhen): ControllablePoolTargets;
  /** Matching calls reject with `error` (the zone ends in `ERROR`). */
  fail(when?: PoolTargetWhen & { readonly error?: Error }): ControllablePoolTargets;
  /** Matching calls wait until {@link ControllablePoolTargets.release} (the zone stays `PENDING`). */
  hang(when?: PoolTargetWhen): ControllablePoolTargets;
  /**
   * Ends every hanging call, successfully or not, and returns how many there were. Release
   * before `dns.tasks.settle()`: the task queue waits for a hanging push.
   */
  release(outcome?: 'succeed' | 'fail'): number;
  /** How many calls hang right now. */
  hanging(): number;
  /** Every call so far, oldest first (a frozen copy). */
  calls(): readonly PoolTargetCall[];
}

interface Behaviour {
  readonly kind: 'succeed' | 'fail' | 'hang';
  readonly method: PoolTargetMethod | undefined;
  remaining: number;
  readonly error: Error | undefined;
}

interface Held {
  readonly record: { outcome: PoolTargetCall['outcome'] };
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

const METHODS: readonly PoolTargetMethod[] = ['createZone', 'updateZone', 'deleteZone'];

/**
 * Pool targets (the DNS servers zones are pushed to) that a test can tell to succeed, fail, or
 * hang until released, recording every call: how to observe `PENDING` and `ERROR` zones.
 *
 * @returns targets that succeed until told otherwise
 * @example
 * ```ts
 * import { createDnsService } from 'zoneward';
 * import { controllablePoolTargets } from 'zoneward/testing';
 *
 * const targets = controllablePoolTargets().hang({ method: 'createZone' });
 * const dns = createDnsService({ poolTargets: targets });
 * const zone = await dns.zones.create({ projectId: 'p', roles: ['member'] }, { name: 'a.com.', email: 'h@a.com' });
 * // zone.value.status === 'PENDING' while the push hangs
 * targets.release('fail');
 * await dns.tasks.settle();          // the zone is now ERROR
 * targets.calls()[0]?.method;        // 'createZone'
 * ```
 * @category Testing
 */
export function controllablePoolTargets(): ControllablePoolTargets {
  let behaviours: Behaviour[] = [];
  const log: { method: PoolTargetMethod; zone: ZoneBody; outcome: PoolTargetCall['outcome'] }[] = [];
  let held: Held[] = [];

  const add = (kind: Behaviour['kind'], when: PoolTargetWhen & { readonly error?: Error }): ControllablePoolTargets => {
    if (when.times !== undefined && (!Number.isSafeInteger(when.times) || when.times < 1)) {
      throw new RangeError(`controllablePoolTargets: times must be an integer >= 1, got ${String(when.times)}`);
    }
    if (when.method !== undefined && !METHODS.includes(when.method)) {
      throw new RangeError(`controllablePoolTargets: unknown method ${String(when.method)}`);
    }
    if (when.method === undefined && when.times === undefined) behaviours = [];
    behaviours.push({ kind, method: when.method, remaining: when.times ?? Number.POSITIVE_INFINITY, error: when.error });
    return targets;
  };

  const choose = (method: PoolTargetMethod): Behaviour | undefined => {
    for (let i = behaviours.length - 1; i >= 0; i -= 1) {
      const b = behaviours[i]!;
      if (b.method !== undefined && b.method !== method) continue;
      b.remaining -= 1;
      if (b.remaining <= 0) behaviours.splice(i, 1);
      return b;
    }
    return undefined;
  };

  const call = (method: PoolTargetMethod, zone: ZoneBody): Promise<void> => {
    const record = { method, zone: structuredClone(zone), outcome: 'succeeded' as PoolTargetCall['outcome'] };
    log.push(record);
    const b = choose(method);
    if (b === undefined || b.kind === 'succeed') return Promise.resolve();
    if (b.kind === 'fail') {
      record.outcome = 'failed';
      return Promise.reject(b.error ?? new Error(`pool target ${method} failed (as told)`));
    }
    record.outcome = 'hanging';
    return new Promise<void>((resolve, reject) => held.push({ record, resolve, reject }));
  };

  const targets: ControllablePoolTargets = {
    createZone: (zone) => call('createZone', zone),
    updateZone: (zone) => call('updateZone', zone),
    deleteZone: (zone) => call('deleteZone', zone),
    succeed: (when = {}) => add('succeed', when),
    fail: (when = {}) => add('fail', when),
    hang: (when = {}) => add('hang', when),
    release: (outcome = 'succeed') => {
      const waiting = held;
      held = [];
      for (const h of waiting) {
        if (outcome === 'succeed') {
          h.record.outcome = 'succeeded';
          h.resolve();
        } else {
          h.record.outcome = 'failed';
          h.reject(new Error('pool target failed (released as failed)'));
        }
      }
      return waiting.length;
    },
    hanging: () => held.length,
    calls: () => Object.freeze(log.map((c) => deepFreeze({ method: c.method, zone: structuredClone(c.zone), outcome: c.outcome }))),
  };
  return targets;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
