/** A zone create's answer, as far as {@link inlineTaskMode} reads it. */
interface Answer {
  isErr(): boolean;
  _unsafeUnwrap(): unknown;
}

/**
 * The task mode in which a build finishes a zone's push inside the create: `'inline'` where the
 * build has it, else `'auto'` (which did so before `'inline'` existed). A/B benches load an older
 * build beside this one and must time the same work in both.
 *
 * @param createOne - creates one zone in a fresh service of the build with the given task mode
 */
export async function inlineTaskMode(createOne: (tasks: 'inline') => Promise<Answer>): Promise<'inline' | 'auto'> {
  const zone = await createOne('inline');
  return !zone.isErr() && (zone._unsafeUnwrap() as { status?: unknown }).status === 'ACTIVE' ? 'inline' : 'auto';
}

/** The caller and body {@link inlineTaskMode}'s probe creates with. */
export const PROBE = { ctx: { projectId: 'probe', roles: ['member'] }, body: { name: 'probe.test.', email: 'h@probe.test' } } as const;
