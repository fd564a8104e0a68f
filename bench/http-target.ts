/**
 * A server for bench/http.bench.ts, in its own process so the load generator does not share its
 * event loop. `bare`: node:http answering a fixed zone JSON (GET) and reading a body then
 * answering a fixed 201 (POST); `floor`: node:http doing the least this API needs (a Map lookup,
 * the JSON written afresh, a request id); `zoneward`: `createServer(toNodeListener(handle))`; `fastify`:
 * fastify routing to `dns.zones.get`/`create` by hand, as a user wiring zoneward into it would.
 * A second argument names another tree's root to serve from (bench/ab/http-ab.ts: old against new);
 * zoneward comes from a tree's built package when it has one (bench/http-tree.ts).
 * Prints `{"port","path","headers"}` on stdout once it listens.
 */
import { createServer, type Server } from 'node:http';
import type { RequestContext } from '../src/index.js';
import { loadTree } from './http-tree.js';

const kind = process.argv[2];
const { createDnsService, createHttpHandler, toNodeListener, trustedHeaders, manualClock, sequentialIds } = await loadTree(process.argv[3]);
const headers = { 'X-Auth-Project-ID': 'p1', 'X-Roles': 'member' };
const dns = createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), tasks: 'inline', quotas: { zones: -1 } });
const zone = (await dns.zones.create({ projectId: 'p1', roles: ['member'] }, { name: 'example.com.', email: 'hostmaster@example.com' }))._unsafeUnwrap();
const path = `/v2/zones/${zone.id}`;

async function server(): Promise<{ listen: (port: number, host: string, cb: () => void) => unknown; server: Server }> {
  if (kind === 'bare') {
    const fixed = Buffer.from(JSON.stringify(zone));
    const s = createServer((req, res) => {
      if (req.method === 'POST') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          JSON.parse(Buffer.concat(chunks).toString());
          res.writeHead(201, { 'content-type': 'application/json', 'content-length': fixed.length });
          res.end(fixed);
        });
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': fixed.length });
      res.end(fixed);
    });
    return { listen: (p, h, cb) => s.listen(p, h, cb), server: s };
  }
  if (kind === 'floor') {
    // The least any server of this API does: the zone found by id in a Map, its JSON written
    // afresh, a request id drawn; for POST the body parsed, the zone stored and its JSON written.
    const byId = new Map<string, unknown>([[zone.id, zone]]);
    let next = 0;
    const s = createServer((req, res) => {
      const requestId = `req-${globalThis.crypto.randomUUID()}`;
      if (req.method === 'POST') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const made = { ...zone, ...(JSON.parse(Buffer.concat(chunks).toString()) as object), id: `z${next++}` };
          byId.set(made.id, made);
          const body = JSON.stringify(made);
          res.writeHead(201, { 'content-type': 'application/json', 'x-openstack-request-id': requestId, 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
        return;
      }
      const url = req.url ?? '/';
      const body = JSON.stringify(byId.get(url.slice(url.lastIndexOf('/') + 1)));
      res.writeHead(200, { 'content-type': 'application/json', 'x-openstack-request-id': requestId, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    return { listen: (p, h, cb) => s.listen(p, h, cb), server: s };
  }
  if (kind === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const app = Fastify();
    const ctxOf = (h: Record<string, string | string[] | undefined>): RequestContext => ({
      projectId: String(h['x-auth-project-id'] ?? 'noauth-project'),
      roles: String(h['x-roles'] ?? 'admin').split(','),
    });
    app.get<{ Params: { id: string } }>('/v2/zones/:id', async (request, reply) => {
      const r = await dns.zones.get(ctxOf(request.headers), request.params.id);
      return r.isOk() ? r.value : reply.code(r.error.status).send(r.error.toJSON());
    });
    app.post('/v2/zones', async (request, reply) => {
      const r = await dns.zones.create(ctxOf(request.headers), request.body);
      return r.isOk() ? reply.code(201).header('location', r.value.links.self).send(r.value) : reply.code(r.error.status).send(r.error.toJSON());
    });
    await app.ready();
    return { listen: (p, h, cb) => app.listen({ port: p, host: h }).then(cb), server: app.server };
  }
  const s = createServer(toNodeListener(createHttpHandler({ dns, authenticate: trustedHeaders() })));
  return { listen: (p, h, cb) => s.listen(p, h, cb), server: s };
}

const { listen, server: s } = await server();
listen(0, '127.0.0.1', () => {
  const address = s.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port, path, headers })}\n`);
});
// Exit on the bench's kill, so that a `--cpu-prof` run of this server writes its profile.
process.once('SIGTERM', () => process.exit(0));
