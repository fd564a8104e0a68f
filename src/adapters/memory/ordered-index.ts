/**
 * An order-statistic B+tree of `(key, id)` string pairs: the structure behind every secondary
 * index of the in-memory storage adapter.
 *
 * Why a hand-written tree instead of a generic sorted container: the adapter needs ranks
 * (offset pagination, counts of a prefix range) in O(log n), and an index can hold millions of
 * entries, so the per-entry cost has to be two array slots, not an object per entry. Leaves keep
 * keys and ids in parallel arrays; branches keep the entry count of every child so a rank is
 * found by one descent.
 *
 * Separators in a branch are lower bounds, not copies of live entries: `keys[i]`/`ids[i]`
 * (for i >= 1) is <= every pair in child i and > every pair in child i - 1. Deletes never
 * have to fix them up, and every search (exact, rank, prefix) only needs "the pairs on one
 * side of some point", which lower bounds answer. Slot 0 of a branch's separator arrays is
 * unused, so children, separators and counts can be spliced in lockstep.
 * @internal
 */

/** Leaf: the entries themselves, linked to its neighbours so range walks need no stack. */
class Leaf {
  readonly leaf = true as const;
  prev: Leaf | null = null;
  next: Leaf | null = null;
  constructor(
    public keys: string[],
    public ids: string[],
  ) {}
}

/** Branch: children with their lower-bound separators and subtree entry counts. */
class Branch {
  readonly leaf = false as const;
  constructor(
    public children: TreeNode[],
    public keys: string[],
    public ids: string[],
    public counts: number[],
  ) {}
}

type TreeNode = Leaf | Branch;

/**
 * Tuning knobs for {@link OrderedIndex}. The defaults suit large indexes; small capacities
 * exist so tests can build deep trees from a few entries.
 * @internal
 */
export interface OrderedIndexOptions {
  /** Most entries per leaf (2 to 65536, default 64). Larger leaves use less memory per entry but make inserts and deletes shift more. */
  readonly leafCapacity?: number;
  /** Most children per branch (4 to 65536, default 64). */
  readonly branchCapacity?: number;
}

// How a descent decides that a separator or entry is still "before" the point it looks for.
/** (k, i) < (key, id): counts entries strictly below a pair. */
const LT = 0;
/** (k, i) <= (key, id): finds the child that may hold a pair, and counts entries up to it. */
const LE = 1;
/** k < key or k starts with key: counts entries up to the end of a prefix range. */
const PREFIX = 2;
type Mode = typeof LT | typeof LE | typeof PREFIX;

function before(mode: Mode, k: string, i: string, key: string, id: string): boolean {
  if (k < key) return true;
  switch (mode) {
    case LT:
      return k === key && i < id;
    case LE:
      return k === key && i <= id;
    default:
      // Keys starting with the prefix are exactly the keys that are >= prefix and not past
      // it; since "k < key || k starts with key" is monotone in k, it splits the order in two.
      return k.startsWith(key);
  }
}

/**
 * Makes V8 flatten a concatenated ("cons") string in place. Index keys are built by
 * concatenation, and comparing cons strings walks the rope on every comparison: about three
 * times slower than flat strings, and a descent compares a dozen times or more. ToNumber
 * flattens its argument once, for good, in O(length); the result is irrelevant.
 */
function flat(s: string): string {
  Number(s);
  return s;
}

function sizeOf(node: TreeNode): number {
  if (node.leaf) return node.keys.length;
  let total = 0;
  for (const c of node.counts) total += c;
  return total;
}

/** Smallest integer rank >= x, clamped to [0, size]; NaN counts as 0 so a bad bound yields an empty range, not a throw. */
function clampRank(x: number, size: number): number {
  if (!(x > 0)) return 0;
  if (x >= size) return size;
  return Math.ceil(x);
}

function checkCapacity(value: number | undefined, fallback: number, min: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > 65536) {
    throw new RangeError(`OrderedIndex: ${name} must be an integer from ${min} to 65536, got ${value}`);
  }
  return value;
}

