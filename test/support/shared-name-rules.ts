import { expect } from 'vitest';
import type { ResultAsync } from 'neverthrow';
import { createDnsService, type ApiError, type RequestContext, type Storage } from '../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../src/testing/index.js';

const admin: RequestContext = { projectId: 'ops', roles: ['admin'] };
const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const body = (name: string) => ({ name, email: 'admin@example.com' });
const refusal = async <T>(r: ResultAsync<T, ApiError>): Promise<string | undefined> => {
  const out = await r;
  return out.isErr() ? out.error.message : undefined;
};

/**
 * Two services over one store, each with its own memory of the TLDs and blacklist: each sees the
 * other's changes at its next create, and its own too, even when both draw the same ids (two
 * `sequentialIds()`, as test suites write them), so that a change can never look like the
 * version a service already holds.
 */
export async function servicesShareNameRules(storages: readonly [Storage, Storage]): Promise<void> {
  const [a, b] = storages.map((storage) =>
    createDnsService({ storage, clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1), tasks: 'inline' }),
  ) as [ReturnType<typeof createDnsService>, ReturnType<typeof createDnsService>];
  (await a.tlds.create(admin, { name: 'com' }))._unsafeUnwrap();
  // B learns the rules (a refused create draws no id), then writes the blacklist with the ids A drew.
  expect(await refusal(b.zones.create(alice, body('x.org.')))).toBe('Invalid TLD');
  (await b.blacklists.create(admin, { pattern: '^blocked\\.' }))._unsafeUnwrap();
  expect(await refusal(b.zones.create(alice, body('blocked.com.')))).toBe('Blacklisted zone name');
  expect(await refusal(a.zones.create(alice, body('blocked.com.')))).toBe('Blacklisted zone name');
  const org = (await a.tlds.create(admin, { name: 'org' }))._unsafeUnwrap();
  (await b.zones.create(alice, body('x.org.')))._unsafeUnwrap();
  (await b.tlds.delete(admin, org.id))._unsafeUnwrap();
  expect(await refusal(a.zones.create(alice, body('y.org.')))).toBe('Invalid TLD');
  expect(await refusal(a.zones.create(alice, body('fine.com.')))).toBeUndefined();
}
