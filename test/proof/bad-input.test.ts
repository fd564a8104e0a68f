/**
 * Proof: the bad-input catalogue against every command of both services. Every argument position
 * (context, ids, bodies, queries) and every field of the object arguments is replaced, one at a
 * time, by values of the wrong type, prototype-polluting keys as JSON.parse produces them, a
 * 1 MB string, NUL, a lone surrogate, 1e400 (Infinity), NaN, -0 and arrays where objects go.
 *
 * Each call must: neither throw nor reject; answer a 4xx with a non-empty message, or a 2xx
 * that the documented contract allows (see `accepted` below, each with its reason); leave the
 * state unchanged unless it legitimately succeeded; and leave Object.prototype untouched.
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
  type RequestContext,
  type ServiceSnapshot,
} from '../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';
import { admin, alice, bob, quotaAdmin } from './dns-fixture.js';
import { documentedErrors } from '../../scripts/error-table.js';

const FILE = `$ORIGIN imp.com.
$TTL 300
imp.com. IN SOA ns1.imp.com. admin.imp.com. 1 7200 3600 2419200 10800
imp.com. IN NS ns1.imp.com.
www IN A 192.0.2.1
`;

const HUGE = 'a'.repeat(1 << 20);
/** The catalogue of bad values, labelled. */
const BAD: readonly (readonly [string, unknown])[] = [
  ['undefined', undefined],
  ['null', null],
  ['true', true],
  ['0', 0],
  ['-0', -0],
  ['NaN', Number.NaN],
  ['1e400', Number('1e400')],
  ['-1e400', -Number('1e400')],
  ['1.5', 1.5],
  ['2^64', 2 ** 64],
  ['1n', 1n],
  ['empty string', ''],
  ['NUL', 'a\u0000b'],
  ['lone surrogate', 'x\uD800y'],
  ['1 MB string', HUGE],
  ['[]', []],
  ['[{}]', [{}]],
  ['{}', {}],
  ['__proto__ key', JSON.parse('{"__proto__": {"x": 1}}')],
  ['constructor key', JSON.parse('{"constructor": {"prototype": {"x": 1}}}')],
  ['prototype key', JSON.parse('{"prototype": {"x": 1}}')],
  ['function', () => 1],
  ['symbol', Symbol('s')],
];
const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

type Outcome = Awaited<ResultAsync<unknown, ApiError>>;
type Args = readonly unknown[];

interface Case {
  readonly command: string;
  readonly args: Args;
  /** Whether the command only reads (a read's 2xx changes nothing by construction). */
  readonly read: boolean;
}

/** Every variant of `base` with one argument, or one field of an object argument, made bad. */
function variants(command: string, base: Args, read: boolean, skip: readonly number[] = []): { label: string; args: Args }[] {
  const out: { label: string; args: Args }[] = [];
  base.forEach((arg, position) => {
    if (skip.includes(position)) return;
    for (const [label, value] of BAD) {
      const args = [...base];
      args[position] = value;
      out.push({ label: `arg ${position} = ${label}`, args });
    }
    if (arg !== null && typeof arg === 'object' && !Array.isArray(arg)) {
      for (const field of Object.keys(arg)) {
        for (const [label, value] of BAD) {
          const args = [...base];
          args[position] = { ...arg, [field]: value };
          out.push({ label: `arg ${position}.${field} = ${label}`, args });
        }
      }
      for (const key of POLLUTING_KEYS) {
        const args = [...base];
        // As JSON.parse builds it: an own key named __proto__ (not the prototype setter).
        args[position] = Object.assign(JSON.parse(`{"${key}": {"x": 1, "polluted": true}}`), arg);
        out.push({ label: `arg ${position} + own key ${key}`, args });
      }
    }
  });
  void command;
  void read;
  return out;
}

/**
 * The 2xx answers the contract allows for a bad-looking value, each with its reason; anything
 * else that succeeds is a finding.
 */
