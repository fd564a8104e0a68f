import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { normalisePage } from '../../src/project-quotas/paging.js';
import { pythonIntLiteral } from '../../src/kernel/python-int.js';
import { createQuotaService } from '../../src/project-quotas/index.js';
import { seeded, serviceAdmin } from './helpers.js';

const base = 'http://localhost:9311/v1/project-quotas';
const ids = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `p${String(from + i).padStart(2, '0')}`);

describe('projectQuotas.list: the reference §4.2 table (11 records p00…p10)', () => {
  it.each<[Record<string, string>, string[], string | undefined, string | undefined]>([
    [{}, ids(0, 9), undefined, `${base}?limit=10&offset=10`],
    [{ limit: '2', offset: '2' }, ['p02', 'p03'], `${base}?limit=2&offset=0`, `${base}?limit=2&offset=4`],
    [{ offset: '10' }, ['p10'], `${base}?limit=10&offset=0`, undefined],
    [{ offset: '11' }, [], `${base}?limit=10&offset=1`, undefined],
    [{ offset: '20' }, [], `${base}?limit=10&offset=10`, undefined],
    [{ limit: '3', offset: '9' }, ['p09', 'p10'], `${base}?limit=3&offset=6`, undefined],
    [{ limit: '0' }, ['p00'], undefined, `${base}?limit=1&offset=1`],
    [{ limit: '1000' }, ids(0, 10), undefined, undefined],
  ])('%j', async (query, items, previous, next) => {
    const quotas = await seeded(11);
    const page = (await quotas.projectQuotas.list(serviceAdmin, query))._unsafeUnwrap();
    expect(page.project_quotas.map((r) => r.project_id)).toEqual(items);
    expect(page.previous).toBe(previous);
    expect(page.next).toBe(next);
    expect(page.total).toBe(11);
    expect(Object.keys(page)).toEqual(['project_quotas', ...(previous ? ['previous'] : []), ...(next ? ['next'] : []), 'total']);
  });

  it('gives the real full shape, key order included', async () => {
    const quotas = await seeded(11);
    const page = (await quotas.projectQuotas.list(serviceAdmin, { limit: '1', offset: '2' }))._unsafeUnwrap();
    expect(JSON.stringify(page)).toBe(
      '{"project_quotas":[{"project_id":"p02","project_quotas":{"secrets":2,"orders":null,"containers":null,"consumers":null,"cas":null}}],' +
        `"previous":"${base}?limit=1&offset=1","next":"${base}?limit=1&offset=3","total":11}`,
    );
  });

  it('answers {project_quotas: [], total: 0} for an empty store, and uses baseUrl for links', async () => {
    expect(JSON.stringify((await createQuotaService().projectQuotas.list(serviceAdmin))._unsafeUnwrap())).toBe('{"project_quotas":[],"total":0}');
    const quotas = await seeded(3, { baseUrl: 'https://kms.example/', paging: { defaultLimit: 2, maxLimit: 2 } });
    const page = (await quotas.projectQuotas.list(serviceAdmin, { limit: '50' }))._unsafeUnwrap();
    expect(page.next).toBe('https://kms.example/v1/project-quotas?limit=2&offset=2');
  });

  it('keeps first-creation order: re-setting keeps the place, delete then set moves to the end', async () => {
    const quotas = await seeded(4);
    await quotas.projectQuotas.set(serviceAdmin, 'p01', { project_quotas: { cas: 1 } });
    expect((await quotas.projectQuotas.list(serviceAdmin))._unsafeUnwrap().project_quotas.map((r) => r.project_id)).toEqual(ids(0, 3));
    await quotas.projectQuotas.delete(serviceAdmin, 'p03');
    await quotas.projectQuotas.set(serviceAdmin, 'p03', {project_quotas: {}});
    await quotas.projectQuotas.delete(serviceAdmin, 'p00');
    await quotas.projectQuotas.set(serviceAdmin, 'p00', { project_quotas: {} });
    expect((await quotas.projectQuotas.list(serviceAdmin))._unsafeUnwrap().project_quotas.map((r) => r.project_id)).toEqual(['p01', 'p02', 'p03', 'p00']);
  });

  it('answers the real 500 for a repeated parameter', async () => {
    const e = (await createQuotaService().projectQuotas.list(serviceAdmin, { limit: ['1', '2'] }))._unsafeUnwrapErr();
    expect(e.toJSON()).toEqual({ code: 500, title: 'Internal Server Error', description: 'Project Quotas failure seen - please contact site administrator.' });
  });
});

