import { describe, expect, it } from 'vitest';
import { createDnsService, type RequestContext } from '../../../src/index.js';
import { manualClock, seededRandom, sequentialIds } from '../../../src/testing/index.js';

const admin: RequestContext = { projectId: 'ops', roles: ['admin'] };
const alice: RequestContext = { projectId: 'alice', roles: ['member'] };
const service = () => createDnsService({ clock: manualClock('2026-01-01T00:00:00Z'), ids: sequentialIds(), random: seededRandom(1), tasks: 'inline', forbiddenStatus: 403 });
const error = (r: { _unsafeUnwrapErr(): { status: number; type: string; message: string } }): string => {
  const e = r._unsafeUnwrapErr();
  return `${e.status} ${e.type}: ${e.message}`;
};
const invalid = (detail: string) => `400 invalid_object: Provided object is not valid. Got a ValueError error with message ${detail}`;

describe('dns.blacklists', () => {
  it('creates, reads, lists, updates and deletes with the real bodies and events', async () => {
    const dns = service();
    const events: string[] = [];
    dns.events.subscribe((e) => events.push(`${e.type} ${String((e.payload as { pattern?: string }).pattern)}`));
    const b = (await dns.blacklists.create(admin, { pattern: '^bad\\.com\\.$', description: 'd' }))._unsafeUnwrap();
    expect(b).toEqual({
      id: '00000000-0000-4000-8000-000000000001',
      pattern: '^bad\\.com\\.$',
      description: 'd',
      created_at: '2026-01-01T00:00:00.000000',
      updated_at: null,
      links: { self: 'http://localhost:9001/v2/blacklists/00000000-0000-4000-8000-000000000001' },
    });
    expect((await dns.blacklists.get(admin, b.id))._unsafeUnwrap()).toEqual(b);
    expect((await dns.blacklists.list(admin, { pattern: '^bad*' }))._unsafeUnwrap().blacklists).toEqual([b]);
    expect((await dns.blacklists.update(admin, b.id, { pattern: 'evil' }))._unsafeUnwrap().pattern).toBe('evil');
    (await dns.blacklists.delete(admin, b.id))._unsafeUnwrap();
    expect(error(await dns.blacklists.get(admin, b.id))).toBe('404 blacklist_not_found: Could not find Blacklist');
    expect(events).toEqual(['dns.blacklist.create ^bad\\.com\\.$', 'dns.blacklist.update evil', 'dns.blacklist.delete evil']);
  });

  it('validates pattern and description as the real service (a regular expression, both)', async () => {
    const dns = service();
    (await dns.blacklists.create(admin, { pattern: 'a' }))._unsafeUnwrap();
    expect(error(await dns.blacklists.create(admin, { pattern: 'a' }))).toBe('409 duplicate_blacklist: Duplicate Blacklist');
    expect(error(await dns.blacklists.create(admin, { pattern: '(' }))).toBe(invalid('( is not a valid regular expression'));
    expect(error(await dns.blacklists.create(admin, { pattern: '' }))).toBe(invalid(' is not a valid regular expression'));
    expect(error(await dns.blacklists.create(admin, { pattern: '\\q' }))).toBe(invalid('\\q is not a valid regular expression'));
    expect(error(await dns.blacklists.create(admin, { pattern: 'b', description: '' }))).toBe(invalid(' is not a valid regular expression'));
    expect(error(await dns.blacklists.create(admin, { pattern: 'x'.repeat(256) }))).toBe(invalid('Value too long for pattern'));
    expect((await dns.blacklists.create(admin, {}))._unsafeUnwrapErr().errors).toEqual([{ path: 'records.0.pattern', message: "'pattern' is a required property" }]);
    // Python compiles these; no linear-time matcher can run them, so they are refused, and say why.
    expect(error(await dns.blacklists.create(admin, { pattern: '(?P<x>a)(?P=x)' }))).toMatch(/is not a valid regular expression for this service: backreferences/);
    // A description is never searched: what only the matcher cannot run is a fine description.
    expect((await dns.blacklists.create(admin, { pattern: 'c', description: '(?=x)' })).isOk()).toBe(true);
    expect((await dns.blacklists.list(alice))._unsafeUnwrapErr().type).toBe('forbidden');
    expect((await dns.blacklists.create(alice, { pattern: 'z' }))._unsafeUnwrapErr().type).toBe('forbidden');
  });

  it('refuses matching zone creates and imports, except for admins (use_blacklisted_zone)', async () => {
    const dns = service();
    (await dns.blacklists.create(admin, { pattern: '^bad\\.com\\.$' }))._unsafeUnwrap();
    (await dns.blacklists.create(admin, { pattern: '(a+)+$' }))._unsafeUnwrap();
    expect(error(await dns.zones.create(alice, { name: 'bad.com.', email: 'h@x.com' }))).toBe('400 invalid_zone_name: Blacklisted zone name');
    expect((await dns.zones.create(alice, { name: 'notbad.com.', email: 'h@x.com' })).isOk()).toBe(true);
    // A hostile pattern against the name that makes backtracking engines explode: answered at once.
    const started = performance.now();
    const hostile = `${'a'.repeat(60)}.com.`;
    expect((await dns.zones.create(alice, { name: hostile, email: 'h@x.com' })).isOk()).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await dns.zones.create(admin, { name: 'bad.com.', email: 'h@x.com' })).isOk()).toBe(true);
    const file = '$ORIGIN bad.com.\n$TTL 300\n@ IN SOA ns1.example.org. h.bad.com. 1 3600 600 86400 300\n@ IN NS ns1.example.org.\n';
    const imp = (await dns.imports.create({ projectId: 'bob', roles: ['member'] }, file, 'text/dns'))._unsafeUnwrap();
    await dns.tasks.settle();
    expect((await dns.imports.get({ projectId: 'bob', roles: ['member'] }, imp.id))._unsafeUnwrap()).toMatchObject({
      status: 'ERROR',
      message: 'An undefined error occurred. Blacklisted zone name',
    });
  });

  it('are in snapshots and gone after reset()', async () => {
    const dns = service();
    (await dns.blacklists.create(admin, { pattern: 'bad' }))._unsafeUnwrap();
    const copy = createDnsService({ from: await dns.snapshot(), tasks: 'inline' });
    expect(error(await copy.zones.create(alice, { name: 'bad.com.', email: 'h@x.com' }))).toBe('400 invalid_zone_name: Blacklisted zone name');
    await copy.reset();
    expect((await copy.zones.create(alice, { name: 'bad.com.', email: 'h@x.com' })).isOk()).toBe(true);
  });
});
