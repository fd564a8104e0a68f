/**
 * Runs the same commands on zoneward and on the real service (see oracle-process.ts) and puts
 * their answers side by side in one comparable shape: an error is `status type: message`, a
 * zone is the fields a client sees, with ids replaced by the zone's position in the run (each
 * side draws its own ids) and serials and timestamps reduced to what the contract fixes about
 * them.
 */
import { createDnsService, type ApiError, type DnsService, type RequestContext } from '../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';
import { parseZoneFile } from '../../src/zonefile/index.js';
import { isOracleError, type Oracle, type OracleError } from './oracle-process.js';

/** A body sent as a server would pass it (`unknown`): deliberately outside the typed input. */
const untyped = (body: unknown): unknown => body;

/** Our service configured as the oracle's: manual tasks (zones stay PENDING until settled), 403 refusals, its pool. */
export function mirrorService(): DnsService {
  return createDnsService({
    tasks: 'manual',
    forbiddenStatus: 403,
    clock: manualClock('2026-01-01T00:00:00Z'),
    ids: sequentialIds(),
    random: seededRandom(1),
  });
}

/** A member of a project, as the oracle's `ctx(project)` (roles member and reader). */
export const member = (project: string): RequestContext => ({ projectId: project, roles: ['member', 'reader'] });

/** Both sides' ids for the same zone, so later commands name the same zone on each. */
export class IdMap {
  private readonly oursByTheirs = new Map<string, string>();
  private readonly labels = new Map<string, string>();

  pair(theirs: string, ours: string): void {
    this.oursByTheirs.set(theirs, ours);
    const label = `#${this.labels.size / 2 + 1}`;
    this.labels.set(theirs, label);
    this.labels.set(ours, label);
  }

  has(theirs: string): boolean {
    return this.oursByTheirs.has(theirs);
  }

  byLabel(label: string): { theirs: string; ours: string } | undefined {
    for (const [theirs, ours] of this.oursByTheirs) if (this.labels.get(theirs) === label) return { theirs, ours };
    return undefined;
  }

  label(id: unknown): unknown {
    return typeof id === 'string' ? (this.labels.get(id) ?? (id === '' ? id : '<unpaired id>')) : id;
  }
}

/** An error in the comparable shape. */
const errorLine = (status: number | null, type: string | null, message: string): string => `${status} ${type}: ${message}`;

/**
 * The real service's error as its API shows it: an exception that is not its own (a database
 * error, say) reaches the client as a bare 500 `unknown`, without its text.
 */
export function theirError(e: OracleError): string {
  return e.code === null ? errorLine(500, 'unknown', '') : errorLine(e.code, e.error_type, e.message);
}

/**
 * Our error as the real service's exception text: a structured schema error has no message in
 * the body (its detail is in `errors`), and the exception behind it reads "Provided object does
 * not match schema".
 */
export function ourError(e: ApiError): string {
  const body = e.toJSON() as { message?: string; errors?: unknown };
  if (body.message === undefined) return errorLine(e.status, e.type, body.errors === undefined ? '' : 'Provided object does not match schema');
  return errorLine(e.status, e.type, e.message);
}

/** The fields of a zone a client sees, in one shape for both sides (ids as labels). */
function zoneView(z: Record<string, unknown>, ids: IdMap, projectId: unknown, masters: unknown, attributes: unknown): Record<string, unknown> {
  const view: Record<string, unknown> = { id: ids.label(z['id']), project_id: projectId };
  for (const key of ['name', 'email', 'ttl', 'description', 'type', 'status', 'action', 'version', 'pool_id']) view[key] = z[key];
  return { ...view, masters, attributes, updated: z['updated_at'] !== null, transferred: z['transferred_at'] !== null };
}

/** The oracle's internal zone object (its field names, masters and attributes as objects). */
export const theirZone = (z: Record<string, unknown>, ids: IdMap): Record<string, unknown> =>
  zoneView(
    z,
    ids,
    z['tenant_id'],
    ((z['masters'] ?? []) as { host: string; port: number }[]).map((m) => (m.port === 53 ? m.host : `${m.host}:${m.port}`)),
    Object.fromEntries(((z['attributes'] ?? []) as { key: string; value: string }[]).map((a) => [a.key, a.value])),
  );

