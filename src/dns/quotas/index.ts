export { DEFAULT_ZONE_QUOTAS, checkZoneQuota, readZoneQuotas, zoneOverQuota } from '../kernel/zone-quotas.js';
export type { ZoneQuotaLimits, ZoneQuotaResource } from '../kernel/zone-quotas.js';
export { getDnsQuotas, resetDnsQuotas, setDnsQuotas } from './dns-quota-commands.js';
export type { DnsQuotaDeps } from './dns-quota-commands.js';
