/**
 * zoneward/http: both services' HTTP interfaces as a WHATWG `Request → Response` function, with
 * no socket of its own. Mount it in any server (node:http, Hono, Fastify, a worker) or answer a
 * `fetch`-based client's requests in tests (msw).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { Readable } from 'node:stream';
 * import { createDnsService, createQuotaService } from 'zoneward';
 * import { createHttpHandler, trustedHeaders } from 'zoneward/http';
 *
 * const handle = createHttpHandler({ dns: createDnsService(), quotas: createQuotaService(), authenticate: trustedHeaders() });
 * createServer(async (req, res) => {
 *   const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Readable.toWeb(req);
 *   const response = await handle(new Request(`http://${req.headers.host}${req.url}`, {
 *     method: req.method, headers: req.headers as HeadersInit, body, duplex: 'half',
 *   } as RequestInit));
 *   res.writeHead(response.status, Object.fromEntries(response.headers));
 *   res.end(Buffer.from(await response.arrayBuffer()));
 * }).listen(9001, '127.0.0.1');
 * ```
 *
 * @module zoneward/http
 */
export { createHttpHandler } from './handler.js';
export type { HttpHandler, HttpHandlerOptions } from './handler.js';
export { trustedHeaders } from './trusted-headers.js';
