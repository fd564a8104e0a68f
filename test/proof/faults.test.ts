/**
 * Proof: a storage failure at any step of any command leaves the state exactly as it was and is
 * answered 500 `storage_failure`; a failure inside an asynchronous task (zone push, import,
 * export) ends its resource in ERROR or leaves it queued to run again, never half-written.
 *
 * Method: the state before is restored into a fresh memory storage; the command runs through
 * `faultyStorage` over that storage, failing the i-th operation, for i = 0, 1, ... until the
 * command succeeds; after every failed attempt a snapshot taken through a service over the same
 * inner storage (no faults) must equal the snapshot before.
 */
import type { ResultAsync } from 'neverthrow';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createDnsService,
  createQuotaService,
  memoryStorage,
  type ApiError,
  type DnsService,
  type QuotaService,
  type QuotaSnapshot,
} from '../../src/index.js';
import { controllablePoolTargets, faultyStorage, inspectDns } from '../../src/testing/index.js';
import { alice, buildFixture, dnsCommands, fx, options, quotaAdmin, quotaCommands, FILE } from './dns-fixture.js';

beforeAll(buildFixture);

type Outcome = Awaited<ResultAsync<unknown, ApiError>>;

/** Fails operation i = 0, 1, ... of `run` until it succeeds; returns how many attempts failed. */
async function proveDnsCommand(
  run: (dns: DnsService) => ResultAsync<unknown, ApiError> | Promise<Outcome>,
  tasks: 'inline' | 'manual' = 'manual',
): Promise<number> {
  for (let i = 0; ; i += 1) {
    const inner = memoryStorage();
    const plain = createDnsService({ ...options('', inner), from: fx.snapshot, tasks: 'manual' });
    const before = await plain.snapshot();
    const faulty = createDnsService({ ...options('f', faultyStorage(inner, (_op, index) => index === i)), tasks });
    const outcome = await run(faulty);
    if (outcome.isOk()) {
      expect(i, 'a command that touches no storage cannot be proven here').toBeGreaterThan(0);
      return i;
    }
    expect(outcome.error, `attempt ${i}: ${outcome.error.type} ${outcome.error.message}`).toMatchObject({ status: 500, type: 'storage_failure' });
    expect(await plain.snapshot(), `state changed after a failure at operation ${i}`).toEqual(before);
    if (i > 500) throw new Error('the command never succeeded');
  }
}

