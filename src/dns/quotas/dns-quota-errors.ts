import { ApiError } from '../../kernel/api-error.js';

/**
 * Every refusal of a DNS quota command (`/v2/quotas/{project}`), with the real service's wording;
 * going over a quota is `zoneOverQuota` in `zone-quotas.ts`, next to the arithmetic.
 * @module
 */

/** A path project id the service cannot store or echo. @internal */
export const invalidProjectId = (): ApiError =>
  new ApiError(400, 'invalid_object', 'Provided object is not valid. Got a ValueError error with message Invalid project ID');

/** A body field rejected the way the real service's quota object rejects it (plain invalid_object). @internal */
export const invalidQuota = (detail: string): ApiError =>
  new ApiError(400, 'invalid_object', `Provided object is not valid. Got a ValueError error with message ${detail}`);

/** A project-less token changing quotas without all-projects (the real PATCH's own message). @internal */
export const patchNeedsAllProjects = (): ApiError =>
  new ApiError(401, 'missing_project_id', 'The all-projects flag must be used when using non-project scoped tokens.');

