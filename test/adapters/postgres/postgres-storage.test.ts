import { fc } from '@fast-check/vitest';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryStorage, type IndexKeys, type RangeQuery, type Storage } from '../../../src/index.js';
import { insert } from '../../../src/ports/storage.js';
import { rangeQuery } from '../memory/range-queries.js';
import { postgresStorage } from '../../../src/adapters/postgres/index.js';
import { runStorageConformance } from '../../../src/testing/index.js';
import { freshPostgresStorage, freshSchemaName, latch, postgresRequirement, PG_URL, testPool } from './helpers.js';
import { describeWith } from '../../support/requires.js';

const frozen = <T extends object>(v: T): T => Object.freeze(v);
const code = (e: unknown): unknown => (e as { code?: unknown }).code;
/** Text that TOAST cannot compress below the B-tree's 2,704-byte entry limit. */
const incompressible = (length: number): string => Array.from({ length }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join('');

describeWith(postgresRequirement, 'postgresStorage: conformance', () => {
  runStorageConformance(() => freshPostgresStorage());
});

describeWith(postgresRequirement, 'postgresStorage: behaves like memoryStorage', () => {
  // Keys and ids drawn from the code units where byte, code-point and UTF-16 orders part ways.
  const unit = fc.constantFrom('\u0000', '\u0001', 'a', 'b', '\u00e9', '\uffff', '\ud800', '\udc00', '😀');
  const str = fc.string({ unit, maxLength: 4 });
  const op = fc.oneof(
    fc.record({ kind: fc.constant('put' as const), id: str, i: fc.option(str, { nil: undefined }), j: fc.option(str, { nil: undefined }), v: fc.integer() }),
    fc.record({ kind: fc.constant('delete' as const), id: str }),
    // Through the adapter's insert: answered at once, sent as the create statement, whose counts
    // the adapter works out itself.
    fc.record({ kind: fc.constant('insert' as const), id: str, i: fc.option(str, { nil: undefined }), j: fc.option(str, { nil: undefined }), v: fc.integer() }),
  );
  const query = rangeQuery(str);

  it('answers every range, count and scan as the reference does, after any puts, inserts and deletes', async () => {
    const schema = freshSchemaName();
    const pgStorage = postgresStorage({ pool: testPool(), schema });
    await pgStorage.migrate();
    // Collections ending in 0 keep counts (whole index and first tuple part of `i`, whole `j`), those in 2
    // the first part of `i`, so both ways of counting answer as the reference does.
    await testPool().query(
      `INSERT INTO "${schema}".zoneward_counted VALUES ('%0', 'i', 0), ('%0', 'i', 1), ('%0', 'j', 0), ('%2', 'i', 1)`,
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), fc.array(query, { minLength: 1, maxLength: 6 }), str, async (ops, queries, prefix) => {
        const collection = `c${run++}`; // one collection per run: no schema to create each time
        const apply = async (s: Storage) => {
          const deleted: boolean[] = [];
          const inserted: boolean[] = [];
          await s.transaction(async (tx) => {
            deleted.length = inserted.length = 0; // a re-run (an insert answered wrongly) starts over
            for (const o of ops) {
              if (o.kind === 'put') await tx.put(collection, o.id, frozen({ v: o.v, text: o.id }), { i: o.i, j: o.j } satisfies IndexKeys);
              else if (o.kind === 'insert') inserted.push(await insert(tx, collection, o.id, frozen({ v: o.v, text: o.id }), { i: o.i, j: o.j }));
              else deleted.push(await tx.delete(collection, o.id));
            }
          });
          return s.transaction(async (tx) => ({
            deleted,
            inserted,
            ranges: await Promise.all(queries.map((q: RangeQuery) => tx.range(collection, 'i', q))),
            count: await tx.count(collection, 'i', prefix),
            countJ: await tx.count(collection, 'j'),
            scan: [...(await tx.scan(collection, undefined, 3)), ...(await tx.scan(collection, prefix, 100))],
          }));
        };
        expect(await apply(pgStorage)).toEqual(await apply(memoryStorage()));
      }),
      { numRuns: 60 },
    );
  });
});

