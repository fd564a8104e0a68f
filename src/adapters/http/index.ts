/**
 * zoneward/http: both services' HTTP interfaces as a WHATWG `Request → Response` function, with
 * no socket of its own. Mount it in any server (node:http, Hono, Fastify, a worker) or answer a
 * `fetch`-based client's requests in tests (msw).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createDnsService, createQuotaService } from 'zoneward';
 * import { createHttpHandler, toNodeListener, trustedHeaders } from 'zoneward/http';
 *
 * const handle = createHttpHandler({ dns: createDnsService(), quotas: createQuotaService(), authenticate: trustedHeaders() });
 * createServer(toNodeListener(handle)).listen(9001, '127.0.0.1');
 * ```
 *
 * @module zoneward/http
 */
export { createHttpHandler } from './handler.js';
export type { HttpHandler, HttpHandlerOptions } from './handler.js';
export { trustedHeaders } from './trusted-headers.js';
export { toNodeListener } from './node.js';
