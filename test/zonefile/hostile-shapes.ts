/**
 * Inputs that would make a careless reader quadratic, each as a function of a size `n` (about
 * its length in characters). The unit tests count the reader's work on them
 * (properties.test.ts, "linear work"); `npm run bench` times them (bench/zonefile.bench.ts).
 */
export const HOSTILE_SHAPES: readonly (readonly [string, (n: number) => string])[] = [
  ['open parentheses', (n) => 'a TXT ' + '('.repeat(n)],
  ['backslashes', (n) => 'a TXT x' + '\\\\'.repeat(n)],
  ['escaped quotes in one string', (n) => 'a TXT "' + '\\"'.repeat(n) + '"'],
  ['unterminated quote', (n) => 'a TXT "' + 'x'.repeat(n)],
  ['many labels', (n) => 'a TXT ' + 'a.'.repeat(n)],
  ['many records', (n) => 'a 60 IN A 192.0.2.1\n'.repeat(n / 4)],
  ['long comment', (n) => ';' + 'x'.repeat(n)],
  ['many blank-owner lines', (n) => 'a 60 A 192.0.2.1\n' + ' TXT "x"\n'.repeat(n / 4)],
  ['SVCB parameters', (n) => 'a SVCB 1 . ' + Array.from({ length: n / 16 }, (_, i) => `key${i + 10}=x`).join(' ')],
  ['many quoted strings', (n) => 'a TXT ' + '"x" '.repeat(n / 4)],
  ['many CNAMEs and owners', (n) => Array.from({ length: n / 24 }, (_, i) => `c${i} CNAME t${i}\nd${i} A 192.0.2.1\n`).join('')],
];

/** The options the shapes are read with. */
export const HOSTILE_OPTIONS = { origin: 'example.com.', defaultTtl: 60, maxBytes: 1e9 } as const;
