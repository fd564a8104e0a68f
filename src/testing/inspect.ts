import { DEFAULT_DNS_BASE_URL, zonePool, type PoolConfig } from '../dns/kernel/deps.js';
import { linkBase } from '../kernel/list-query.js';
import type { ServiceSnapshot } from '../kernel/snapshot.js';
import { effectiveZoneQuotas, storedOverrides, DEFAULT_ZONE_QUOTAS, type ZoneQuotaLimits } from '../dns/kernel/zone-quotas.js';
import { EXPORTS, exportRepository, presentExport, type ZoneExportBody } from '../dns/exports/zone-export.js';
import { IMPORTS, importRepository, presentImport, type ZoneImportBody } from '../dns/imports/zone-import.js';
import type { Storage, StoredRow } from '../ports/storage.js';
import type { QuotaSnapshot, ProjectQuotasRecord } from '../project-quotas/index.js';
import { quotaRecordRepository } from '../project-quotas/quota-store.js';
import { checkedBlock, idAt, type RecordsetBlock } from '../dns/kernel/recordset.js';
import { managedRecordsets, presentRecordset, type RecordsetBody } from '../dns/kernel/recordset-body.js';
import { checked, type Collection } from '../kernel/stored.js';
import { TASKS, taskCollection } from '../dns/kernel/tasks.js';
import { presentTransferAccept, TRANSFER_ACCEPTS, transferAcceptRepository, type TransferAcceptBody } from '../dns/transfers/transfer-accept.js';
import {
  presentTransferRequest,
  TRANSFER_REQUESTS,
  transferRequestRepository,
  type TransferRequestBody,
} from '../dns/transfers/transfer-request.js';
import { RECORDSETS } from '../dns/kernel/recordset.js';
import { presentZone, type ZoneBody } from '../dns/kernel/zone.js';
import { ZONES, zoneRepository } from '../dns/kernel/zone-store.js';

/**
 * Options of {@link inspectDns}: the parts of the service's configuration that shape its bodies.
 *
 * @category Testing
 */
export interface InspectDnsOptions {
  /** The service's `baseUrl`, for `links`. @defaultValue 'http://localhost:9001' */
  readonly baseUrl?: string;
  /** The service's pools, for the managed SOA and NS recordsets. @defaultValue the service's default pool */
  readonly pools?: readonly PoolConfig[];
  /** The service's default quotas, for {@link DnsInspection.quotas}. @defaultValue the service's defaults */
  readonly quotas?: Partial<ZoneQuotaLimits>;
}

/**
 * A queued piece of asynchronous work, as {@link DnsInspection.tasks} lists it.
 *
 * @category Testing
 */
export interface InspectedTask {
  /** `'zone.push'`, `'zone.import'` or `'zone.export'`. */
  readonly kind: string;
  /** The id of the zone, import or export the task works on. */
  readonly subject: string;
}

/**
 * Everything a DNS service holds, read in one consistent view.
 *
 * @category Testing
 */
export interface DnsState {
  /** Every zone of every project, in id order. */
  readonly zones: readonly ZoneBody[];
  /** Every recordset, zone by zone (zones in id order): managed SOA and NS first, then the others in creation order. */
  readonly recordsets: readonly RecordsetBody[];
  /** Every transfer request, with its key and target, in id order. */
  readonly transferRequests: readonly TransferRequestBody[];
  /** Every transfer accept, in id order (`key` is null: it is never stored). */
  readonly transferAccepts: readonly TransferAcceptBody[];
  /** Every zone import, in id order. */
  readonly imports: readonly ZoneImportBody[];
  /** Every zone export, in id order. */
  readonly exports: readonly ZoneExportBody[];
  /** Effective DNS quotas of each project that has overrides, by project id. */
  readonly quotas: Readonly<Record<string, ZoneQuotaLimits>>;
  /** Queued asynchronous work, first in first out. */
  readonly tasks: readonly InspectedTask[];
}

/**
 * A read-only view of a DNS service's state that ignores every policy: all projects, no
 * authentication, no paging. Every method reads in one storage transaction and answers frozen
 * values shaped like the API's bodies.
 *
 * @category Testing
 */
export interface DnsInspection {
  /** Everything at once, from one consistent read. */
  state(): Promise<DnsState>;
  /** Every zone of every project, in id order. */
  zones(): Promise<readonly ZoneBody[]>;
  /** One zone, whoever owns it; `undefined` when there is none. */
  zone(id: string): Promise<ZoneBody | undefined>;
  /** The recordsets of one zone, or of all zones; managed SOA and NS first. */
  recordsets(zoneId?: string): Promise<readonly RecordsetBody[]>;
  /** Every transfer request (detailed: key and target included). */
  transferRequests(): Promise<readonly TransferRequestBody[]>;
  /** Every transfer accept. */
  transferAccepts(): Promise<readonly TransferAcceptBody[]>;
  /** Every zone import. */
  imports(): Promise<readonly ZoneImportBody[]>;
  /** Every zone export. */
  exports(): Promise<readonly ZoneExportBody[]>;
  /** Effective DNS quotas of each project that has overrides. */
  quotas(): Promise<Readonly<Record<string, ZoneQuotaLimits>>>;
  /** Queued asynchronous work. */
  tasks(): Promise<readonly InspectedTask[]>;
}

