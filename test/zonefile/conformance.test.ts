import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { THRESHOLD, agrees, corpusDir, knownDisagreements, runCorpus } from '../../scripts/zonefile-conformance.js';
import { describeWith, requirement } from '../support/requires.js';

const dir = corpusDir();
const present = existsSync(join(dir, 'index.json'));

describeWith(requirement('the zone-file corpus', present, `${dir}: the workplace's ../shared/conformance/zonefiles`), 'zone-file conformance corpus', () => {
  const results = runCorpus(dir);
  const known = new Map(knownDisagreements().map((k) => [k.case, k.reason]));

  it('agrees on every case not listed as a known disagreement', () => {
    expect(results.filter((r) => !agrees(r) && !known.has(r.id)).map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
  });

  it('lists no case that now agrees (delete its entry: the list only shrinks)', () => {
    expect(results.filter((r) => agrees(r) && known.has(r.id)).map((r) => r.id)).toEqual([]);
    expect([...known.keys()].filter((id) => !results.some((r) => r.id === id))).toEqual([]);
  });

  it('gives every known disagreement a reason', () => {
    for (const [id, reason] of known) expect(reason.length, id).toBeGreaterThan(20);
  });

  it(`agrees on at least ${THRESHOLD * 100}% of cases`, () => {
    expect(results.filter(agrees).length / results.length).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it('refuses every $INCLUDE case', () => {
    expect(results.filter((r) => r.detail.includes('$INCLUDE must be refused'))).toEqual([]);
  });
});
