/**
 * One of the processes of test/adapters/postgres/two-processes.test.ts: opens its own pool on the shared
 * schema, says `ready`, waits for `go` on stdin, fires every command at once (zone creates of
 * `names`, transfer accepts of `offers`, zone deletes of `deletes`) and prints one JSON line of outcomes.
 * Run as `node --import tsx test/adapters/postgres/race-worker.ts <json-args>`.
 */
import { createInterface } from 'node:readline';
import { createDnsService } from '../../../src/index.js';
import { postgresStorage } from '../../../src/adapters/postgres/index.js';

interface Args {
  readonly url: string;
  readonly schema: string;
  readonly project: string;
  readonly names?: readonly string[];
  readonly offers?: readonly { readonly id: string; readonly key: string }[];
  /** Zone ids to delete. */
  readonly deletes?: readonly string[];
  readonly zonesQuota: number;
  readonly tasks: 'auto' | 'inline' | 'manual';
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const storage = postgresStorage({ connectionString: args.url, schema: args.schema, poolSize: 5 });
const dns = createDnsService({ storage, tasks: args.tasks, quotas: { zones: args.zonesQuota } });
const ctx = { projectId: args.project, roles: ['member'] };

// Connect before the start signal, so both processes race on commands rather than on connecting.
await storage.transaction((tx) => tx.get('warm-up', 'x'));
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line === 'go') break;
lines.close();

const started = Date.now();
const creates = (args.names ?? []).map(async (name) => {
  const r = await dns.zones.create(ctx, { name, email: 'admin@example.com' });
  return r.isOk() ? { name, ok: true, id: r.value.id } : { name, ok: false, type: r.error.type };
});
const accepts = (args.offers ?? []).map(async (offer) => {
  const r = await dns.transferAccepts.create(ctx, { zone_transfer_request_id: offer.id, key: offer.key });
  return r.isOk() ? { name: offer.id, ok: true, id: r.value.zone_id } : { name: offer.id, ok: false, type: r.error.type };
});
const deletes = (args.deletes ?? []).map(async (id) => {
  const r = await dns.zones.delete(ctx, id);
  return r.isOk() ? { name: id, ok: true, id } : { name: id, ok: false, type: r.error.type };
});
const outcomes = await Promise.all([...creates, ...accepts, ...deletes]);
process.stdout.write(`${JSON.stringify({ started, ended: Date.now(), outcomes })}\n`);
await storage.close();
