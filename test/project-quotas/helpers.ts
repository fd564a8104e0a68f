import { createQuotaService, type QuotaService, type QuotaServiceOptions } from '../../src/project-quotas/index.js';

export const serviceAdmin = { projectId: 'ops', roles: ['key-manager:service-admin'] };
export const member = { projectId: 'p1', roles: ['member'] };

/** A service with `n` configured projects p00, p01, ... created in that order. */
export async function seeded(n: number, options: QuotaServiceOptions = {}): Promise<QuotaService> {
  const quotas = createQuotaService(options);
  for (let i = 0; i < n; i++) {
    const r = await quotas.projectQuotas.set(serviceAdmin, `p${String(i).padStart(2, '0')}`, { project_quotas: { secrets: i } });
    if (r.isErr()) throw r.error;
  }
  return quotas;
}
