/**
 * The handler's law: whatever arrives (random methods, paths, headers, query strings, bodies that
 * are not UTF-8, huge or deeply nested), it answers a Response, never throws or rejects, never a
 * 5xx while the storage works, and a refused request changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDnsService, createQuotaService } from '../../../src/index.js';
import { createHttpHandler, trustedHeaders } from '../../../src/adapters/http/index.js';
import { manualClock, sequentialIds } from '../../../src/testing/index.js';

const segment = fc.oneof(
  fc.constantFrom('v2', 'v1', 'zones', 'tasks', 'imports', 'exports', 'export', 'transfer_requests', 'transfer_accepts', 'abandon', 'xfr',
    'nameservers', 'recordsets', 'quotas', 'project-quotas', '', '..', '%00', '%ff', '%E2%82%AC', '{z}', '00000000-0000-4000-8000-000000000001'),
  fc.string({ maxLength: 8 }).map(encodeURIComponent),
);
const path = fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join('/')}`);
const query = fc.array(
  fc.tuple(fc.constantFrom('limit', 'marker', 'sort_key', 'sort_dir', 'offset', 'all_projects', 'all_tenants', 'name', 'status', 'x'), fc.string({ maxLength: 6 })),
  { maxLength: 4 },
).map((pairs) => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`));

/** Header values as a Headers object takes them: Latin-1 text without line breaks. */
const headerValue = fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));
const headers = fc.record(
  {
    'X-Auth-Project-ID': fc.oneof(fc.constantFrom('p1', 'p2', ''), headerValue),
    'X-Project-Id': fc.oneof(fc.constantFrom('p1', 'p2', ''), headerValue),
    'X-Roles': fc.oneof(fc.constantFrom('member', 'admin', 'key-manager:service-admin', '', ' , ', 'Admin'), headerValue),
    'X-Auth-All-Projects': fc.constantFrom('true', '0', 'yes'),
    'X-Auth-Sudo-Project-ID': fc.oneof(fc.constantFrom('p2'), headerValue),
    'X-Auth-Token': fc.constantFrom('noauth:p1:admin', 'noauth:', 'noauth::member', 'x'),
    'content-type': fc.oneof(fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/dns', 'Application/JSON'), headerValue),
    accept: fc.constantFrom('text/dns', '*/*', 'application/json', ''),
  },
  { requiredKeys: [] },
);

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 4 }),
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom('', 'null', 'NaN', '{"name": "a.example.", "email": "a@b.c"}', '{"project_quotas": {"secrets": 1}}', deep(100_000),
    `{"a": "${'x'.repeat(2_000_000)}"}`, '$ORIGIN a.example.\n@ 300 IN A 192.0.2.1\n', '\uFEFF{}', '{"__proto__": {"x": 1}}'),
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND');

const request = fc.tuple(method, path, query, headers, body).map(([m, p, q, h, b]) => {
  const withBody = b !== undefined && m !== 'GET' && m !== 'HEAD';
  return new Request(`http://zoneward.test${p}${q}`, { method: m, headers: h, ...(withBody ? { body: b } : {}) });
});

/** The one 500 the core answers on purpose: the real quota service's answer to a repeated paging parameter. */
const repeatedPaging = (r: Request): boolean => {
  const url = new URL(r.url);
  return url.pathname.replace(/\/+$/, '') === '/v1/project-quotas' && ['offset', 'limit'].some((k) => url.searchParams.getAll(k).length > 1);
};

describe('createHttpHandler never throws', () => {
  it('answers every request with a Response, no 5xx, and a refused request writes nothing', async () => {
    const dns = createDnsService({ tasks: 'manual', ids: sequentialIds(), clock: manualClock('2026-01-01T00:00:00Z') });
    const quotas = createQuotaService();
    const handle = createHttpHandler({ dns, quotas, authenticate: trustedHeaders() });
    await dns.zones.create({ projectId: 'p1', roles: ['member'] }, { name: 'a.example.', email: 'a@b.c' });
    await quotas.projectQuotas.set({ projectId: 'ops', roles: ['key-manager:service-admin'] }, 'p1', { project_quotas: { secrets: 1 } });

    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 4 }), async (requests) => {
        for (const r of requests) {
          const before = JSON.stringify([await dns.snapshot(), await quotas.snapshot()]);
          const response = await handle(r);
          expect(response).toBeInstanceOf(Response);
          if (!repeatedPaging(r)) expect(response.status, `${r.method} ${r.url}`).toBeLessThan(500);
          expect(response.headers.get('x-openstack-request-id')).toMatch(/^req-/);
          await response.arrayBuffer();
          if (response.status >= 400) {
            expect(JSON.stringify([await dns.snapshot(), await quotas.snapshot()]), `${r.method} ${r.url} wrote`).toBe(before);
          }
        }
      }),
      { numRuns: 150, seed: 20 },
    );
  });

  it('answers a request whose body stream fails (400), and one whose authenticate rejects (401)', async () => {
    const dns = createDnsService();
    const failing = new ReadableStream({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    const handle = createHttpHandler({ dns, authenticate: trustedHeaders() });
    const r = await handle(
      new Request('http://h/v2/zones', { method: 'POST', headers: { 'content-type': 'application/json' }, body: failing, duplex: 'half' }),
    );
    expect(r.status).toBe(400);
    const rejecting = createHttpHandler({ dns, authenticate: () => Promise.reject(new Error('down')) });
    expect((await rejecting(new Request('http://h/v2/zones'))).status).toBe(401);
  });
});
