/** LOC (RFC 1876): degrees, minutes, seconds, altitude and precisions, presented as dnspython does. */
import { decimalDigits, isDigits } from './codec.js';
import { atEnd, word, type RdataOut } from './rdata.js';

const DEFAULT_SIZE = 100;
const DEFAULT_HPREC = 1000000;
const DEFAULT_VPREC = 1000;

function coordinate(o: RdataOut, what: string, max: number, positive: string, negative: string): { d: number; m: number; s: number; ms: number; h: string } {
  const lx = o.lx;
  word(o, `${what} degrees`);
  if (!isDigits(lx.text())) lx.fail(`${what} degrees must be a whole number, found ${lx.describe()}`);
  const d = Number(lx.text());
  let m = 0;
  let s = 0;
  let ms = 0;
  word(o, `${what} hemisphere`);
  let t = lx.text();
  if (isDigits(t)) {
    m = Number(t);
    word(o, `${what} hemisphere`);
    t = lx.text();
    const dot = t.indexOf('.');
    if (dot >= 0) {
      const sec = t.slice(0, dot);
      const frac = t.slice(dot + 1);
      if (!isDigits(sec)) lx.fail(`${what} seconds ${lx.describe()} are not a number`);
      if (frac.length === 0 || frac.length > 3 || !isDigits(frac)) lx.fail(`${what} seconds ${lx.describe()} take 1 to 3 decimals`);
      s = Number(sec);
      ms = Number(frac) * (frac.length === 1 ? 100 : frac.length === 2 ? 10 : 1);
      word(o, `${what} hemisphere`);
      t = lx.text();
    } else if (isDigits(t)) {
      s = Number(t);
      word(o, `${what} hemisphere`);
      t = lx.text();
    }
  }
  if (t !== positive && t !== negative) lx.fail(`${what} hemisphere must be ${positive} or ${negative}, found ${lx.describe()}`);
  if (d > max) lx.fail(`${what} degrees ${d} are out of range (0 to ${max})`);
  if (m > 59) lx.fail(`${what} minutes ${m} are out of range (0 to 59)`);
  if (s > 59) lx.fail(`${what} seconds ${s} are out of range (0 to 59)`);
  // A zero coordinate has no sign: it reads back as N or E.
  const h = d === 0 && m === 0 && s === 0 && ms === 0 ? positive : t;
  return { d, m, s, ms, h };
}

function metres(o: RdataOut, what: string, min: number, max: number, wholeMetres = false): number {
  const lx = o.lx;
  word(o, what);
  let t = lx.text();
  if (t.endsWith('m')) t = t.slice(0, -1);
  const digits = decimalDigits(t);
  if (digits < 0) lx.fail(`${what} ${lx.describe()} must be a number of metres, e.g. 10m or 10.5m`);
  if (digits === 0) lx.fail(`${what} ${lx.describe()} must be a number of metres`);
  // dnspython truncates to whole centimetres (the wire unit) before checking the range; as BIND,
  // the limit applies to the whole metres, so 90000000.01m is a size (it travels as 9e9 cm).
  const cm = Math.trunc(Number(t) * 100);
  if (cm < min || (cm > max && !(wholeMetres && Math.trunc(cm / 100) * 100 <= max))) lx.fail(`${what} ${lx.describe()} is out of range (${min / 100}m to ${max / 100}m)`);
  return cm;
}

/** Sizes travel as one digit times a power of ten (RFC 1876 §2): keep only what survives. */
function quantise(cm: number): number {
  if (cm === 0) return 0;
  let exp = 0;
  while (cm >= 10 ** (exp + 1)) exp++;
  return Math.floor(cm / 10 ** exp) * 10 ** exp;
}

const fmt = (cm: number): string => (cm / 100).toFixed(2) + 'm';

export function readLoc(o: RdataOut): void {
  const lat = coordinate(o, 'latitude', 90, 'N', 'S');
  const lon = coordinate(o, 'longitude', 180, 'E', 'W');
  const altitude = metres(o, 'altitude', -10000000, 4284967295);
  let size = DEFAULT_SIZE;
  let hp = DEFAULT_HPREC;
  let vp = DEFAULT_VPREC;
  if (!atEnd(o)) size = quantise(metres(o, 'size', 0, 9e9, true));
  if (!atEnd(o)) hp = quantise(metres(o, 'horizontal precision', 0, 9e9, true));
  if (!atEnd(o)) vp = quantise(metres(o, 'vertical precision', 0, 9e9, true));
  const c = (x: typeof lat): string => `${x.d} ${x.m} ${x.s}.${String(x.ms).padStart(3, '0')} ${x.h}`;
  let text = `${c(lat)} ${c(lon)} ${fmt(altitude)}`;
  if (size !== DEFAULT_SIZE || hp !== DEFAULT_HPREC || vp !== DEFAULT_VPREC) text += ` ${fmt(size)} ${fmt(hp)} ${fmt(vp)}`;
  o.rdata = text;
  o.data = {
    latitude: { degrees: lat.d, minutes: lat.m, seconds: lat.s + lat.ms / 1000, hemisphere: lat.h },
    longitude: { degrees: lon.d, minutes: lon.m, seconds: lon.s + lon.ms / 1000, hemisphere: lon.h },
    altitude: altitude / 100,
    size: size / 100,
    horizontalPrecision: hp / 100,
    verticalPrecision: vp / 100,
  };
}
