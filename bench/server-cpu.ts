/**
 * The CPU time of a local PostgreSQL server, read from /proc: what the PostgreSQL benches charge
 * to each create, background processes included.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ticks (user + system) of each PostgreSQL server process, by pid; empty where /proc is missing. */
export function serverTicks(): Map<string, number> {
  const out = new Map<string, number>();
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('postgres')) continue;
      const f = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ');
      out.set(pid, Number(f[11]) + Number(f[12]));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/**
 * Server CPU µs spent since `before` (a {@link serverTicks} reading) by the processes alive now: a
 * backend that ended meanwhile took its time with it, so read this before connections close.
 */
export function serverMicrosSince(before: Map<string, number>): number {
  let ticks = 0;
  for (const [pid, t] of serverTicks()) ticks += t - (before.get(pid) ?? 0);
  return ticks * 1e4; // USER_HZ 100: a tick is 10,000 µs
}
