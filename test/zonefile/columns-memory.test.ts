import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseColumns } from '../../src/zonefile/parse.js';

/**
 * An import keeps the columns it reads (their strings become the zone's stored records), so no
 * string in them may point into the file's text: V8 makes a substring of 13 characters or more a
 * view of its parent, and one such view kept would keep the whole file alive for as long as the
 * zone lives. Measured as the heap the columns hold once the text is gone.
 */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const COMMENT = `; ${'padding that only the file holds '.repeat(20)}`;

/** A file mostly of comments: records on both readers' paths (simple lines, and lines the lexer reads), long owners and data. */
function zoneText(records: number): string {
  const lines = ['$ORIGIN example-with-a-long-origin.test.', '$TTL 3600', '@ SOA ns1.example-with-a-long-origin.test. hostmaster.example-with-a-long-origin.test. 1 7200 3600 1209600 300'];
  for (let i = 0; i < records; i++) {
    const owner = `host-${String(i).padStart(6, '0')}-with-a-long-label`;
    switch (i % 4) {
      case 0:
        lines.push(`${owner} IN TXT "v=spf1 include:_spf.mail-provider-${i}.net ~all" ${COMMENT}`);
        break;
      case 1:
        lines.push(`${owner}.example-with-a-long-origin.test. 300 IN CNAME target-${i}-of-a-long-name.example.net. ${COMMENT}`);
        break;
      case 2:
        // Parentheses and a type without a byte-level reader: the lexer and the full readers.
        lines.push(`${owner} IN TXT ( "first string of record ${i}"`, `  "second string of record ${i}" ) ${COMMENT}`);
        break;
      default:
        lines.push(`${owner} IN HINFO "a-long-cpu-name-${i}" "a-long-os-name-${i}" ${COMMENT}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The columns of a fresh file of `records` records and the file's length; the text itself is not kept. */
function readDropped(records: number, byteLines: boolean): { columns: unknown; length: number } {
  const text = zoneText(records);
  const parsed = parseColumns(text, { maxBytes: 1 << 30, soaMinimumDefault: true, aaaaAsWritten: true, originFirst: true }, byteLines);
  if (parsed.isErr()) throw new Error(parsed.error.message);
  return { columns: parsed.value.columns, length: text.length };
}

describe('parseColumns: the columns do not keep the file alive', () => {
  for (const byteLines of [true, false]) {
    it(`holds far less than the file (${byteLines ? 'byte-level reader' : 'lexer only'})`, () => {
      gc();
      gc();
      const before = process.memoryUsage().heapUsed;
      const read = readDropped(20_000, byteLines);
      gc();
      gc();
      const held = process.memoryUsage().heapUsed - before;
      // The file is about 15 MB, the columns about 4.5 MB (a third of it); kept, the file alone would exceed this.
      expect(read.length).toBeGreaterThan(14_000_000);
      expect(held).toBeLessThan(read.length / 3);
      expect(read.columns).toBeDefined();
    });
  }
});
