import type { ApiError } from '../../kernel/api-error.js';
import { LightResponse } from './light.js';
import type { Dialect } from './trusted-headers.js';

/**
 * How answers are written: JSON with the request id, errors in each service's body, and the
 * success statuses that depend on the body.
 * @module
 */

/** What a response needs to know of its request. @internal */
export interface Answering {
  readonly requestId: string;
  readonly dialect: Dialect;
}

/** @internal */
export const JSON_TYPE = 'application/json';

/** @internal */
export function jsonResponse(x: Answering, status: number, body: unknown, headers?: Record<string, string>): Response {
  return textResponse(x, status, JSON.stringify(body), JSON_TYPE, headers);
}

/**
 * Every answer, built once: a light response that becomes a real `Response` only when read as
 * one, and that `toNodeListener` writes as it stands.
 * @internal
 */
export function textResponse(x: Answering, status: number, body: string, contentType: string, headers?: Record<string, string>): Response {
  const all = headers === undefined ? { 'content-type': contentType, 'x-openstack-request-id': x.requestId } : { 'content-type': contentType, 'x-openstack-request-id': x.requestId, ...headers };
  return new LightResponse({ status, headers: all, body }) as unknown as Response;
}

/** @internal */
export function emptyResponse(x: Answering, status: number): Response {
  return new LightResponse({ status, headers: { 'x-openstack-request-id': x.requestId }, body: null }) as unknown as Response;
}

/** `ApiError.toJSON()`, plus `request_id` in the DNS service's body as the real one has it. @internal */
export function errorResponse(x: Answering, error: ApiError, headers?: Record<string, string>): Response {
  const body = error.toJSON();
  return jsonResponse(x, error.status, x.dialect === 'dns' ? { ...body, request_id: x.requestId } : body, headers);
}

/** A rendering of a command's value. @internal */
export type Reply<T = unknown> = (x: Answering, value: T) => Response;

const selfLink = (body: unknown): string | undefined => {
  const links = (body as { links?: { self?: unknown } } | null)?.links;
  return typeof links?.self === 'string' ? links.self : undefined;
};

/** The body as JSON with `status` (a number, or chosen from the body). @internal */
export const json =
  (status: number | ((body: unknown) => number)): Reply =>
  (x, body) =>
    jsonResponse(x, typeof status === 'number' ? status : status(body), body);

/** As {@link json}, with `Location` set to the body's `links.self`. @internal */
export const created =
  (status: number | ((body: unknown) => number)): Reply =>
  (x, body) => {
    const location = selfLink(body);
    return jsonResponse(x, typeof status === 'number' ? status : status(body), body, location === undefined ? undefined : { location });
  };

/** 202 while the change waits for its task (`PENDING`), else `done` as API.md decides. @internal */
export const pendingOr =
  (done: number) =>
  (body: unknown): number =>
    (body as { status?: unknown }).status === 'PENDING' ? 202 : done;

/** 204, whatever the command answered. @internal */
export const noContent: Reply = (x) => emptyResponse(x, 204);
