/**
 * Proof: a value an adapter hands back that no command wrote (a corrupt row, a foreign one, one
 * filed under another id) never reaches a rule: every command that uses one answers 500
 * `corrupt_value` and changes nothing; a command that uses none (it read none, or only removes
 * what it read) answers exactly as over the clean storage. Never a throw, never a wrong answer.
 *
 * Method: the fixture's state is restored into a fresh memory storage; the command runs through
 * a wrapper that corrupts every value of one collection it hands back (get, range, scan) and
 * counts how many it handed out. For each command × collection × kind of corruption, the
 * outcome is compared with the same command over the clean storage.
 */
import type { ResultAsync } from 'neverthrow';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createDnsService,
  createQuotaService,
  memoryStorage,
  type ApiError,
  type Storage,
  type StorageTransaction,
  type StoredEntry,
} from '../../src/index.js';
import { alice, buildFixture, dnsCommands, fx, options, quotaAdmin, quotaCommands } from './dns-fixture.js';

/** How a stored value is spoiled; `undefined`: this kind does not apply to that value. */
type Corruption = (value: unknown) => unknown;

const CORRUPTIONS: Readonly<Record<string, Corruption>> = {
  'a string': () => 'garbage',
  null: () => null,
  'an array': () => [1, 2],
  // Every field present, one of the wrong type: the first string field becomes a number, or the
  // first number a string.
  'one field of the wrong type': (v) => {
    if (v === null || typeof v !== 'object') return undefined;
    const entries = Object.entries(v);
    const at = entries.findIndex(([, x]) => typeof x === 'string');
    const n = at >= 0 ? at : entries.findIndex(([, x]) => typeof x === 'number');
    if (n < 0) return undefined;
    const [key, x] = entries[n]!;
    return { ...v, [key]: typeof x === 'string' ? 7 : 'seven' };
  },
  // A well-formed value of another entity, handed back under this id.
  'another id': (v) => {
    if (v === null || typeof v !== 'object') return undefined;
    if ('id' in v) return { ...v, id: 'ffffffff-ffff-4fff-8fff-ffffffffffff' };
    if ('project_id' in v) return { ...v, project_id: 'someone-else' };
    return undefined;
  },
};

/**
 * A storage whose transactions hand back `corrupt(value)` for every value of `collection` they
 * read (where the corruption applies), counting them.
 */
function corruptingStorage(inner: Storage, collection: string, corrupt: Corruption): { storage: Storage; handed: () => number } {
  let handed = 0;
  const spoil = (c: string, value: unknown): unknown => {
    if (c !== collection || value === undefined) return value;
    const bad = corrupt(value);
    if (bad === undefined) return value;
    handed += 1;
    return bad;
  };
  const entries = (c: string, list: readonly StoredEntry[]): StoredEntry[] => list.map((e) => ({ ...e, value: spoil(c, e.value) }));
  const wrap = (tx: StorageTransaction): StorageTransaction => ({
    get: async (c, id) => spoil(c, await tx.get(c, id)),
    put: (c, id, v, k) => tx.put(c, id, v, k),
    delete: (c, id) => tx.delete(c, id),
    range: async (c, i, q) => entries(c, await tx.range(c, i, q)),
    count: (c, i, p) => tx.count(c, i, p),
    scan: async (c, a, l) => (await tx.scan(c, a, l)).map((r) => ({ id: r.id, value: spoil(c, r.value) })),
  });
  return { storage: { transaction: (work) => inner.transaction((tx) => work(wrap(tx))) }, handed: () => handed };
}

type Outcome = Awaited<ResultAsync<unknown, ApiError>>;
const settled = (o: Outcome) => (o.isOk() ? { ok: o.value } : { error: { status: o.error.status, type: o.error.type, message: o.error.message } });

const DNS_COLLECTIONS = [
  'dns.zones',
  'dns.recordset_blocks',
  'dns.recordset_owners',
  'dns.transferRequests',
  'dns.transferAccepts',
  'dns.imports',
  'dns.exports',
  'dns.quotas',
  'dns.tasks',
  'dns.meta',
];

beforeAll(buildFixture);

/**
 * Runs `run` over the clean fixture and over the fixture with `collection` corrupted, every kind
 * of corruption in turn, and checks the law. Returns how many runs refused a corrupted value.
 */
