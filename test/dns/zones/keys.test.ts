import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { tupleKey } from '../../../src/kernel/keys.js';
import { nameKey } from '../../../src/dns/kernel/zone-store.js';

// The name index relies on two laws: a name's key is its lower-cased labels root first, and a
// zone's ancestors' keys are exactly the prefixes of its key that end at a terminator.
const reference = (name: string): string => {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  return trimmed === '' ? '' : tupleKey(...trimmed.toLowerCase().split('.').reverse());
};
const label = fc.string({ unit: fc.constantFrom('a', 'B', '-', '0', '\u0000', '\u0001', 'é'), maxLength: 4 });
const name = fc.tuple(fc.array(label, { maxLength: 5 }), fc.boolean()).map(([labels, dot]) => labels.join('.') + (dot ? '.' : ''));

describe('tupleKey integers', () => {
  test.prop([fc.oneof(fc.maxSafeNat(), fc.integer({ min: 0, max: 2 ** 32 }), fc.constantFrom(0, 0xfffffff, 0x10000000, 2 ** 53 - 1))])(
    'are 14 lower-case hex digits and a terminator',
    (n) => {
      expect(tupleKey(n)).toBe(`${n.toString(16).padStart(14, '0')}\u0000`);
    },
  );
});

describe('nameKey', () => {
  it('reverses and lower-cases the labels', () => {
    expect(nameKey('Www.Example.COM.')).toBe('com\u0000example\u0000www\u0000');
    expect(nameKey('example.com')).toBe(nameKey('EXAMPLE.com.'));
    expect(nameKey('.')).toBe('');
    expect(nameKey('a..b.')).toBe('b\u0000\u0000a\u0000');
  });

  test.prop([name])('equals the tuple of the reversed, lower-cased labels', (n) => {
    expect(nameKey(n)).toBe(reference(n));
  });

  test.prop([name, name])('a name is below another exactly when its key extends the other key', (a, b) => {
    const [ka, kb] = [nameKey(a), nameKey(b)];
    const aLabels = reference(a) === '' ? 0 : a.replace(/\.$/, '').split('.').length;
    const bLabels = reference(b) === '' ? 0 : b.replace(/\.$/, '').split('.').length;
    const suffix = `.${b.replace(/\.$/, '').toLowerCase()}`;
    const below = bLabels === 0 || (aLabels >= bLabels && `.${a.replace(/\.$/, '').toLowerCase()}`.endsWith(suffix));
    expect(ka.startsWith(kb)).toBe(below);
  });
});
