/**
 * zoneward/http mounted on node:http (the README shows it).
 * `npx tsx examples/http-server.ts` serves both services on http://127.0.0.1:9001; the real
 * clients talk to it with keystoneauth's noauth plugin and an endpoint override.
 */
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createDnsService, createQuotaService } from '../src/index.js';
import { createHttpHandler, toNodeListener, trustedHeaders, type HttpHandler } from '../src/adapters/http/index.js';

/** A node:http server handing every request to `handle`. */
export function serve(handle: HttpHandler): Server {
  return createServer(toNodeListener(handle));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const handle = createHttpHandler({ dns: createDnsService(), quotas: createQuotaService(), authenticate: trustedHeaders() });
  serve(handle).listen(9001, '127.0.0.1', () => console.log('zoneward on http://127.0.0.1:9001 (/v2: DNS, /v1: quotas)'));
}