describeWith(postgresRequirement, 'postgresStorage: adapter specifics', () => {
  it('round-trips values the core could never send but JSON can: U+0000 and lone surrogates', async () => {
    const s = await freshPostgresStorage();
    const value = frozen({ nul: 'a\u0000b', lone: '\ud800', pair: '😀', nested: frozen([frozen({ n: 1.5 }), null, true]) });
    await s.transaction((tx) => tx.put('c', 'id\u0000\udc00', value, { i: 'k\u0000\ud800' }));
    await s.transaction(async (tx) => {
      const read = await tx.get('c', 'id\u0000\udc00');
      expect(read).toEqual(value);
      expect(Object.isFrozen(read) && Object.isFrozen((read as typeof value).nested[0])).toBe(true);
      expect(await tx.range('c', 'i')).toEqual([{ key: 'k\u0000\ud800', id: 'id\u0000\udc00', value }]);
    });
  });

  it('refuses a value JSON cannot hold, and keeps nothing of that transaction', async () => {
    const s = await freshPostgresStorage();
    await expect(
      s.transaction(async (tx) => {
        await tx.put('c', 'a', frozen({ ok: true }), {});
        await tx.put('c', 'b', undefined, {});
      }),
    ).rejects.toThrow(/not JSON-serialisable/);
    expect(await s.transaction((tx) => tx.scan('c', undefined, 10))).toEqual([]);
  });

  it('rewrites only the index entries whose key changed', async () => {
    const schema = freshSchemaName();
    const s = postgresStorage({ pool: testPool(), schema });
    await s.migrate();
    await s.transaction((tx) => tx.put('c', 'a', frozen({ v: 1 }), { i: 'same', j: 'old' }));
    // xmin is the transaction that wrote a row version: an entry left alone keeps it.
    const versions = async (): Promise<Record<string, string>> => {
      const rows = await testPool().query<{ index_name: string; key: string; xmin: string }>(
        `SELECT index_name, convert_from(key, 'UTF8') AS key, xmin::text AS xmin FROM "${schema}".zoneward_index`,
      );
      return Object.fromEntries(rows.rows.map((r) => [`${r.index_name}=${r.key}`, r.xmin]));
    };
    const before = await versions();
    await s.transaction((tx) => tx.put('c', 'a', frozen({ v: 2 }), { i: 'same', j: 'new' }));
    const after = await versions();
    expect(Object.keys(after).sort()).toEqual(['i=same', 'j=new']);
    expect(after['i=same']).toBe(before['i=same']);
    expect(after['j=new']).not.toBe(before['j=old']);
  });

  it('never runs a statement of an ended transaction outside it', async () => {
    const s = await freshPostgresStorage();
    const late: Promise<unknown>[] = [];
    await expect(
      s.transaction(async (tx) => {
        // Several statements in flight at once, then a rejection before they are all sent.
        for (let k = 0; k < 20; k++) late.push(tx.put('c', `id${k}`, frozen({ k }), { i: 'k' }).catch((e: unknown) => e));
        await Promise.resolve();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await Promise.allSettled(late);
    expect(await s.transaction((tx) => tx.count('c', 'i'))).toBe(0);
  });

  it('retries a serialization failure from scratch, and passes it on when out of attempts', async () => {
    for (const attempts of [30, 1]) {
      const s = await freshPostgresStorage({ retry: { attempts, baseDelayMs: 1 } });
      await s.transaction((tx) => tx.put('c', 'n', frozen({ n: 0 }), {}));
      // Both read before either writes, so PostgreSQL must abort one of them (SQLSTATE 40001).
      let arrived = 0;
      const bothRead = latch();
      let runs = 0;
      const bump = () =>
        s.transaction(async (tx) => {
          runs++;
          const { n } = (await tx.get('c', 'n')) as { n: number };
          if (++arrived === 2) bothRead.open();
          await bothRead.opened;
          await tx.put('c', 'n', frozen({ n: n + 1 }), {});
        });
      const results = await Promise.allSettled([bump(), bump()]);
      const final = (await s.transaction((tx) => tx.get('c', 'n'))) as { n: number };
      if (attempts === 30) {
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
        expect(runs).toBe(3);
        expect(final.n).toBe(2);
      } else {
        expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        const failure = results.find((r) => r.status === 'rejected')!;
        expect(code(failure.reason)).toBe('40001');
        expect(runs).toBe(2);
        expect(final.n).toBe(1);
      }
    }
  });

  it('runs a transaction alone once it lost enough times, so contention cannot fail it', async () => {
    const retries: string[] = [];
    const s = await freshPostgresStorage({ retry: { attempts: 2, aloneFromAttempt: 2, baseDelayMs: 1 }, onRetry: (n, c) => retries.push(`${n}:${c}`) });
    await s.transaction((tx) => tx.put('c', 'n', frozen({ n: 0 }), {}));
    const bump = () =>
      s.transaction(async (tx) => {
        const { n } = (await tx.get('c', 'n')) as { n: number };
        await new Promise((r) => setTimeout(r, 5)); // a window for the others to read the same n
        await tx.put('c', 'n', frozen({ n: n + 1 }), {});
      });
    await Promise.all(Array.from({ length: 6 }, bump)); // 2 attempts each: the second one alone
    expect(await s.transaction((tx) => tx.get('c', 'n'))).toEqual({ n: 6 });
    expect(retries.length).toBeGreaterThan(0);
    expect(new Set(retries)).toEqual(new Set(['1:40001']));
    // Every advisory lock was given back (a leaked one would block the next alone transaction forever).
    const held = await testPool().query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted");
    expect(held.rows).toEqual([{ n: 0 }]);
  });

  // A transaction whose work never ends, on `hungStorage`; resolves once it holds its locks.
  const hang = async (hungStorage: Storage) => {
    const gate = latch();
    const holding = latch();
    const done = hungStorage.transaction(async (tx) => {
      await tx.put('c', 'hung', frozen({}), {});
      await tx.get('c', 'hung'); // sent: the transaction holds its lock now
      holding.open();
      await gate.opened;
      await tx.get('c', 'hung');
    });
    await holding.opened;
    return { release: gate.open, done };
  };

  it('gives up running alone after aloneWaitMs when another transaction never ends', async () => {
    const schema = freshSchemaName();
    const normal = postgresStorage({ pool: testPool(), schema });
    await normal.migrate();
    const eager = postgresStorage({ pool: testPool(), schema, retry: { aloneFromAttempt: 1, aloneWaitMs: 300 } });
    const hung = await hang(normal);
    const t0 = Date.now();
    await eager.transaction((tx) => tx.put('c', 'other', frozen({}), {}));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    hung.release();
    await hung.done;
    expect((await normal.transaction((tx) => tx.scan('c', undefined, 10))).map((r) => r.id)).toEqual(['hung', 'other']);
  });

  it('ends a transaction running alone that hangs, so the others go on', async () => {
    const schema = freshSchemaName();
    const normal = postgresStorage({ pool: testPool(), schema });
    await normal.migrate();
    const eager = postgresStorage({ pool: testPool(), schema, retry: { aloneFromAttempt: 1, aloneWaitMs: 300 } });
    const hung = await hang(eager);
    const t0 = Date.now();
    await normal.transaction((tx) => tx.put('c', 'other', frozen({}), {}));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    hung.release();
    await expect(hung.done).rejects.toThrow();
    expect((await normal.transaction((tx) => tx.scan('c', undefined, 10))).map((r) => r.id)).toEqual(['other']);
  });

  describe('named locks', () => {
    // Connections of their own, told apart in pg_locks by name: other test files run meanwhile.
    const app = `zw-locks-${process.pid}`;
    let own: pg.Pool | undefined;
    const lockPool = (): pg.Pool => {
      if (own === undefined) {
        own = new pg.Pool({ connectionString: PG_URL, max: 4, application_name: app });
        own.on('error', () => undefined);
      }
      return own;
    };
    afterAll(async () => own?.end());
    const fresh = async () => {
      const storage = postgresStorage({ pool: lockPool(), schema: freshSchemaName() });
      await storage.migrate();
      return storage;
    };
    const held = (mode: string) => async (): Promise<number> =>
      (
        await testPool().query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE a.application_name = $1 AND l.granted AND ${mode}`,
          [app],
        )
      ).rows[0]!.n;
    const advisoryHeld = held("l.locktype = 'advisory'");
    const siReadLocks = held("l.mode = 'SIReadLock'");

    // The first holds the lock and writes, then waits; the second asks for the lock (before or
    // after a read of its own) and reads: it must see the first one's write, whatever its snapshot.
    for (const [label, readFirst, covering] of [
      ['asked for first, covering (REPEATABLE READ)', false, true],
      ['asked for first, not covering (SERIALIZABLE)', false, false],
      ['asked for after a read (the work runs again, lock first)', true, false],
    ] as const) {
      it(`a reader after the lock sees what the previous holder wrote: ${label}`, async () => {
        const s = await fresh();
        await s.transaction((tx) => tx.put('c', 'n', frozen({ n: 0 }), {}));
        const gate = latch();
        const held = latch();
        const first = s.transaction(async (tx) => {
          await tx.lock!([{ name: 'example.com.', exclusive: true }], true);
          await tx.get('c', 'n'); // sent: the lock is held now
          await tx.put('c', 'n', frozen({ n: 1 }), {});
          held.open();
          await gate.opened;
        });
        await held.opened;
        let runs = 0;
        const second = s.transaction(async (tx) => {
          runs++;
          if (readFirst) await tx.get('c', 'other');
          await tx.lock!([{ name: 'example.com.', exclusive: false }], covering);
          return tx.get('c', 'n');
        });
        await new Promise((r) => setTimeout(r, 100));
        gate.open();
        await first;
        expect(await second).toEqual({ n: 1 });
        expect(runs).toBe(readFirst ? 2 : 1);
        expect(await advisoryHeld()).toBe(0);
      });
    }

    it('runs a covering transaction again at REPEATABLE READ when it rewrites a row it read, so no change is lost', async () => {
      const s = await fresh();
      await s.transaction((tx) => tx.put('c', 'n', frozen({ n: 0 }), {}));
      const gate = latch();
      const read = latch();
      let runs = 0;
      // Reads n under a covering lock, waits while another transaction (no lock: n is not what the
      // lock guards) adds 10, then writes n + 1. At READ COMMITTED that write would drop the 10.
      const covering = s.transaction(async (tx) => {
        runs++;
        await tx.lock!([{ name: 'example.com.', exclusive: true }], true);
        const { n } = (await tx.get('c', 'n')) as { n: number };
        read.open();
        await gate.opened;
        await tx.put('c', 'n', frozen({ n: n + 1 }), {});
      });
      await read.opened;
      await s.transaction(async (tx) => {
        const { n } = (await tx.get('c', 'n')) as { n: number };
        await tx.put('c', 'n', frozen({ n: n + 10 }), {});
      });
      gate.open();
      await covering;
      expect(await s.transaction((tx) => tx.get('c', 'n'))).toEqual({ n: 11 });
      expect(runs).toBe(2);
      // A row it inserted itself, it may rewrite at READ COMMITTED: one run.
      runs = 0;
      await s.transaction(async (tx) => {
        runs++;
        await tx.lock!([{ name: 'example.com.', exclusive: true }], true);
        await tx.get('c', 'n');
        await insert(tx, 'c', 'fresh', frozen({ n: 1 }), { i: 'a' });
        await tx.get('c', 'fresh'); // the insert is sent: no longer just buffered
        await tx.put('c', 'fresh', frozen({ n: 2 }), { i: 'b' });
      });
      expect(runs).toBe(1);
      expect(await s.transaction((tx) => tx.range('c', 'i'))).toEqual([{ key: 'b', id: 'fresh', value: { n: 2 } }]);
      expect(await advisoryHeld()).toBe(0);
    });

    it('shared locks do not wait for each other; a covering transaction takes no predicate locks, another does', async () => {
      const s = await fresh();
      await s.transaction((tx) => tx.put('c', 'a', frozen({}), { i: 'k' }));
      const observed: number[] = [];
      const inside = (covering: boolean) =>
        s.transaction(async (tx) => {
          await tx.lock!([{ name: 'com.', exclusive: false }], covering);
          await tx.range('c', 'i', { prefix: 'k' });
          observed.push(await siReadLocks());
        });
      const gate = latch();
      const holder = s.transaction(async (tx) => {
        await tx.lock!([{ name: 'com.', exclusive: false }], true);
        await tx.get('c', 'a');
        await gate.opened;
      });
      await inside(true); // would wait forever if shared locks conflicted
      gate.open();
      await holder;
      await inside(false);
      expect(observed[0]).toBe(0);
      expect(observed[1]).toBeGreaterThan(0);
    });

    it('gives every lock back after a commit, a rollback and a failed statement', async () => {
      const s = await fresh();
      const locks = [
        { name: 'a', exclusive: true },
        { name: 'b', exclusive: false },
      ];
      await s.transaction(async (tx) => {
        await tx.lock!(locks, true);
        await tx.put('c', 'x', frozen({}), {});
      });
      expect(await advisoryHeld()).toBe(0);
      await expect(
        s.transaction(async (tx) => {
          await tx.lock!(locks);
          await tx.get('c', 'x');
          throw new Error('work failed');
        }),
      ).rejects.toThrow('work failed');
      expect(await advisoryHeld()).toBe(0);
      await expect(
        s.transaction(async (tx) => {
          await tx.lock!(locks);
          await tx.put('c', 'bad', frozen({}), { ['bad\u0000index']: 'k' });
        }),
      ).rejects.toThrow();
      expect(await advisoryHeld()).toBe(0);
    });
  });

  it('does not commit when work swallows a failed statement', async () => {
    const s = await freshPostgresStorage();
    await expect(
      s.transaction(async (tx) => {
        await tx.put('c', 'a', frozen({ n: 1 }), {});
        // Over the B-tree's entry size: the put fails on the server, in the get's message, and
        // aborts the transaction.
        await tx.put('c', 'b', frozen({ n: 2 }), { i: incompressible(9000) });
        await tx.get('c', 'x').catch(() => undefined);
        return 'looks fine';
      }),
    ).rejects.toMatchObject({ code: '54000' });
    expect(await s.transaction((tx) => tx.get('c', 'a'))).toBeUndefined();
  });

  it('sends buffered puts in batches: many at once, the last put of an id wins, reads see them', async () => {
    const s = await freshPostgresStorage();
    await s.transaction(async (tx) => {
      for (let n = 0; n < 1200; n++) await tx.put('c', `id${String(n).padStart(4, '0')}`, frozen({ n }), { i: `k${n % 7}` });
      await tx.put('c', 'id0003', frozen({ n: -3 }), { j: 'moved' });
      expect(await tx.count('c', 'i')).toBe(1199);
      expect(await tx.get('c', 'id0003')).toEqual({ n: -3 });
    });
    await s.transaction(async (tx) => {
      expect(await tx.count('c', 'i', 'k3')).toBe(170); // 171 values have n % 7 === 3, id0003 moved to j
      expect(await tx.range('c', 'j')).toEqual([{ key: 'moved', id: 'id0003', value: { n: -3 } }]);
      expect((await tx.scan('c', 'id1197', 10)).map((r) => r.id)).toEqual(['id1198', 'id1199']);
    });
  });

  it('sends a large buffer of puts as bound arrays (a snapshot restore): same answers, and a failure keeps nothing', async () => {
    const s = await freshPostgresStorage();
    const ids = (n: number) => `r${String(n).padStart(5, '0')}`;
    await s.transaction(async (tx) => {
      // More than one bound statement's worth, sent while `work` is still putting.
      for (let n = 0; n < 9000; n++) await tx.put('c', ids(n), frozen({ n }), { i: `k${n % 3}\u0000${n}` });
      await tx.put('c', ids(5), frozen({ n: -5 }), { j: 'moved' });
      expect(await tx.count('c', 'i', 'k1\u0000')).toBe(3000);
    });
    await s.transaction(async (tx) => {
      expect(await tx.count('c', 'i')).toBe(8999);
      expect(await tx.get('c', ids(8999))).toEqual({ n: 8999 });
      expect(await tx.range('c', 'j')).toEqual([{ key: 'moved', id: ids(5), value: { n: -5 } }]);
    });
    await expect(
      s.transaction(async (tx) => {
        for (let n = 0; n < 300; n++) await tx.put('d', ids(n), frozen({ n }), n === 150 ? { i: incompressible(9000) } : {});
        return tx.get('d', ids(0)); // the bound statement before it failed
      }),
    ).rejects.toMatchObject({ code: '54000' });
    expect(await s.transaction((tx) => tx.scan('d', undefined, 10))).toEqual([]);
  });

  it('answers an insert at once and checks the id with the next message; a taken id re-runs work, which then hears false', async () => {
    const s = await freshPostgresStorage();
    await s.transaction((tx) => tx.put('c', 'a', frozen({ n: 1 }), { i: 'x' }));
    const heard: boolean[] = [];
    const answer = await s.transaction(async (tx) => {
      const inserted = await tx.insert!('c', 'a', frozen({ n: 2 }), { i: 'y' });
      heard.push(inserted);
      // What a caller does with a wrong `true` (here: fail) must not be the transaction's answer.
      if (inserted) throw new Error('believed the insert');
      return tx.get('c', 'a');
    });
    expect(heard).toEqual([true, false]);
    expect(answer).toEqual({ n: 1 });
    expect(await s.transaction((tx) => tx.range('c', 'i'))).toEqual([{ key: 'x', id: 'a', value: { n: 1 } }]);
    // A wrong `true` that work commits on: the COMMIT fails, work runs again and hears false.
    heard.length = 0;
    await s.transaction(async (tx) => {
      heard.push(await tx.insert!('c', 'a', frozen({ n: 3 }), {}));
      await tx.put('c', 'b', frozen({ n: 4 }), {});
    });
    expect(heard).toEqual([true, false]);
    expect(await s.transaction((tx) => tx.get('c', 'a'))).toEqual({ n: 1 });
    expect(await s.transaction((tx) => tx.get('c', 'b'))).toEqual({ n: 4 });
    // A free id: one run, inserted with its entries and counted; an id put earlier in the same
    // transaction (still buffered) is taken.
    heard.length = 0;
    await s.transaction(async (tx) => {
      heard.push(await tx.insert!('c', 'n', frozen({ n: 5 }), { i: 'z' }));
      heard.push(await tx.insert!('c', 'n', frozen({ n: 6 }), { i: 'w' }));
      await tx.put('c', 'n', frozen({ n: 7 }), { i: 'v' }); // still an insert: the id was free
    });
    expect(heard).toEqual([true, false]);
    expect(await s.transaction((tx) => tx.range('c', 'i', { prefix: 'v' }))).toEqual([{ key: 'v', id: 'n', value: { n: 7 } }]);
    expect(await s.transaction((tx) => tx.count('c', 'i'))).toBe(2);
  });

  it('rejects the transaction when a buffered put fails only at commit, and keeps nothing', async () => {
    const s = await freshPostgresStorage();
    await expect(
      s.transaction(async (tx) => {
        await tx.put('c', 'a', frozen({ n: 1 }), {});
        await tx.put('c', 'b', frozen({ n: 2 }), { i: incompressible(9000) }); // resolves: it is only buffered
        return 'done';
      }),
    ).rejects.toMatchObject({ code: '54000' });
    expect(await s.transaction((tx) => tx.get('c', 'a'))).toBeUndefined();
  });

  it('refuses a pool in pipeline mode with a clear error, and keeps working with the next pool', async () => {
    const schema = freshSchemaName();
    const piped = new pg.Pool({ connectionString: PG_URL, max: 1, pipeline: true });
    const plain = new pg.Pool({ connectionString: PG_URL, max: 1 });
    try {
      const storage = postgresStorage({ pool: plain, schema });
      await storage.migrate();
      await expect(postgresStorage({ pool: piped, schema }).transaction((tx) => tx.get('c', 'a'))).rejects.toThrow(/zoneward\/postgres: the pool's connections are in pipeline mode/);
      await storage.transaction((tx) => tx.put('c', 'a', frozen({ n: 1 }), {}));
      expect(await storage.transaction((tx) => tx.get('c', 'a'))).toEqual({ n: 1 });
    } finally {
      await Promise.all([piped.end(), plain.end()]);
    }
  });

  it('refuses a pool whose clients have no wire connection (pg-native) with a clear error, and drops the client', async () => {
    let released: unknown = 'not released';
    const client = { on() {}, off() {}, query: () => Promise.reject(new Error('no statement expected')), release: (e?: unknown) => void (released = e) };
    const pool = { query: () => Promise.resolve({ rows: [] }), connect: () => Promise.resolve(client), on() {} } as unknown as pg.Pool;
    await expect(postgresStorage({ pool }).transaction((tx) => tx.get('c', 'a'))).rejects.toThrow(/zoneward\/postgres: the pool's clients are not pg's JavaScript client/);
    expect(released).toBeInstanceOf(Error); // destroyed, not handed back for reuse
  });

  it('does not count a statement as prepared when the message preparing it was never sent', async () => {
    const schema = freshSchemaName();
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    const retried: string[] = [];
    try {
      const s = postgresStorage({ pool, schema, onRetry: (_, code) => retried.push(code) });
      await s.migrate();
      await expect(
        s.transaction(async (tx) => {
          await tx.get('bad\u0000collection', 'x').catch(() => undefined); // fails the attempt; nothing is sent
          await tx.count('c', 'i').catch(() => undefined); // so this is never sent either
          return 'swallowed';
        }),
      ).rejects.toThrow(/U\+0000/);
      // The same connection: had the count's statement been taken as prepared, this would fail
      // (26000) and be retried on a new connection.
      expect(await s.transaction((tx) => tx.count('c', 'i'))).toBe(0);
      expect(retried).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('shares a pool with another storage of the schema, and recovers a connection whose statements were dropped', async () => {
    const schema = freshSchemaName();
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    try {
      const one = postgresStorage({ pool, schema });
      const two = postgresStorage({ pool, schema });
      await one.migrate();
      await one.transaction((tx) => tx.put('c', 'a', frozen({ n: 1 }), { i: 'k\u0000' }));
      expect(await two.transaction((tx) => tx.get('c', 'a'))).toEqual({ n: 1 });
      await pool.query('DEALLOCATE ALL'); // what a pooler's DISCARD ALL does behind our back
      expect(await one.transaction((tx) => tx.count('c', 'i'))).toBe(1);
      expect(await two.transaction((tx) => tx.range('c', 'i', { prefix: 'k\u0000' }))).toHaveLength(1);
    } finally {
      await pool.end();
    }
  });

  it('refuses names PostgreSQL text cannot hold, at once, and keeps nothing', async () => {
    const s = await freshPostgresStorage();
    const nul = /names cannot contain U\+0000/;
    await expect(
      s.transaction(async (tx) => {
        await tx.put('c', 'a', frozen({ n: 1 }), {});
        await expect(tx.put('bad\u0000collection', 'b', frozen({ n: 2 }), {})).rejects.toThrow(nul);
        await expect(tx.put('c', 'b', frozen({ n: 2 }), { 'bad\u0000index': 'k' })).rejects.toThrow(nul);
        await tx.get('bad\u0000collection', 'x').catch(() => undefined); // swallowed: the commit still refuses
        return 'looks fine';
      }),
    ).rejects.toThrow(nul);
    expect(await s.transaction((tx) => tx.get('c', 'a'))).toBeUndefined();
  });

  it('refuses a transaction used after it ended', async () => {
    const s = await freshPostgresStorage();
    let leaked: Parameters<Parameters<Storage['transaction']>[0]>[0] | undefined;
    await s.transaction((tx) => {
      leaked = tx;
      return Promise.resolve();
    });
    await expect(leaked!.get('c', 'a')).rejects.toThrow('used after it ended');
  });

  it('survives its connection dying mid-transaction: rejects, then works on a new connection', async () => {
    const s = await freshPostgresStorage();
    const pool = testPool();
    const killed = s.transaction(async (tx) => {
      await tx.put('c', 'a', frozen({ n: 1 }), {});
      const pid = await pool.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' AND datname = current_database() ORDER BY xact_start DESC LIMIT 1",
      );
      await pool.query('SELECT pg_terminate_backend($1)', [pid.rows[0]!.pid]);
      await tx.get('c', 'a');
    });
    await expect(killed).rejects.toThrow();
    for (let k = 0; k < 10; k++) expect(await s.transaction((tx) => tx.get('c', 'a'))).toBeUndefined();
  });

  it('says to call migrate() when the tables are missing', async () => {
    const s = postgresStorage({ pool: testPool(), schema: freshSchemaName() });
    await expect(s.transaction((tx) => tx.get('c', 'a'))).rejects.toThrow(/call migrate\(\) first/);
  });

  it('migrates once when several processes start together, and again is a no-op', async () => {
    const schema = freshSchemaName();
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: PG_URL, max: 1 }));
    try {
      await Promise.all(pools.map((pool) => postgresStorage({ pool, schema }).migrate()));
      await postgresStorage({ pool: pools[0]!, schema }).migrate();
      const applied = await pools[0]!.query(`SELECT version FROM "${schema}".zoneward_migrations`);
      expect(applied.rows).toEqual([{ version: 1 }, { version: 2 }]);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('refuses a schema newer than the code', async () => {
    const schema = freshSchemaName();
    const s = postgresStorage({ pool: testPool(), schema });
    await s.migrate();
    await testPool().query(`INSERT INTO "${schema}".zoneward_migrations (version, name) VALUES (99, 'from the future')`);
    await expect(s.migrate()).rejects.toThrow(/schema is version 99, newer than this code/);
  });

  it('ends the pool it opened on close, but not a pool it was given', async () => {
    const own = postgresStorage({ connectionString: PG_URL!, schema: freshSchemaName() });
    await own.migrate();
    await own.close();
    await expect(own.transaction((tx) => tx.get('c', 'a'))).rejects.toThrow('closed');
    await own.close(); // twice is fine

    const given = await freshPostgresStorage();
    await given.close();
    expect((await testPool().query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('keeps working when the host changed pg\'s global type parsers', async () => {
    const s = await freshPostgresStorage();
    const original = pg.types.getTypeParser(114);
    pg.types.setTypeParser(114, () => 'hijacked');
    pg.types.setTypeParser(17, () => 'hijacked');
    try {
      await s.transaction((tx) => tx.put('c', 'a', frozen({ n: 1 }), { i: 'k' }));
      expect(await s.transaction((tx) => tx.range('c', 'i'))).toEqual([{ key: 'k', id: 'a', value: { n: 1 } }]);
    } finally {
      pg.types.setTypeParser(114, original);
      pg.types.setTypeParser(17, pg.types.getTypeParser(17, 'binary') as never);
    }
  });

  it('holds the socket writes of concurrent transactions until the turn ends, through the driver\'s stream', async () => {
    // The batching reaches into pg (client.connection.stream): a driver release that moves it
    // would silently turn it off, so this says so.
    const client = await testPool().connect();
    try {
      const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } }).connection?.stream;
      expect(typeof stream?.cork).toBe('function');
      expect(typeof stream?.uncork).toBe('function');
    } finally {
      client.release();
    }
    // And concurrent transactions still each get their own answers.
    const s = await freshPostgresStorage();
    const ids = Array.from({ length: 12 }, (_, n) => `id${n}`);
    await Promise.all(ids.map((id, n) => s.transaction((tx) => tx.put('c', id, frozen({ n }), { i: `k${n % 3}` }))));
    const read = await Promise.all(ids.map((id) => s.transaction(async (tx) => [await tx.get('c', id), await tx.count('c', 'i', 'k1')])));
    expect(read).toEqual(ids.map((_, n) => [{ n }, 4]));
  });
});
