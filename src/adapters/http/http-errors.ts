import { ApiError } from '../../kernel/api-error.js';
import type { Dialect } from './trusted-headers.js';

/**
 * The errors the HTTP adapter itself answers, each named once: what a command answers comes
 * from the command; these are the wire's own (routing, authentication, body reading).
 * @module
 */

/** A path the service does not route: each service's own body for it. @internal */
export const notFound = (dialect: Dialect): ApiError =>
  dialect === 'dns' ? new ApiError(404, 'not_found', 'resource not found') : new ApiError(404, 'not_found', '', { dialect: 'quota' });

/** A method the route does not take: a bare 405. @internal */
export const methodNotAllowed = (dialect: Dialect): ApiError => new ApiError(405, 'method_not_allowed', '', { showMessage: false, dialect });

/** A POST to a per-zone task without its zone id: the real service's bare 404. @internal */
export const missingZoneId = (): ApiError => new ApiError(404, 'not_found', '', { showMessage: false });

/** A path parameter whose percent-encoding is not UTF-8: it names nothing. @internal */
export const pathNotUtf8 = (dialect: Dialect): ApiError =>
  new ApiError(400, 'bad_request', 'The request path is not valid: a percent-encoded segment is not UTF-8.', { dialect });

/** `authenticate` threw, rejected or gave no context. @internal */
export const authenticationFailed = (dialect: Dialect): ApiError =>
  new ApiError(401, 'authentication_required', 'Authentication is required: the request could not be authenticated.', { dialect });

/** A body longer than the limit, refused without reading its end. @internal */
export const requestTooLarge = (limit: number, dialect: Dialect): ApiError =>
  new ApiError(413, 'request_too_large', `The request body is larger than ${limit} bytes.`, { dialect });

/** A body stream that failed, was already read or is locked: the request, not the server, is at fault. @internal */
export const bodyUnreadable = (dialect: Dialect, cause?: unknown): ApiError =>
  new ApiError(400, 'bad_request', 'The request body could not be read.', { dialect, cause });

/** A DNS body that is not JSON by its media type. @internal */
export const dnsNotJson = (): ApiError => new ApiError(415, 'unsupported_content_type', 'Content-type must be application/json');

/** A quota body that is not JSON by its media type, in Barbican's words. @internal */
export const quotaNotJson = (): ApiError =>
  new ApiError(415, 'unsupported_content_type', "Unexpected content type. Expected content types are: ['application/json']", { dialect: 'quota' });

/** A DNS body that does not decode (UTF-8 or JSON), in the words of Python's decoder. @internal */
export const invalidJson = (message: string): ApiError => new ApiError(400, 'invalid_json', message);

/** A quota body declared UTF-8 JSON that does not decode: Barbican's framework's bare 400. @internal */
export const quotaNotUtf8 = (): ApiError => new ApiError(400, 'bad_request', '', { dialect: 'quota' });

/** A quota body that is not JSON. @internal */
export const quotaMalformedJson = (): ApiError => new ApiError(400, 'malformed_json', 'Malformed JSON', { dialect: 'quota' });

/** A bug of ours or a failing `Request` getter: answered, never thrown. @internal */
export const handlerDefect = (dialect: Dialect, cause: unknown): ApiError =>
  new ApiError(500, 'unknown', 'The request could not be handled.', { showMessage: false, dialect, cause });
