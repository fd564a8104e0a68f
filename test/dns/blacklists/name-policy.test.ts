import { describe, expect, it } from 'vitest';
import { createDnsService, memoryStorage, type ServiceSnapshot } from '../../../src/index.js';
import { servicesShareNameRules } from '../../support/shared-name-rules.js';

const admin = { projectId: 'ops', roles: ['admin'] };
const alice = { projectId: 'alice', roles: ['member'] };
const body = (name: string) => ({ name, email: 'admin@example.com' });

describe('the name rules a zone create reads, remembered per service', () => {
  it('two services over one memory storage see each other’s TLD and blacklist changes', async () => {
    const storage = memoryStorage();
    await servicesShareNameRules([storage, storage]);
  });

  it('forgets the rules with a reset and brings them back with a restore', async () => {
    const dns = createDnsService({ tasks: 'inline' });
    (await dns.tlds.create(admin, { name: 'com' }))._unsafeUnwrap();
    (await dns.blacklists.create(admin, { pattern: '^blocked\\.' }))._unsafeUnwrap();
    expect((await dns.zones.create(alice, body('x.org.')))._unsafeUnwrapErr().message).toBe('Invalid TLD');
    const snapshot = await dns.snapshot();
    await dns.reset();
    (await dns.zones.create(alice, body('x.org.')))._unsafeUnwrap();
    (await dns.zones.create(alice, body('blocked.org.')))._unsafeUnwrap();
    const restored = createDnsService({ tasks: 'inline', from: snapshot });
    expect((await restored.zones.create(alice, body('x.org.')))._unsafeUnwrapErr().message).toBe('Invalid TLD');
    expect((await restored.zones.create(alice, body('blocked.com.')))._unsafeUnwrapErr().message).toBe('Blacklisted zone name');
  });

  it('refuses a snapshot holding rules without the row that announces them to creates', async () => {
    const dns = createDnsService();
    (await dns.tlds.create(admin, { name: 'com' }))._unsafeUnwrap();
    const snapshot = await dns.snapshot();
    const { ['dns.meta']: _meta, ...rest } = snapshot.collections;
    const forged: ServiceSnapshot = { ...snapshot, collections: rest };
    expect(() => createDnsService({ from: forged })).toThrow(/TLDs or blacklist patterns without the dns.meta row/);
  });
});
