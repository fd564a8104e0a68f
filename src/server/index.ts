/**
 * zoneward/server: both services, a Keystone v3-compatible identity endpoint and test endpoints
 * on node:http, as one process any OpenStack client can talk to. The package's `bin`,
 * `npx zoneward serve`, runs the same from the command line.
 *
 * @example
 * ```ts
 * import { startServer } from 'zoneward/server';
 *
 * const server = await startServer({ port: 9001, snapshotFile: 'state.json' });
 * // OS_AUTH_URL=http://127.0.0.1:9001/identity/v3 OS_USERNAME=admin OS_PASSWORD=any \
 * //   OS_PROJECT_NAME=admin OS_USER_DOMAIN_NAME=Default OS_PROJECT_DOMAIN_NAME=Default openstack zone list
 * await server.close(); // saves state.json
 * ```
 *
 * @module zoneward/server
 */
export { startServer } from './server.js';
export type { ServerOptions, ServerSnapshot, ZonewardServer } from './server.js';
export type { IdentityAssignment, IdentityOptions, IdentityProject, IdentityUser } from './identity.js';
