/**
 * toNodeListener over a real socket: answers as the handler does, bodies up to the limit and a
 * 413 without reading further, a client that hangs up mid-body, backpressure on large answers,
 * and what a lazy request and a light response are to code that reads them as WHATWG objects.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createDnsService, createQuotaService } from '../../../src/index.js';
import { manualClock, sequentialIds } from '../../../src/testing/index.js';
import { createHttpHandler, toNodeListener, trustedHeaders, type HttpHandler } from '../../../src/adapters/http/index.js';

const member = { 'X-Auth-Project-ID': 'p1', 'X-Roles': 'member' };
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function listen(handle: HttpHandler): Promise<{ origin: string; port: number; server: Server; sockets: Socket[] }> {
  const server = createServer(toNodeListener(handle));
  const sockets: Socket[] = [];
  server.on('connection', (s: Socket) => sockets.push(s));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, port, server, sockets };
}

const zoneBody = (name: string) => JSON.stringify({ name, email: 'admin@example.com' });

describe('toNodeListener', () => {
  it('answers as the handler does: statuses, Location at the origin used, content length, errors', async () => {
    const dns = createDnsService();
    const { origin } = await listen(createHttpHandler({ dns, authenticate: trustedHeaders() }));
    const created = await fetch(`${origin}/v2/zones`, { method: 'POST', headers: { ...member, 'content-type': 'application/json' }, body: zoneBody('a.com.') });
    // The real service's timing (the default): accepted, PENDING until its push ran.
    expect(created.status).toBe(202);
    const zone = (await created.json()) as { id: string };
    expect(created.headers.get('location')).toBe(`${origin}/v2/zones/${zone.id}`);
    const got = await fetch(`${origin}/v2/zones/${zone.id}?x=1&x=2`, { headers: member });
    const text = await got.text();
    expect(got.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toMatchObject({ id: zone.id, name: 'a.com.' });
    const wrongType = await fetch(`${origin}/v2/zones`, { method: 'POST', headers: { ...member, 'content-type': 'text/plain' }, body: 'x' });
    expect(await wrongType.json()).toMatchObject({ code: 415, type: 'unsupported_content_type' });
    const gone = await fetch(`${origin}/v2/zones/${zone.id}`, { method: 'DELETE', headers: member });
    expect(gone.status).toBe(202);
  });

  it("answers every request byte for byte as a wrapped handler (node's parse unused) does", async () => {
    // Two services that evolve alike: the handler's own node entry against the same handler
    // behind a wrapper, which toNodeListener can only hand a Request.
    const make = () => {
      const dns = createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), tasks: 'inline' });
      return createHttpHandler({ dns, quotas: createQuotaService(), authenticate: trustedHeaders() });
    };
    const direct = await listen(make());
    const inner = make();
    const wrapped = await listen((request) => inner(request));
    const raw = async (port: number, head: string, body = ''): Promise<string> => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      const length = body === '' ? '' : `content-length: ${Buffer.byteLength(body)}\r\n`;
      socket.end(`${head}\r\n${length}connection: close\r\n\r\n${body}`);
      await once(socket, 'close');
      // What differs from one answer to the next whatever the server: the request id and the date.
      return Buffer.concat(chunks)
        .toString()
        .replace(/req-[0-9a-f-]{36}/g, 'req-*')
        .replace(/\r\nDate: [^\r]*/, '');
    };
    const id = '00000000-0000-4000-8000-000000000001';
    const host = 'Host: zw.example:9001';
    const json = 'content-type: application/json';
    const cases: [head: string, body?: string][] = [
      [`POST /v2/zones HTTP/1.1\r\n${host}\r\nx-auth-project-id: p1\r\nx-roles: member\r\n${json}`, zoneBody('a.com.')],
      [`GET /v2/zones/${id} HTTP/1.1\r\n${host}\r\nX-Auth-Project-ID: p1\r\nX-Roles: member`],
      [`GET /v2/zones/${id} HTTP/1.1\r\n${host}\r\nX-Auth-Project-ID: p2\r\nX-Roles: member`],
      // A header sent twice is read joined, as WHATWG's get joins it.
      [`GET /v2/zones/${id} HTTP/1.1\r\n${host}\r\nx-auth-project-id: p1\r\nx-roles: reader\r\nX-Roles: member`],
      [`GET /v2/zones HTTP/1.1\r\n${host}\r\nx-auth-token: noauth:p1:member`],
      [`GET /v2/zones?all_projects=1 HTTP/1.1\r\n${host}\r\nx-roles: member`],
      [`GET /v2/zones HTTP/1.1\r\n${host}\r\nx-roles: member\r\nx-auth-all-projects: true`],
      [`GET /v2/zones HTTP/1.1\r\n${host}\r\nx-auth-sudo-project-id: p1`],
      [`GET /v2/./zones/${id}/../${id} HTTP/1.1\r\n${host}\r\nx-auth-project-id: p1`],
      [`GET /v2/zones/%7B${id}%7D HTTP/1.1\r\n${host}`],
      [`GET /v2/zones/%ff HTTP/1.1\r\n${host}`],
      [`GET /v2/zones/${id} HTTP/1.1\r\nHost: ZW.Example:80\r\nx-auth-project-id: p1`],
      [`GET /v2/zones/${id} HTTP/1.1\r\nHost: zw.example/x?\r\nx-auth-project-id: p1`],
      [`GET /v2/zones/${id} HTTP/1.0\r\nx-auth-project-id: p1`],
      [`GET http://elsewhere.example/v2/zones HTTP/1.1\r\n${host}`],
      [`GET / HTTP/1.1\r\n${host}`],
      [`PATCH /v2/zones HTTP/1.1\r\n${host}`],
      [`GET /v2/nowhere HTTP/1.1\r\n${host}`],
      [`PUT /v1/project-quotas/p9 HTTP/1.1\r\n${host}\r\n${json}`, '{"project_quotas":{"secrets":5}}'],
      [`GET /v1/project-quotas/p9 HTTP/1.1\r\n${host}\r\nx-roles: Admin`],
      [`GET /v1/quotas HTTP/1.1\r\n${host}\r\nx-project-id: p9\r\nx-roles: , Creator ,`],
      [`DELETE /v2/zones/${id} HTTP/1.1\r\n${host}\r\nx-auth-project-id: p1\r\nx-roles: member`],
    ];
    for (const [head, body] of cases) {
      const expected = await raw(wrapped.port, head, body);
      expect(expected).toMatch(/^HTTP\/1\.1 \d{3} /);
      expect(await raw(direct.port, head, body), head).toBe(expected);
    }
  });

  it('answers a Host no URL can hold 400 and a target not a path 404, whichever handler it mounts', async () => {
    const make = () => createHttpHandler({ dns: createDnsService(), authenticate: trustedHeaders() });
    const inner = make();
    for (const { port } of [await listen(make()), await listen((request) => inner(request))]) {
      const raw = async (head: string): Promise<string> => {
        const socket = connect(port, '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.end(`${head}\r\nx-roles: member\r\nconnection: close\r\n\r\n`);
        await once(socket, 'close');
        return Buffer.concat(chunks).toString('latin1');
      };
      // RFC 9112, 3.2: a Host that is not host[:port] is a 400, as node answers a missing one.
      for (const host of ['[', 'a b', 'zw.example/x?', 'h:99999', '%zz', 'user@h', '']) {
        const answer = await raw(`GET /v2/zones HTTP/1.1\r\nHost: ${host}`);
        expect(answer, host).toMatch(/^HTTP\/1\.1 400 [^]*\r\nconnection: close\r\n[^]*\r\n\r\nBad Request: the Host header is not a host\[:port\]\n$/i);
      }
      for (const host of ['[::1]:9001', 'zw.example', 'zw.example:9001', '192.0.2.1', 'xn--bcher-kva.example']) {
        expect(await raw(`GET /v2/zones HTTP/1.1\r\nHost: ${host}`), host).toContain(`"self":"http://${host}/v2/zones"`);
      }
      // Other target forms name no resource of these services: the real ones answer them 404 too.
      for (const head of ['GET http://[::1]:1/v2/zones HTTP/1.1\r\nHost: [::1]:80', 'GET http://zw.example/v2/zones HTTP/1.1\r\nHost: h', 'OPTIONS * HTTP/1.1\r\nHost: h']) {
        expect(await raw(head), head).toMatch(/^HTTP\/1\.1 404 [^]*"type":"not_found"/);
      }
    }
  });

  it('hands the handler a Request: headers by name and whole, the URL, the body as text, a clone', async () => {
    const seen: unknown[] = [];
    const { origin } = await listen(async (request) => {
      const copy = request.clone();
      seen.push(
        request instanceof Request,
        request.method,
        new URL(request.url).pathname,
        request.headers.get('x-twice'),
        [...request.headers].some(([k]) => k === 'x-twice'),
        await copy.text(),
        await request.text(),
        request.bodyUsed,
      );
      return new Response('ok');
    });
    await fetch(`${origin}/p?q=1`, { method: 'PUT', headers: [['x-twice', 'a'], ['X-Twice', 'b']], body: 'hello' });
    expect(seen).toEqual([true, 'PUT', '/p', 'a, b', true, 'hello', 'hello', true]);
  });

  it('answers a body over the limit 413 without reading it further, and closes that connection', async () => {
    const dns = createDnsService();
    const { port, sockets } = await listen(createHttpHandler({ dns, authenticate: trustedHeaders(), maxBodyBytes: 10_000 }));
    const client = connect(port, '127.0.0.1');
    await once(client, 'connect');
    client.write(`POST /v2/zones HTTP/1.1\r\nHost: h\r\nX-Roles: member\r\nX-Auth-Project-ID: p1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    let answer = '';
    client.on('data', (d: Buffer) => (answer += d.toString()));
    client.on('error', () => undefined);
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    // Up to 64 MiB offered, 64 KiB at a time, while the server will take them.
    const chunk = Buffer.alloc(65_536, 0x20);
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    let offered = 0;
    while (offered < 64 * 1024 * 1024 && !client.destroyed && answer === '') {
      if (!client.write(frame)) await Promise.race([once(client, 'drain').catch(() => undefined), closed]);
      offered += chunk.length;
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    // What the server read: the limit, and what was already in flight, far short of what was offered.
    expect(sockets[0]!.bytesRead).toBeLessThan(4 * 1024 * 1024);
    expect((await dns.zones.list({ projectId: 'p1', roles: ['member'] }))._unsafeUnwrap().zones).toEqual([]);
  });

  it('answers a declared length over the limit 413 before any of the body comes', async () => {
    const { port } = await listen(createHttpHandler({ dns: createDnsService(), authenticate: trustedHeaders(), maxBodyBytes: 10_000 }));
    const client = connect(port, '127.0.0.1');
    client.on('error', () => undefined);
    client.write(`POST /v2/zones HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n`);
    const [data] = (await once(client, 'data')) as [Buffer];
    expect(data.toString()).toMatch(/^HTTP\/1\.1 413 /);
    client.destroy();
  });

  it('ends only its own request when a client hangs up mid-body', async () => {
    const dns = createDnsService();
    const handle = createHttpHandler({ dns, authenticate: trustedHeaders() });
    const answered: number[] = [];
    const { origin, port } = await listen(async (request) => {
      const response = await handle(request);
      answered.push(response.status);
      return response;
    });
    const client = connect(port, '127.0.0.1');
    await once(client, 'connect');
    client.write(`POST /v2/zones HTTP/1.1\r\nHost: h\r\nX-Roles: member\r\nX-Auth-Project-ID: p1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"name":`);
    await new Promise((r) => setTimeout(r, 50));
    client.destroy();
    await expect.poll(() => answered, { timeout: 5_000 }).toEqual([400]);
    expect((await dns.zones.list({ projectId: 'p1', roles: ['member'] }))._unsafeUnwrap().zones).toEqual([]);
    const next = await fetch(`${origin}/v2/zones`, { headers: member });
    expect(next.status).toBe(200);
  });

  it('streams a Response body no faster than the client reads it', async () => {
    const CHUNK = 65_536;
    const TOTAL = 1024; // chunks: 64 MiB
    let pulled = 0;
    const { port } = await listen(() =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (pulled === TOTAL) controller.close();
              else {
                pulled++;
                controller.enqueue(new Uint8Array(CHUNK));
              }
            },
          }),
        ),
      ),
    );
    const client = connect(port, '127.0.0.1');
    client.pause();
    client.write('GET / HTTP/1.1\r\nHost: h\r\n\r\n');
    await new Promise((r) => setTimeout(r, 500));
    // The client reads nothing: only what the socket buffers hold was pulled.
    expect(pulled * CHUNK).toBeLessThan(16 * 1024 * 1024);
    let received = 0;
    client.on('data', (d: Buffer) => (received += d.length));
    client.resume();
    await expect.poll(() => pulled, { timeout: 20_000 }).toBe(TOTAL);
    await expect.poll(() => received >= TOTAL * CHUNK, { timeout: 20_000 }).toBe(true);
    client.destroy();
  });

  it('serves a large export whole', async () => {
    const dns = createDnsService({ quotas: { zone_records: -1, zone_recordsets: -1, api_export_size: -1 } });
    const ctx = { projectId: 'p1', roles: ['member'] };
    const lines = Array.from({ length: 20_000 }, (_, i) => `h${i} 300 IN A 10.0.${i >> 8}.${i & 255}`);
    const zoneFile = `$ORIGIN big.example.com.\n@ 3600 IN SOA ns1.example.com. admin.example.com. 1 3600 600 86400 300\n@ 3600 IN NS ns1.example.com.\n${lines.join('\n')}\n`;
    const imported = (await dns.imports.create(ctx, zoneFile, 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.imports.get(ctx, imported.id))._unsafeUnwrap().status).toBe('COMPLETE');
    const zone = (await dns.zones.list(ctx))._unsafeUnwrap().zones[0]!;
    const exported = (await dns.exports.create(ctx, zone.id))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.exports.get(ctx, exported.id))._unsafeUnwrap()).toMatchObject({ status: 'COMPLETE' });
    const { origin } = await listen(createHttpHandler({ dns, authenticate: trustedHeaders() }));
    const r = await fetch(`${origin}/v2/zones/tasks/exports/${exported.id}/export`, { headers: member });
    const text = await r.text();
    expect(r.status, text).toBe(200);
    expect(text).toBe((await dns.exports.file(ctx, exported.id))._unsafeUnwrap());
    expect(text.split('\n').filter((l) => / IN A /.test(l))).toHaveLength(20_000);
  });
});

describe('the handler and the Request it is given', () => {
  const handle = createHttpHandler({ dns: createDnsService(), authenticate: trustedHeaders() });
  const post = () => new Request('http://h/v2/zones', { method: 'POST', headers: { ...member, 'content-type': 'application/json' }, body: zoneBody('b.com.') });

  it('answers a body already read, or locked by a reader, with a clear 400', async () => {
    const read = post();
    await read.text();
    const locked = post();
    locked.body!.getReader();
    for (const request of [read, locked]) {
      const r = await handle(request);
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ type: 'bad_request', message: 'The request body could not be read.' });
    }
  });

  it('reads a query string of many repeats of one key in linear time', async () => {
    const timed = async (repeats: number): Promise<number> => {
      const url = `http://h/v2/zones?${'name=a&'.repeat(repeats)}`;
      // This process's CPU time, best of five: a busy machine delays the wall clock, not this.
      let best = Infinity;
      for (let i = 0; i < 5; i++) {
        const t = process.cpuUsage();
        expect((await handle(new Request(url, { headers: member }))).status).toBe(400);
        const used = process.cpuUsage(t);
        best = Math.min(best, used.user + used.system);
      }
      return best;
    };
    await timed(1_000);
    const small = await timed(5_000);
    const large = await timed(40_000);
    // Linear: ~8 times; quadratic (an array copied per repeat): ~64 times. CPU µs, floored at 500.
    expect(large / Math.max(small, 500)).toBeLessThan(24);
  });
});
