export { createQuotaService } from './service.js';
export type { ProjectQuotaCommands, QuotaService, QuotaServiceOptions } from './service.js';
export type { EffectiveQuotasBody, EnforceRequest, ProjectQuotasBody, ProjectQuotasPage, ProjectQuotasQuery } from './quota-commands.js';
export type { QuotaSnapshot } from './quota-snapshot.js';
export type { ConfiguredQuotas, ProjectQuotasRecord, QuotaKind, QuotaValues } from './quota-values.js';
export { effectiveLimit, exceedsQuota, isUnconstrained } from '../kernel/quota-engine.js';
export { quotaExceeded } from './quota-errors.js';
