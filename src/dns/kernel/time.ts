/**
 * Timestamps as the DNS service renders them: `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC, no zone suffix.
 *
 * Stored values are epoch microseconds (a number is smaller than a string on the heap and sorts
 * numerically); a `Date` carries milliseconds, so the last three digits are always zero.
 * @internal
 */
export function formatTimestamp(micros: number): string {
  // Every body, list entry and event renders two or three of these: arithmetic, not a Date.
  // Exact integers from 1970 on (to the year 2255): every clock reading of this era.
  if (!(Number.isSafeInteger(micros) && micros >= 0)) return viaDate(micros);
  const seconds = Math.floor(micros / 1_000_000);
  const days = Math.floor(seconds / 86_400);
  const inDay = seconds - days * 86_400;
  const hours = Math.floor(inDay / 3600);
  const minutes = Math.floor((inDay - hours * 3600) / 60);
  const fraction = micros - seconds * 1_000_000;
  // The proleptic Gregorian date of a day number, in eras of 400 years counted from 0000-03-01.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${TWO[month]}-${TWO[day]}T${TWO[hours]}:${TWO[minutes]}:${TWO[inDay % 60]}.${String(fraction + 1_000_000).slice(1)}`;
}

/** '00' to '99'. */
const TWO: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/** What `Date` renders, for what no clock of this era stores (before 1970, past 2255, not an integer). */
function viaDate(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString(); // 2024-01-02T03:04:05.678Z
  const micro = String(((micros % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0');
  return `${iso.slice(0, 19)}.${micro}`;
}

/** Epoch microseconds of a clock reading. @internal */
export const toMicros = (date: Date): number => date.getTime() * 1000;

/** Unix seconds of a stored timestamp: the zone serial's time base. @internal */
export const unixSeconds = (micros: number): number => Math.floor(micros / 1_000_000);
