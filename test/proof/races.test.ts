/**
 * Races: the storage port is wrapped so that fast-check's scheduler decides when every
 * transaction starts and when every operation inside one is answered; two or three commands are
 * then fired at once. Whatever the interleaving, the answers and the final state must be those of
 * one of the serial orders of the same commands (each serial order is run on a fresh service built
 * the same deterministic way, and its answers and snapshot recorded).
 *
 * With the default pool targets a zone push lands inside the command's own transaction, so the
 * oracle is the command-level serial orders. With pool targets of our own (and for imports, which
 * are always background work) a push or an import is a task with its own transactions, which may
 * land after the other command's write, as the real service's backend work does; the oracle is
 * then every order of whole transactions, enumerated exhaustively by a stepping storage (and
 * checked to hold the command-level orders).
 *
 * History: at 7eec26b (auto mode: command, then its push task, then a read-back) this suite found
 * that zones.update could answer the state written by a concurrent delete (action DELETE), and an
 * accept could see a delete half done; b26c44d moved the default push into the command's
 * transaction, and the command-level oracle now holds.
 *
 * ZONEWARD_RACE_RUNS raises the number of schedules tried per scenario.
 */
import fc from 'fast-check';
import type { Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { createDnsService, memoryStorage, type ApiError, type DnsService, type RequestContext, type Storage, type StorageTransaction } from '../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';

const RUNS = Number(process.env['ZONEWARD_RACE_RUNS'] ?? 0) || 100;

const pa: RequestContext = { projectId: 'pa', roles: ['member'] };
const pb: RequestContext = { projectId: 'pb', roles: ['member'] };
const pc: RequestContext = { projectId: 'pc', roles: ['member'] };
const adminAll: RequestContext = { projectId: 'ops', roles: ['admin'], allProjects: true };
const zone = (name: string) => ({ name, email: 'admin@example.com' });
const zoneFile = (name: string): string => `$ORIGIN ${name}\n$TTL 3600\n@ IN SOA ns1 admin 7 3600 600 86400 3600\n@ IN NS ns1\n`;

/** A storage whose transactions and operations wait for the scheduler while `gate.on` is set. */
function scheduledStorage(inner: Storage, s: fc.Scheduler, gate: { on: boolean }): Storage {
  const step = <T>(label: string, op: () => Promise<T>): Promise<T> =>
    gate.on ? s.schedule(Promise.resolve(label), label).then(op) : op();
  const wrap = (tx: StorageTransaction): StorageTransaction => ({
    get: (c, id) => step(`get ${c}`, () => tx.get(c, id)),
    put: (c, id, v, k) => step(`put ${c}`, () => tx.put(c, id, v, k)),
    delete: (c, id) => step(`delete ${c}`, () => tx.delete(c, id)),
    range: (c, i, q) => step(`range ${c}.${i}`, () => tx.range(c, i, q)),
    count: (c, i, p) => step(`count ${c}.${i}`, () => tx.count(c, i, p)),
    scan: (c, a, l) => step(`scan ${c}`, () => tx.scan(c, a, l)),
  });
  return { transaction: (work) => step('transaction', () => inner.transaction((tx) => work(wrap(tx)))) };
}

type Outcome = { readonly ok: unknown } | { readonly status: number; readonly type: string };
const outcomeOf = (answer: unknown): Outcome => {
  const r = answer as Result<unknown, ApiError>;
  return r.isOk() ? { ok: JSON.parse(JSON.stringify(r.value ?? null)) as unknown } : { status: r.error.status, type: r.error.type };
};

interface Run {
  readonly outcomes: readonly Outcome[];
  readonly snapshot: unknown;
}

/**
 * A storage whose transactions start only when the driver says so, one at a time: every history
 * it produces is a serial order of whole transactions (a command's main transaction and its
 * zone-push task are separate steps, as the real service's backend work is).
 */
function steppedStorage(inner: Storage) {
  const waiting: (() => void)[] = [];
  let running: Promise<unknown> | undefined;
  const storage: Storage = {
    transaction: (work) =>
      new Promise<void>((release) => waiting.push(release)).then(() => {
        const p = inner.transaction(work);
        running = p.catch(() => undefined);
        return p;
      }),
  };
  const idle = () => new Promise<void>((r) => setImmediate(r));
  /** Lets the transaction at `index` among those waiting run to its end; false when none waits. */
  const step = async (choose: (options: number) => number): Promise<boolean> => {
    await idle();
    await idle();
    if (waiting.length === 0) return false;
    const [release] = waiting.splice(choose(waiting.length), 1);
    running = undefined;
    release!();
    await idle();
    await (running as Promise<unknown> | undefined);
    return true;
  };
  return { storage, step };
}

/** A command's answer is a neverthrow Result (typed loosely: Result is invariant in its value). */
type Command<D> = (dns: DnsService, data: D) => unknown;

interface Scenario<D> {
  readonly name: string;
  readonly setup: (dns: DnsService) => Promise<D>;
  readonly commands: readonly Command<D>[];
  /**
   * The commands queue background work (imports): whatever the push mode, compare with every
   * order of whole transactions, where that work may land after the other command.
   */
  readonly background?: boolean;
  /** A property every outcome must have besides being serial (e.g. exactly one success). */
  readonly invariant: (run: Run, dns: DnsService, data: D) => void | Promise<void>;
}

/**
 * `'inline'`: the default pool targets, whose push lands inside the command's own transaction.
 * `'targets'`: pool targets of our own (always succeeding), so every push is a task with its own
 * transactions that may land after another command's write, as the real service's backend work.
 */
type Mode = 'inline' | 'targets';
let mode: Mode = 'inline';
const ownTargets = { createZone: () => Promise.resolve(), updateZone: () => Promise.resolve(), deleteZone: () => Promise.resolve() };
const service = (storage: Storage): DnsService =>
  createDnsService({
    storage,
    clock: manualClock('2026-01-01T00:00:00Z'),
    ids: sequentialIds(),
    random: seededRandom(7),
    tasks: 'inline',
    ...(mode === 'targets' ? { poolTargets: ownTargets } : {}),
  });

async function unwrap<T>(r: PromiseLike<Result<T, ApiError>>): Promise<T> {
  const res = await r;
  if (res.isErr()) throw new Error(`setup failed: ${res.error.status} ${res.error.type} ${res.error.message}`);
  return res.value;
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
}

async function serialRuns<D>(scenario: Scenario<D>): Promise<Run[]> {
  const runs: Run[] = [];
  for (const order of permutations(scenario.commands.length)) {
    const dns = service(memoryStorage());
    const data = await scenario.setup(dns);
    await dns.tasks.settle();
    const outcomes: Outcome[] = [];
    for (const i of order) {
      outcomes[i] = outcomeOf(await scenario.commands[i]!(dns, data));
      await dns.tasks.settle();
    }
    runs.push({ outcomes, snapshot: await dns.snapshot() });
  }
  return runs;
}

/**
 * Every history in which whole transactions run one after another, in every order the commands
 * and their tasks allow (enumerated depth first): the oracle for scenarios where a command's
 * zone push may land after another command's write.
 */
async function transactionLevelRuns<D>(scenario: Scenario<D>): Promise<Run[]> {
  const runs: Run[] = [];
  let choices: { taken: number; options: number }[] = [];
  for (;;) {
    const { storage, step } = steppedStorage(memoryStorage());
    const dns = service(storage);
    const setupDone = scenario.setup(dns);
    const drive = async (p: Promise<unknown>, choose: (n: number) => number): Promise<void> => {
      let done = false;
      p.then(
        () => (done = true),
        () => (done = true),
      );
      for (let idleRounds = 0; ; ) {
        if (await step(choose)) idleRounds = 0;
        else if (done) return;
        else if (++idleRounds > 100) throw new Error('stepped run is stuck: nothing waits for storage and nothing finished');
      }
    };
    const data = await (async () => {
      let value: D | undefined;
      await drive(setupDone.then((v) => (value = v)), () => 0);
      await drive(dns.tasks.settle(), () => 0);
      return value as D;
    })();
    let depth = 0;
    const chooser = (options: number): number => {
      if (depth < choices.length) return choices[depth++]!.taken;
      choices.push({ taken: 0, options });
      depth++;
      return 0;
    };
    const all = Promise.all(scenario.commands.map((c) => c(dns, data)));
    let results: unknown[] = [];
    await drive(all.then((r) => (results = r)), chooser);
    await drive(dns.tasks.settle(), chooser);
    const snap = dns.snapshot();
    await drive(snap, () => 0);
    runs.push({ outcomes: results.map(outcomeOf), snapshot: await snap });
    choices = choices.slice(0, depth);
    while (choices.length > 0 && choices[choices.length - 1]!.taken + 1 >= choices[choices.length - 1]!.options) choices.pop();
    if (choices.length === 0) return runs;
    choices[choices.length - 1]!.taken += 1;
  }
}

async function racedRun<D>(scenario: Scenario<D>, s: fc.Scheduler): Promise<{ run: Run; dns: DnsService; data: D }> {
  const gate = { on: false };
  const dns = service(scheduledStorage(memoryStorage(), s, gate));
  const data = await scenario.setup(dns);
  await dns.tasks.settle();
  gate.on = true;
  const all = Promise.all(scenario.commands.map((c) => c(dns, data)));
  const results = await s.waitFor(all);
  gate.on = false;
  await s.waitAll();
  await dns.tasks.settle();
  return { run: { outcomes: results.map(outcomeOf), snapshot: await dns.snapshot() }, dns, data };
}

const succeeded = (run: Run): number => run.outcomes.filter((o) => 'ok' in o).length;
const failures = (run: Run): string[] => run.outcomes.flatMap((o) => ('ok' in o ? [] : [`${o.status} ${o.type}`]));

async function zonesOf(dns: DnsService, project: string): Promise<number> {
  const list = (await unwrap(dns.zones.list(adminAll, { limit: 'max' }))) as { zones: { project_id: string }[] };
  return list.zones.filter((z) => z.project_id === project).length;
}

interface Offer {
  readonly zoneId: string;
  readonly requestId: string;
  readonly key: string;
}
async function offer(dns: DnsService, owner: RequestContext, name: string, target?: string): Promise<Offer> {
  const z = await unwrap(dns.zones.create(owner, zone(name)));
  const r = await unwrap(dns.transferRequests.create(owner, z.id, target === undefined ? {} : { target_project_id: target }));
  return { zoneId: z.id, requestId: r.id, key: r.key! };
}
const accept = (who: RequestContext, o: Offer) => (dns: DnsService) =>
  dns.transferAccepts.create(who, { zone_transfer_request_id: o.requestId, key: o.key });

/** Types one scenario with its own setup data, then erases it for the list. */
const sc = <D,>(s: Scenario<D>): Scenario<unknown> => s as unknown as Scenario<unknown>;

const SCENARIOS: readonly Scenario<unknown>[] = [
  sc({
    name: 'two accepts of one request by two projects: exactly one succeeds',
    setup: (dns) => offer(dns, pa, 'a.test.'),
    commands: [(dns, o: Offer) => accept(pb, o)(dns), (dns, o: Offer) => accept(pc, o)(dns)],
    invariant: (run) => {
      expect(succeeded(run)).toBe(1);
      expect(failures(run)).toEqual(['400 invalid_zone_transfer_request']);
    },
  }),
  sc({
    name: 'two accepts of one request by the same project: exactly one succeeds',
    setup: (dns) => offer(dns, pa, 'a.test.', 'pb'),
    commands: [(dns, o: Offer) => accept(pb, o)(dns), (dns, o: Offer) => accept(pb, o)(dns)],
    invariant: (run) => expect(succeeded(run)).toBe(1),
  }),
  sc({
    name: 'two creates of one name in one project: one succeeds, the other 409',
    setup: () => Promise.resolve(undefined),
    commands: [(dns) => dns.zones.create(pa, zone('a.test.')), (dns) => dns.zones.create(pa, zone('a.test.'))],
    invariant: (run) => expect(failures(run)).toEqual(['409 duplicate_zone']),
  }),
  sc({
    name: 'two creates of one name in two projects: one succeeds, the other 409',
    setup: () => Promise.resolve(undefined),
    commands: [(dns) => dns.zones.create(pa, zone('a.test.')), (dns) => dns.zones.create(pb, zone('A.test.'))],
    invariant: (run) => expect(failures(run)).toEqual(['409 duplicate_zone']),
  }),
  sc({
    name: 'a zone and a subzone created by two projects: never both',
    setup: () => Promise.resolve(undefined),
    commands: [(dns) => dns.zones.create(pa, zone('a.test.')), (dns) => dns.zones.create(pb, zone('x.a.test.'))],
    invariant: (run) => expect(succeeded(run)).toBe(1),
  }),
  sc({
    name: 'three creates racing the zones quota: never more zones than the quota',
    setup: async (dns) => {
      await unwrap(dns.quotas.set(adminAll, 'pa', { zones: 2 }));
      await unwrap(dns.zones.create(pa, zone('z.test.')));
    },
    commands: [
      (dns) => dns.zones.create(pa, zone('a.test.')),
      (dns) => dns.zones.create(pa, zone('b.test.')),
      (dns) => dns.zones.create(pa, zone('c.test.')),
    ],
    invariant: async (run, dns) => {
      expect(succeeded(run)).toBe(1);
      expect(await zonesOf(dns, 'pa')).toBe(2);
    },
  }),
  sc({
    name: 'two accepts and a create racing the acceptor’s zones quota',
    setup: async (dns) => {
      await unwrap(dns.quotas.set(adminAll, 'pb', { zones: 1 }));
      return [await offer(dns, pa, 'a.test.'), await offer(dns, pa, 'b.test.')];
    },
    commands: [
      (dns, o: Offer[]) => accept(pb, o[0]!)(dns),
      (dns, o: Offer[]) => accept(pb, o[1]!)(dns),
      (dns) => dns.zones.create(pb, zone('c.test.')),
    ],
    invariant: async (run, dns) => {
      expect(succeeded(run)).toBe(1);
      expect(await zonesOf(dns, 'pb')).toBe(1);
    },
  }),
  sc({
    name: 'a delete racing an update of the same zone',
    setup: (dns) => unwrap(dns.zones.create(pa, zone('a.test.'))),
    commands: [(dns, z: { id: string }) => dns.zones.delete(pa, z.id), (dns, z: { id: string }) => dns.zones.update(pa, z.id, { description: 'new' })],
    invariant: async (_run, dns, z: { id: string }) => {
      const gone = await dns.zones.get(pa, z.id);
      expect(gone.isErr() && gone.error.status).toBe(404);
    },
  }),
  sc({
    name: 'two transfer requests for one zone: one succeeds, the other 409',
    setup: (dns) => unwrap(dns.zones.create(pa, zone('a.test.'))),
    commands: [(dns, z: { id: string }) => dns.transferRequests.create(pa, z.id), (dns, z: { id: string }) => dns.transferRequests.create(pa, z.id, { target_project_id: 'pb' })],
    invariant: (run) => expect(failures(run)).toEqual(['409 duplicate_zone_transfer_request']),
  }),
  sc({
    name: 'an accept racing the delete of the zone',
    setup: (dns) => offer(dns, pa, 'a.test.'),
    commands: [(dns, o: Offer) => accept(pb, o)(dns), (dns, o: Offer) => dns.zones.delete(pa, o.zoneId)],
    invariant: () => undefined,
  }),
  sc({
    name: 'an import and a create of one name by two projects: exactly one zone',
    background: true,
    setup: () => Promise.resolve(undefined),
    commands: [(dns) => dns.imports.create(pa, zoneFile('a.test.'), 'text/dns'), (dns) => dns.zones.create(pb, zone('a.test.'))],
    invariant: async (_run, dns) => {
      const all = (await unwrap(dns.zones.list(adminAll, { limit: 'max' }))) as { zones: unknown[] };
      expect(all.zones).toHaveLength(1);
    },
  }),
  sc({
    name: 'two imports of one name in one project: exactly one zone',
    background: true,
    setup: () => Promise.resolve(undefined),
    commands: [(dns) => dns.imports.create(pa, zoneFile('a.test.'), 'text/dns'), (dns) => dns.imports.create(pa, zoneFile('a.test.'), 'text/dns')],
    invariant: async (_run, dns) => {
      const all = (await unwrap(dns.zones.list(adminAll, { limit: 'max' }))) as { zones: unknown[] };
      expect(all.zones).toHaveLength(1);
    },
  }),
];

/** Per-test time limit that grows with the number of runs (the config's 60 s fits the defaults). */
const TIMEOUT = 60_000 + RUNS * 100;

describe.each<[Mode, string]>([
  ['inline', 'the commands run one after another, in every order'],
  ['targets', 'whole transactions (commands and their push tasks) run one after another, in every order'],
])('races with %s pushes: every interleaving ends as if %s', (m) => {
  for (const scenario of SCENARIOS) {
    it(scenario.name, async () => {
      mode = m;
      const serial = await serialRuns(scenario);
      let oracle = serial;
      if (m === 'targets' || scenario.background === true) {
        // A push task may land between another command's steps: the oracle is every order of
        // whole transactions, which holds the command-level serial orders too (checked).
        oracle = await transactionLevelRuns(scenario);
        const keys = new Set(oracle.map((r) => JSON.stringify([r.outcomes, r.snapshot])));
        for (const r of serial) expect(keys.has(JSON.stringify([r.outcomes, r.snapshot]))).toBe(true);
        if (process.env['ZONEWARD_RACE_STATS'] !== undefined) {
          console.log(`${scenario.name}: ${oracle.length} transaction orders, ${new Set(oracle.map((r) => JSON.stringify(r.outcomes))).size} distinct answers`);
        }
      }
      const key = (r: Run): string => JSON.stringify(r.outcomes);
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), async (s) => {
          const { run, dns, data } = await racedRun(scenario, s);
          const match =
            oracle.find((r) => key(r) === key(run) && JSON.stringify(r.snapshot) === JSON.stringify(run.snapshot)) ??
            oracle.find((r) => key(r) === key(run));
          expect(run.outcomes, `not a serial outcome; serial ones: ${JSON.stringify([...new Set(oracle.map(key))])}`).toEqual(
            (match ?? oracle[0]!).outcomes,
          );
          expect(run.snapshot).toEqual(match!.snapshot);
          await scenario.invariant(run, dns, data);
        }),
        { numRuns: RUNS },
      );
    }, TIMEOUT);
  }
});
