/**
 * zoneward: the DNS zone service (v2) and the project quota service (v1) as an embeddable,
 * in-memory library. Commands take a {@link RequestContext} and answer a neverthrow
 * `ResultAsync` holding the documented JSON body or an {@link ApiError}; state lives behind the
 * {@link Storage} port.
 *
 * @module zoneward
 */
export { ApiError } from './kernel/api-error.js';
export type { ApiErrorOptions, DnsErrorBody, ErrorDialect, FieldError, QuotaErrorBody } from './kernel/api-error.js';
export type {
  CommonErrorType,
  DnsErrorType,
  ErrorType,
  ExportErrorType,
  HttpErrorType,
  ImportErrorType,
  PoolErrorType,
  QuotaErrorType,
  RecordsetErrorType,
  ServiceStatusErrorType,
  TldErrorType,
  BlacklistErrorType,
  TransferErrorType,
  TsigkeyErrorType,
  ZoneErrorType,
} from './kernel/error-types.js';
export type { RequestContext } from './kernel/context.js';
export type { RequestBody } from './dns/kernel/body.js';
export type { DnsEvent, DnsEventListener } from './dns/kernel/events.js';
export type { ListQuery } from './kernel/list-query.js';
export type { IndexKeys, IndexPosition, RangeQuery, RangeRequest, Storage, StorageLock, StorageTransaction, StoredEntry, StoredRow } from './ports/storage.js';
export { memoryStorage } from './adapters/memory/memory-storage.js';
export { createDnsService } from './dns/service.js';
export type { DnsService, DnsServiceOptions } from './dns/service.js';
export type {
  DnsEventFeed,
  DnsQuotaCommands,
  DnsTaskQueue,
  RecordsetCommands,
  RecordsetCreateInput,
  RecordsetUpdateInput,
  ZoneCommands,
} from './dns/service-groups.js';
export type { Nameserver, NameserversBody, PoolConfig, PoolTargetPort } from './dns/kernel/deps.js';
export type { ServiceSnapshot } from './kernel/snapshot.js';
export type { ListEnvelope } from './kernel/list-command.js';
export type { SelfLink, ZoneAction, ZoneBody, ZoneStatus, ZoneType } from './dns/kernel/zone.js';
export type { ZoneList } from './dns/zones/zone-commands.js';
export type { ZoneCreateInput, ZoneUpdateInput } from './dns/zones/zone-input.js';
export type { ZoneLimits } from './dns/kernel/zone-rules.js';
export type { MasterAddress, MasterPort, MasterRecord, TransferLimits } from './ports/master.js';
export type { RecordsetBody } from './dns/kernel/recordset-body.js';
export type { RecordsetList } from './dns/recordsets/recordset-commands.js';
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
} from './dns/transfers/index.js';
export { DEFAULT_ZONE_QUOTAS } from './dns/quotas/index.js';
export { DEFAULT_IMPORT_RECORD_TYPES } from './dns/imports/index.js';
export type { ZoneImportBody, ZoneImportCommands, ZoneImportLinks, ZoneImportList, ZoneImportStatus } from './dns/imports/index.js';
export type { ZoneExportBody, ZoneExportCommands, ZoneExportLinks, ZoneExportList, ZoneExportStatus } from './dns/exports/index.js';
export type { TldBody, TldCommands, TldInput, TldList } from './dns/tlds/index.js';
export type { BlacklistBody, BlacklistCommands, BlacklistInput, BlacklistList } from './dns/blacklists/index.js';
export { createQuotaService, effectiveLimit, exceedsQuota, isUnconstrained } from './project-quotas/index.js';
export type {
  ConfiguredQuotas,
  EffectiveQuotasBody,
  EnforceRequest,
  ProjectQuotaCommands,
  ProjectQuotasBody,
  ProjectQuotasPage,
  ProjectQuotasQuery,
  ProjectQuotasRecord,
  QuotaKind,
  QuotaService,
  QuotaServiceOptions,
  QuotaSnapshot,
  QuotaValues,
} from './project-quotas/index.js';
export type { ZoneQuotaLimits, ZoneQuotaResource } from './dns/quotas/index.js';
export type { TsigAlgorithm, TsigkeyBody, TsigkeyCommands, TsigkeyInput, TsigkeyList, TsigScope } from './dns/tsigkeys/index.js';
export type { PoolBody, PoolCommands, PoolInput, PoolList, PoolNsRecord } from './dns/pools/index.js';
export type { ServiceStatusBody, ServiceStatusCommands, ServiceStatusList } from './dns/service-statuses/index.js';
export type { LimitsBody, LimitsCommands } from './dns/limits/index.js';
export type { FloatingIpCommands, FloatingIpList } from './dns/reverse/index.js';
