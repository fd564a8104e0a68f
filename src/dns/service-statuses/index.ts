export { createServiceStatusCommands } from './service-status-commands.js';
export type { ServiceStatusBody, ServiceStatusCommands, ServiceStatusList } from './service-status-commands.js';
