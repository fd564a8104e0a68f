import { IMPORT_READING, planColumns, type ImportPlan } from '../kernel/import-plan.js';
import { ownerNameHash, type OwnerKey } from '../kernel/owner-index.js';
import { packTypes, TYPE_CODE_BASE } from '../kernel/recordset.js';
import { blockBounds, type RecordsetColumns } from '../kernel/blocks.js';
import { COLUMN_MASK, COLUMN_SHIFT } from '../../zonefile/columns.js';
import { parseColumns } from '../../zonefile/parse.js';
import { typeFromText } from '../../zonefile/registry.js';
import type { MasterRecord, TransferLimits } from './master-port.js';

const TYPE_SOA = typeFromText('SOA');
const TYPE_NS = typeFromText('NS');

/** What a transfer stores: the import's plan, with the SOA and apex NS recordsets kept (first). @internal */
export type TransferPlan = ImportPlan;

/**
 * A byte no line of a record may hold: a line break or NUL would let one record's text become
 * several lines (or a `$INCLUDE`) of the file the parser reads; other control characters are
 * not presentation form.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Owner names: no blank, comment, quote or parenthesis that would change how the line splits. */
const NAME_UNSAFE = /[\s;()"]/;
const TYPE_TOKEN = /^[A-Za-z][A-Za-z0-9-]*$/;

/**
 * Whether record data keeps to its own line: no control character (a line break would start a
 * new record or a `$INCLUDE`) and no parenthesis outside quotes (an open one would join the next
 * record's line to it). One pass, as it runs over every byte of a transfer.
 */
function staysOnItsLine(data: string): boolean {
  let quoted = false;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c < 32 || c === 127) return false;
    if (c === 92) {
      // backslash: the next character is escaped, but must not be a control character either
      const n = data.charCodeAt(++i);
      if (n < 32 || n === 127) return false;
    } else if (c === 34) quoted = !quoted;
    else if (!quoted && (c === 40 || c === 41)) return false;
  }
  return true;
}

/**
 * Collects a master's pages into the zone-file text that the import parser reads, refusing a
 * record that is not one clean line and stopping at the limits. Nothing here stores anything.
 * @internal
 */
export class TransferCollector {
  readonly #origin: string;
  readonly #limits: TransferLimits;
  readonly #parts: string[];
  #bytes: number;
  #records = 0;

  constructor(origin: string, limits: TransferLimits) {
    this.#origin = origin;
    this.#limits = limits;
    const head = `$ORIGIN ${origin}\n`;
    this.#parts = [head];
    this.#bytes = head.length;
  }

  /** Records taken so far. */
  get records(): number {
    return this.#records;
  }

