export { createTldCommands } from './tld-commands.js';
export type { TldBody, TldCommands, TldInput, TldList } from './tld-commands.js';
