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
export type { ConfiguredQuotas, QuotaKind, QuotaValues } from '../quotas/quota-values.js';
export { effectiveLimit, exceedsQuota, isUnconstrained } from '../shared/quota-engine.js';
export { quotaExceeded } from '../quotas/quota-errors.js';
