/**
 * The request context, read defensively (reference §1.1, §11.1): who counts as authenticated,
 * which elevations need the admin role, and the error each refusal carries in both dialects.
 */
import { describe, expect, it } from 'vitest';
import { requireProject, resolveCaller, type Caller } from '../../src/kernel/context.js';

const AUTH = {
  code: 401,
  type: 'authentication_required',
  message: 'Authentication is required: the request carries no usable project (1 to 255 characters of text) and no roles.',
};
const resolve = (ctx: unknown, status: 401 | 403 = 403): Caller | object => {
  const r = resolveCaller(ctx, status);
  return r.isOk() ? r.value : r.error.toJSON();
};

describe('resolveCaller', () => {
  it('refuses what is not an object', () => {
    for (const ctx of [null, undefined, 'alice', 5, true]) expect(resolve(ctx)).toEqual(AUTH);
  });

  it('takes a project of 1 to 255 characters of clean text', () => {
    expect(resolve({ projectId: 'p' })).toEqual({ projectId: 'p', originalProjectId: 'p', roles: [], isAdmin: false, allProjects: false });
    expect(resolve({ projectId: 'p'.repeat(255) })).toMatchObject({ projectId: 'p'.repeat(255) });
    for (const projectId of ['', 'p'.repeat(256), 'a\u0000b', '\ud800', 5, {}, true]) expect(resolve({ projectId, roles: ['admin'] })).toEqual(AUTH);
    // Values with a length that are not strings: refused as unauthenticated, not read as text.
    for (const projectId of [['alice'], { length: 5 }]) expect(resolve({ projectId, roles: ['admin'] })).toEqual(AUTH);
  });

  it('needs a project or some role: a project-less token with roles is a caller without project', () => {
    expect(resolve({})).toEqual(AUTH);
    expect(resolve({ projectId: null, roles: [] })).toEqual(AUTH);
    expect(resolve({ projectId: null, roles: ['reader'] })).toEqual({ projectId: null, originalProjectId: null, roles: ['reader'], isAdmin: false, allProjects: false });
    expect(resolve({ roles: ['admin'] })).toMatchObject({ projectId: null, isAdmin: true });
  });

  it('reads roles only as an array of strings; null is none', () => {
    expect(resolve({ projectId: 'p', roles: null })).toMatchObject({ roles: [] });
    for (const roles of ['admin', [1], ['admin', null], { 0: 'admin', length: 1 }]) expect(resolve({ projectId: 'p', roles })).toEqual(AUTH);
  });

  it('keeps a frozen copy of the roles', () => {
    const roles = ['member'];
    const caller = resolveCaller({ projectId: 'p', roles }, 403)._unsafeUnwrap();
    roles.push('admin');
    expect(caller.roles).toEqual(['member']);
    expect(Object.isFrozen(caller.roles)).toBe(true);
    expect(caller.isAdmin).toBe(false);
  });

  it('calls admin exactly the role admin', () => {
    expect(resolve({ projectId: 'p', roles: ['member', 'admin'] })).toMatchObject({ isAdmin: true });
    expect(resolve({ projectId: 'p', roles: ['Admin', 'administrator'] })).toMatchObject({ isAdmin: false });
  });

  it('grants allProjects to admins only, and only for the value true', () => {
    expect(resolve({ projectId: 'p', roles: ['admin'], allProjects: true })).toMatchObject({ allProjects: true });
    expect(resolve({ projectId: 'p', roles: ['admin'], allProjects: 'true' })).toMatchObject({ allProjects: false });
    expect(resolve({ projectId: 'p', roles: ['member'], allProjects: 'true' })).toMatchObject({ allProjects: false });
    expect(resolve({ projectId: 'p', roles: ['member'], allProjects: true })).toEqual({ code: 403, type: 'forbidden' });
    expect(resolve({ projectId: 'p', roles: ['member'], allProjects: true }, 401)).toEqual({ code: 401, type: 'forbidden' });
    expect(resolveCaller({ projectId: 'p', allProjects: true }, 403)._unsafeUnwrapErr().message).toBe('Policy does not allow all_tenants to be performed.');
  });

  it('lets an admin act as another project, keeping the original one', () => {
    expect(resolve({ projectId: 'ops', roles: ['admin'], sudoProjectId: 'alice' })).toEqual({
      projectId: 'alice', originalProjectId: 'ops', roles: ['admin'], isAdmin: true, allProjects: false,
    });
    expect(resolve({ roles: ['admin'], sudoProjectId: 'alice', allProjects: true })).toMatchObject({ projectId: 'alice', originalProjectId: null, allProjects: true });
    expect(resolve({ projectId: 'ops', roles: ['admin'], sudoProjectId: null })).toMatchObject({ projectId: 'ops' });
  });

  it('refuses sudo to non-admins with the use_sudo policy, and an unusable sudo project as unauthenticated', () => {
    expect(resolve({ projectId: 'p', roles: ['member'], sudoProjectId: 'alice' }, 401)).toEqual({ code: 401, type: 'forbidden' });
    expect(resolveCaller({ projectId: 'p', sudoProjectId: 'alice' }, 403)._unsafeUnwrapErr().message).toBe('Policy does not allow use_sudo to be performed.');
    for (const sudoProjectId of ['', 'x'.repeat(256), 'a\u0000', 7, ['alice'], { length: 5 }]) {
      expect(resolve({ projectId: 'ops', roles: ['admin'], sudoProjectId })).toEqual(AUTH);
      expect(resolve({ projectId: 'p', roles: ['member'], sudoProjectId })).toEqual(AUTH);
    }
    expect(resolve({ projectId: 'ops', roles: ['admin'], sudoProjectId: 'x'.repeat(255) })).toMatchObject({ projectId: 'x'.repeat(255) });
  });

  it('checks allProjects before sudo', () => {
    expect(resolveCaller({ projectId: 'p', allProjects: true, sudoProjectId: '' }, 403)._unsafeUnwrapErr().message).toBe('Policy does not allow all_tenants to be performed.');
  });

  it('answers in the quota service shape when asked to', () => {
    expect(resolveCaller(null, 403, 'quota')._unsafeUnwrapErr().toJSON()).toEqual({ code: 401, title: 'Unauthorized', description: AUTH.message });
    expect(resolveCaller({ projectId: 'p', allProjects: true }, 403, 'quota')._unsafeUnwrapErr().toJSON()).toEqual({
      code: 403, title: 'Forbidden', description: 'Policy does not allow all_tenants to be performed.',
    });
    expect(resolveCaller({ projectId: 'p', sudoProjectId: 'q' }, 403, 'quota')._unsafeUnwrapErr().toJSON()).toMatchObject({ title: 'Forbidden' });
    expect(resolveCaller({ projectId: 'p', roles: 'x' }, 403, 'quota')._unsafeUnwrapErr().toJSON()).toMatchObject({ title: 'Unauthorized' });
    expect(resolveCaller({ projectId: '' }, 403, 'quota')._unsafeUnwrapErr().toJSON()).toMatchObject({ title: 'Unauthorized' });
    expect(resolveCaller({ roles: [] }, 403, 'quota')._unsafeUnwrapErr().toJSON()).toMatchObject({ title: 'Unauthorized' });
    expect(resolveCaller({ projectId: 'p', roles: ['admin'], sudoProjectId: '' }, 403, 'quota')._unsafeUnwrapErr().toJSON()).toMatchObject({ title: 'Unauthorized' });
  });
});

describe('requireProject', () => {
  const caller = (projectId: string | null): Caller => ({ projectId, originalProjectId: projectId, roles: ['admin'], isAdmin: true, allProjects: true });
  it('answers 401 missing_project_id for a project-less caller (reference §3.2)', () => {
    expect(requireProject(caller('p'))._unsafeUnwrap()).toBe('p');
    expect(requireProject(caller(null))._unsafeUnwrapErr().toJSON()).toEqual({
      code: 401, type: 'missing_project_id', message: 'A project ID must be specified when not using a project scoped token.',
    });
    expect(requireProject(caller(null), 'quota')._unsafeUnwrapErr().toJSON()).toMatchObject({ code: 401, title: 'Unauthorized' });
  });
});
