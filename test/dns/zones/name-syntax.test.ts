import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { checkNameSyntax } from '../../../src/dns/kernel/zone-rules.js';

// The real service's DomainField, written the slow and obvious way: checkNameSyntax answers
// every name with exactly this verdict and message (its fast path only short-cuts the accepts).
function reference(name: string): string | true {
  for (const label of name.split('.')) if (label.length > 63) return `Host ${label} is too long`;
  if (!name.endsWith('.')) return `Domain ${name} does not end with a dot`;
  const ok = name.slice(0, -1).split('.').every((l) => /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/.test(l));
  if (name.length > 254 || !ok) return `Domain ${name} is invalid`;
  return true;
}

const verdict = (name: string): string | true => {
  const r = checkNameSyntax(name);
  return r.isOk() ? true : r.error.message.replace(/^Provided object is not valid. Got a ValueError error with message /, '');
};

const label = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'Z', '0', '_', '-', 'é', ' ', '*'), maxLength: 5 }),
  fc.integer({ min: 60, max: 66 }).map((n) => 'x'.repeat(n)),
);
const name = fc.tuple(fc.array(label, { maxLength: 6 }), fc.boolean()).map(([labels, dot]) => labels.join('.') + (dot ? '.' : ''));
const long = fc.integer({ min: 240, max: 260 }).map((n) => {
  let s = '';
  while (s.length < n) s += 'abcdefghi.';
  return `${s.slice(0, n - 1).replace(/\.$/, 'x')}.`;
});

describe('checkNameSyntax', () => {
  test.prop([fc.oneof(name, long)], { numRuns: 2000 })('agrees with the DomainField rules, message included', (n) => {
    expect(verdict(n)).toEqual(reference(n));
  });
});
