export { createLimitsCommands } from './limits-commands.js';
export type { LimitsBody, LimitsCommands } from './limits-commands.js';
