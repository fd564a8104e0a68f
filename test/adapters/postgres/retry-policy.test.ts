import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  afterFailure,
  aloneWait,
  FIRST_ATTEMPT,
  Relock,
  Reread,
  retrySettings,
  UNIQUE_VIOLATION,
  type RetryDecision,
  type RetryState,
} from '../../../src/adapters/postgres/retry-policy.js';

// The retry decisions of the PostgreSQL adapter, without a server: what follows each way an
// attempt can fail.

const serverError = (code: string): Error => Object.assign(new Error(`server said ${code}`), { code });
const defaults = retrySettings();

/** Runs the policy over a sequence of failures, as the attempt loop does; the decisions in order. */
function decide(failures: readonly { cause: unknown; speculated?: boolean }[], settings = defaults): RetryDecision[] {
  let state: RetryState = FIRST_ATTEMPT;
  const out: RetryDecision[] = [];
  for (const f of failures) {
    const d = afterFailure(settings, state, { cause: f.cause, speculated: f.speculated ?? false });
    out.push(d);
    if (d.kind === 'give up') break;
    state = d.state;
  }
  return out;
}

describe('retry settings', () => {
  it('fills in the documented defaults and bounds what it is given', () => {
    expect(retrySettings()).toEqual({ attempts: 20, aloneFrom: 4, aloneWaitMs: 5000, baseDelayMs: 2, maxDelayMs: 200 });
    expect(retrySettings({ attempts: 0, aloneFromAttempt: -3, aloneWaitMs: 0.5, baseDelayMs: -1, maxDelayMs: -5 })).toEqual({
      attempts: 1,
      aloneFrom: 1,
      aloneWaitMs: 1,
      baseDelayMs: 0,
      maxDelayMs: 0,
    });
    // The ceiling never falls below the first backoff.
    expect(retrySettings({ baseDelayMs: 50, maxDelayMs: 10 }).maxDelayMs).toBe(50);
  });
});

describe('after a failed attempt', () => {
  it('retries serialization failures and deadlocks with a backoff ceiling that doubles up to the maximum, reported to onRetry', () => {
    const decisions = decide(Array.from({ length: 9 }, (_, n) => ({ cause: serverError(n % 2 === 0 ? '40001' : '40P01') })));
    expect(decisions.map((d) => (d.kind === 'again' ? d.backoffMs : d.kind))).toEqual([2, 4, 8, 16, 32, 64, 128, 200, 200]);
    expect(decisions.map((d) => (d.kind === 'again' ? d.sqlState : undefined))).toEqual(Array.from({ length: 9 }, (_, n) => (n % 2 === 0 ? '40001' : '40P01')));
    expect(decisions.map((d) => (d.kind === 'again' ? d.state.attempt : 0))).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('retries a stale session (statements another client prepared or discarded) like contention', () => {
    for (const code of ['42P05', '26000']) expect(decide([{ cause: serverError(code) }])[0]).toMatchObject({ kind: 'again', sqlState: code, backoffMs: 2 });
  });

  it('gives up on the last attempt, and at once on anything no retry can fix', () => {
    const three = retrySettings({ attempts: 3 });
    expect(decide([{ cause: serverError('40001') }, { cause: serverError('40001') }, { cause: serverError('40001') }], three).map((d) => d.kind)).toEqual([
      'again',
      'again',
      'give up',
    ]);
    for (const cause of [serverError('23505'), serverError('42P01'), new Error('work failed'), 'a string', undefined]) {
      expect(decide([{ cause }])).toEqual([{ kind: 'give up' }]);
    }
  });

  it('runs again at once, without counting an attempt, for a lock asked after the snapshot, up to `attempts` times', () => {
    const settings = retrySettings({ attempts: 3 });
    const decisions = decide(Array.from({ length: 5 }, () => ({ cause: new Relock() })), settings);
    expect(decisions.map((d) => d.kind)).toEqual(['again', 'again', 'again', 'give up']);
    for (const d of decisions.slice(0, 3)) expect(d).toMatchObject({ backoffMs: 0, state: { attempt: 1 } });
    expect(decisions.every((d) => d.kind === 'give up' || d.sqlState === undefined)).toBe(true);
  });

  it('leaves READ COMMITTED once for a covering transaction that rewrites a row, and gives up on a second such failure', () => {
    const decisions = decide([{ cause: new Reread() }, { cause: new Reread() }]);
    expect(decisions[0]).toEqual({ kind: 'again', state: { ...FIRST_ATTEMPT, readCommitted: false }, backoffMs: 0 });
    expect(decisions[1]).toEqual({ kind: 'give up' });
  });

  it('stops speculating once an insert answered true for a taken id, and only then', () => {
    const taken = { cause: serverError(UNIQUE_VIOLATION), speculated: true };
    expect(decide([taken])[0]).toEqual({ kind: 'again', state: { ...FIRST_ATTEMPT, speculate: false }, backoffMs: 0 });
    // Without a speculative insert in the attempt, or a second time, the violation is the caller's.
    expect(decide([{ cause: serverError(UNIQUE_VIOLATION) }])).toEqual([{ kind: 'give up' }]);
    expect(decide([taken, taken]).map((d) => d.kind)).toEqual(['again', 'give up']);
  });

  it('runs alone from `aloneFromAttempt` on, waiting `aloneWaitMs`', () => {
    const settings = retrySettings({ aloneFromAttempt: 3, aloneWaitMs: 700 });
    const at = (attempt: number): number | undefined => aloneWait(settings, { ...FIRST_ATTEMPT, attempt });
    expect([1, 2, 3, 4].map(at)).toEqual([undefined, undefined, 700, 700]);
    expect(aloneWait(retrySettings({ aloneFromAttempt: Infinity }), { ...FIRST_ATTEMPT, attempt: 1e9 })).toBeUndefined();
  });

  it('ends every sequence of failures within attempts + attempts relocks + one speculation + one reread', () => {
    const cause = fc.oneof(
      fc.constantFrom('40001', '40P01', '42P05', '26000', '23505', '42P01', 'XX000').map(serverError),
      fc.constant(new Relock()),
      fc.constant(new Reread()),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.record({ cause, speculated: fc.boolean() }), { minLength: 40, maxLength: 40 }), (attempts, failures) => {
        const decisions = decide(failures, retrySettings({ attempts }));
        const last = decisions[decisions.length - 1]!;
        expect(decisions.length).toBeLessThanOrEqual(2 * attempts + 2);
        // A sequence long enough always ends in giving up, and never counts past `attempts`.
        expect(last.kind).toBe('give up');
        for (const d of decisions) if (d.kind === 'again') expect(d.state.attempt).toBeLessThanOrEqual(attempts);
      }),
    );
  });
});