  /** Adds a page; a message when the transfer must be refused. */
  add(page: readonly MasterRecord[]): string | undefined {
    if (!Array.isArray(page)) return 'a page of records must be an array';
    for (const r of page as readonly unknown[]) {
      if (typeof r !== 'object' || r === null) return 'a record must be an object';
      const { name, type, ttl, data } = r as Record<string, unknown>;
      if (typeof name !== 'string' || !name.endsWith('.') || name.startsWith('$') || NAME_UNSAFE.test(name) || CONTROL.test(name)) {
        return `record name ${JSON.stringify(String(name).slice(0, 80))} is not an absolute name`;
      }
      if (typeof type !== 'string' || !TYPE_TOKEN.test(type)) return `record type ${JSON.stringify(String(type).slice(0, 20))} is not a type`;
      if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0 || ttl > 4294967295) return `record TTL ${String(ttl)} is not a TTL`;
      if (typeof data !== 'string' || !staysOnItsLine(data)) return `the data of ${name} ${type} is not one line of presentation text`;
      if (++this.#records > this.#limits.maxRecords) return `more than ${this.#limits.maxRecords} records`;
      const line = `${name} ${ttl} IN ${type} ${data}\n`;
      // UTF-16 length: a lower bound of the UTF-8 size, and exact for the ASCII masters send.
      this.#bytes += line.length;
      if (this.#bytes > this.#limits.maxBytes) return `more than ${this.#limits.maxBytes} bytes of records`;
      this.#parts.push(line);
    }
    return undefined;
  }

  /**
   * Reads the collected records with the import's parser and rules and plans the recordsets:
   * every record inside the zone, exactly one SOA (at the apex), the record types the service
   * stores, the CNAME rule; the SOA and apex NS recordsets are kept, as the real service stores
   * a transferred zone. `key`: the owner hashes' (`drawOwnerKey`).
   */
  finish(allowed: ReadonlySet<string>, key: OwnerKey): { ok: TransferPlan } | { error: string } {
    const text = this.#parts.join('');
    this.#parts.length = 0;
    const parsed = parseColumns(text, { maxBytes: this.#limits.maxBytes * 3 + 64, ...IMPORT_READING });
    if (parsed.isErr()) return { error: `malformed record on line ${parsed.error.line - 1}: ${parsed.error.message}` };
    const { columns } = parsed.value;
    // One line per record was written, so anything else means a line did not read as one record.
    if (columns.count !== this.#records) return { error: 'the records did not read as one record a line' };
    const origin = this.#origin.toLowerCase();
    const suffix = `.${origin}`;
    let soa = -1;
    const apexNs: number[] = [];
    for (let i = 0; i < columns.count; i++) {
      const owner = columns.owners[i >>> COLUMN_SHIFT]![i & COLUMN_MASK]!.toLowerCase();
      const apex = owner === origin;
      if (!apex && !owner.endsWith(suffix)) return { error: `record ${owner} is outside the zone ${this.#origin}` };
      const type = columns.types[i]!;
      if (type === TYPE_SOA) {
        if (!apex) return { error: `an SOA record at ${owner}, below the apex` };
        if (soa >= 0) return { error: 'a second SOA record' };
        soa = i;
      } else if (type === TYPE_NS && apex) apexNs.push(i);
    }
    if (soa < 0) return { error: 'no SOA record' };
    // Line 1 is the $ORIGIN, then one line per record.
    const planned = planColumns(this.#origin, columns, allowed, key, (index) => index + 2);
    if ('error' in planned) return planned;
    const plan = planned.ok;
    const dataAt = (k: number): string => columns.rdata[k >>> COLUMN_SHIFT]![k & COLUMN_MASK]!;
    const ownerAt = (k: number): string => columns.owners[k >>> COLUMN_SHIFT]![k & COLUMN_MASK]!;
    // The apex recordsets come first, as the master sends them (and the real service creates them).
    const names = [ownerAt(soa)];
    const types = ['SOA'];
    const soaTtl = columns.ttls[soa]!;
    const ttls: (number | null)[] = [soaTtl === 0 ? null : soaTtl];
    const data = [dataAt(soa)];
    const ends = [1];
    if (apexNs.length > 0) {
      const seen = new Set<string>();
      let min = Infinity;
      for (const k of apexNs) {
        min = Math.min(min, columns.ttls[k]!);
        const d = dataAt(k);
        if (!seen.has(d.toLowerCase())) {
          seen.add(d.toLowerCase());
          data.push(d);
        }
      }
      names.push(ownerAt(apexNs[0]!));
      types.push('NS');
      ttls.push(min === 0 ? null : min);
      ends.push(data.length);
    }
    const apexBlock: RecordsetColumns = { names, ...packTypes(types), ttls, ends, data };
    return {
      ok: {
        ...plan,
        blocks: [apexBlock, ...plan.blocks],
        ownerHashes: Uint32Array.from([...names.map((n) => ownerNameHash(n, this.#origin, key)), ...plan.ownerHashes]),
        recordsetCount: plan.recordsetCount + names.length,
        recordCount: plan.recordCount + data.length,
        largestRecordset: Math.max(plan.largestRecordset, data.length - 1),
      },
    };
  }
}

/** The key under which a transfer finds a recordset it keeps: its name (without case, as names compare) and type. */
export const keptKey = (name: string, type: string): string => `${name.toLowerCase()} ${type}`;

/**
 * A transfer's recordsets with their ids: those whose name and type the zone already holds keep
 * that recordset's id (`kept`), as the real service's storage updates them in place; the others
 * take new ids, drawn in the master's order. Blocks hold their ids ascending, so the recordsets
 * are placed in id order (with ids counted up, the kept ones first, then the new ones as the
 * master sent them: the real service's created_at order), the owner hashes moved with them.
 * @param plan - what the transfer stores
 * @param kept - ids of the zone's recordsets by {@link keptKey}
 * @param draw - draws `n` new ids, ascending
 * @internal
 */
export function placeTransfer(
  plan: TransferPlan,
  kept: ReadonlyMap<string, string>,
  draw: (n: number) => readonly string[],
): { ids: string[]; blocks: RecordsetColumns[]; ownerHashes: Uint32Array } {
  const count = plan.recordsetCount;
  const names: string[] = new Array<string>(count);
  const types: string[] = new Array<string>(count);
  const ttls: (number | null)[] = new Array<number | null>(count);
  const records: (readonly string[])[] = new Array<readonly string[]>(count);
  const ids: (string | undefined)[] = new Array<string | undefined>(count);
  let k = 0;
  let fresh = 0;
  for (const b of plan.blocks) {
    for (let i = 0; i < b.names.length; i++, k++) {
      const name = b.names[i]!;
      const type = b.typeNames[b.typeCodes.charCodeAt(i) - TYPE_CODE_BASE]!;
      names[k] = name;
      types[k] = type;
      ttls[k] = b.ttls[i]!;
      records[k] = b.data.slice(i === 0 ? 0 : b.ends[i - 1]!, b.ends[i]);
      ids[k] = kept.get(keptKey(name, type));
      if (ids[k] === undefined) fresh++;
    }
  }
  const drawn = draw(fresh);
  for (let i = 0, d = 0; i < count; i++) if (ids[i] === undefined) ids[i] = drawn[d++];
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
  const bounds = blockBounds(Uint32Array.from(order, (i) => records[i]!.length), count);
  const blocks: RecordsetColumns[] = [];
  for (let n = 0; n + 1 < bounds.length; n++) {
    const at = order.slice(bounds[n], bounds[n + 1]);
    const ends: number[] = [];
    const data: string[] = [];
    for (const i of at) {
      // One push a record: a spread of a recordset of a million records would overflow the stack.
      for (const r of records[i]!) data.push(r);
      ends.push(data.length);
    }
    blocks.push({ names: at.map((i) => names[i]!), ...packTypes(at.map((i) => types[i]!)), ttls: at.map((i) => ttls[i]!), ends, data });
  }
  return { ids: order.map((i) => ids[i]!), blocks, ownerHashes: Uint32Array.from(order, (i) => plan.ownerHashes[i]!) };
}