// The same default pool as createDnsService's (a test pins the two together).
const DEFAULT_POOL: PoolConfig = Object.freeze({
  id: '794ccc2c-d751-44fe-b57f-8894c9f5c842',
  name: 'default',
  nameservers: Object.freeze([Object.freeze({ hostname: 'ns1.example.org.', priority: 1 })]),
});
const DNS_QUOTAS = 'dns.quotas';
const PAGE = 1024;

type Rows = ReadonlyMap<string, readonly StoredRow[]>;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const isStorage = (source: unknown): source is Storage =>
  source !== null && typeof source === 'object' && typeof (source as { transaction?: unknown }).transaction === 'function';

/** Reads whole collections, in id order, from a storage (in one transaction) or from a snapshot. */
async function readRows(source: Storage | ServiceSnapshot, names: readonly string[]): Promise<Rows> {
  const out = new Map<string, readonly StoredRow[]>();
  if (!isStorage(source)) {
    for (const name of names) out.set(name, source.collections[name] ?? []);
    return out;
  }
  await source.transaction(async (tx) => {
    for (const name of names) {
      const rows: StoredRow[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await tx.scan(name, after, PAGE);
        rows.push(...page);
        const last = page[page.length - 1];
        if (last === undefined || page.length < PAGE) break;
        after = last.id;
      }
      out.set(name, rows);
    }
  });
  return out;
}

/** The rows of one collection, checked as the service checks what it reads (a corrupt snapshot is a clear error here too). */
const values = <T>(rows: Rows, c: Collection<T>): T[] => (rows.get(c.name) ?? []).map((r) => checked(c, r.id, r.value));

/**
 * An inspection view of a DNS service's state that reads past every policy: what a test asserts
 * on after driving the service, without needing an admin context or paging.
 *
 * Give it the service's storage (pass the same `storage` to `createDnsService`) for a live view,
 * or a snapshot from `dns.snapshot()`. Values are frozen copies shaped like the API's bodies;
 * changing the state goes through the service only.
 *
 * @param source - the storage the service runs on, or a snapshot of it
 * @param options - the service's `baseUrl`, `pools` and `quotas`, where they are not the defaults
 * @returns the view
 * @example
 * ```ts
 * import { createDnsService, memoryStorage } from 'zoneward';
 * import { inspectDns } from 'zoneward/testing';
 *
 * const storage = memoryStorage();
 * const dns = createDnsService({ storage });
 * await dns.zones.create({ projectId: 'p1', roles: ['member'] }, { name: 'a.com.', email: 'h@a.com' });
 * await dns.zones.create({ projectId: 'p2', roles: ['member'] }, { name: 'b.com.', email: 'h@b.com' });
 * const names = (await inspectDns(storage).zones()).map((z) => z.name); // both projects' zones
 * ```
 * @category Testing
 */