/** Our zone body. */
export const ourZone = (z: Record<string, unknown>, ids: IdMap): Record<string, unknown> =>
  zoneView(z, ids, z['project_id'], z['masters'], z['attributes']);

/** One compared step: what was asked, and each side's answer. */
export interface Step {
  readonly what: string;
  readonly theirs: unknown;
  readonly ours: unknown;
}

type Answer = { isOk(): boolean; value?: unknown; error?: unknown };

/** A transfer request as each side created it. */
export interface TransferPair {
  readonly theirs: { readonly id: string; readonly key: string };
  readonly ours: { readonly id: string; readonly key: string };
}

/**
 * One run against both services: zoneward's mirror service and one oracle process, which keeps
 * its state for the whole run, so the steps of a run build on each other on both sides. Zones
 * are named by label (`#1`, `#2`, … in the order both sides created them).
 */
export class Session {
  readonly dns = mirrorService();
  readonly ids = new IdMap();

  constructor(
    private readonly oracle: Oracle,
    private readonly steps: Step[],
  ) {}

  /** Both sides' ids of a labelled zone. */
  zone(label: string): { theirs: string; ours: string } {
    const pair = this.ids.byLabel(label);
    if (pair === undefined) throw new Error(`no zone ${label} on both sides`);
    return pair;
  }

  private record(what: string, theirs: unknown, ours: Answer): Step {
    const t = isOracleError(theirs) ? theirError(theirs) : theirs;
    const o = ours.isOk() ? ours.value : ourError(ours.error as ApiError);
    const step = { what, theirs: t, ours: o };
    this.steps.push(step);
    return step;
  }

  /** Records a zone answer; returns the zone's label when both sides answered with a zone. */
  private recordZone(what: string, theirs: unknown, ours: Answer): string | undefined {
    const step = this.record(what, theirs, ours);
    if (typeof step.theirs !== 'object' || step.theirs === null || typeof step.ours !== 'object' || step.ours === null) return undefined;
    const tid = (step.theirs as { id?: unknown }).id;
    const oid = (step.ours as { id?: unknown }).id;
    if (typeof tid === 'string' && typeof oid === 'string' && !this.ids.has(tid)) this.ids.pair(tid, oid);
    this.steps[this.steps.length - 1] = {
      what,
      theirs: theirZone(step.theirs as Record<string, unknown>, this.ids),
      ours: ourZone(step.ours as Record<string, unknown>, this.ids),
    };
    return typeof tid === 'string' ? (this.ids.label(tid) as string) : undefined;
  }

  /** `POST /v2/zones` with this body (the oracle builds it as name, email, type, the rest). */
  async createZone(project: string, body: Record<string, unknown>): Promise<string | undefined> {
    const { name, email, type: _type, ttl, description, ...extra } = body;
    const args: Record<string, unknown> = { project, name, email, ...extra };
    if (ttl !== undefined) args['ttl'] = ttl;
    if (description !== undefined) args['description'] = description;
    const theirs = await this.oracle.ask('create_zone', args);
    const ours = await this.dns.zones.create(member(project), untyped(body));
    return this.recordZone(`create ${project} ${JSON.stringify(body).slice(0, 160)}`, theirs, ours);
  }

  async getZone(project: string, label: string): Promise<void> {
    const z = this.zone(label);
    this.recordZone(`get ${project} ${label}`, await this.oracle.ask('get_zone', { project, zone_id: z.theirs }), await this.dns.zones.get(member(project), z.ours));
  }

  async updateZone(project: string, label: string, changes: Record<string, unknown>): Promise<void> {
    const z = this.zone(label);
    const theirs = await this.oracle.ask('update_zone', { project, zone_id: z.theirs, ...changes });
    const ours = await this.dns.zones.update(member(project), z.ours, untyped(changes));
    this.recordZone(`update ${project} ${label} ${JSON.stringify(changes).slice(0, 160)}`, theirs, ours);
  }

