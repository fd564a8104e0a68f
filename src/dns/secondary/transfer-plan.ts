import { IMPORT_READING, planColumns, type ImportPlan } from '../kernel/import-plan.js';
import { ownerNameHash } from '../kernel/owner-index.js';
import { packTypes } from '../kernel/recordset.js';
import type { RecordsetColumns } from '../kernel/blocks.js';
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
   * a transferred zone.
   */
  finish(allowed: ReadonlySet<string>): { ok: TransferPlan } | { error: string } {
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
    const planned = planColumns(this.#origin, columns, allowed, (index) => index + 2);
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
        ownerHashes: Uint32Array.from([...names.map((n) => ownerNameHash(n, this.#origin)), ...plan.ownerHashes]),
        recordsetCount: plan.recordsetCount + names.length,
        recordCount: plan.recordCount + data.length,
        largestRecordset: Math.max(plan.largestRecordset, data.length - 1),
      },
    };
  }
}
