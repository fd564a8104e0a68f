/**
 * What the server serves: the service's zones, read through its own public commands (as an
 * admin of all projects), indexed, and kept current. A zone is read again when the service
 * announces a change to it (its events) or when a pool target asks for it before telling the
 * secondaries; queries that arrive while a read is under way wait for it, so an answer never
 * predates a change whose command has returned.
 */
import type { DnsService } from '../../dns/service.js';
import type { ZoneBody } from '../../dns/kernel/zone.js';
import type { DnsEvent } from '../../dns/kernel/events.js';
import { ZoneIndex, type RecordsetInput } from './zone-index.js';

/** The caller the server reads with: an admin of every project, as the real mini-DNS reads storage. */
const READER = Object.freeze({ projectId: 'zoneward-dns-server', roles: Object.freeze(['admin']), allProjects: true });
const PAGE = '1000';

/** Why a zone could not be read. @internal */
export class ReadError extends Error {}

/**
 * Whether a zone, as the service shows it, is one to serve: not once its delete was asked for,
 * so that it leaves the catalog before the pool targets are asked to see it gone.
 */
const servable = (z: ZoneBody): boolean => z.status !== 'DELETED' && z.action !== 'DELETE';

/** The served zones of one service. @internal */
export class ServedZones {
  /** By the key of their apex. */
  readonly byApex = new Map<string, ZoneIndex>();
  private readonly byId = new Map<string, ZoneIndex>();
  /** Reads under way, and whether another was asked for meanwhile. */
  private readonly reads = new Map<string, { done: Promise<void>; again: boolean }>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly dns: DnsService,
    /** Called after a zone was indexed for the first time (`'added'`), with a new serial, or dropped. */
    private readonly changed: (zone: ZoneIndex, how: 'added' | 'serial' | 'dropped') => void,
  ) {
    this.unsubscribe = dns.events.subscribe((e) => this.onEvent(e));
  }

  private onEvent(e: DnsEvent): void {
    const payload = e.payload as { id?: unknown; zone_id?: unknown };
    const id = e.type.startsWith('dns.zone.') ? payload.id : e.type.startsWith('dns.recordset.') ? payload.zone_id : undefined;
    // A read that fails (the storage failing) leaves the zone as it was served; the zone's next
    // change, or a reload, reads it again.
    if (typeof id === 'string') void this.refresh(id).catch(() => undefined);
  }

  /** Resolves once no read is under way (undefined, at once, when none is). */
  busy(): Promise<void> | undefined {
    if (this.reads.size === 0 && this.full === undefined) return undefined;
    const waits = [...this.reads.values()].map((r) => r.done);
    if (this.full !== undefined) waits.push(this.full);
    return Promise.all(waits.map((w) => w.catch(() => undefined))).then(() => this.busy());
  }

  /** The served zone with this id. */
  get(id: string): ZoneIndex | undefined {
    return this.byId.get(id);
  }

  /** Every served zone. */
  all(): IterableIterator<ZoneIndex> {
    return this.byId.values();
  }

  /** Forgets every zone (without announcing it), for a full read after the service was reset or restored. */
  clear(): void {
    this.byId.clear();
    this.byApex.clear();
  }

  /** A full read under way. */
  private full: Promise<void> | undefined;

  /** Reads every zone of the service; queries wait for it. */
  loadAll(): Promise<void> {
    const full = this.readAll().finally(() => {
      if (this.full === full) this.full = undefined;
    });
    this.full = full;
    return full;
  }

  private async readAll(): Promise<void> {
    let marker: string | undefined;
    for (;;) {
      const page = await this.dns.zones.list(READER, marker === undefined ? { limit: PAGE } : { limit: PAGE, marker });
      if (page.isErr()) throw new ReadError(`listing zones: ${page.error.message}`);
      for (const z of page.value.zones) if (servable(z)) await this.load(z);
      if (page.value.zones.length < Number(PAGE)) return;
      marker = page.value.zones.at(-1)!.id;
    }
  }

  /**
   * Reads one zone again (or drops it, if the service no longer serves it). Concurrent calls
   * for the same zone share one read, plus one more after it if asked for during it.
   */
  refresh(id: string): Promise<void> {
    const running = this.reads.get(id);
    if (running !== undefined) {
      running.again = true;
      return running.done;
    }
    const entry = { done: Promise.resolve(), again: false };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          const zone = await this.dns.zones.get(READER, id);
          if (zone.isErr()) {
            if (zone.error.status !== 404) throw new ReadError(`reading zone ${id}: ${zone.error.message}`);
            this.drop(id);
          } else if (!servable(zone.value)) this.drop(id);
          else await this.load(zone.value);
        } while (entry.again);
      } finally {
        this.reads.delete(id);
      }
    })();
    this.reads.set(id, entry);
    return entry.done;
  }

  /** Stops serving a zone. */
  drop(id: string): void {
    const zone = this.byId.get(id);
    if (zone === undefined) return;
    this.byId.delete(id);
    if (this.byApex.get(zone.apexKey) === zone) this.byApex.delete(zone.apexKey);
    this.changed(zone, 'dropped');
  }

  private async load(body: ZoneBody): Promise<void> {
    const recordsets: RecordsetInput[] = [];
    let marker: string | undefined;
    for (;;) {
      const page = await this.dns.recordsets.list(READER, body.id, marker === undefined ? { limit: PAGE } : { limit: PAGE, marker });
      if (page.isErr()) {
        if (page.error.status === 404) return this.drop(body.id);
        throw new ReadError(`reading the recordsets of ${body.name}: ${page.error.message}`);
      }
      for (const rs of page.value.recordsets) recordsets.push(rs);
      if (page.value.recordsets.length < Number(PAGE)) break;
      marker = page.value.recordsets.at(-1)!.id;
    }
    const zone = ZoneIndex.build(body.id, body.name, body.ttl ?? 3600, recordsets);
    const before = this.byId.get(body.id);
    if (zone === undefined) {
      this.drop(body.id);
      return;
    }
    this.byId.set(body.id, zone);
    this.byApex.set(zone.apexKey, zone);
    if (before === undefined) this.changed(zone, 'added');
    else if (before.serial !== zone.serial) this.changed(zone, 'serial');
  }

  close(): void {
    this.unsubscribe();
  }
}