export function inspectDns(source: Storage | ServiceSnapshot, options: InspectDnsOptions = {}): DnsInspection {
  if (!isStorage(source)) {
    const s = source as Partial<ServiceSnapshot> | null;
    if (s === null || typeof s !== 'object' || s.format !== 1 || s.service !== 'dns' || typeof s.collections !== 'object') {
      throw new TypeError('inspectDns: give it a Storage or a DNS service snapshot');
    }
  }
  const baseUrl = linkBase(options.baseUrl ?? DEFAULT_DNS_BASE_URL);
  const pools = options.pools !== undefined && options.pools.length > 0 ? options.pools : [DEFAULT_POOL];
  const defaults: ZoneQuotaLimits = { ...DEFAULT_ZONE_QUOTAS, ...options.quotas };

  const zonesOf = (rows: Rows): ZoneBody[] => values(rows, zoneRepository.collection).map((z) => presentZone(z, baseUrl));

  const recordsetsOf = (rows: Rows, zoneId?: string): RecordsetBody[] => {
    const byZone = new Map<string, RecordsetBlock[]>();
    for (const b of (rows.get(RECORDSETS) ?? []).map((r) => checkedBlock(r.id, r.value))) {
      const list = byZone.get(b.zoneId) ?? [];
      list.push(b);
      byZone.set(b.zoneId, list);
    }
    const out: RecordsetBody[] = [];
    for (const zone of values(rows, zoneRepository.collection)) {
      if (zoneId !== undefined && zone.id !== zoneId) continue;
      const pool = zonePool({ pools, defaultPool: pools[0]! }, zone);
      out.push(...managedRecordsets(zone, pool, baseUrl));
      // Blocks partition the zone's id order, which is its creation order.
      const blocks = (byZone.get(zone.id) ?? []).map((b) => ({ b, first: idAt(b, 0) })).sort((x, y) => (x.first < y.first ? -1 : x.first > y.first ? 1 : 0)).map((x) => x.b);
      for (const b of blocks) for (let i = 0; i < b.names.length; i++) out.push(presentRecordset(b, i, zone, baseUrl));
    }
    return out;
  };

  const quotasOf = (rows: Rows): Record<string, ZoneQuotaLimits> => {
    const out: Record<string, ZoneQuotaLimits> = {};
    for (const row of rows.get(DNS_QUOTAS) ?? []) {
      Object.defineProperty(out, row.id, {
        value: effectiveZoneQuotas(defaults, storedOverrides(row.id, row.value)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };

  const tasksOf = (rows: Rows): InspectedTask[] =>
    values(rows, taskCollection)
      .sort((a, b) => a.seq - b.seq)
      .map((t) => ({ kind: t.kind, subject: t.subject }));

  const read = async <T>(names: readonly string[], build: (rows: Rows) => T): Promise<T> =>
    deepFreeze(structuredClone(build(await readRows(source, names))));

  return Object.freeze({
    state: () =>
      read([ZONES, RECORDSETS, TRANSFER_REQUESTS, TRANSFER_ACCEPTS, IMPORTS, EXPORTS, DNS_QUOTAS, TASKS], (rows) => ({
        zones: zonesOf(rows),
        recordsets: recordsetsOf(rows),
        transferRequests: values(rows, transferRequestRepository.collection).map((r) => presentTransferRequest(r, baseUrl, true)),
        transferAccepts: values(rows, transferAcceptRepository.collection).map((a) => presentTransferAccept(a, baseUrl)),
        imports: values(rows, importRepository.collection).map((i) => presentImport(i, baseUrl)),
        exports: values(rows, exportRepository.collection).map((e) => presentExport(e, baseUrl)),
        quotas: quotasOf(rows),
        tasks: tasksOf(rows),
      })),
    zones: () => read([ZONES], zonesOf),
    zone: (id: string) => read([ZONES], (rows) => zonesOf(rows).find((z) => z.id === id)),
    recordsets: (zoneId?: string) => read([ZONES, RECORDSETS], (rows) => recordsetsOf(rows, zoneId)),
    transferRequests: () =>
      read([TRANSFER_REQUESTS], (rows) =>
        values(rows, transferRequestRepository.collection).map((r) => presentTransferRequest(r, baseUrl, true)),
      ),
    transferAccepts: () =>
      read([TRANSFER_ACCEPTS], (rows) => values(rows, transferAcceptRepository.collection).map((a) => presentTransferAccept(a, baseUrl))),
    imports: () => read([IMPORTS], (rows) => values(rows, importRepository.collection).map((i) => presentImport(i, baseUrl))),
    exports: () => read([EXPORTS], (rows) => values(rows, exportRepository.collection).map((e) => presentExport(e, baseUrl))),
    quotas: () => read([DNS_QUOTAS], quotasOf),
    tasks: () => read([TASKS], tasksOf),
  });
}

/**
 * A read-only view of a quota service's configured records, past every policy.
 *
 * @category Testing
 */
export interface QuotaInspection {
  /** Every configured record, in the list's order (first creation), frozen. */
  projectQuotas(): Promise<readonly ProjectQuotasRecord[]>;
}

/**
 * An inspection view of a quota service's state: every project's configured quotas without a
 * service-admin context or paging.
 *
 * @param source - the storage the quota service runs on, or a snapshot from `quotas.snapshot()`
 * @returns the view
 * @example
 * ```ts
 * import { createQuotaService, memoryStorage } from 'zoneward';
 * import { inspectQuotas } from 'zoneward/testing';
 *
 * const storage = memoryStorage();
 * const quotas = createQuotaService({ storage });
 * await quotas.projectQuotas.set({ projectId: 'ops', roles: ['key-manager:service-admin'] }, 'p1', { project_quotas: { secrets: 5 } });
 * await inspectQuotas(storage).projectQuotas(); // [{ project_id: 'p1', project_quotas: { secrets: 5, orders: null, ... } }]
 * ```
 * @category Testing
 */
export function inspectQuotas(source: Storage | QuotaSnapshot): QuotaInspection {
  if (!isStorage(source)) {
    const s = source as Partial<QuotaSnapshot> | null;
    if (s === null || typeof s !== 'object' || s.version !== 1 || !Array.isArray(s.projectQuotas)) {
      throw new TypeError('inspectQuotas: give it a Storage or a quota service snapshot');
    }
  }
  return Object.freeze({
    projectQuotas: async (): Promise<readonly ProjectQuotasRecord[]> => {
      if (!isStorage(source)) return deepFreeze(structuredClone(source.projectQuotas));
      const records = await source.transaction(async (tx) => {
        const all: ProjectQuotasRecord[] = [];
        for (let offset = 0; ; offset += PAGE) {
          const page = await quotaRecordRepository.page(tx, offset, PAGE);
          for (const r of page) all.push({ project_id: r.project_id, project_quotas: { ...r.project_quotas } });
          if (page.length < PAGE) break;
        }
        return all;
      });
      return deepFreeze(records);
    },
  });
}
