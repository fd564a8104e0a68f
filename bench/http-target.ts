/**
 * A server for bench/http.bench.ts, in its own process so the load generator does not share its
 * event loop: `zoneward` (the handler on node:http through examples/http-server.ts, one zone
 * created) or `bare` (node:http answering that zone's JSON body, fixed). Prints
 * `{"port","path","headers"}` on stdout once it listens.
 */
import { createServer } from 'node:http';
import { createDnsService } from '../src/index.js';
import { createHttpHandler, trustedHeaders } from '../src/adapters/http/index.js';
import { manualClock, sequentialIds } from '../src/testing/index.js';
import { serve } from '../examples/http-server.js';

const kind = process.argv[2];
const headers = { 'X-Auth-Project-ID': 'p1', 'X-Roles': 'member' };
const dns = createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), tasks: 'inline' });
const zone = (await dns.zones.create({ projectId: 'p1', roles: ['member'] }, { name: 'example.com.', email: 'hostmaster@example.com' }))._unsafeUnwrap();
const path = `/v2/zones/${zone.id}`;

const server =
  kind === 'bare'
    ? (() => {
        const fixed = Buffer.from(JSON.stringify(zone));
        return createServer((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(fixed);
        });
      })()
    : serve(createHttpHandler({ dns, authenticate: trustedHeaders() }));

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port, path, headers })}\n`);
});