describe('normalisePage', () => {
  const page = (q: unknown): [string, string] => {
    const p = normalisePage(q, 10, 100)._unsafeUnwrap();
    return [String(p.offset), String(p.limit)];
  };
  it.each<[unknown, [string, string]]>([
    [undefined, ['0', '10']],
    [{ offset: '', limit: '' }, ['0', '10']],
    [{ offset: 'abc', limit: 'abc' }, ['0', '10']],
    [{ offset: '2.5', limit: '2.5' }, ['0', '10']],
    [{ offset: '0x2', limit: '0x2' }, ['0', '10']],
    [{ offset: ' 1 ', limit: ' 1 ' }, ['1', '1']],
    [{ offset: '+3', limit: '+3' }, ['3', '3']],
    [{ offset: '1_2', limit: '1_2' }, ['12', '12']],
    [{ offset: '1__2', limit: '_1' }, ['0', '10']],
    [{ offset: '３', limit: '\u0663\u0664' }, ['3', '34']],
    [{ offset: '-5', limit: '-3' }, ['0', '1']],
    [{ limit: '0' }, ['0', '1']],
    [{ limit: '101' }, ['0', '100']],
    [{ offset: '9223372036854775807' }, ['9223372036854775807', '10']],
    [{ offset: '9223372036854775808' }, ['0', '10']],
    [{ offset: 4, limit: 0 }, ['4', '1']],
    [{ offset: 1.5, limit: Number.NaN }, ['0', '10']],
    [{ offset: -0, limit: '-0' }, ['0', '1']],
    [{ offset: true, limit: {} }, ['0', '10']],
    [{ offset: '\ufeff1' }, ['0', '10']],
    // int() strips U+0085 but not U+001C, which str.strip() would: the real service's ValueError → 0.
    [{ offset: '\u001c7\u0085' }, ['0', '10']],
    [{ offset: '7\u0085' }, ['7', '10']],
  ])('%j → offset, limit %j', (query, expected) => {
    expect(page(query)).toEqual(expected);
  });

  test.prop([fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n })])('parses every decimal integer text as Python does', (n) => {
    expect(pythonIntLiteral(n.toString())).toBe(n);
  });
  test.prop([fc.string()])('never throws on arbitrary text', (s) => {
    expect(() => normalisePage({ offset: s, limit: s }, 10, 100)).not.toThrow();
  });
});

describe('paging laws', () => {
  test.prop([fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 15 }), fc.integer({ min: 0, max: 45 })], { numRuns: 60 })(
    'walking the next links from any offset gives every record from there once, in order; previous/next exactly as the spec says',
    async (n, limit, start) => {
      const quotas = await seeded(n);
      const all = ids(0, n - 1).slice(0, n);
      const seen: string[] = [];
      let offset = start;
      for (;;) {
        const page = (await quotas.projectQuotas.list(serviceAdmin, { offset: String(offset), limit: String(limit) }))._unsafeUnwrap();
        expect(page.total).toBe(n);
        expect(page.project_quotas.length).toBe(Math.max(0, Math.min(limit, n - offset)));
        expect(page.previous === undefined).toBe(offset === 0);
        if (offset > 0) expect(page.previous).toBe(`${base}?limit=${limit}&offset=${Math.max(0, offset - limit)}`);
        expect(page.next === undefined).toBe(!(n > offset + limit));
        seen.push(...page.project_quotas.map((r) => r.project_id));
        if (page.next === undefined) break;
        expect(page.next).toBe(`${base}?limit=${limit}&offset=${offset + limit}`);
        offset += limit;
      }
      expect(seen).toEqual(all.slice(start));
    },
  );
});