/**
 * A set of `(key, id)` string pairs ordered by key, then id (plain `<` on strings, i.e. UTF-16
 * code units), with rank queries. Used by the in-memory storage adapter for every secondary
 * index: `key` is the encoded index key, `id` the primary key of the record.
 *
 * All operations are O(log n) except {@link OrderedIndex.forEach}, which is O(log n + visited).
 * @internal
 */
export class OrderedIndex {
  private root: TreeNode = new Leaf([], []);
  private count = 0;
  /** Bumped on every change so forEach can notice a visitor that modifies the index. */
  private version = 0;
  /** A node split off during an insert, handed from a child to its parent. */
  private splitOff: TreeNode | null = null;
  /** Offset inside the leaf returned by the last leafAt call (a field, to avoid allocating a pair per call). */
  private offset = 0;
  private readonly leafMax: number;
  private readonly leafMin: number;
  private readonly branchMax: number;
  private readonly branchMin: number;

  /**
   * Creates an empty index.
   * @param options - node capacities; only tests and benchmarks need to change them.
   * @throws RangeError when a capacity is out of range.
   */
  constructor(options: OrderedIndexOptions = {}) {
    this.leafMax = checkCapacity(options.leafCapacity, 64, 2, 'leafCapacity');
    this.branchMax = checkCapacity(options.branchCapacity, 64, 4, 'branchCapacity');
    // Half-full minimums: merging stays cheap (two halves always fit in one node) and a tree
    // emptied by deletes keeps at least half of every array slot in use.
    this.leafMin = this.leafMax >>> 1;
    this.branchMin = this.branchMax >>> 1;
  }

  /** Number of entries; kept as a field because the adapter reads it for every count query. */
  get size(): number {
    return this.count;
  }

  /**
   * Inserts the pair.
   * @returns false, leaving the index unchanged, when the pair is already there.
   */
  insert(key: string, id: string): boolean {
    if (!this.insertInto(this.root, flat(key), flat(id))) return false;
    const right = this.splitOff;
    if (right !== null) {
      this.splitOff = null;
      const left = this.root;
      this.root = new Branch([left, right], ['', right.keys[0] ?? ''], ['', right.ids[0] ?? ''], [sizeOf(left), sizeOf(right)]);
    }
    this.count++;
    this.version++;
    return true;
  }

  /**
   * Removes the pair.
   * @returns false when the pair was not there.
   */
  delete(key: string, id: string): boolean {
    if (!this.deleteFrom(this.root, flat(key), flat(id))) return false;
    // A branch root left with one child only adds a level to every descent.
    let root = this.root;
    while (!root.leaf && root.children.length === 1) root = root.children[0] as TreeNode;
    this.root = root;
    this.count--;
    this.version++;
    return true;
  }

  /** Rank of the first entry >= (key, id), i.e. how many entries are strictly less than it; the pair need not be present. */
  lowerBound(key: string, id: string): number {
    return this.rankOf(LT, flat(key), flat(id));
  }

  /** Rank of the first entry > (key, id); the pair need not be present. */
  upperBound(key: string, id: string): number {
    return this.rankOf(LE, flat(key), flat(id));
  }

  /**
   * The `[start, end)` ranks of the entries whose key starts with `prefix` (`''`: all
   * entries). Those entries are contiguous; the end is found by a prefix-aware descent rather
   * than a sentinel such as `prefix + '\uffff'`, which would miss keys continuing with U+FFFF.
   */
  prefixBounds(prefix: string): { start: number; end: number } {
    // ('' is the smallest id, so (prefix, '') is below every entry whose key is >= prefix.)
    const p = flat(prefix);
    return { start: this.rankOf(LT, p, ''), end: this.rankOf(PREFIX, p, '') };
  }

