/**
 * Wildcard filters a hostile caller writes (issue 29): as backtracking RegExps they held the
 * process for seconds (7 stars) to years (40), blocking every project; now each answers at once.
 * The bound itself (steps per text unit) is test/kernel/glob.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { createDnsService } from '../../../src/index.js';
import { createHttpHandler, trustedHeaders } from '../../../src/adapters/http/index.js';

const member = { 'X-Auth-Project-ID': 'p1', 'X-Roles': 'member', 'content-type': 'application/json' };

describe('zoneward/http, wildcard filters from a hostile caller', () => {
  it('GET /v2/zones?name=<40 stars>q and /v2/recordsets?name=_*_*… answer at once', async () => {
    const handle = createHttpHandler({ dns: createDnsService({ tasks: 'inline' }), authenticate: trustedHeaders() });
    const name = `${'a'.repeat(36)}.example.`; // 45 characters with its dot
    const created = await handle(new Request('http://h/v2/zones', { method: 'POST', headers: member, body: JSON.stringify({ name, email: 'a@b.c' }) }));
    expect(created.status).toBeLessThan(300);
    const list = async (path: string, envelope: string): Promise<unknown[]> => {
      const r = await handle(new Request(`http://h${path}`, { headers: member }));
      expect(r.status).toBe(200);
      return ((await r.json()) as Record<string, unknown[]>)[envelope]!;
    };
    for (const stars of [7, 40]) expect(await list(`/v2/zones?name=${'*'.repeat(stars)}q`, 'zones')).toEqual([]);
    expect(await list(`/v2/zones?name=${'*a'.repeat(40)}*q`, 'zones')).toEqual([]);
    expect(await list(`/v2/recordsets?name=${'_*'.repeat(40)}q`, 'recordsets')).toEqual([]);
    expect(await list(`/v2/recordsets?name=${'_*'.repeat(20)}.example.`, 'recordsets')).toHaveLength(2);
  });
});
