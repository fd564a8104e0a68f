import type { CollectionKeys } from '../../kernel/snapshot.js';
import { TRANSFER_ACCEPTS, transferAcceptRepository, type StoredTransferAccept } from './transfer-accept.js';
import { TRANSFER_REQUESTS, transferRequestKeys, type StoredTransferRequest } from './transfer-request.js';

export { createTransferAcceptCommands, createTransferRequestCommands } from './transfer-commands.js';
export type { TransferAcceptCommands, TransferAcceptList, TransferRequestCommands, TransferRequestList } from './transfer-commands.js';
export type { TransferAcceptBody, TransferAcceptInput, TransferAcceptStatus } from './transfer-accept.js';
export type { TransferRequestBody, TransferRequestInput, TransferRequestStatus } from './transfer-request.js';

/**
 * The transfer collections and how each one's index keys derive from a stored value, for
 * snapshots and restores (merge into the DNS service's collection map).
 * @category Transfers
 * @internal
 */
export const TRANSFER_COLLECTIONS: CollectionKeys = {
  [TRANSFER_REQUESTS]: (r: StoredTransferRequest) => transferRequestKeys(r),
  [TRANSFER_ACCEPTS]: (a: StoredTransferAccept) => transferAcceptRepository.collection.keys(a),
};