function accepted(c: Case, label: string): string | undefined {
  if (c.read) return 'a read that succeeds changes nothing (e.g. an unmatched filter is an empty list, as the real service)';
  // The context is built by the server's own authentication layer, so it is trusted as data:
  if (/^arg 0 \+ own key /.test(label)) return 'unknown context keys are ignored (and pollute nothing)';
  if (/^arg 0\.allProjects = /.test(label)) return 'allProjects counts only when it is exactly true (the header is absent otherwise)';
  if (/^arg 0\.sudoProjectId = (undefined|null)$/.test(label)) return 'sudoProjectId absent';
  if (/^arg 0\.roles = (undefined|null|\[\])$/.test(label)) return 'no roles: a project member without roles still owns its project';
  if (/^arg 0\.projectId = (undefined|null)$/.test(label)) return 'an admin needs no own project for commands on another one';
  // Bodies:
  if (/^arg 2 = (undefined|null)$/.test(label) && c.command === 'transferRequests.create') return 'API.md: a missing body is {}';
  if (/^arg 2 = (undefined|null|\{\})$/.test(label) && c.command === 'transferRequests.update') return 'an empty update changes nothing';
  if (/^arg 2 = \{\}$/.test(label) && ['zones.update', 'quotas.set'].includes(c.command)) return 'an empty PATCH is valid';
  if (/\.(description|target_project_id) = (undefined|null|empty string)$/.test(label)) return 'optional, nullable text fields';
  if (/^recordsets\.(create|update)$/.test(c.command) && /\.ttl = null$/.test(label)) return "issue #19 (designate-api): a recordset's ttl is nullable (null = the zone's)";
  if (/^recordsets\.(create|update)$/.test(c.command) && /\.records = \[\]$/.test(label)) {
    return 'issue #19 (designate-api): a recordset with no records is accepted (ACTIVE, serial unchanged on create)';
  }
  if (/^arg 3 = \{\}$/.test(label) && c.command === 'recordsets.update') return 'issue #19 (designate-api): PUT {} is accepted and bumps the serial';
  if (/\.[a-z_]+ = undefined$/.test(label)) return 'an undefined field is an absent field (JSON has no undefined)';
  if (/\.ttl = (true|1\.5|0|-0)$/.test(label)) {
    return "reference: TTL 0..2147483647, 0 allowed; the real service coerces with Python's int() (True → 1, 1.5 → 1)";
  }
  if (c.command === 'quotas.set' && /^arg 2\.[a-z_]+ = (true|1\.5)$/.test(label)) {
    return "issue #18: the real PATCH /v2/quotas coerces every limit with Python's int() (True → 1, 1.5 → 1; checked with designate-api)";
  }
  if (/(quotas\.set|projectQuotas\.set)$/.test(c.command) && /= (0|-0|\{\})$/.test(label)) {
    return 'a quota of 0 (or -0, which JSON does not have) is valid; {"project_quotas": {}} is a 204 in the quota reference';
  }
  if (/^(tlds|blacklists)\.update$/.test(c.command) && label === 'arg 2 = {}') return 'designate-api: PATCH {} of a TLD or blacklist is a 200 that sets updated_at';
  if (/^(tlds\.create|blacklists\.create)$/.test(c.command) && /\.(name|pattern) = (0|-0|1\.5|true|2\^64|NaN|1e400|-1e400)$/.test(label)) {
    return "designate-api: a TLD name or blacklist pattern is Python's str() of a number or boolean ({\"name\": 5} is the TLD '5'), and that text passes the rule";
  }
  if (/\.description = (0|-0|1\.5|true|2\^64|NaN|1e400|-1e400)$/.test(label)) {
    return "the real service's string fields store Python's str() of a number or boolean (oslo's String type; checked with the designate oracle); Python's json also reads NaN and Infinity";
  }
  if (/^(tsigkeys|pools)\.(create|update)$/.test(c.command) && /\.(name|secret) = (0|-0|1\.5|true|2\^64|NaN|1e400|-1e400|empty string)$/.test(label)) {
    return "the real service's string fields store Python's str() of a number or boolean, and an empty name or secret (checked with designate-api)";
  }
  if (/^(tsigkeys|pools)\.update$/.test(c.command) && label === 'arg 2 = {}') return 'an empty PATCH is valid (it only sets updated_at)';
  if (c.command === 'pools.update' && /^arg 2\.attributes = (null|\{\}|__proto__ key|constructor key|prototype key)$/.test(label)) {
    return 'attributes are free keys (null: none), as the real pool attribute adapter reads them';
  }
  if (c.command === 'pools.create' && /^arg 1\.(attributes|ns_records) = (null|\[\]|\{\}|empty string|__proto__ key|constructor key|prototype key)$/.test(label)) {
    return 'the real adapters iterate what they get: an empty string, list or object (or null) is no attribute or NS record; attributes are free keys';
  }
  if (c.command === 'imports.create' && label === 'arg 1 = 1 MB string') return 'API.md: malformed text is accepted PENDING, then ERROR; 413 only above limits.maxZoneFileBytes';
  return undefined;
}

