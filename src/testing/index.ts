/**
 * Helpers for using zoneward as a test double: deterministic time, ids and randomness,
 * storage fault injection (by index or by plan), steerable pool targets, inspection views that
 * read state past every policy, and the storage-port conformance suite.
 *
 * @module zoneward/testing
 */
export { manualClock, sequentialIds, seededRandom } from './clock-ids.js';
export type { ManualClock } from './clock-ids.js';
export { faultyStorage } from './faulty-storage.js';
export type { StorageOperation } from './faulty-storage.js';
export { faultPlan } from './fault-plan.js';
export type { FailWhen, FaultPlan, FaultPlanCall, FaultPlanOptions, FaultWhen } from './fault-plan.js';
export { controllablePoolTargets } from './pool-targets.js';
export type { ControllablePoolTargets, PoolTargetCall, PoolTargetMethod, PoolTargetWhen } from './pool-targets.js';
export { inspectDns, inspectQuotas } from './inspect.js';
export type { DnsInspection, DnsState, InspectDnsOptions, InspectedTask, QuotaInspection } from './inspect.js';
export { runStorageConformance } from './storage-conformance.js';
export type { ConformanceAssertion, ConformanceTestApi } from './storage-conformance.js';
export { scriptedMaster } from './scripted-master.js';
export type { MasterCall, ScriptedMaster } from './scripted-master.js';