  /** The entry at a rank, or undefined when the rank is not an integer in [0, size). */
  at(rank: number): { key: string; id: string } | undefined {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.count) return undefined;
    const leaf = this.leafAt(rank);
    const offset = this.offset;
    return { key: leaf.keys[offset] as string, id: leaf.ids[offset] as string };
  }

  /**
   * Visits the entries with rank in `[start, end)`: ascending, or from `end - 1` down to
   * `start` for `'desc'`; stops as soon as `visit` returns false. Bounds are clamped to
   * `[0, size]` (a fractional bound rounds up, NaN counts as 0).
   *
   * The visitor may insert and delete. The walk then carries on from the entry after (before,
   * for `'desc'`) the last one visited, in the index as it now is, up to and including the
   * pair that was at the far end of the range when the walk started; so deleting the entry
   * being visited never skips or repeats another.
   */
  forEach(start: number, end: number, direction: 'asc' | 'desc', visit: (key: string, id: string) => boolean | void): void {
    const lo = clampRank(start, this.count);
    const hi = clampRank(end, this.count);
    if (lo >= hi) return;
    const asc = direction !== 'desc';
    let remaining = hi - lo;
    let leaf = this.leafAt(asc ? lo : hi - 1);
    let offset = this.offset;

    // The last pair to visit, remembered in case the visitor changes the ranks. Usually the
    // range ends in the first leaf (a page of results), so that costs no second descent.
    let lastKey: string;
    let lastId: string;
    const far = asc ? offset + remaining - 1 : offset - remaining + 1;
    if (far >= 0 && far < leaf.keys.length) {
      lastKey = leaf.keys[far] as string;
      lastId = leaf.ids[far] as string;
    } else {
      const farLeaf = this.leafAt(asc ? hi - 1 : lo);
      lastKey = farLeaf.keys[this.offset] as string;
      lastId = farLeaf.ids[this.offset] as string;
    }

    let version = this.version;
    for (;;) {
      const key = leaf.keys[offset] as string;
      const id = leaf.ids[offset] as string;
      if (visit(key, id) === false) return;
      if (--remaining <= 0) return;
      if (this.version !== version) {
        version = this.version;
        let next: number;
        if (asc) {
          next = this.rankOf(LE, key, id);
          remaining = this.rankOf(LE, lastKey, lastId) - next;
        } else {
          next = this.rankOf(LT, key, id) - 1;
          remaining = next - this.rankOf(LT, lastKey, lastId) + 1;
        }
        if (remaining <= 0) return;
        leaf = this.leafAt(next);
        offset = this.offset;
        continue;
      }
      if (asc) {
        if (++offset >= leaf.keys.length) {
          // Non-root leaves are never empty and `remaining` counts entries that exist.
          leaf = leaf.next as Leaf;
          offset = 0;
        }
      } else if (--offset < 0) {
        leaf = leaf.prev as Leaf;
        offset = leaf.keys.length - 1;
      }
    }
  }

  /**
   * Visits entries in ascending order from the first pair >= (key, id), or > it when
   * `exclusive`, until `visit` returns false. Unlike {@link OrderedIndex.forEach} it needs no
   * ranks: one descent without summing child counts, then the leaf chain. That is what most
   * reads are (a prefix, a page after a marker), and it costs a third of a rank-based walk,
   * which needs two descents for the bounds and a third to find the first leaf. The visitor
   * must not change the index.
   */
  forEachFrom(key: string, id: string, exclusive: boolean, visit: (key: string, id: string) => boolean | void): void {
    const mode = exclusive ? LE : LT;
    const k = flat(key);
    const i = flat(id);
    let node = this.root;
    while (!node.leaf) {
      const { keys, ids } = node;
      let lo = 1;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (before(mode, keys[mid] as string, ids[mid] as string, k, i)) lo = mid + 1;
        else hi = mid;
      }
      node = node.children[lo - 1] as TreeNode;
    }
    let leaf: Leaf | null = node;
    let lo = 0;
    let hi = leaf.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(mode, leaf.keys[mid] as string, leaf.ids[mid] as string, k, i)) lo = mid + 1;
      else hi = mid;
    }
    let offset = lo;
    while (leaf !== null) {
      const { keys, ids } = leaf;
      for (; offset < keys.length; offset++) {
        if (visit(keys[offset] as string, ids[offset] as string) === false) return;
      }
      leaf = leaf.next;
      offset = 0;
    }
  }

  /** Removes every entry; the old nodes are dropped whole for the garbage collector. */
  clear(): void {
    this.root = new Leaf([], []);
    this.count = 0;
    this.version++;
  }

  /**
   * Throws when a structural invariant is broken (order, separators, counts, fill, leaf
   * links). For tests: O(n).
   * @internal
   */
  checkInvariants(): void {
    const fail = (message: string): never => {
      throw new Error(`OrderedIndex invariant: ${message}`);
    };
    const leaves: Leaf[] = [];
    let depth = -1;
    const walk = (node: TreeNode, level: number, isRoot: boolean, loK: string | null, loI: string, hiK: string | null, hiI: string): number => {
      if (node.leaf) {
        if (depth === -1) depth = level;
        else if (depth !== level) fail('leaves at different depths');
        const { keys, ids } = node;
        if (keys.length !== ids.length) fail('keys and ids differ in length');
        if (keys.length > this.leafMax) fail('leaf over capacity');
        if (!isRoot && keys.length === 0) fail('empty non-root leaf');
        for (let j = 0; j < keys.length; j++) {
          const k = keys[j] as string;
          const i = ids[j] as string;
          if (typeof k !== 'string' || typeof i !== 'string') fail('hole in a leaf');
          if (j > 0 && !before(LT, keys[j - 1] as string, ids[j - 1] as string, k, i)) fail('leaf not strictly ascending');
          if (loK !== null && before(LT, k, i, loK, loI)) fail('entry below its separator');
          if (hiK !== null && !before(LT, k, i, hiK, hiI)) fail('entry not below the next separator');
        }
        leaves.push(node);
        return keys.length;
      }
      const { children, keys, ids, counts } = node;
      const n = children.length;
      if (keys.length !== n || ids.length !== n || counts.length !== n) fail('branch arrays differ in length');
      if (n > this.branchMax) fail('branch over capacity');
      if (isRoot ? n < 2 : n < this.branchMin) fail(`branch with ${n} children`);
      let total = 0;
      for (let c = 0; c < n; c++) {
        const cLoK = c === 0 ? loK : (keys[c] as string);
        const cLoI = c === 0 ? loI : (ids[c] as string);
        const cHiK = c === n - 1 ? hiK : (keys[c + 1] as string);
        const cHiI = c === n - 1 ? hiI : (ids[c + 1] as string);
        if (c > 0 && loK !== null && before(LT, cLoK as string, cLoI, loK, loI)) fail('separator below its parent bound');
        if (cLoK !== null && cHiK !== null && !before(LT, cLoK, cLoI, cHiK, cHiI)) fail('separators not ascending');
        const size = walk(children[c] as TreeNode, level + 1, false, cLoK, cLoI, cHiK, cHiI);
        if (counts[c] !== size) fail('stale child count');
        total += size;
      }
      return total;
    };
    const total = walk(this.root, 0, true, null, '', null, '');
    if (total !== this.count) fail('size differs from the entry count');
    for (let l = 0; l < leaves.length; l++) {
      const leaf = leaves[l] as Leaf;
      if (leaf.prev !== (leaves[l - 1] ?? null) || leaf.next !== (leaves[l + 1] ?? null)) fail('broken leaf links');
      // Only the two end leaves may be small: appends and prepends split them lopsidedly.
      if (l > 0 && l < leaves.length - 1 && leaf.keys.length < this.leafMin) fail('inner leaf under half full');
    }
  }

  /** The leaf holding rank `rank` (0 <= rank < size); the offset goes to `this.offset`. */
  private leafAt(rank: number): Leaf {
    let node = this.root;
    let r = rank;
    while (!node.leaf) {
      const { counts } = node;
      let c = 0;
      const last = counts.length - 1;
      while (c < last && r >= (counts[c] as number)) r -= counts[c++] as number;
      node = node.children[c] as TreeNode;
    }
    this.offset = r;
    return node;
  }

  /** How many entries are "before" (key, id) in the sense of `mode`. */
  private rankOf(mode: Mode, key: string, id: string): number {
    let node = this.root;
    let rank = 0;
    while (!node.leaf) {
      const { keys, ids, counts } = node;
      // The last child whose lower bound is before the point: everything in earlier
      // children is before it, nothing in later children is.
      let lo = 1;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (before(mode, keys[mid] as string, ids[mid] as string, key, id)) lo = mid + 1;
        else hi = mid;
      }
      const c = lo - 1;
      for (let j = 0; j < c; j++) rank += counts[j] as number;
      node = node.children[c] as TreeNode;
    }
    const { keys, ids } = node;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(mode, keys[mid] as string, ids[mid] as string, key, id)) lo = mid + 1;
      else hi = mid;
    }
    return rank + lo;
  }

  /** Index of the child of `branch` that holds (key, id) if any node does. */
  private childFor(branch: Branch, key: string, id: string): number {
    const { keys, ids } = branch;
    let lo = 1;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid] as string;
      if (k < key || (k === key && (ids[mid] as string) <= id)) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** Inserts below `node`; a node split off `node` is left in `this.splitOff` for the caller. */
  private insertInto(node: TreeNode, key: string, id: string): boolean {
    if (node.leaf) {
      const { keys, ids } = node;
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const k = keys[mid] as string;
        if (k < key || (k === key && (ids[mid] as string) < id)) lo = mid + 1;
        else hi = mid;
      }
      let stored = key;
      if (lo < keys.length && keys[lo] === key) {
        if (ids[lo] === id) return false;
        // Share one string among equal keys: indexes on low-cardinality fields repeat a key
        // for many ids, and callers often hand in fresh copies.
        stored = keys[lo] as string;
      } else if (lo > 0 && keys[lo - 1] === key) {
        stored = keys[lo - 1] as string;
      }
      // Shifted by hand: splice would allocate an array of the (no) removed entries each time.
      for (let j = keys.length; j > lo; j--) {
        keys[j] = keys[j - 1] as string;
        ids[j] = ids[j - 1] as string;
      }
      keys[lo] = stored;
      ids[lo] = id;
      if (keys.length > this.leafMax) this.splitOff = this.splitLeaf(node, lo);
      return true;
    }
    const c = this.childFor(node, key, id);
    if (!this.insertInto(node.children[c] as TreeNode, key, id)) return false;
    const { counts } = node;
    const right = this.splitOff;
    if (right === null) {
      counts[c] = (counts[c] as number) + 1;
      return true;
    }
    const rightSize = sizeOf(right);
    counts[c] = (counts[c] as number) + 1 - rightSize;
    node.children.splice(c + 1, 0, right);
    node.keys.splice(c + 1, 0, right.keys[0] as string);
    node.ids.splice(c + 1, 0, right.ids[0] as string);
    counts.splice(c + 1, 0, rightSize);
    this.splitOff = node.children.length > this.branchMax ? this.splitBranch(node) : null;
    return true;
  }

  /** Splits an overfull leaf whose newest entry is at `at`; returns the new right half. */
  private splitLeaf(leaf: Leaf, at: number): Leaf {
    const n = leaf.keys.length;
    let cut = n >>> 1;
    // Keys arriving in ascending (or descending) order at the end of the whole index would
    // leave every leaf half empty after a middle split; keeping the full leaf whole packs them.
    if (at === n - 1 && leaf.next === null) cut = n - 1;
    else if (at === 0 && leaf.prev === null) cut = 1;
    // Fresh exact-size copies on both sides: an array that overflowed to n entries has grown
    // its backing store by half, and V8 would keep that slack after a splice that removes only
    // a few entries (the ascending case), costing up to 75% more memory per entry for good.
    const { keys, ids } = leaf;
    const right = new Leaf(keys.slice(cut), ids.slice(cut));
    leaf.keys = keys.slice(0, cut);
    leaf.ids = ids.slice(0, cut);
    right.prev = leaf;
    right.next = leaf.next;
    if (leaf.next !== null) leaf.next.prev = right;
    leaf.next = right;
    return right;
  }

  /** Splits an overfull branch in the middle; returns the new right half, whose slot-0 separator is the one to push up. */
  private splitBranch(branch: Branch): Branch {
    const cut = branch.children.length >>> 1;
    return new Branch(branch.children.splice(cut), branch.keys.splice(cut), branch.ids.splice(cut), branch.counts.splice(cut));
  }

  /** Deletes below `node`, rebalancing any child left under half full on the way back up. */
  private deleteFrom(node: TreeNode, key: string, id: string): boolean {
    if (node.leaf) {
      const { keys, ids } = node;
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const k = keys[mid] as string;
        if (k < key || (k === key && (ids[mid] as string) < id)) lo = mid + 1;
        else hi = mid;
      }
      if (lo >= keys.length || keys[lo] !== key || ids[lo] !== id) return false;
      if (lo === keys.length - 1) {
        keys.pop();
        ids.pop();
      } else {
        keys.splice(lo, 1);
        ids.splice(lo, 1);
      }
      return true;
    }
    const c = this.childFor(node, key, id);
    const child = node.children[c] as TreeNode;
    if (!this.deleteFrom(child, key, id)) return false;
    node.counts[c] = (node.counts[c] as number) - 1;
    if (child.leaf ? child.keys.length < this.leafMin : child.children.length < this.branchMin) this.rebalance(node, c);
    return true;
  }

  /**
   * Fixes an under-full child `c` of `parent` (which always has a sibling for it: non-root
   * branches are at least half full and a one-child root is collapsed) by merging it with a
   * neighbour when both fit in one node, else by evening out the two.
   */
  private rebalance(parent: Branch, c: number): void {
    const li = c > 0 ? c - 1 : c;
    const ri = li + 1;
    const left = parent.children[li] as TreeNode;
    const right = parent.children[ri] as TreeNode;
    const { counts } = parent;
    if (left.leaf) {
      const r = right as Leaf;
      const total = left.keys.length + r.keys.length;
      if (total <= this.leafMax) {
        for (const k of r.keys) left.keys.push(k);
        for (const i of r.ids) left.ids.push(i);
        left.next = r.next;
        if (r.next !== null) r.next.prev = left;
        this.removeChild(parent, ri);
        counts[li] = total;
        return;
      }
      const want = total >>> 1;
      if (left.keys.length > want) {
        r.keys = left.keys.splice(want).concat(r.keys);
        r.ids = left.ids.splice(want).concat(r.ids);
      } else {
        const moving = want - left.keys.length;
        for (const k of r.keys.splice(0, moving)) left.keys.push(k);
        for (const i of r.ids.splice(0, moving)) left.ids.push(i);
      }
      parent.keys[ri] = r.keys[0] as string;
      parent.ids[ri] = r.ids[0] as string;
      counts[li] = left.keys.length;
      counts[ri] = r.keys.length;
      return;
    }
    const r = right as Branch;
    // The parent's separator becomes a real bound once right's first child sits after another.
    r.keys[0] = parent.keys[ri] as string;
    r.ids[0] = parent.ids[ri] as string;
    const total = left.children.length + r.children.length;
    if (total <= this.branchMax) {
      for (const x of r.children) left.children.push(x);
      for (const k of r.keys) left.keys.push(k);
      for (const i of r.ids) left.ids.push(i);
      for (const n of r.counts) left.counts.push(n);
      counts[li] = (counts[li] as number) + (counts[ri] as number);
      this.removeChild(parent, ri);
      return;
    }
    const want = total >>> 1;
    if (left.children.length > want) {
      r.children = left.children.splice(want).concat(r.children);
      r.keys = left.keys.splice(want).concat(r.keys);
      r.ids = left.ids.splice(want).concat(r.ids);
      r.counts = left.counts.splice(want).concat(r.counts);
    } else {
      const moving = want - left.children.length;
      for (const x of r.children.splice(0, moving)) left.children.push(x);
      for (const k of r.keys.splice(0, moving)) left.keys.push(k);
      for (const i of r.ids.splice(0, moving)) left.ids.push(i);
      for (const n of r.counts.splice(0, moving)) left.counts.push(n);
    }
    parent.keys[ri] = r.keys[0] as string;
    parent.ids[ri] = r.ids[0] as string;
    counts[li] = sizeOf(left);
    counts[ri] = sizeOf(r);
  }

  private removeChild(parent: Branch, index: number): void {
    parent.children.splice(index, 1);
    parent.keys.splice(index, 1);
    parent.ids.splice(index, 1);
    parent.counts.splice(index, 1);
  }
}