describe('a storage failure at any step of a DNS command changes nothing and answers 500 storage_failure', () => {
  it.each(dnsCommands)('%s', async (_name, run) => {
    expect(await proveDnsCommand(run)).toBeGreaterThan(0);
  });

  // In inline mode with the default pool targets the push happens inside the command's transaction.
  it.each(dnsCommands.filter(([n]) => /^(zones|recordsets)\.(create|update|delete)$/.test(n)))('%s (inline mode)', async (_name, run) => {
    expect(await proveDnsCommand(run, 'inline')).toBeGreaterThan(0);
  });

  it('covers every command of the DNS service', () => {
    const names = new Set(dnsCommands.map(([n]) => n.split(' ')[0]));
    const dns = createDnsService();
    for (const group of ['zones', 'transferRequests', 'transferAccepts', 'recordsets', 'quotas', 'imports', 'exports', 'tlds', 'blacklists'] as const) {
      for (const command of Object.keys(dns[group])) expect(names, `${group}.${command}`).toContain(`${group}.${command}`);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Quota service

let quotaBase: QuotaSnapshot;
beforeAll(async () => {
  const quotas = createQuotaService();
  for (const p of ['p1', 'p2', 'p3']) (await quotas.projectQuotas.set(quotaAdmin, p, { project_quotas: { secrets: 2, orders: 3 } }))._unsafeUnwrap();
  quotaBase = await quotas.snapshot();
});

async function proveQuotaCommand(run: (q: QuotaService) => ResultAsync<unknown, ApiError>): Promise<number> {
  for (let i = 0; ; i += 1) {
    const inner = memoryStorage();
    const plain = createQuotaService({ storage: inner, from: quotaBase });
    const before = await plain.snapshot();
    const faulty = createQuotaService({ storage: faultyStorage(inner, (_op, index) => index === i) });
    const outcome = await run(faulty);
    if (outcome.isOk()) return i;
    expect(outcome.error, `attempt ${i}: ${outcome.error.type}`).toMatchObject({ status: 500, type: 'storage_failure' });
    expect(await plain.snapshot()).toEqual(before);
    if (i > 500) throw new Error('the command never succeeded');
  }
}

describe('a storage failure at any step of a quota command changes nothing and answers 500 storage_failure', () => {
  it.each(quotaCommands)('%s', async (_name, run) => {
    expect(await proveQuotaCommand(run)).toBeGreaterThan(0);
  });

  it('snapshot and reset reject with the storage failure and change nothing', async () => {
    const inner = memoryStorage();
    const plain = createQuotaService({ storage: inner, from: quotaBase });
    const before = await plain.snapshot();
    const failing = createQuotaService({ storage: faultyStorage(inner, (op) => op === 'delete') });
    await expect(failing.reset()).rejects.toMatchObject({ status: 500, type: 'storage_failure' });
    expect(await plain.snapshot()).toEqual(before);
    const unreadable = createQuotaService({ storage: faultyStorage(inner, (op) => op === 'range' || op === 'scan') });
    await expect(unreadable.snapshot()).rejects.toMatchObject({ status: 500, type: 'storage_failure' });
  });
});

// ---------------------------------------------------------------------------------------------
// Asynchronous tasks

/**
 * Queues work (without faults), then runs the task queue with the i-th storage operation failing,
 * for every i until a run has no failure left to inject; `check` judges the state after each run.
 */
async function proveTask(
  queue: (dns: DnsService) => Promise<string>,
  check: (state: Awaited<ReturnType<ReturnType<typeof inspectDns>['state']>>, subject: string) => void,
): Promise<number> {
  for (let i = 0; ; i += 1) {
    const inner = memoryStorage();
    let armed = false;
    let seen = 0;
    const storage = faultyStorage(inner, () => armed && seen++ === i);
    // Ids of its own: the fixture's were drawn from sequentialIds('') (see docs/testing.md).
    const dns = createDnsService({ ...options('7', storage), from: fx.snapshot, tasks: 'manual' });
    const subject = await queue(dns);
    armed = true;
    while (await dns.tasks.runNext());
    armed = false;
    const state = await inspectDns(inner).state();
    check(state, subject);
    // A resource left queued must finish on a retry without faults.
    await dns.tasks.settle();
    check(await inspectDns(inner).state(), subject);
    if (seen <= i) return i;
  }
}

describe('a storage failure inside a task ends its resource in ERROR or leaves it queued, never half-written', () => {
  it('zone push (create)', async () => {
    const steps = await proveTask(
      async (dns) => (await dns.zones.create(alice, { name: 'push.com.', email: 'h@push.com' }))._unsafeUnwrap().id,
      (state, id) => {
        const zone = state.zones.find((z) => z.id === id)!;
        const queued = state.tasks.some((t) => t.subject === id);
        expect(['ACTIVE', 'ERROR', 'PENDING']).toContain(zone.status);
        if (zone.status === 'PENDING') expect(queued, 'a PENDING zone must keep its push queued').toBe(true);
        if (zone.status !== 'PENDING') expect(queued).toBe(false);
      },
    );
    expect(steps).toBeGreaterThan(0);
  });

  it('zone push (delete)', async () => {
    await proveTask(
      async (dns) => (await dns.zones.delete(alice, fx.zoneA2))._unsafeUnwrap().id,
      (state, id) => {
        const zone = state.zones.find((z) => z.id === id);
        const queued = state.tasks.some((t) => t.subject === id);
        if (zone !== undefined) {
          expect(zone.action).toBe('DELETE');
          if (zone.status === 'PENDING') expect(queued).toBe(true);
        }
        if (zone === undefined) expect(state.recordsets.some((r) => r.zone_id === id)).toBe(false);
      },
    );
  });

  it('import', async () => {
    await proveTask(
      async (dns) => (await dns.imports.create(alice, FILE('task-import.com.'), 'text/dns'))._unsafeUnwrap().id,
      (state, id) => {
        const imp = state.imports.find((i) => i.id === id)!;
        const queued = state.tasks.some((t) => t.subject === id);
        const zone = state.zones.find((z) => z.name === 'task-import.com.');
        if (imp.status === 'PENDING') expect(queued).toBe(true);
        if (imp.status === 'COMPLETE') {
          expect(zone?.id).toBe(imp.zone_id);
          // SOA, NS, the A and the MX: nothing half-written
          expect(state.recordsets.filter((r) => r.zone_id === zone!.id).map((r) => r.type).sort()).toEqual(['A', 'MX', 'NS', 'SOA']);
        } else {
          expect(zone, `import ${imp.status} but its zone exists`).toBeUndefined();
        }
      },
    );
  });

  it('export', async () => {
    await proveTask(
      async (dns) => (await dns.exports.create(alice, fx.zoneA))._unsafeUnwrap().id,
      (state, id) => {
        const exp = state.exports.find((e) => e.id === id)!;
        const queued = state.tasks.some((t) => t.subject === id);
        if (exp.status === 'PENDING') expect(queued).toBe(true);
        if (exp.status === 'COMPLETE') expect(exp.location).not.toBeNull();
      },
    );
  });

  it('a failed read of the zone in the push task keeps the push queued, and a retry finishes it', async () => {
    const inner = memoryStorage();
    let armed = false;
    let transactions = 0;
    // manual mode; after arming, transaction 1 is the handler's read of the zone (the runner knows
    // the task its create queued into the empty queue, so it reads no queue first)
    const storage = faultyStorage(inner, (op) => armed && op === 'transaction' && ++transactions === 1);
    const dns = createDnsService({ ...options('', storage), tasks: 'manual' });
    const zone = (await dns.zones.create(alice, { name: 'stuck.com.', email: 'h@stuck.com' }))._unsafeUnwrap();
    armed = true;
    expect(await dns.tasks.runNext()).toBe(false); // could not run: left queued
    armed = false;
    const state = await inspectDns(inner).state();
    expect(state.zones.find((z) => z.id === zone.id)?.status).toBe('PENDING');
    expect(state.tasks.length).toBe(1);
    expect(dns.tasks.pending()).toBe(1);
    await dns.tasks.settle();
    expect((await inspectDns(inner).state()).zones.find((z) => z.id === zone.id)?.status).toBe('ACTIVE');
  });

  it('with pool targets that fail, the zone ends in ERROR and is not half-written', async () => {
    const targets = controllablePoolTargets().fail({ method: 'createZone' });
    const storage = memoryStorage();
    const dns = createDnsService({ ...options('', storage), poolTargets: targets });
    const zone = (await dns.zones.create(alice, { name: 'x.com.', email: 'h@x.com' }))._unsafeUnwrap();
    await dns.tasks.settle();
    const state = await inspectDns(storage).state();
    expect(state.zones.find((z) => z.id === zone.id)?.status).toBe('ERROR');
    expect(state.tasks).toEqual([]);
  });
});
