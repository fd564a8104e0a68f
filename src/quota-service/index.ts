export { createQuotaService } from './quota-service.js';
export type { QuotaServiceOptions } from './quota-service.js';
export type {
  EffectiveQuotasBody,
  EnforceRequest,
  ProjectQuotasBody,
  ProjectQuotasPage,
  ProjectQuotasQuery,
  QuotaService,
  QuotaSnapshot,
} from '../quotas/quota-commands.js';
export type { ConfiguredQuotas, ProjectQuotasRecord, QuotaKind, QuotaValues } from '../quotas/quota-values.js';
export { effectiveLimit, exceedsQuota, isUnconstrained } from '../shared/quota-engine.js';
export { quotaExceeded } from '../quotas/quota-errors.js';
