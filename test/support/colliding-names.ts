/**
 * Owner names made to collide under the unkeyed 32-bit FNV-1a that imports once hashed owners
 * with: what anyone could build offline against that hash, for the tests that show the owner
 * table and the owner index no longer care.
 */

/**
 * 2^k owner names (relative to the origin) with one FNV-1a hash, the owner table's: k blocks,
 * each a pair of 5-character labels that collide from the state the blocks before leave (a
 * birthday search of about 80,000 tries a block), so every choice of one label per block gives
 * the same hash. Anyone can make these in a fraction of a second.
 */
export function collidingOwners(k: number): string[] {
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
  // Candidate n is the label of digits (in base 36) of n times an odd constant prime to 36, mod
  // 36^5: labels spread over all five characters (FNV-1a does not collide on short inputs that
  // differ in a few characters only).
  const digits = (n: number): number[] => {
    const out: number[] = [];
    for (let i = 0, x = (n * 2654435761) % 60466176; i < 5; i++, x = Math.floor(x / 36)) out.push(x % 36);
    return out;
  };
  const candidates = 1 << 18; // a 32-bit collision among them is all but certain (about 8 expected)
  const keys = new Float64Array(candidates);
  let state = 0x811c9dc5 | 0;
  let names = [''];
  for (let b = 0; b < k; b++) {
    const lead = b === 0 ? '' : '.';
    const start = lead === '' ? state : Math.imul(state ^ 46, 16777619);
    for (let n = 0; n < candidates; n++) {
      let h = start;
      for (const d of digits(n)) h = Math.imul(h ^ chars.charCodeAt(d), 16777619);
      keys[n] = (h >>> 0) * candidates + n;
    }
    keys.sort();
    let i = 1;
    while (i < candidates && Math.floor(keys[i]! / candidates) !== Math.floor(keys[i - 1]! / candidates)) i++;
    if (i === candidates) throw new Error('no collision among the candidates');
    const label = (key: number): string => lead + digits(key % candidates).map((d) => chars[d]).join('');
    const [a, c] = [label(keys[i - 1]!), label(keys[i]!)];
    names = names.flatMap((name) => [name + a, name + c]);
    state = Math.floor(keys[i]! / candidates) | 0;
  }
  return names;
}

/** The unkeyed FNV-1a of an owner name relative to the origin (as {@link collidingOwners} makes them). */
export function unkeyedHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 0;
}
