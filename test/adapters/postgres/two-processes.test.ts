import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { Result } from 'neverthrow';
import { createDnsService, type ApiError } from '../../../src/index.js';
import { postgresStorage } from '../../../src/adapters/postgres/index.js';
import { freshSchemaName, postgresRequirement, PG_URL, testPool } from './helpers.js';
import { describeWith } from '../../support/requires.js';

/** `_unsafeUnwrap`, but a failure shows the ApiError itself. */
const unwrap = <T>(r: Result<T, ApiError>): T => {
  if (r.isErr()) throw r.error;
  return r.value;
};

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
type Outcome = { name: string; ok: boolean; id?: string; type?: string };

/** Starts one worker process per argument set, releases them together, returns their outcomes. */
async function race(workers: readonly object[]): Promise<Outcome[][]> {
  const procs = workers.map((args) =>
    spawn(process.execPath, ['--import', 'tsx', join(here, 'race-worker.ts'), JSON.stringify(args)], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  const stderr = procs.map((p) => {
    let text = '';
    p.stderr.on('data', (d: Buffer) => (text += d.toString()));
    return () => text;
  });
  const lines = procs.map((p) => createInterface({ input: p.stdout })[Symbol.asyncIterator]());
  const next = async (k: number): Promise<string> => {
    const line = await lines[k]!.next();
    if (line.done === true) throw new Error(`worker ${k} ended early: ${stderr[k]!()}`);
    return line.value;
  };
  expect(await Promise.all(procs.map((_, k) => next(k)))).toEqual(procs.map(() => 'ready'));
  for (const p of procs) p.stdin.end('go\n');
  const reports = await Promise.all(procs.map(async (_, k) => JSON.parse(await next(k)) as { started: number; ended: number; outcomes: Outcome[] }));
  // The commands of the processes really ran at the same time (else this proves nothing).
  expect(Math.max(...reports.map((r) => r.started))).toBeLessThan(Math.min(...reports.map((r) => r.ended)));
  await Promise.all(procs.map((p) => new Promise((resolve) => (p.exitCode === null ? p.once('exit', resolve) : resolve(undefined)))));
  expect(procs.map((p) => p.exitCode)).toEqual(procs.map(() => 0));
  return reports.map((r) => r.outcomes);
}

const shuffle = <T>(xs: readonly T[], seed: number): T[] => {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

describeWith(postgresRequirement, 'two processes on one database', () => {
  it('creates of the same names from two processes: exactly one wins each name, the other gets 409 duplicate_zone', async () => {
    const schema = freshSchemaName();
    await postgresStorage({ pool: testPool(), schema }).migrate();
    const names = Array.from({ length: 15 }, (_, n) => `same${n}.com.`);
    const worker = (seed: number) => ({ url: PG_URL, schema, project: 'alice', names: shuffle(names, seed), zonesQuota: 100, tasks: 'manual' });
    const [a, b] = await race([worker(1), worker(2)]);
    for (const name of names) {
      const both = [...a!, ...b!].filter((o) => o.name === name);
      expect(both.filter((o) => o.ok), name).toHaveLength(1);
      expect(both.filter((o) => !o.ok).map((o) => o.type), name).toEqual(['duplicate_zone']);
    }
    const dns = createDnsService({ storage: postgresStorage({ pool: testPool(), schema }), tasks: 'manual' });
    const listed = (await dns.zones.list({ projectId: 'alice', roles: ['member'] }, { limit: '100' }))._unsafeUnwrap() as { zones: { id: string; name: string }[] };
    expect(listed.zones.map((z) => z.name).sort()).toEqual([...names].sort());
    const winners = [...a!, ...b!].filter((o) => o.ok).map((o) => o.id).sort();
    expect(listed.zones.map((z) => z.id).sort()).toEqual(winners);
  });

  it('creates racing the zones quota from two processes: exactly the quota is created, the rest are 413 over_quota', async () => {
    const schema = freshSchemaName();
    await postgresStorage({ pool: testPool(), schema }).migrate();
    const quota = 6;
    const worker = (tag: string) => ({
      url: PG_URL,
      schema,
      project: 'bob',
      names: Array.from({ length: 10 }, (_, n) => `${tag}${n}.com.`),
      zonesQuota: quota,
      tasks: 'manual',
    });
    const [a, b] = await race([worker('a'), worker('b')]);
    const all = [...a!, ...b!];
    expect(all.filter((o) => o.ok)).toHaveLength(quota);
    expect(all.filter((o) => !o.ok).map((o) => o.type)).toEqual(Array(all.length - quota).fill('over_quota'));
    const dns = createDnsService({ storage: postgresStorage({ pool: testPool(), schema }), tasks: 'manual' });
    const listed = (await dns.zones.list({ projectId: 'bob', roles: ['member'] }))._unsafeUnwrap() as { metadata: { total_count: number } };
    expect(listed.metadata.total_count).toBe(quota);
  });

  it('subzone creates racing deletes of their parents from two processes: each pair ends as in one order or the other', async () => {
    // The create of x.pN.com. reads its parent under the name locks (REPEATABLE READ, no predicate
    // locks); the delete of pN.com. checks for subzones under an exclusive lock on pN.com.
    // Without those locks both could pass, leaving a zone whose parent is gone.
    const schema = freshSchemaName();
    const storage = postgresStorage({ pool: testPool(), schema });
    await storage.migrate();
    const dns = createDnsService({ storage, tasks: 'inline', quotas: { zones: 1000 } });
    const owner = { projectId: 'p-d', roles: ['member'] };
    const parents: { id: string; name: string }[] = [];
    for (let n = 0; n < 15; n++) parents.push(unwrap(await dns.zones.create(owner, { name: `p${n}.com.`, email: 'admin@example.com' })));
    const children = parents.map((p) => `x.${p.name}`);
    const worker = (args: object) => ({ url: PG_URL, schema, project: 'p-d', zonesQuota: 1000, tasks: 'inline', ...args });
    const [created, deleted] = await race([worker({ names: shuffle(children, 5) }), worker({ deletes: shuffle(parents.map((p) => p.id), 6) })]);
    const stored = async (id: string) => storage.transaction((tx) => tx.get('dns.zones', id)) as Promise<{ parentZoneId: string | null } | undefined>;
    for (const [n, parent] of parents.entries()) {
      const create = created!.find((o) => o.name === children[n])!;
      const del = deleted!.find((o) => o.name === parent.id)!;
      expect(create.ok, `${children[n]}: ${create.type}`).toBe(true);
      const child = (await stored(create.id!))!;
      if (del.ok) {
        // The delete went first: the parent is gone and the child was created without one.
        expect(await stored(parent.id), parent.name).toBeUndefined();
        expect(child.parentZoneId, children[n]).toBeNull();
      } else {
        // The create went first: the delete saw the subzone.
        expect(del.type, parent.name).toBe('zone_has_sub_zone');
        expect(child.parentZoneId, children[n]).toBe(parent.id);
      }
    }
  });

  it('transfer accepts racing creates into one project from two processes: the zones quota holds', async () => {
    // An accept (SERIALIZABLE) and a create (REPEATABLE READ, no predicate locks) both count the
    // project's zones against its quota; only the project's lock, which both take, keeps them apart.
    const schema = freshSchemaName();
    const storage = postgresStorage({ pool: testPool(), schema });
    await storage.migrate();
    const dns = createDnsService({ storage, tasks: 'manual', quotas: { zones: 100 } });
    const owner = { projectId: 'p-o', roles: ['member'] };
    const offers: { id: string; key: string }[] = [];
    for (let n = 0; n < 8; n++) {
      const zone = unwrap(await dns.zones.create(owner, { name: `q${n}.com.`, email: 'admin@example.com' }));
      const request = unwrap(await dns.transferRequests.create(owner, zone.id, {}));
      offers.push({ id: request.id, key: request.key! });
    }
    await dns.tasks.settle();
    const quota = 6;
    const worker = (args: object) => ({ url: PG_URL, schema, project: 'p-q', zonesQuota: quota, tasks: 'manual', ...args });
    const names = Array.from({ length: 8 }, (_, n) => `c${n}.org.`);
    const [accepted, created] = await race([worker({ offers: shuffle(offers, 7) }), worker({ names: shuffle(names, 8) })]);
    const all = [...accepted!, ...created!];
    expect(all.filter((o) => o.ok)).toHaveLength(quota);
    expect(all.filter((o) => !o.ok).map((o) => o.type)).toEqual(Array(all.length - quota).fill('over_quota'));
    const listed = (await dns.zones.list({ projectId: 'p-q', roles: ['member'] }))._unsafeUnwrap() as { metadata: { total_count: number } };
    expect(listed.metadata.total_count).toBe(quota);
  });

  it('accepts of the same transfer requests from two processes: each zone moves once, to the winner; the loser is told the request was used', async () => {
    const schema = freshSchemaName();
    const storage = postgresStorage({ pool: testPool(), schema });
    await storage.migrate();
    const dns = createDnsService({ storage, tasks: 'manual', quotas: { zones: 100 } });
    const owner = { projectId: 'p-a', roles: ['member'] };
    const offers: { id: string; key: string; zoneId: string }[] = [];
    const zones = [];
    for (let n = 0; n < 12; n++) zones.push(unwrap(await dns.zones.create(owner, { name: `t${n}.com.`, email: 'admin@example.com' })));
    await dns.tasks.settle();
    for (const zone of zones) {
      const request = await dns.transferRequests.create(owner, zone.id, {});
      if (request.isErr()) throw request.error;
      offers.push({ id: request.value.id, key: request.value.key!, zoneId: zone.id });
    }
    const worker = (project: string, seed: number) => ({
      url: PG_URL,
      schema,
      project,
      offers: shuffle(offers, seed).map(({ id, key }) => ({ id, key })),
      zonesQuota: 100,
      tasks: 'manual',
    });
    const [b, c] = await race([worker('p-b', 3), worker('p-c', 4)]);
    for (const offer of offers) {
      const fromB = b!.find((o) => o.name === offer.id)!;
      const fromC = c!.find((o) => o.name === offer.id)!;
      expect([fromB.ok, fromC.ok].filter(Boolean), offer.id).toHaveLength(1);
      const loser = fromB.ok ? fromC : fromB;
      expect(loser.type).toBe('invalid_zone_transfer_request');
      const winner = fromB.ok ? 'p-b' : 'p-c';
      const zone = unwrap(await dns.zones.get({ projectId: winner, roles: ['member'] }, offer.zoneId));
      expect(zone.version).toBe(3); // created (1), pushed (2), moved once (3)
      expect(unwrap(await dns.transferRequests.get(owner, offer.id)).status).toBe('COMPLETE');
    }
    const accepts = unwrap(await dns.transferAccepts.list({ projectId: 'ops', roles: ['admin'], allProjects: true }));
    expect(accepts.transfer_accepts).toHaveLength(offers.length);
  });
});
