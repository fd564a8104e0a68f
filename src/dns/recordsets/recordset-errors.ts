import { ApiError } from '../../kernel/api-error.js';

/**
 * Every refusal of a recordset command (reference §5).
 * @module
 */

/** The recordset is not in the zone (or the zone is not the caller's). @internal */
export const recordsetNotFound = (): ApiError => new ApiError(404, 'recordset_not_found', 'Could not find RecordSet');