/** The documented non-4xx errors. */
function acceptedError(c: Case, label: string, e: ApiError): string | undefined {
  if (c.command === 'projectQuotas.list' && /\.(limit|offset) = \[/.test(label) && e.status === 500 && e.type === 'unknown') {
    return 'QuotaService docs: a repeated parameter (an array) is a 500 unknown, as the real service';
  }
  if (/^zones\.(create|update)$/.test(c.command) && /\.ttl = null$/.test(label) && e.status === 500 && e.type === 'unknown') {
    return "reference §4.2: ttl null passes the real service's checks and its NOT NULL column refuses it, a 500 unknown (probed)";
  }
  if (c.command === 'quotas.set' && /^arg 2\.[a-z_]+ = null$/.test(label) && e.status === 500 && e.type === 'unknown') {
    return "issue #18: a null limit passes the real PATCH's checks and its store refuses it, a 500 unknown (checked with designate-api)";
  }
  if (c.command === 'tsigkeys.create' && /^arg 1\.resource_id = (true|0|-0|1\.5|2\^64)$/.test(label) && e.status === 500 && e.type === 'unknown') {
    return "an integer resource_id passes the real UUID field as its decimal text, which the real store refuses: a 500 unknown (checked with designate-api)";
  }
  return undefined;
}

const sorted = (f: readonly Finding[]): string[] => f.map((x) => `${x.command} | ${x.label} | ${x.problem}`).sort();

const protoKeys = (): string[] => Object.getOwnPropertyNames(Object.prototype).sort();

async function call(run: () => ResultAsync<unknown, ApiError>): Promise<Outcome | { thrown: unknown }> {
  try {
    return await run();
  } catch (thrown) {
    return { thrown };
  }
}

/** Every error a command answered during the proof, held against its `@errors` tag below. */
const answered: { command: string; label: string; type: string; status: number }[] = [];

/**
 * What any command may answer besides its own errors (docs/errors.md's preamble): the caller's
 * authentication and policy, and a storage failure; and the documented 500s of `acceptedError`.
 */
const ANY_COMMAND = new Set(['authentication_required', 'missing_project_id', 'forbidden', 'storage_failure', 'unknown']);

interface Finding {
  readonly command: string;
  readonly label: string;
  readonly problem: string;
}

async function prove<S>(
  cases: readonly Case[],
  make: () => S,
  snapshot: (s: S) => Promise<unknown>,
  invoke: (s: S, command: string, args: Args) => ResultAsync<unknown, ApiError>,
): Promise<{ findings: Finding[]; calls: number }> {
  const findings: Finding[] = [];
  const protoBefore = protoKeys();
  let calls = 0;
  for (const c of cases) {
    let service = make();
    for (const v of variants(c.command, c.args, c.read)) {
      const before = await snapshot(service);
      const outcome = await call(() => invoke(service, c.command, v.args));
      calls += 1;
      const problem = (p: string) => findings.push({ command: c.command, label: v.label, problem: p });
      if (protoKeys().join() !== protoBefore.join() || ({} as Record<string, unknown>)['polluted'] !== undefined) {
        problem('Object.prototype changed');
      }
      if ('thrown' in outcome) {
        problem(`threw or rejected: ${String(outcome.thrown)}`);
        service = make();
        continue;
      }
      if (outcome.isErr()) {
        const e = outcome.error;
        answered.push({ command: c.command, label: v.label, type: e.type, status: e.status });
        if ((e.status < 400 || e.status > 499) && acceptedError(c, v.label, e) === undefined) problem(`answered ${e.status} ${e.type}`);
        if (typeof e.message !== 'string' || e.message.trim() === '') problem('error without a message');
        if (JSON.stringify(await snapshot(service)) !== JSON.stringify(before)) problem('an error changed the state');
      } else {
        const reason = accepted(c, v.label);
        if (reason === undefined) problem('accepted (2xx) without a documented reason');
        const after = await snapshot(service);
        if (c.read && JSON.stringify(after) !== JSON.stringify(before)) problem('a read changed the state');
        if (JSON.stringify(after) !== JSON.stringify(before)) service = make();
      }
    }
  }
  if (process.env['BAD_DEBUG'] !== undefined) for (const f of findings) console.log(`FINDING ${f.command} | ${f.label} | ${f.problem}`);
  return { findings, calls };
}

// ---------------------------------------------------------------------------------------------

let base: ServiceSnapshot;
let ids: { zoneA: string; zoneB: string; zoneS: string; imported: string; recordset: string; request: string; key: string; accept: string; importId: string; exportId: string; tld: string; blacklist: string; tsigkey: string; pool: string; service: string };
const POOL = '794ccc2c-d751-44fe-b57f-8894c9f5c842';

beforeAll(async () => {
  const dns = createDnsService({ storage: memoryStorage(), clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1) });
  const zoneA = (await dns.zones.create(alice, { name: 'a.com.', email: 'h@a.com' }))._unsafeUnwrap().id;
  const zoneB = (await dns.zones.create(bob, { name: 'b.com.', email: 'h@b.com' }))._unsafeUnwrap().id;
  const zoneT = (await dns.zones.create(alice, { name: 't.com.', email: 'h@a.com' }))._unsafeUnwrap().id;
  const zoneS = (await dns.zones.create(alice, { name: 's.com.', type: 'SECONDARY', masters: ['192.0.2.1'] }))._unsafeUnwrap().id;
  const done = (await dns.transferRequests.create(alice, zoneT, { target_project_id: 'bob' }))._unsafeUnwrap();
  const accept = (await dns.transferAccepts.create(bob, { zone_transfer_request_id: done.id, key: done.key }))._unsafeUnwrap().id;
  const request = (await dns.transferRequests.create(alice, zoneA, { target_project_id: 'bob' }))._unsafeUnwrap();
  const importId = (await dns.imports.create(bob, FILE, 'text/dns'))._unsafeUnwrap().id;
  const exportId = (await dns.exports.create(bob, zoneB))._unsafeUnwrap().id;
  await dns.tasks.settle();
  (await dns.quotas.set(admin, 'bob', { zones: 7 }))._unsafeUnwrap();
  const imported = (await dns.imports.get(bob, importId))._unsafeUnwrap().zone_id!;
  const rs = (await dns.recordsets.list(bob, imported))._unsafeUnwrap() as { recordsets: { id: string; type: string }[] };
  const tld = (await dns.tlds.create(admin, { name: 'com' }))._unsafeUnwrap().id;
  const blacklist = (await dns.blacklists.create(admin, { pattern: '^blocked\\.' }))._unsafeUnwrap().id;
  const tsigkey = (await dns.tsigkeys.create(admin, { name: 'k1', algorithm: 'hmac-sha256', secret: 's', scope: 'POOL', resource_id: POOL }))._unsafeUnwrap().id;
  const pool = (await dns.pools.create(admin, { name: 'p2', ns_records: [{ hostname: 'ns2.example.org.', priority: 1 }] }))._unsafeUnwrap().id;
  const service = (await dns.serviceStatuses.list(admin))._unsafeUnwrap().service_statuses[0]!.id;
  base = await dns.snapshot();
  ids = { zoneA, zoneB, zoneS, imported, recordset: rs.recordsets.find((r) => r.type === 'A')!.id, request: request.id, key: request.key!, accept, importId, exportId, tld, blacklist, tsigkey, pool, service };
});

