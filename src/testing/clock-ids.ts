/**
 * A clock for tests: it stands still until told to move.
 *
 * @category Testing
 */
export type ManualClock = (() => Date) & {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the clock to a point in time. */
  set(t: Date | string): void;
};

/**
 * A clock that only moves when the test moves it, for byte-stable timestamps and serials.
 *
 * @param start - the first reading
 * @example
 * ```ts
 * const clock = manualClock('2026-01-01T00:00:00Z');
 * const dns = createDnsService({ clock });
 * clock.advance(1000);
 * ```
 * @category Testing
 */
export function manualClock(start: Date | string): ManualClock {
  let now = new Date(start).getTime();
  if (Number.isNaN(now)) throw new TypeError(`manualClock: not a time: ${String(start)}`);
  const clock = (() => new Date(now)) as ManualClock;
  clock.advance = (ms: number) => {
    now += ms;
  };
  clock.set = (t: Date | string) => {
    const next = new Date(t).getTime();
    if (Number.isNaN(next)) throw new TypeError(`manualClock.set: not a time: ${String(t)}`);
    now = next;
  };
  return clock;
}

/**
 * UUID-shaped ids counted up from 1: `00000000-0000-4000-8000-000000000001`, … A prefix of up
 * to 8 hex digits replaces the leading zeros so two services' ids never collide.
 *
 * @param prefix - hex digits for the first group
 * @category Testing
 */
export function sequentialIds(prefix = ''): () => string {
  if (!/^[0-9a-f]{0,8}$/i.test(prefix)) throw new TypeError('sequentialIds: the prefix must be up to 8 hex digits');
  const head = prefix.toLowerCase().padStart(8, '0');
  let n = 0;
  return () => {
    n += 1;
    return `${head}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
  };
}

/**
 * A deterministic `[0, 1)` source (mulberry32 over a hash of the seed), for transfer keys and
 * SOA refresh values that are the same in every run.
 *
 * @param seed - any number or string
 * @category Testing
 */
export function seededRandom(seed: number | string): () => number {
  let h = 2166136261;
  for (const ch of String(seed)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
