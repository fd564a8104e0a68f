/**
 * The pipeline's body and ids steps: a body an adapter could not read is answered where the real
 * service reads the body (after a refused elevation and a bad path id, before any other check of
 * the caller), and the command's own steps never see it.
 */
import { err, ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/memory-storage.js';
import { ApiError } from '../../src/kernel/api-error.js';
import { command, readBody, UnreadBody, type CommandEnv } from '../../src/kernel/command.js';
import { ALL_PROJECTS_ASKED, resolveCaller } from '../../src/kernel/context.js';

const env: CommandEnv = { storage: memoryStorage(), restored: Promise.resolve(ok(undefined)), forbiddenStatus: 403, dialect: 'dns' };
const member = { projectId: 'p1', roles: ['member'] };
const tooLarge = new ApiError(413, 'request_too_large', 'too large');
const badId = new ApiError(400, 'invalid_uuid', 'bad id');

/** A command that records which of its steps ran and answers `done` when all of them pass. */
function run(ctx: unknown, body: unknown, idOk: boolean) {
  const ran: string[] = [];
  const result = command(env, ctx, {
    body,
    ids: () => (idOk ? ok('id') : err(badId)),
    parse: () => {
      ran.push('parse');
      return idOk ? ok(body) : err(badId);
    },
    transaction: () => {
      ran.push('transaction');
      return Promise.resolve(ok('done'));
    },
  });
  return { ran, result };
}

describe('command: an unread body', () => {
  it('is answered before the caller is checked when the ids are good, and parse never runs', async () => {
    const { ran, result } = run({ projectId: null, roles: [] }, new UnreadBody(tooLarge), true);
    expect((await result)._unsafeUnwrapErr()).toBe(tooLarge);
    expect(ran).toEqual([]);
  });

  it('gives way to a refused elevation, which the real middleware answers first', async () => {
    const { result } = run({ ...member, allProjects: true }, new UnreadBody(tooLarge), true);
    expect((await result)._unsafeUnwrapErr().type).toBe('forbidden');
  });

  it('gives way to a bad path id, itself answered after the caller', async () => {
    expect((await run(member, new UnreadBody(tooLarge), false).result)._unsafeUnwrapErr()).toBe(badId);
    const unauthenticated = await run({ projectId: null, roles: [] }, new UnreadBody(tooLarge), false).result;
    expect(unauthenticated._unsafeUnwrapErr().type).toBe('authentication_required');
  });

  it('changes nothing when the body was read', async () => {
    const { ran, result } = run(member, { a: 1 }, true);
    expect((await result)._unsafeUnwrap()).toBe('done');
    expect(ran).toEqual(['parse', 'transaction']);
  });

  it('readBody answers the unread body where a command reads it itself', () => {
    expect(readBody(new UnreadBody(tooLarge))._unsafeUnwrapErr()).toBe(tooLarge);
    expect(readBody('x')._unsafeUnwrap()).toBe('x');
  });
});

describe('resolveCaller: all projects asked at one step and turned off at a later one', () => {
  it('is refused for a non-admin and ignored for an admin', () => {
    expect(resolveCaller({ ...member, allProjects: false, [ALL_PROJECTS_ASKED]: true }, 403)._unsafeUnwrapErr().type).toBe('forbidden');
    const admin = resolveCaller({ projectId: 'ops', roles: ['admin'], allProjects: false, [ALL_PROJECTS_ASKED]: true }, 403);
    expect(admin._unsafeUnwrap().allProjects).toBe(false);
  });
});