  async deleteZone(project: string, label: string): Promise<void> {
    const z = this.zone(label);
    const theirs = await this.oracle.ask('delete_zone', { project, zone_id: z.theirs });
    const ours = await this.dns.zones.delete(member(project), z.ours);
    this.recordZone(`delete ${project} ${label}`, theirs, ours);
  }

  /** A project's zones, in the list's default order. */
  async listZones(project: string): Promise<void> {
    const theirs = await this.oracle.ask('find_zones', { project });
    const ours = await this.dns.zones.list(member(project), { limit: 'max' });
    this.steps.push({
      what: `list ${project}`,
      theirs: Array.isArray(theirs) ? theirs.map((z) => theirZone(z as Record<string, unknown>, this.ids)) : theirs,
      ours: ours.isOk() ? ours.value.zones.map((z) => ourZone(z as unknown as Record<string, unknown>, this.ids)) : ourError(ours.error),
    });
  }

  /**
   * Imports a zone file on both sides and waits for the outcome; compares the import's status,
   * message and zone, then the zone's recordsets (names, types, TTLs, sorted record data).
   * Returns the label of the zone it created, if both did.
   */
  async importZone(project: string, text: string, what: string): Promise<string | undefined> {
    const theirs = (await this.oracle.ask('import_zone', { project, text })) as Record<string, unknown>;
    const created = await this.dns.imports.create(member(project), text, 'text/dns');
    await this.dns.tasks.settle();
    const ours = created.isOk() ? await this.dns.imports.get(member(project), created.value.id) : created;
    const o = ours.isOk() ? ours.value : undefined;
    const theirZoneId = typeof theirs['zone_id'] === 'string' ? theirs['zone_id'] : null;
    const ourZoneId = o?.zone_id ?? null;
    if (theirZoneId !== null && ourZoneId !== null) this.ids.pair(theirZoneId, ourZoneId);
    this.steps.push({
      what: `import ${project} ${what}`,
      theirs: isOracleError(theirs) ? theirError(theirs) : { status: theirs['status'], message: theirs['message'], zone: this.ids.label(theirZoneId ?? '') },
      ours: ours.isOk() ? { status: o?.status, message: o?.message, zone: this.ids.label(ourZoneId ?? '') } : ourError(ours.error),
    });
    if (theirZoneId === null || ourZoneId === null) return undefined;
    const label = this.ids.label(theirZoneId) as string;
    await this.listRecordsets(project, label, `of the import ${what}`);
    return label;
  }

  /** A zone's recordsets: name, type, TTL and sorted record data, in name and type order. */
  async listRecordsets(project: string, label: string, what: string = label): Promise<void> {
    const z = this.zone(label);
    const theirs = await this.oracle.ask('list_recordsets', { project, zone_id: z.theirs });
    const ours = await this.dns.recordsets.list(member(project), z.ours, { limit: 'max' });
    const order = (a: { name: string; type: string }, b: { name: string; type: string }): number =>
      a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
    type Rs = { name: string; type: string; ttl: number | null; records: string[] };
    // Each side draws the SOA refresh at random from the same range; the rest must match.
    const masked = (r: Rs): Rs => ({ ...r, records: r.records.map((d) => (r.type === 'SOA' ? d.replace(/^(\S+ \S+ \d+) \d+ /, '$1 <refresh> ') : d)).sort() });
    this.steps.push({
      what: `recordsets ${project} ${what}`,
      theirs: Array.isArray(theirs) ? (theirs as Rs[]).map(masked).sort(order) : isOracleError(theirs) ? theirError(theirs) : theirs,
      ours: ours.isOk()
        ? ours.value.recordsets.map((r) => masked({ name: r.name, type: r.type, ttl: r.ttl, records: [...r.records] })).sort(order)
        : ourError(ours.error),
    });
  }

