import type { CollectionKeys } from '../../kernel/snapshot.js';
import { TSIGKEYS, tsigkeyRepository, type StoredTsigkey } from './tsigkey.js';

export { createTsigkeyCommands } from './tsigkey-commands.js';
export type { TsigkeyCommands, TsigkeyList } from './tsigkey-commands.js';
export type { TsigAlgorithm, TsigkeyBody, TsigkeyInput, TsigScope } from './tsigkey.js';

/**
 * The TSIG key collection and how its index keys derive from a stored value, for snapshots and
 * restores (merge into the DNS service's collection map).
 * @category TSIG keys
 * @internal
 */
export const TSIGKEY_COLLECTIONS: CollectionKeys = {
  [TSIGKEYS]: (k: StoredTsigkey) => tsigkeyRepository.collection.keys(k),
};
