/**
 * The zone rules that dnspython does not apply and BIND, Knot and NSD do: one CNAME and one DNAME
 * per owner, one SOA, at the apex, and no byte-order mark. Each is refused with its line and
 * column, and each case is also loaded by the three servers' own checkers where they are installed
 * (.ci/run installs them), so that the verdicts here are theirs and not only ours.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseZoneFile, type ZoneFileError } from '../../src/zonefile/index.js';
import { nameHash } from '../../src/zonefile/lexer.js';
import { describeWith, requirement } from '../support/requires.js';

const HEAD = '$ORIGIN example.com.\n$TTL 3600\n@ SOA ns1 host 1 2 3 4 5\n@ NS ns1\nns1 A 192.0.2.1\n';
const BOM = '\ufeff';

/** A verdict: accepted, or refused at line:column. */
type Verdict = 'ok' | `${number}:${number}`;

interface RuleCase {
  readonly name: string;
  readonly text: string;
  readonly ours: Verdict;
  /** What BIND 9.18, Knot 3.2 and NSD 4.6 answered when the case was written (2026-11-25). */
  readonly bind: boolean;
  readonly knot: boolean;
  readonly nsd: boolean;
}

const cases: readonly RuleCase[] = [
  { name: 'two different CNAMEs at one owner', text: `${HEAD}w CNAME one\nw CNAME two\n`, ours: '7:1', bind: false, knot: false, nsd: false },
  { name: 'the same CNAME twice (one record)', text: `${HEAD}w CNAME one\nW CNAME ONE\n`, ours: 'ok', bind: true, knot: true, nsd: true },
  { name: 'two different DNAMEs at one owner', text: `${HEAD}d DNAME one\nd DNAME two\n`, ours: '7:3', bind: false, knot: false, nsd: false },
  { name: 'the same DNAME twice (one record)', text: `${HEAD}d DNAME one\nd DNAME one\n`, ours: 'ok', bind: true, knot: true, nsd: true },
  // Knot 3.2 keeps one of the SOAs (and, below, loads an SOA off the apex); BIND, NSD and RFC 1035 §5.2 refuse.
  { name: 'a second, different SOA', text: `${HEAD}@ SOA ns1 host 2 2 3 4 5\n`, ours: '6:3', bind: false, knot: true, nsd: false },
  // NSD refuses even an identical copy; BIND and Knot take it as the one record it is (RFC 2181 §5).
  { name: 'the same SOA twice (one record)', text: `${HEAD}@ SOA ns1 host 1 2 3 4 5\n`, ours: 'ok', bind: true, knot: true, nsd: false },
  { name: 'an SOA below the apex', text: `${HEAD}sub SOA ns1 host 1 2 3 4 5\n`, ours: '6:1', bind: false, knot: true, nsd: false },
  {
    name: 'an SOA moved off the apex by a relative $ORIGIN',
    text: '$ORIGIN example.com.\n$TTL 3600\n$ORIGIN example.com\n@ SOA ns1 host 1 2 3 4 5\n@ NS ns1\nns1 A 192.0.2.1\n',
    ours: '4:1',
    bind: false,
    knot: false,
    nsd: false,
  },
  { name: 'a byte-order mark before the first line', text: `${BOM}${HEAD}`, ours: '1:1', bind: false, knot: false, nsd: false },
  // Out-of-zone names are not the zone's data: BIND ignores them (NSD refuses the file for being out of zone at all).
  { name: 'two CNAMEs outside the zone', text: `${HEAD}x.example.org. CNAME a.\nx.example.org. CNAME b.\n`, ours: 'ok', bind: true, knot: true, nsd: false },
];

const verdict = (r: ReturnType<typeof parseZoneFile>): Verdict => (r.isOk() ? 'ok' : `${r.error.line}:${r.error.column}`);
const refusal = (text: string | Uint8Array): ZoneFileError => {
  const r = parseZoneFile(text);
  if (r.isOk()) throw new Error(`unexpectedly accepted: ${JSON.stringify(r.value.records)}`);
  return r.error;
};