async function proveDns(run: (typeof dnsCommands)[number][1], collection: string): Promise<number> {
  const clean = createDnsService({ ...options('c', memoryStorage()), from: fx.snapshot, tasks: 'manual' });
  const reference = settled(await run(clean));
  let reads = 0;
  for (const [kind, corrupt] of Object.entries(CORRUPTIONS)) {
    const inner = memoryStorage();
    const plain = createDnsService({ ...options('', inner), from: fx.snapshot, tasks: 'manual' });
    const before = await plain.snapshot();
    const { storage, handed } = corruptingStorage(inner, collection, corrupt);
    const outcome = await run(createDnsService({ ...options('c', storage), tasks: 'manual' }));
    if (handed() === 0 || outcome.isOk()) {
      // Nothing corrupt was read, or only values the command does not use (a zone's blocks as it
      // removes them): the answer must be the clean one.
      expect(settled(outcome), `${kind}: ${handed()} corrupt value(s) read and not refused, so the answer must be the clean one`).toEqual(reference);
      continue;
    }
    reads += 1;
    expect(outcome.error, `${kind}: ${JSON.stringify(settled(outcome)).slice(0, 300)}`).toMatchObject({ status: 500, type: 'corrupt_value' });
    expect(outcome.error.message).toContain(collection);
    expect(await plain.snapshot(), `${kind}: state changed`).toEqual(before);
  }
  return reads;
}

describe('a corrupt stored value read by a DNS command is a 500 corrupt_value, never a throw or a wrong answer', () => {
  const cases = dnsCommands.flatMap(([name, run]) => DNS_COLLECTIONS.map((c) => [name, c, run] as const));
  const reads = new Map<string, number>();
  it.each(cases)('%s over corrupt %s', async (name, collection, run) => {
    reads.set(`${name}|${collection}`, await proveDns(run, collection));
  });

  // Commands never read the task queue (the runner does: next describe).
  it('reached every collection a command reads: each is refused corrupt by some command', () => {
    for (const c of DNS_COLLECTIONS.filter((name) => name !== 'dns.tasks')) {
      const total = [...reads].filter(([k]) => k.endsWith(`|${c}`)).reduce((n, [, v]) => n + v, 0);
      expect(total, c).toBeGreaterThan(0);
    }
  });
});

describe('a corrupt queued task stays queued and settle() names it', () => {
  it('rejects settle() with the corrupt value, and runs the queue once the value is sound again', async () => {
    const inner = memoryStorage();
    const dns = createDnsService({ ...options('a1', inner), tasks: 'manual' });
    (await dns.exports.create(alice, (await dns.zones.create(alice, { name: 't.com.', email: 'h@t.com' }))._unsafeUnwrap().id))._unsafeUnwrap();
    const { storage } = corruptingStorage(inner, 'dns.tasks', CORRUPTIONS['one field of the wrong type']!);
    const spoiled = createDnsService({ ...options('b2', storage), from: await dns.snapshot(), tasks: 'manual' });
    await expect(spoiled.tasks.settle()).rejects.toThrow(/dns\.tasks\/.*not one it stores/);
    expect(spoiled.tasks.pending()).toBeGreaterThan(0);
    await dns.tasks.settle(); // the same queue over the sound storage
    expect(dns.tasks.pending()).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Quota service

describe('a corrupt stored record read by a quota command is a 500 in Barbican\'s shape, never a wrong answer', () => {
  it.each(quotaCommands)('%s', async (_name, run) => {
    const base = createQuotaService();
    for (const p of ['p1', 'p2', 'p3']) (await base.projectQuotas.set(quotaAdmin, p, { project_quotas: { secrets: 2, orders: 3 } }))._unsafeUnwrap();
    const from = await base.snapshot();
    const reference = settled(await run(createQuotaService({ from })));
    let reads = 0;
    for (const [kind, corrupt] of Object.entries(CORRUPTIONS)) {
      const inner = memoryStorage();
      const plain = createQuotaService({ storage: inner, from });
      const before = await plain.snapshot();
      const { storage, handed } = corruptingStorage(inner, 'quotas.project_quotas', corrupt);
      const outcome = await run(createQuotaService({ storage }));
      if (handed() === 0) {
        expect(settled(outcome), kind).toEqual(reference);
        continue;
      }
      reads += 1;
      expect(outcome.isErr() && outcome.error, kind).toMatchObject({ status: 500, type: 'corrupt_value' });
      expect(outcome.isErr() && outcome.error.toJSON()).toMatchObject({ code: 500, title: 'Internal Server Error' });
      expect(await plain.snapshot(), kind).toEqual(before);
    }
    // projectQuotas.delete reads nothing back; every other command reads the record it serves.
    if (_name !== 'projectQuotas.delete') expect(reads).toBeGreaterThan(0);
  });
});
