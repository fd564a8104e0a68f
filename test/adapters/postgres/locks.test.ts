import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { StorageLock } from '../../../src/ports/storage.js';
import { LockPlan } from '../../../src/adapters/postgres/locks.js';
import { tables } from '../../../src/adapters/postgres/schema.js';
import { statements, type Step } from '../../../src/adapters/postgres/statements.js';

// The named-lock decisions of the PostgreSQL adapter, without a server: when a `lock` call is
// granted or makes the attempt run again, and what BEGIN then takes.

const sql = statements(tables('locks_test'));
const before = { sent: false, buffered: false };
const afterRead = { sent: true, buffered: false };
const x = (name: string): StorageLock => ({ name, exclusive: true });
const s = (name: string): StorageLock => ({ name, exclusive: false });

/** A fresh attempt's plan, with the transaction's kept locks. */
const plan = (kept = new Map<string, boolean>(), options: { alone?: boolean; mayReadCommitted?: boolean } = {}): LockPlan =>
  new LockPlan(kept, options.alone ?? false, options.mayReadCommitted ?? true, sql.unlock);

const text = (steps: readonly Step[]): string[] => steps.map((step) => (typeof step === 'string' ? step : step.statement.text));

describe('a lock call', () => {
  it('is granted before anything was sent, and its locks go with BEGIN, at session level, in key order', () => {
    const p = plan();
    expect(p.ask([x('b'), s('a'), x('c')], sql.lockKey, false, before)).toBe('granted');
    const steps = p.opening(sql);
    expect(steps[0]).toBe('BEGIN');
    expect(steps[2]).toBe('COMMIT');
    expect(steps[3]).toBe('BEGIN ISOLATION LEVEL SERIALIZABLE');
    const keys = [sql.lockKey('a'), sql.lockKey('b'), sql.lockKey('c')];
    const sorted = [...keys].sort();
    // The schema's lock shared, then shared for `a`, exclusive for the others, in key order whatever the call's order.
    const calls = (verb: string): string => sorted.map((k) => `pg_advisory_${verb}${k === keys[0] ? '_shared' : ''}(${k})`).join(', ');
    expect(steps[1]).toBe(`SELECT ${sql.sessionLockShared}, ${calls('lock')}`);
    expect(p.unlocks).toBe(`SELECT ${sql.sessionUnlockShared}, ${calls('unlock')}`);
  });

  it('without any lock, BEGIN is SERIALIZABLE with the schema lock shared for the transaction, and nothing to unlock', () => {
    const p = plan();
    expect(text(p.opening(sql))).toEqual(['BEGIN ISOLATION LEVEL SERIALIZABLE', sql.lockShared.text]);
    expect(p.unlocks).toBeUndefined();
  });

  it('after the first read, makes the attempt run again for a lock it does not hold, and is granted for one it holds', () => {
    const kept = new Map<string, boolean>();
    const first = plan(kept);
    expect(first.ask([x('zone')], sql.lockKey, false, afterRead)).toBe('relock');
    // The next attempt starts with the lock: the same call is granted, before or after a read.
    const second = plan(kept);
    expect(second.held.get(sql.lockKey('zone'))).toBe(true);
    expect(second.ask([x('zone')], sql.lockKey, false, afterRead)).toBe('granted');
    expect(second.ask([s('zone')], sql.lockKey, false, afterRead)).toBe('granted');
  });

  it('upgrades a name held shared when it is asked exclusively, which after a read means running again', () => {
    const kept = new Map<string, boolean>();
    const p = plan(kept);
    expect(p.ask([s('n')], sql.lockKey, false, before)).toBe('granted');
    expect(p.ask([x('n')], sql.lockKey, false, afterRead)).toBe('relock');
    expect(kept.get(sql.lockKey('n'))).toBe(true);
    // Asked shared again later, it stays exclusive.
    const next = plan(kept);
    expect(next.ask([s('n')], sql.lockKey, false, afterRead)).toBe('granted');
    expect(kept.get(sql.lockKey('n'))).toBe(true);
  });

  it('takes no named lock when the attempt runs alone (nothing else runs)', () => {
    const kept = new Map([[sql.lockKey('held before'), true]]);
    const p = plan(kept, { alone: true });
    expect(p.ask([x('n')], sql.lockKey, true, afterRead)).toBe('granted');
    expect(p.held.size).toBe(0);
    expect(p.readCommitted).toBe(false);
    expect(p.unlocks).toBe(sql.unlock);
  });
});