const dnsCases = (): Case[] => [
  { command: 'zones.create', args: [alice, { name: 'new.com.', email: 'h@new.com', ttl: 3600, description: 'd' }], read: false },
  { command: 'zones.get', args: [alice, ids.zoneA], read: true },
  { command: 'zones.list', args: [alice, { limit: '2', name: 'a.com.' }], read: true },
  { command: 'zones.update', args: [alice, ids.zoneA, { ttl: 900, description: 'x' }], read: false },
  { command: 'zones.delete', args: [alice, ids.zoneA], read: false },
  { command: 'zones.abandon', args: [admin, ids.zoneB], read: false },
  { command: 'zones.nameservers', args: [alice, ids.zoneA], read: true },
  // Without a master port nothing is queued: a read as far as state goes.
  { command: 'zones.xfr', args: [alice, ids.zoneS], read: true },
  { command: 'transferRequests.create', args: [alice, ids.zoneA, { target_project_id: 'bob', description: 'd' }], read: false },
  { command: 'transferRequests.get', args: [alice, ids.request], read: true },
  { command: 'transferRequests.list', args: [alice, { limit: '2' }], read: true },
  { command: 'transferRequests.update', args: [alice, ids.request, { description: 'x' }], read: false },
  { command: 'transferRequests.delete', args: [alice, ids.request], read: false },
  { command: 'transferAccepts.create', args: [bob, { zone_transfer_request_id: ids.request, key: ids.key }], read: false },
  { command: 'transferAccepts.get', args: [bob, ids.accept], read: true },
  { command: 'transferAccepts.list', args: [admin, { limit: '2' }], read: true },
  { command: 'recordsets.list', args: [bob, ids.imported, { limit: '2', type: 'A' }], read: true },
  { command: 'recordsets.get', args: [bob, ids.imported, ids.recordset], read: true },
  { command: 'recordsets.create', args: [bob, ids.imported, { name: 'new.imp.com.', type: 'TXT', records: ['"x"'], ttl: 60, description: 'd' }], read: false },
  { command: 'recordsets.update', args: [bob, ids.imported, ids.recordset, { records: ['192.0.2.9'], ttl: 60, description: 'd' }], read: false },
  { command: 'recordsets.delete', args: [bob, ids.imported, ids.recordset], read: false },
  { command: 'recordsets.find', args: [bob, ids.recordset], read: true },
  { command: 'recordsets.listAll', args: [bob, { limit: '2', type: 'A', data: '192.0.2.*' }], read: true },
  { command: 'quotas.get', args: [admin, 'bob'], read: true },
  { command: 'quotas.set', args: [admin, 'bob', { zones: 3, zone_records: 10 }], read: false },
  { command: 'quotas.reset', args: [admin, 'bob'], read: false },
  { command: 'imports.create', args: [alice, FILE.replaceAll('imp.com.', 'imp2.com.'), 'text/dns'], read: false },
  { command: 'imports.get', args: [bob, ids.importId], read: true },
  { command: 'imports.list', args: [bob, { limit: '2', status: 'COMPLETE' }], read: true },
  { command: 'imports.delete', args: [bob, ids.importId], read: false },
  { command: 'exports.create', args: [bob, ids.zoneB], read: false },
  { command: 'exports.get', args: [bob, ids.exportId], read: true },
  { command: 'exports.list', args: [bob, { limit: '2', status: 'COMPLETE' }], read: true },
  { command: 'exports.delete', args: [bob, ids.exportId], read: false },
  { command: 'exports.file', args: [bob, ids.exportId, 'text/dns'], read: true },
  { command: 'tlds.create', args: [admin, { name: 'net', description: 'd' }], read: false },
  { command: 'tlds.get', args: [admin, ids.tld], read: true },
  { command: 'tlds.list', args: [admin, { limit: '2', name: 'c*' }], read: true },
  { command: 'tlds.update', args: [admin, ids.tld, { description: 'x' }], read: false },
  { command: 'tlds.delete', args: [admin, ids.tld], read: false },
  { command: 'blacklists.create', args: [admin, { pattern: '^evil\\.', description: 'd' }], read: false },
  { command: 'blacklists.get', args: [admin, ids.blacklist], read: true },
  { command: 'blacklists.list', args: [admin, { limit: '2', pattern: '^b*' }], read: true },
  { command: 'blacklists.update', args: [admin, ids.blacklist, { description: 'x' }], read: false },
  { command: 'blacklists.delete', args: [admin, ids.blacklist], read: false },
  { command: 'tsigkeys.create', args: [admin, { name: 'k2', algorithm: 'hmac-sha512', secret: 'x', scope: 'ZONE', resource_id: ids.zoneA }], read: false },
  { command: 'tsigkeys.get', args: [admin, ids.tsigkey], read: true },
  { command: 'tsigkeys.list', args: [admin, { limit: '2', name: 'k1' }], read: true },
  { command: 'tsigkeys.update', args: [admin, ids.tsigkey, { name: 'k3', secret: 'y' }], read: false },
  { command: 'tsigkeys.delete', args: [admin, ids.tsigkey], read: false },
  { command: 'pools.create', args: [admin, { name: 'p3', description: 'd', attributes: { a: 'b' }, ns_records: [{ hostname: 'ns3.example.org.', priority: 2 }] }], read: false },
  { command: 'pools.get', args: [admin, ids.pool], read: true },
  { command: 'pools.list', args: [admin, { limit: '2', name: 'p2' }], read: true },
  { command: 'pools.update', args: [admin, ids.pool, { description: 'e', attributes: { c: 'd' } }], read: false },
  { command: 'pools.delete', args: [admin, ids.pool], read: false },
  { command: 'serviceStatuses.get', args: [admin, ids.service], read: true },
  { command: 'serviceStatuses.list', args: [admin, { limit: '2', service_name: 'mdns' }], read: true },
  { command: 'limits.get', args: [bob], read: true },
  { command: 'floatingIps.list', args: [bob], read: true },
  { command: 'floatingIps.get', args: [bob, 'RegionOne:12345678-1234-5678-1234-567812345678'], read: true },
  { command: 'floatingIps.set', args: [bob, 'RegionOne:12345678-1234-5678-1234-567812345678', { ptrdname: 'a.example.org.' }], read: true },
];