describe('zone rules', () => {
  it.each(cases)('$name: $ours', ({ text, ours }) => {
    expect(verdict(parseZoneFile(text))).toBe(ours);
    expect(verdict(parseZoneFile(new TextEncoder().encode(text)))).toBe(ours);
    // The lexer-only path and the structured path give the same answer.
    expect(verdict(parseZoneFile(text, { structured: true }))).toBe(ours);
  });

  it('says what is wrong and where the other record is', () => {
    expect(refusal(`${HEAD}w CNAME one\nw CNAME two\n`).message).toBe(
      'w.example.com. already has a different CNAME (line 6): a name holds at most one CNAME (RFC 2181 §10.1); keep one of them',
    );
    expect(refusal(`${HEAD}d DNAME one\nD DNAME two\n`).message).toContain('already has a different DNAME (line 6)');
    expect(refusal(`${HEAD}@ SOA ns1 host 2 2 3 4 5\n`).message).toContain('line 3 already gave a different one');
    expect(refusal(`${HEAD}sub SOA ns1 host 1 2 3 4 5\n`).message).toContain('at the zone apex example.com., not at sub.example.com.');
    expect(refusal(`${BOM}${HEAD}`).message).toContain('byte-order mark');
    expect(refusal(Uint8Array.of(0xef, 0xbb, 0xbf, 0x40, 0x0a)).message).toContain('byte-order mark');
  });

  it('takes the apex from options.origin, else the first $ORIGIN, else the first SOA', () => {
    expect(verdict(parseZoneFile('$TTL 1\nsub SOA ns1 host 1 2 3 4 5\n', { origin: 'example.com.' }))).toBe('2:1');
    expect(verdict(parseZoneFile('$TTL 1\nsub.example.com. SOA ns1. host. 1 2 3 4 5\n'))).toBe('ok');
    expect(verdict(parseZoneFile('$TTL 1\nsub.example.com. SOA ns1. host. 1 2 3 4 5\nx.sub.example.com. SOA ns1. host. 1 2 3 4 5\n'))).toBe('3:1');
    // An SOA outside the zone is not the zone's (as BIND ignores it), and neither is its second copy.
    expect(verdict(parseZoneFile(`${HEAD}example.org. SOA a. b. 1 2 3 4 5\nexample.org. SOA a. b. 2 2 3 4 5\n`))).toBe('ok');
  });

  it('reports the first offending record in file order, and a $GENERATE line for its records', () => {
    expect(verdict(parseZoneFile(`${HEAD}sub SOA ns1 host 1 2 3 4 5\n@ SOA ns1 host 2 2 3 4 5\n`))).toBe('6:1');
    expect(verdict(parseZoneFile(`${HEAD}@ SOA ns1 host 2 2 3 4 5\nsub SOA ns1 host 1 2 3 4 5\n`))).toBe('6:3');
    expect(verdict(parseZoneFile(`${HEAD}$GENERATE 1-2 w CNAME t$\n`))).toBe('6:1');
    expect(verdict(parseZoneFile(`${HEAD}  $GENERATE 1-2 d DNAME t$\n`))).toBe('6:3');
    expect(verdict(parseZoneFile(`${HEAD}$GENERATE 1-2 w CNAME t\n`))).toBe('ok');
  });

  it('leaves the rules off where the caller turns the CNAME rule off (CNAMEs only)', () => {
    expect(verdict(parseZoneFile(`${HEAD}w CNAME one\nw CNAME two\n`, { cnameRule: false }))).toBe('ok');
    expect(verdict(parseZoneFile(`${HEAD}d DNAME one\nd DNAME two\n`, { cnameRule: false }))).toBe('7:3');
  });

  it('finds two CNAMEs among hundreds of owners made to share one hash', () => {
    // Strings of `aaan`/`aac0` blocks all have the same hash: 512 owners of 9 blocks, so that the
    // hash chains' comparisons run out of budget and the names are checked in a map.
    const names = Array.from({ length: 512 }, (_, i) => Array.from({ length: 9 }, (_, b) => ((i >> b) & 1 ? 'aac0' : 'aaan')).join(''));
    expect(new Set(names.map((x) => nameHash(`${x}.e.`))).size).toBe(1);
    const text = `$ORIGIN e.\n$TTL 1\n${names.map((x) => `${x} CNAME t`).join('\n')}\n`;
    expect(verdict(parseZoneFile(text))).toBe('ok');
    expect(verdict(parseZoneFile(`${text}${names[7]!} CNAME t\n`))).toBe('ok');
    expect(verdict(parseZoneFile(`${text}${names[7]!.toUpperCase()} CNAME u\n`))).toBe(`${names.length + 3}:1`);
    // Few enough that the chains stay within budget: the same answers from the table.
    const few = `$ORIGIN e.\n$TTL 1\n${names.slice(0, 4).map((x) => `${x} CNAME t`).join('\n')}\n`;
    expect(verdict(parseZoneFile(`${few}${names[2]!} CNAME t\n`))).toBe('ok');
    expect(verdict(parseZoneFile(`${few}${names[2]!} CNAME u\n`))).toBe('7:1');
  });
});

function installed(tool: string): boolean {
  try {
    execFileSync('which', [tool], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether the checker loads the file as zone `example.com` (exit status 0). */
function loads(tool: string, args: readonly string[]): boolean {
  try {
    execFileSync(tool, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const checkers = [
  { name: 'bind', tool: 'named-checkzone', args: (f: string) => ['example.com', f] },
  { name: 'knot', tool: 'kzonecheck', args: (f: string) => ['-o', 'example.com', f] },
  { name: 'nsd', tool: 'nsd-checkzone', args: (f: string) => ['example.com', f] },
] as const;

describe('zone rules against BIND, Knot and NSD', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zone-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const { name, tool, args } of checkers) {
    describeWith(requirement(tool, installed(tool), '.ci/run installs it'), name, () => {
      it.each(cases)(`${name}: $name`, (c) => {
        const file = join(dir, `${name}-${cases.indexOf(c)}.zone`);
        writeFileSync(file, c.text);
        expect(loads(tool, args(file))).toBe(c[name]);
      });
    });
  }

  it('we refuse where most of the three refuse, and accept where most accept', () => {
    for (const c of cases) expect(c.ours === 'ok', c.name).toBe([c.bind, c.knot, c.nsd].filter(Boolean).length >= 2);
  });
});
