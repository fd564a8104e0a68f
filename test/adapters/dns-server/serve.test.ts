/**
 * `zoneward serve --dns-port` (`startServer({ dnsPort })`): a zone created through the HTTP API
 * three lines earlier answers over DNS; a reset and a restore through the test endpoints are
 * followed by the DNS server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ZonewardServer } from '../../../src/server/index.js';
import { ask } from './client.js';

let server: ZonewardServer;
let token: string;

const call = async (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-auth-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

beforeAll(async () => {
  server = await startServer({ port: 0, dnsPort: 0, log: false });
  const login = await fetch(`${server.url}/identity/v3/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: { methods: ['password'], password: { user: { name: 'alice', domain: { name: 'Default' }, password: 'x' } } },
        scope: { project: { name: 'p1', domain: { name: 'Default' } } },
      },
    }),
  });
  token = login.headers.get('x-subject-token')!;
});
afterAll(async () => {
  await server.close();
});

describe('startServer with dnsPort', () => {
  it('answers over DNS for a zone created through the HTTP API', async () => {
    expect(server.dnsPort).toBeGreaterThan(0);
    const zone = (await (await call('POST', '/v2/zones', { name: 'served.test.', email: 'a@served.test' })).json()) as { id: string };
    expect((await call('POST', `/v2/zones/${zone.id}/recordsets`, { name: 'www.served.test.', type: 'A', records: ['192.0.2.80'] })).status).toBe(202);
    const answer = await ask('www.served.test', 'A', { port: server.dnsPort! });
    expect(answer.answers.map((r) => r.data)).toEqual(['192.0.2.80']);
  });

  it('follows a reset and a restore', async () => {
    const snapshot: unknown = await (await fetch(`${server.url}/zoneward/snapshot`)).json();
    expect((await fetch(`${server.url}/zoneward/reset`, { method: 'POST' })).status).toBe(204);
    expect((await ask('www.served.test', 'A', { port: server.dnsPort! })).rcode).toBe('REFUSED');
    const restored = await fetch(`${server.url}/zoneward/restore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(snapshot) });
    expect(restored.status).toBe(204);
    expect((await ask('www.served.test', 'A', { port: server.dnsPort! })).answers.map((r) => r.data)).toEqual(['192.0.2.80']);
  });
});
