/**
 * The recipe of docs/testing.md "Answer fetch through msw": a fetch-based client, unchanged,
 * answered by zoneward through msw's request interception (no socket, no port).
 */
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDnsService, createQuotaService, type DnsService } from '../../../src/index.js';
import { createHttpHandler, trustedHeaders, type HttpHandler } from '../../../src/adapters/http/index.js';
import { manualClock, sequentialIds } from '../../../src/testing/index.js';

/** The code under test: a small client of the DNS API, as an app would write it. */
class DnsClient {
  constructor(
    private readonly endpoint: string,
    private readonly project: string,
  ) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of many shapes, checked by value
  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${this.endpoint}${path}`, {
      method,
      headers: { 'X-Auth-Project-ID': this.project, 'X-Roles': 'member', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: response.status === 204 ? null : await response.json() };
  }

  createZone(name: string) {
    return this.call('POST', '/v2/zones', { name, email: `hostmaster@${name.replace(/\.$/, '')}` });
  }
  zones() {
    return this.call('GET', '/v2/zones');
  }
  deleteZone(id: string) {
    return this.call('DELETE', `/v2/zones/${id}`);
  }
}

const ENDPOINT = 'https://dns.example.test';
let dns: DnsService;
let handle: HttpHandler;
// msw hands every intercepted request to the handler; the handler never rejects.
const server = setupServer(http.all(`${ENDPOINT}/*`, ({ request }) => handle(request)));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  // A fresh service per test; a fixture state would come from createDnsService({ from: snapshot }).
  dns = createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds() });
  handle = createHttpHandler({ dns, quotas: createQuotaService(), authenticate: trustedHeaders() });
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('a fetch-based client answered by zoneward through msw', () => {
  it('creates, lists and deletes zones with the real statuses and links at the endpoint it called', async () => {
    const client = new DnsClient(ENDPOINT, 'p1');
    const created = await client.createZone('example.com.');
    expect(created.status).toBe(202); // PENDING, as the real service answers
    expect(created.body.links.self).toBe(`${ENDPOINT}/v2/zones/00000000-0000-4000-8000-000000000001`);
    expect((await client.zones()).body.zones.map((z: { name: string }) => z.name)).toEqual(['example.com.']);
    expect((await new DnsClient(ENDPOINT, 'p2').zones()).body.zones).toEqual([]);
    expect((await client.deleteZone(created.body.id)).status).toBe(202);
    await dns.tasks.settle(); // the delete's push ran: the zone is gone
    expect((await client.zones()).body.zones).toEqual([]);
  });

  it('sees the real error bodies', async () => {
    const client = new DnsClient(ENDPOINT, 'p1');
    await client.createZone('example.com.');
    const duplicate = await client.createZone('example.com.');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 409, type: 'duplicate_zone' });
    expect(duplicate.body.request_id).toMatch(/^req-/);
  });
});

it('is shown exactly in docs/testing.md, section 1', async () => {
  const { readFile } = await import('node:fs/promises');
  const doc = await readFile(new URL('../../../docs/testing.md', import.meta.url), 'utf8');
  const self = (await readFile(new URL(import.meta.url), 'utf8'))
    .replaceAll("'../../../src/index.js'", "'zoneward'")
    .replaceAll("'../../../src/adapters/http/index.js'", "'zoneward/http'")
    .replaceAll("'../../../src/testing/index.js'", "'zoneward/testing'");
  const blocks = [...doc.slice(doc.indexOf('## 1.'), doc.indexOf('## 2.')).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks).toHaveLength(3);
  for (const block of blocks) expect(self).toContain(block);
});
