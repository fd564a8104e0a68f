export { createFloatingIpCommands } from './floating-ip-commands.js';
export type { FloatingIpCommands, FloatingIpList } from './floating-ip-commands.js';
