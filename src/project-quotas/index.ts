export { createQuotaService } from './service.js';
export type { QuotaServiceOptions } from './service.js';
export type {
  EffectiveQuotasBody,
  EnforceRequest,
  ProjectQuotaCommands,
  ProjectQuotasBody,
  ProjectQuotasPage,
  ProjectQuotasQuery,
  QuotaService,
  QuotaSnapshot,
} from './quota-commands.js';
export type { ConfiguredQuotas, ProjectQuotasRecord, QuotaKind, QuotaValues } from './quota-values.js';
export { effectiveLimit, exceedsQuota, isUnconstrained } from '../kernel/quota-engine.js';
export { quotaExceeded } from './quota-errors.js';
