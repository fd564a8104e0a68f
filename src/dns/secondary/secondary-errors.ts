import { ApiError } from '../../kernel/api-error.js';

/**
 * The refusals of the SECONDARY zone commands, with the real service's type and wording.
 * @module
 */

/** `zones.xfr` of a zone that is not SECONDARY (the real service's exact message). @internal */
export const xfrOfPrimary = (): ApiError => new ApiError(400, 'bad_request', "Can't XFR a non Secondary zone.");
