import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseZoneFile } from '../../src/zonefile/index.js';
import { requirement, itWith } from './requires.js';
import { generateZone } from './zone-generator.js';

const has = (tool: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore', env: { ...process.env, PATH: `${process.env['PATH'] ?? ''}:/usr/sbin` } });
    return true;
  } catch {
    return false;
  }
};

const records = (text: string) => {
  const parsed = parseZoneFile(text, { origin: 'example.com.' });
  if (parsed.isErr()) throw new Error(`${parsed.error.line}:${parsed.error.column} ${parsed.error.message}`);
  return parsed.value.records;
};

describe('generateZone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zone-generator-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([20, 21, 400, 5000])('writes exactly %i records, the same for the same seed and others for another', (n) => {
    const text = generateZone({ records: n, seed: 4 });
    expect(records(text)).toHaveLength(n);
    expect(generateZone({ records: n, seed: 4 })).toBe(text);
    expect(generateZone({ records: n, seed: 5 })).not.toBe(text);
  });

  it('holds the mix of a hosted zone: every common type, DS only when asked, addresses most', () => {
    const count = (ds: boolean) => {
      const by: Record<string, number> = {};
      for (const r of records(generateZone({ records: 5000, seed: 2, ds }))) by[r.type] = (by[r.type] ?? 0) + 1;
      return by;
    };
    const plain = count(false);
    expect(Object.keys(plain).sort()).toEqual(['A', 'AAAA', 'CAA', 'CNAME', 'MX', 'NS', 'SOA', 'SRV', 'SSHFP', 'TXT']);
    expect(plain['A']! / 5000).toBeGreaterThan(0.3);
    expect(count(true)['DS']).toBeGreaterThan(0);
  });

  it('writes what hand-kept files hold: directives, parentheses, units, blank owners, escapes', () => {
    const text = generateZone({ records: 20000, seed: 1 });
    for (const shape of [/^\$ORIGIN dept/im, /^\$TTL 1800$/m, /\( "v=DKIM1/, /\t\d+[hmdw]/i, /^\s+(IN\s+)?[A-Z]+\s/m, /\\"/, /\\\d{3}/, / ; /, /^\*\./m]) {
      expect(text).toMatch(shape);
    }
  });

  it('refuses what it cannot write', () => {
    expect(() => generateZone({ records: 19 })).toThrow(RangeError);
    expect(() => generateZone({ records: 100, origin: 'no-dot' })).toThrow(RangeError);
  });

  for (const [tool, args, remedy] of [
    ['named-checkzone', (f: string) => ['-i', 'local', 'example.com', f], 'apt-get install bind9-utils'],
    ['kzonecheck', (f: string) => ['-o', 'example.com.', f], 'apt-get install knot-dnssecutils'],
    ['nsd-checkzone', (f: string) => ['example.com', f], 'apt-get install nsd'],
  ] as const) {
    itWith(requirement(tool, has(tool), remedy), `${tool} loads generated zones, DS and class-before-TTL included`, () => {
      for (const [seed, options] of [[1, {}], [2, { ds: true }], [3, { ds: true, classBeforeTtl: true }]] as const) {
        const file = join(dir, `${tool}-${seed}.zone`);
        writeFileSync(file, generateZone({ records: 3000, seed, ...options }));
        execFileSync(tool, args(file), { stdio: 'pipe', env: { ...process.env, PATH: `${process.env['PATH'] ?? ''}:/usr/sbin` } });
      }
    });
  }
});
