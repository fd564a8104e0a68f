/**
 * Timestamps as the DNS service renders them: `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC, no zone suffix.
 *
 * Stored values are epoch microseconds (a number is smaller than a string on the heap and sorts
 * numerically); a `Date` carries milliseconds, so the last three digits are always zero.
 * @internal
 */
let lastMicros = Number.NaN;
let lastText = '';

export function formatTimestamp(micros: number): string {
  // One zone's created_at/updated_at are rendered many times in a row (bodies, events, lists).
  if (micros === lastMicros) return lastText;
  const iso = new Date(Math.floor(micros / 1000)).toISOString(); // 2024-01-02T03:04:05.678Z
  const micro = String(((micros % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0');
  lastMicros = micros;
  lastText = `${iso.slice(0, 19)}.${micro}`;
  return lastText;
}

/** Epoch microseconds of a clock reading. @internal */
export const toMicros = (date: Date): number => date.getTime() * 1000;

/** Unix seconds of a stored timestamp: the zone serial's time base. @internal */
export const unixSeconds = (micros: number): number => Math.floor(micros / 1_000_000);
