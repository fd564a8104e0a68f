/**
 * The counts the schema keeps (`zoneward_counted`, `zoneward_counts`), as the adapter sees them.
 * @module
 * @internal
 */

/** The counter row of a whole index (depth 0) has an empty part. @internal */
export const EMPTY = Buffer.alloc(0);

/** A value about to be inserted, as far as the counts go: its collection and its index entries. @internal */
export interface CountedValue {
  readonly collection: string;
  readonly names: readonly string[];
  readonly keys: readonly Buffer[];
}

/**
 * Which maintained count a prefix can use: 0 for the whole index, 1 for exactly one tuple part
 * (one U+0000, at its end), -1 for none (the entries are counted).
 * @internal
 */
export function countDepth(prefix: string): 0 | 1 | -1 {
  if (prefix === '') return 0;
  const nul = prefix.indexOf('\u0000');
  return nul === prefix.length - 1 ? 1 : -1;
}

/**
 * Which counts the schema keeps (`zoneward_counted`), read once per storage: the adapter itself
 * picks the count statement and works out what a create adds to the counts, so neither joins the
 * table on every call. The table is written by migrations (and tests before first use); a row
 * added later is only seen by storages created after it.
 * @internal
 */
export class KeptCounts {
  private readonly rules: readonly { readonly like: RegExp; readonly index: string; readonly depth: number }[];

  constructor(rows: readonly { collection_like: string; index_name: string; depth: number }[]) {
    this.rules = rows.map((r) => ({ like: likePattern(r.collection_like), index: r.index_name, depth: Number(r.depth) }));
  }

  /** Whether the count of `index` of `collection` at `depth` (see `countDepth`) is kept. */
  kept(collection: string, index: string, depth: number): boolean {
    return this.rules.some((r) => r.depth === depth && r.index === index && r.like.test(collection));
  }

  /**
   * The counter moves of new values' entries, as the `create` statement's last four arguments:
   * every kept count an entry falls in (depth 0: the whole index; depth 1: the key's first tuple
   * part, U+0000 included, when it has one) goes up by its entries, summed per counter.
   */
  moves(puts: readonly CountedValue[]): [string[], string[], Buffer[], number[]] {
    const out: [string[], string[], Buffer[], number[]] = [[], [], [], []];
    if (this.rules.length === 0) return out;
    const at = new Map<string, number>();
    for (const p of puts) {
      for (let k = 0; k < p.names.length; k++) {
        const index = p.names[k]!;
        const key = p.keys[k]!;
        for (const r of this.rules) {
          if (r.index !== index || !r.like.test(p.collection)) continue;
          const nul = r.depth === 0 ? -1 : key.indexOf(0);
          if (r.depth === 1 && nul < 0) continue;
          const part = r.depth === 0 ? EMPTY : key.subarray(0, nul + 1);
          const counter = `${p.collection}\u0000${index}\u0000${part.toString('hex')}`;
          const i = at.get(counter);
          if (i !== undefined) {
            out[3][i]!++;
            continue;
          }
          at.set(counter, out[0].length);
          out[0].push(p.collection);
          out[1].push(index);
          out[2].push(part);
          out[3].push(1);
        }
      }
    }
    return out;
  }
}

/** A LIKE pattern (backslash escapes, `%` and `_`) as an anchored RegExp over code points. */
function likePattern(like: string): RegExp {
  let source = '';
  const chars = [...like];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += (c === '\\' && i + 1 < chars.length ? chars[++i]! : c).replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u');
}
