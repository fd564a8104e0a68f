/**
 * zoneward/http mounted on node:http: the bridge a server author needs (the README shows it).
 * `npx tsx examples/http-server.ts` serves both services on http://127.0.0.1:9001; the real
 * clients talk to it with keystoneauth's noauth plugin and an endpoint override.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createDnsService, createQuotaService } from '../src/index.js';
import { createHttpHandler, trustedHeaders, type HttpHandler } from '../src/adapters/http/index.js';

/** Hands every request of a node:http server to `handle` and writes its Response back. */
export function serve(handle: HttpHandler): Server {
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const response = await handle(
      new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers: Object.entries(req.headers).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])),
        ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  };
  // The handler never rejects; a client that hangs up mid-answer is the only failure left.
  return createServer((req, res) => void answer(req, res).catch(() => res.destroy()));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const handle = createHttpHandler({ dns: createDnsService(), quotas: createQuotaService(), authenticate: trustedHeaders() });
  serve(handle).listen(9001, '127.0.0.1', () => console.log('zoneward on http://127.0.0.1:9001 (/v2: DNS, /v1: quotas)'));
}
