import type { CollectionKeys } from '../../kernel/snapshot.js';
import { POOLS, poolRepository, type StoredPool } from './pool.js';

export { createPoolCommands } from './pool-commands.js';
export type { PoolCommands, PoolList } from './pool-commands.js';
export type { PoolBody, PoolInput, PoolNsRecord } from './pool.js';

/**
 * The pool collection (pools made or changed through the API) and how its index keys derive from
 * a stored value, for snapshots and restores.
 * @category Pools
 * @internal
 */
export const POOL_COLLECTIONS: CollectionKeys = {
  [POOLS]: (p: StoredPool) => poolRepository.collection.keys(p),
};
