import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonFloatRepr } from '../../src/kernel/python-float.js';

describe('pythonFloatRepr', () => {
  it.each([
    [1, '1.0'],
    [-0, '-0.0'],
    [0, '0.0'],
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [9999999999999998, '9999999999999998.0'],
    [1e-5, '1e-05'],
    [1e-4, '0.0001'],
    [0.000123, '0.000123'],
    [2.5e-5, '2.5e-05'],
    [1.5e300, '1.5e+300'],
    [12345678901234568, '1.2345678901234568e+16'],
    [123.456, '123.456'],
    [-0.5, '-0.5'],
    [5e-324, '5e-324'],
    [Number.MAX_VALUE, '1.7976931348623157e+308'],
    [1e22, '1e+22'],
    [100000, '100000.0'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
    [Number.NaN, 'nan'],
  ])('%s is %s, as Python 3 prints it', (x, repr) => {
    expect(pythonFloatRepr(x)).toBe(repr);
  });

  it('reads back as the same double, and shows a point or an exponent, for any finite double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const repr = pythonFloatRepr(x);
        expect(Object.is(Number(repr), x)).toBe(true);
        expect(repr).toMatch(/^-?\d+(\.\d+)?(e[-+]\d\d+)?$/);
        expect(repr.includes('.') || repr.includes('e')).toBe(true);
      }),
    );
  });
});