describe('a covering first call', () => {
  it('runs the attempt at READ COMMITTED with the locks taken by its first statement', () => {
    const p = plan();
    expect(p.ask([x('name'), s('parent'), x('project')], sql.lockKey, true, before)).toBe('granted');
    expect(p.covering).toBe(true);
    expect(p.readCommitted).toBe(true);
    const steps = p.opening(sql);
    expect(text(steps)).toEqual([sql.beginReadCommitted.text, sql.lockCovering.text]);
    const keys = [...p.held.keys()].sort();
    const [a, b, exclusive] = (steps[1] as { params: readonly string[] }).params;
    expect(a).toBe(`{${keys.map((k) => k.split(', ')[0]).join(',')}}`);
    expect(b).toBe(`{${keys.map((k) => k.split(', ')[1]).join(',')}}`);
    expect(exclusive).toBe(`{${keys.map((k) => (p.held.get(k) ? 't' : 'f')).join(',')}}`);
    // Released by COMMIT or ROLLBACK themselves.
    expect(p.unlocks).toBeUndefined();
  });

  it('is covering only as the first call before anything is sent or buffered', () => {
    const notFirst = plan();
    notFirst.ask([x('a')], sql.lockKey, false, before);
    notFirst.ask([x('b')], sql.lockKey, true, before);
    expect([notFirst.covering, notFirst.readCommitted]).toEqual([false, false]);
    const buffered = plan();
    buffered.ask([x('a')], sql.lockKey, true, { sent: false, buffered: true });
    expect(buffered.covering).toBe(false);
    const sent = plan();
    expect(sent.ask([x('a')], sql.lockKey, true, afterRead)).toBe('relock');
    expect(sent.covering).toBe(false);
  });

  it('runs at REPEATABLE READ, locks first at session level, once READ COMMITTED was given up', () => {
    const p = plan(new Map(), { mayReadCommitted: false });
    p.ask([x('name')], sql.lockKey, true, before);
    expect([p.covering, p.readCommitted]).toEqual([true, false]);
    const steps = p.opening(sql);
    expect(steps[3]).toBe('BEGIN ISOLATION LEVEL REPEATABLE READ');
    expect(p.unlocks).toContain(`pg_advisory_unlock(${sql.lockKey('name')})`);
  });
});

describe('lock keys', () => {
  it('keep names apart, per schema, and are two int4 literals', () => {
    const other = statements(tables('another_schema'));
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const key = sql.lockKey(a);
        expect(key).toMatch(/^-?\d+, -?\d+$/u);
        for (const half of key.split(', ')) expect(Math.abs(Number(half))).toBeLessThanOrEqual(2 ** 31);
        if (a !== b) expect(sql.lockKey(b)).not.toBe(key);
        expect(other.lockKey(a)).not.toBe(key);
      }),
    );
  });

  it('every plan of random calls holds each name at its strongest asked mode, and grants after a read only what it held', () => {
    const names = fc.constantFrom('a', 'b', 'c', 'd');
    const call = fc.record({ locks: fc.array(fc.record({ name: names, exclusive: fc.boolean() }), { maxLength: 3 }), sent: fc.boolean() });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 8 }), (calls) => {
        const kept = new Map<string, boolean>();
        const p = plan(kept);
        const strongest = new Map<string, boolean>();
        let sent = false;
        for (const c of calls) {
          sent ||= c.sent;
          const heldBefore = new Map(p.held);
          const answer = p.ask(c.locks, sql.lockKey, false, { sent, buffered: false });
          for (const l of c.locks) strongest.set(sql.lockKey(l.name), (strongest.get(sql.lockKey(l.name)) ?? false) || l.exclusive);
          const covered = c.locks.every((l) => heldBefore.get(sql.lockKey(l.name)) === true || (heldBefore.has(sql.lockKey(l.name)) && !l.exclusive));
          expect(answer).toBe(sent && !covered ? 'relock' : 'granted');
        }
        expect(kept).toEqual(strongest);
        expect(p.held).toEqual(strongest);
      }),
    );
  });
});
