// The real Designate API behind zoneward's identity endpoint, for the rig's `--target real`:
//   npx tsx test/tempest/real-target.ts <port> <designate-api url> <zoneward config.json>
// `/identity` is answered by the same identity code as `zoneward serve`; every other request is
// passed to the real API with the caller its token names, as the no-auth middleware of
// designate-api reads it (X-Auth-Project-ID, X-Roles), the way keystonemiddleware would.
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { Identity } from '../../src/server/identity.js';
import { toNodeListener } from '../../src/adapters/http/node.js';

const [portArg, upstream, configFile] = process.argv.slice(2);
if (portArg === undefined || upstream === undefined || configFile === undefined) throw new Error('usage: real-target.ts <port> <upstream url> <config.json>');
const config = JSON.parse(readFileSync(configFile, 'utf8')) as { identity?: ConstructorParameters<typeof Identity>[0] };
const identity = new Identity(config.identity ?? {}, () => new Date());

const handle = async (request: Request): Promise<Response> => {
  const url = new URL(request.url);
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  if (url.pathname === '/identity' || url.pathname.startsWith('/identity/')) {
    const text = body === undefined ? '' : new TextDecoder().decode(body);
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return identity.handle(request, url.pathname.slice('/identity'.length), `${url.origin}/identity`, [{ type: 'dns', name: 'designate', url: url.origin }], parsed);
  }
  const headers = new Headers(request.headers);
  if (url.pathname !== '/') {
    const token = identity.validate(request.headers.get('x-auth-token'));
    if (token?.projectId === undefined) {
      return Response.json({ error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' } }, { status: 401 });
    }
    headers.set('x-auth-project-id', token.projectId);
    headers.set('x-roles', token.roles.join(','));
  }
  headers.delete('x-auth-token');
  // The real API writes links from the Host header: the client's, so that they lead back here.
  headers.set('host', url.host);
  const answer = await forward(request.method, `${url.pathname}${url.search}`, headers, body);
  process.stdout.write(`${request.method} ${url.pathname}${url.search} ${answer.status}\n`);
  return answer;
};

/** node:http rather than fetch: fetch would replace the Host header. */
function forward(method: string, path: string, headers: Headers, body: ArrayBuffer | undefined): Promise<Response> {
  return new Promise((resolve, reject) => {
    const out = request(`${upstream}${path}`, { method, headers: Object.fromEntries(headers) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && k !== 'transfer-encoding') h.set(k, Array.isArray(v) ? v.join(', ') : v);
        const status = res.statusCode ?? 502;
        const empty = method === 'HEAD' || [101, 204, 205, 304].includes(status);
        resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: h }));
      });
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(body === undefined ? undefined : Buffer.from(body));
  });
}

const server = createServer(toNodeListener(handle));
server.listen(Number(portArg), '127.0.0.1', () => process.stdout.write(`identity in front of ${upstream} on port ${portArg}\n`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
