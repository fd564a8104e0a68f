/**
 * Helpers for using zoneward as a test double: deterministic time, ids and randomness,
 * storage fault injection, and the storage-port conformance suite.
 *
 * @packageDocumentation
 */
export { manualClock, sequentialIds, seededRandom } from './clock-ids.js';
export type { ManualClock } from './clock-ids.js';
export { faultyStorage } from './faulty-storage.js';
export type { StorageOperation } from './faulty-storage.js';
export { runStorageConformance } from './storage-conformance.js';
