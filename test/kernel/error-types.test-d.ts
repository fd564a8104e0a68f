/**
 * The error catalogue is checked by the compiler (this file is in `npm run typecheck`, not in
 * vitest's run): a misspelt code fails where an error is made and where a caller compares one.
 * Each `@ts-expect-error` fails the typecheck if the line below it ever compiles.
 */
import { ApiError, createDnsService, createQuotaService, type DnsErrorBody, type DnsErrorType, type QuotaErrorBody, type QuotaErrorType } from '../../src/index.js';

const dns = createDnsService();
const ctx = { projectId: 'p', roles: ['member'] };

export async function callerSide(): Promise<void> {
  const created = await dns.zones.create(ctx, { name: 'example.com.', email: 'a@example.com' });
  if (created.isErr()) {
    if (created.error.type === 'duplicate_zone') return;
    // @ts-expect-error: no such code
    if (created.error.type === 'duplicate_zon') return;
    const body: DnsErrorBody | QuotaErrorBody = created.error.toJSON();
    if ('type' in body) {
      const code: DnsErrorType = body.type;
      // @ts-expect-error: a DNS body's type is a DNS code
      const other: 'no_such_code' = body.type;
      void code;
      void other;
    }
  }
  const quotas = createQuotaService();
  const got = await quotas.projectQuotas.get({ projectId: 'p', roles: ['key-manager:service-admin'] }, 'p');
  if (got.isErr()) {
    const code: QuotaErrorType | DnsErrorType = got.error.type;
    void code;
  }
}

export const makerSide: ApiError[] = [
  new ApiError(409, 'duplicate_zone', 'Duplicate Zone'),
  // @ts-expect-error: a misspelt code does not compile
  new ApiError(409, 'duplicate_zonee', 'Duplicate Zone'),
  // @ts-expect-error: nor does a free-form string
  new ApiError(400, 'Bad request' as string, 'x'),
];

// @ts-expect-error: a quota-only code is not a DNS code
export const notDns: DnsErrorType = 'quota_exceeded';
export const quotaOnly: QuotaErrorType = 'quota_exceeded';
