/**
 * A JSON number as Python's `json` reads it when it has a fraction or an exponent: a `float`,
 * whose `repr` the secrets service's messages echo (`1.0`, `-0.0`, `1e+16`), where a JavaScript
 * number would print `1`, `0`, `10000000000000000`. The HTTP adapter hands the quota commands
 * these in place of numbers so that a whole float is still accepted as an integer (as the real
 * validator accepts it) but echoed as the float the client sent.
 * @internal
 */
export class PythonFloat {
  constructor(readonly value: number) {}
}

/**
 * Python's `repr(float)`: the shortest digits that read back as the same double (as JavaScript
 * picks them), written fixed while the decimal point sits within 16 digits of them and 4 places
 * after the point, in exponent form (`1e-05`, `1.5e+300`) otherwise, always with a `.0` or an exponent.
 * @internal
 */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa = '', exponent = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  // Python's `decpt`: the value is 0.<digits> × 10^decpt.
  const decpt = Number(exponent) + 1;
  if (decpt <= -4 || decpt > 16) {
    const e = decpt - 1;
    const rest = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0]}${rest}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt < digits.length) return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
}