  /** `POST /v2/zones/{id}/tasks/transfer_requests`; returns both sides' request ids and keys. */
  async requestTransfer(project: string, label: string, body: Record<string, unknown>): Promise<TransferPair | undefined> {
    const z = this.zone(label);
    const theirs = (await this.oracle.ask('create_transfer_request', {
      project,
      zone_id: z.theirs,
      ...('target_project_id' in body ? { target_project: body['target_project_id'] } : {}),
      ...('description' in body ? { description: body['description'] } : {}),
    })) as Record<string, unknown>;
    const ours = await this.dns.transferRequests.create(member(project), z.ours, untyped(body));
    const o = ours.isOk() ? (ours.value as unknown as Record<string, unknown>) : undefined;
    const shape = (r: Record<string, unknown>, zoneId: unknown) => ({
      zone: this.ids.label(zoneId),
      project_id: r['tenant_id'] ?? r['project_id'],
      target_project_id: r['target_tenant_id'] ?? r['target_project_id'] ?? null,
      description: r['description'] ?? null,
      status: r['status'],
      key_length: typeof r['key'] === 'string' ? r['key'].length : r['key'],
    });
    this.record(`transfer request ${project} ${label} ${JSON.stringify(body)}`, isOracleError(theirs) ? theirs : shape(theirs, theirs['zone_id']), ours.isOk() ? { isOk: () => true, value: shape(o ?? {}, o?.['zone_id']) } : ours);
    if (isOracleError(theirs) || o === undefined) return undefined;
    return { theirs: { id: theirs['id'] as string, key: theirs['key'] as string }, ours: { id: o['id'] as string, key: o['key'] as string } };
  }

  /** `POST /v2/zones/tasks/transfer_accepts`, with each side's own key (or a wrong one). */
  async acceptTransfer(project: string, request: TransferPair, what: string, wrongKey = false): Promise<void> {
    const theirs = (await this.oracle.ask('accept_transfer', { project, request_id: request.theirs.id, key: wrongKey ? 'WRONGKEY12345678' : request.theirs.key })) as Record<string, unknown>;
    const ours = await this.dns.transferAccepts.create(member(project), { zone_transfer_request_id: request.ours.id, key: wrongKey ? 'WRONGKEY12345678' : request.ours.key });
    const shape = (r: Record<string, unknown>) => ({ status: r['status'], project_id: r['tenant_id'] ?? r['project_id'], zone: this.ids.label(r['zone_id']) });
    this.record(`transfer accept ${project} ${what}`, isOracleError(theirs) ? theirs : shape(theirs), ours.isOk() ? { isOk: () => true, value: shape(ours.value as unknown as Record<string, unknown>) } : ours);
  }

  /**
   * Exports a zone on both sides: the export's status and message, and the records of the file
   * (each side's text parsed by our zone-file engine; owners lower-cased, the SOA's random
   * refresh masked), since the two write the same zone in different layouts.
   */
  async exportZone(project: string, label: string, what: string): Promise<void> {
    const z = this.zone(label);
    const theirs = (await this.oracle.ask('export_zone', { project, zone_id: z.theirs })) as Record<string, unknown>;
    const created = await this.dns.exports.create(member(project), z.ours);
    await this.dns.tasks.settle();
    const ours = created.isOk() ? await this.dns.exports.get(member(project), created.value.id) : created;
    const file = ours.isOk() && ours.value.status === 'COMPLETE' ? await this.dns.exports.file(member(project), ours.value.id) : undefined;
    const records = (text: unknown): unknown => {
      if (typeof text !== 'string') return null;
      const parsed = parseZoneFile(text);
      if (parsed.isErr()) return `unreadable: ${parsed.error.message}`;
      return parsed.value.records
        .map((r) => `${r.name.toLowerCase()} ${r.ttl} ${r.type} ${r.type === 'SOA' ? r.rdata.replace(/^(\S+ \S+ \d+) \d+ /, '$1 <refresh> ') : r.rdata}`)
        .sort();
    };
    this.steps.push({
      what: `export ${project} ${what}`,
      theirs: isOracleError(theirs) ? theirError(theirs) : { status: theirs['status'], message: theirs['message'] ?? null, records: records(theirs['_text']) },
      ours: ours.isOk() ? { status: ours.value.status, message: ours.value.message, records: records(file?.isOk() ? file.value : undefined) } : ourError(ours.error),
    });
  }

  /** Lets every pending push succeed on both sides (the worker's callbacks; our task queue). */
  async settle(): Promise<void> {
    await this.oracle.ask('settle_all', {});
    await this.dns.tasks.settle();
  }
}

export type { Oracle };
