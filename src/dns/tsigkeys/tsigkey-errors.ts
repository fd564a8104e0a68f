import { ApiError } from '../../kernel/api-error.js';

/**
 * Every refusal of a TSIG key command that is the key's own, with the real service's type and
 * wording.
 * @module
 */

/** No key with that id. @internal */
export const tsigkeyNotFound = (): ApiError => new ApiError(404, 'tsigkey_not_found', 'Could not find TsigKey');

/** Another key already has the name (names are unique across the service). @internal */
export const duplicateTsigkey = (): ApiError => new ApiError(409, 'duplicate_tsigkey', 'Duplicate TsigKey');