const invokeDns = (dns: DnsService, command: string, args: Args): ResultAsync<unknown, ApiError> => {
  const [group, name] = command.split('.') as [keyof DnsService, string];
  const fn = (dns[group] as unknown as Record<string, (...a: unknown[]) => ResultAsync<unknown, ApiError>>)[name]!;
  return fn(...args);
};

const dnsService = () =>
  createDnsService({ from: base, tasks: 'manual', clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds('b'), random: seededRandom(2) });

const DNS_GROUPS = [
  'zones',
  'transferRequests',
  'transferAccepts',
  'recordsets',
  'quotas',
  'imports',
  'exports',
  'tlds',
  'blacklists',
  'tsigkeys',
  'pools',
  'serviceStatuses',
  'limits',
  'floatingIps',
] as const;

describe('bad input to every DNS command: a 4xx with a message, no throw, no state change, no pollution', () => {
  it('covers every command', () => {
    const names = new Set(dnsCases().map((c) => c.command));
    const dns = createDnsService();
    for (const group of DNS_GROUPS) {
      for (const command of Object.keys(dns[group])) expect(names).toContain(`${group}.${command}`);
    }
  });

  for (const group of DNS_GROUPS) {
    it(`dns.${group}`, async () => {
      const cases = dnsCases().filter((c) => c.command.startsWith(`${group}.`));
      const { findings, calls } = await prove(cases, dnsService, (d) => d.snapshot(), invokeDns);
      expect(calls).toBeGreaterThan(cases.length * BAD.length);
      expect(sorted(findings)).toEqual(sorted(KNOWN_DNS.filter((f) => f.command.startsWith(`${group}.`))));
    });
  }
});

