export { createQuotaService } from './quota-service.js';
export type {
  EffectiveQuotasBody,
  EnforceRequest,
  ProjectQuotasBody,
  ProjectQuotasPage,
  ProjectQuotasQuery,
  ProjectQuotasRecord,
  QuotaService,
  QuotaServiceOptions,
  QuotaSnapshot,
} from './quota-service.js';
export type { ConfiguredQuotas, QuotaKind, QuotaValues } from './quota-values.js';
export { effectiveLimit, exceedsQuota, isUnconstrained } from './engine.js';
export { quotaExceeded } from './quota-errors.js';
