/**
 * zoneward: the DNS zone service (v2) and the project quota service (v1) as an embeddable,
 * in-memory library. Commands take a {@link RequestContext} and answer a neverthrow
 * `ResultAsync` holding the documented JSON body or an {@link ApiError}; state lives behind the
 * {@link Storage} port.
 *
 * @packageDocumentation
 */
export { ApiError } from './shared/api-error.js';
export type { ApiErrorOptions, ErrorDialect, FieldError } from './shared/api-error.js';
export type { RequestContext } from './shared/context.js';
export type { RequestBody } from './shared/body.js';
export type { DnsEvent, DnsEventListener } from './shared/events.js';
export type { ListQuery } from './shared/list-query.js';
export type { IndexKeys, IndexPosition, RangeQuery, RangeRequest, Storage, StorageLock, StorageTransaction, StoredEntry, StoredRow } from './ports/storage.js';
export { memoryStorage } from './adapters/memory/memory-storage.js';
export { createDnsService } from './dns/dns-service.js';
export type { DnsService, DnsServiceOptions } from './dns/dns-service.js';
export type { Nameserver, NameserversBody, PoolConfig, PoolTargetPort } from './domain/deps.js';
export type { ServiceSnapshot } from './shared/snapshot.js';
export type { ListEnvelope } from './shared/list-command.js';
export type { SelfLink, ZoneAction, ZoneBody, ZoneStatus, ZoneType } from './domain/zone.js';
export type { ZoneList } from './zones/zone-commands.js';
export type { ZoneCreateInput, ZoneUpdateInput } from './zones/zone-input.js';
export type { ZoneLimits } from './domain/zone-rules.js';
export type { MasterAddress, MasterPort, MasterRecord, TransferLimits } from './ports/master.js';
export type { RecordsetBody } from './domain/recordset.js';
export type { RecordsetList } from './recordsets/recordset-commands.js';
export type {
  TransferAcceptBody,
  TransferAcceptCommands,
  TransferAcceptInput,
  TransferAcceptList,
  TransferAcceptStatus,
  TransferRequestBody,
  TransferRequestCommands,
  TransferRequestInput,
  TransferRequestList,
  TransferRequestStatus,
} from './transfers/index.js';
export { DEFAULT_ZONE_QUOTAS } from './dns-quotas/index.js';
export { DEFAULT_IMPORT_RECORD_TYPES } from './imports/index.js';
export type { ZoneImportBody, ZoneImportCommands, ZoneImportLinks, ZoneImportList, ZoneImportStatus } from './imports/index.js';
export type { ZoneExportBody, ZoneExportCommands, ZoneExportLinks, ZoneExportList, ZoneExportStatus } from './exports/index.js';
export { createQuotaService, effectiveLimit, exceedsQuota, isUnconstrained } from './quota-service/index.js';
export type {
  ConfiguredQuotas,
  EffectiveQuotasBody,
  EnforceRequest,
  ProjectQuotasBody,
  ProjectQuotasPage,
  ProjectQuotasQuery,
  ProjectQuotasRecord,
  QuotaKind,
  QuotaService,
  QuotaServiceOptions,
  QuotaSnapshot,
  QuotaValues,
} from './quota-service/index.js';
export type { ZoneQuotaLimits, ZoneQuotaResource } from './dns-quotas/index.js';