// ---------------------------------------------------------------------------------------------

const quotaCases: Case[] = [
  { command: 'effective', args: [alice], read: true },
  { command: 'projectQuotas.list', args: [quotaAdmin, { offset: '0', limit: '2' }], read: true },
  { command: 'projectQuotas.get', args: [quotaAdmin, 'p1'], read: true },
  { command: 'projectQuotas.set', args: [quotaAdmin, 'p1', { project_quotas: { secrets: 5, orders: 2 } }], read: false },
  { command: 'projectQuotas.delete', args: [quotaAdmin, 'p1'], read: false },
  { command: 'enforce', args: ['p1', 'secrets', { inUse: 1, requested: 1 }], read: true },
];

let quotaBase: Awaited<ReturnType<QuotaService['snapshot']>>;
beforeAll(async () => {
  const q = createQuotaService();
  (await q.projectQuotas.set(quotaAdmin, 'p1', { project_quotas: { secrets: 2 } }))._unsafeUnwrap();
  quotaBase = await q.snapshot();
});

const invokeQuota = (q: QuotaService, command: string, args: Args): ResultAsync<unknown, ApiError> => {
  const parts = command.split('.');
  const owner = (parts.length === 2 ? q.projectQuotas : q) as unknown as Record<string, (...a: unknown[]) => ResultAsync<unknown, ApiError>>;
  return owner[parts[parts.length - 1]!]!(...args);
};

