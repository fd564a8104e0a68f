export { createBlacklistCommands } from './blacklist-commands.js';
export type { BlacklistBody, BlacklistCommands, BlacklistInput, BlacklistList } from './blacklist-commands.js';