describe('bad input to every quota command: a 4xx with a message, no throw, no state change, no pollution', () => {
  it('every command', async () => {
    const { findings } = await prove(quotaCases, () => createQuotaService({ from: quotaBase }), (q) => q.snapshot(), invokeQuota);
    expect(findings).toEqual(KNOWN_QUOTA);
  });

  it('the project_quotas body field by field', async () => {
    const nested: Case[] = [{ command: 'projectQuotas.set', args: [quotaAdmin, 'p1', { secrets: 5, orders: 2 }], read: false }];
    const invoke = (q: QuotaService, _c: string, args: Args) => q.projectQuotas.set(args[0] as RequestContext, args[1], { project_quotas: args[2] });
    const { findings } = await prove(nested, () => createQuotaService({ from: quotaBase }), (q) => q.snapshot(), invoke);
    expect(findings).toEqual([]);
  });
});

/**
 * Findings that are known defects, reported to their owners: a ratchet (the proof fails when one
 * is fixed, until its entry is removed here).
 */
const KNOWN_DNS: Finding[] = [];
const KNOWN_QUOTA: Finding[] = [];


describe('docs/errors.md holds: every error a command answered above is one its @errors tag lists', () => {
  it('no command answers an error type (or status) its documentation does not name', () => {
    if (process.env['BAD_DEBUG'] !== undefined) for (const a of new Set(answered.map((x) => `${x.command} ${x.type} ${x.status}`))) console.log(`ANSWERED ${a}`);
    const documented = documentedErrors();
    const undocumented = new Set<string>();
    for (const a of answered) {
      if (ANY_COMMAND.has(a.type)) continue;
      const path = a.command.startsWith('projectQuotas.') || a.command === 'effective' || a.command === 'enforce' ? `quotas.${a.command}` : `dns.${a.command}`;
      const statuses = documented.get(path)?.get(a.type);
      if (statuses === undefined || !statuses.includes(a.status)) undocumented.add(`${path}: ${a.type} ${a.status} (first seen for ${a.label})`);
    }
    // Ran after the proofs above (vitest runs a file's tests in order); without them it proves nothing.
    expect(answered.length).toBeGreaterThan(1000);
    expect([...undocumented].sort()).toEqual([]);
  }, 120_000);
});
