import type { Result } from 'neverthrow';
import { ApiError } from '../../kernel/api-error.js';
import type { RequestContext } from '../../kernel/context.js';
import { errorResponse, json, type Answering, type Reply } from './responses.js';

/**
 * What the lines of a route table are made of: one request, routed, is one command call, and
 * a line says only which command and how its value is answered.
 * @module
 */

/** One request, once routed to a service. @internal */
export interface Exchange extends Answering {
  readonly request: Request;
  /** Origin plus mount prefix: the base of every link in the answer. */
  readonly base: string;
  /** The query string, without `?` (`''` when there is none). */
  readonly search: string;
  /** The query string parsed, on first read. */
  readonly query: URLSearchParams;
  readonly maxBodyBytes: number;
  /**
   * The caller as `authenticate` tells it (asked once per request), or the 401 to answer; a
   * promise only when `authenticate` answered with one.
   */
  caller(): RequestContext | ApiError | Promise<RequestContext | ApiError>;
}

/** What answers one method on one path. @internal */
export type Action = (x: Exchange, params: readonly string[]) => Promise<Response>;

/** A query string as list commands take it: a repeated key as an array of its values. @internal */
export type QueryRecord = Record<string, string | string[]>;

/** How a table's lines reach their service: how each service reads a request. @internal */
export interface ServiceFace<S> {
  /** The service with links at `base`. */
  view(base: string): S;
  /** The context a command gets: the caller plus what the request's query string says of it. */
  context(x: Exchange, ctx: RequestContext): RequestContext;
  /** The query string of a list. */
  listQuery(x: Exchange): QueryRecord;
  /** The JSON body, or an `UnreadBody` the command answers in its place. */
  readJson(x: Exchange): Promise<unknown>;
  /** Checks a request that reaches no command still must pass (the DNS service's elevations). */
  gate?(x: Exchange): Promise<ApiError | undefined>;
  /**
   * Checks every request the table routes (to a command or to a 405) must pass first, before
   * the caller is looked at: what the real service's framework refuses before its handlers run.
   */
  screen?(x: Exchange): Promise<ApiError | undefined>;
}

type Run<S, A extends unknown[], T> = (service: S, ctx: RequestContext, ...args: A) => PromiseLike<Result<T, ApiError>>;

/**
 * The line builders of one service's table.
 * @internal
 */
export function lines<S>(face: ServiceFace<S>) {
  // No async function and no await where nothing waits: a GET runs to its command in one go,
  // and only the command's own promise is waited on.
  const call = <T>(run: (service: S, ctx: RequestContext, x: Exchange, params: readonly string[]) => PromiseLike<Result<T, ApiError>>, reply: Reply<T>): Action => {
    const answer = (x: Exchange, params: readonly string[], ctx: RequestContext | ApiError): Promise<Response> => {
      if (ctx instanceof ApiError) return Promise.resolve(errorResponse(x, ctx));
      return Promise.resolve(run(face.view(x.base), face.context(x, ctx), x, params).then((result) => (result.isOk() ? reply(x, result.value) : errorResponse(x, result.error))));
    };
    return (x, params) => {
      const ctx = x.caller();
      return ctx instanceof Promise ? ctx.then((known) => answer(x, params, known)) : answer(x, params, ctx);
    };
  };
  return {
    /** A command of the path's parameters; 200 with its value unless `reply` says otherwise. */
    show: <T>(run: Run<S, [params: readonly string[]], T>, reply: Reply<T> = json(200)): Action =>
      call((s, ctx, _x, params) => run(s, ctx, params), reply),
    /** A command of the query string and the path's parameters. */
    list: <T>(run: Run<S, [query: QueryRecord, params: readonly string[]], T>, reply: Reply<T> = json(200)): Action =>
      call((s, ctx, x, params) => run(s, ctx, face.listQuery(x), params), reply),
    /** A command of the JSON body and the path's parameters. */
    withJson: <T>(run: Run<S, [body: unknown, params: readonly string[]], T>, reply: Reply<T>): Action =>
      call(async (s, ctx, x, params) => run(s, ctx, await face.readJson(x), params), reply),
    /** A command of the whole request (a body that is not JSON, a header). */
    withRequest: <T>(run: (service: S, ctx: RequestContext, x: Exchange, params: readonly string[]) => PromiseLike<Result<T, ApiError>>, reply: Reply<T>): Action =>
      call(run, reply),
    /** A fixed error, once the request passed the service's gate. */
    refuse:
      (error: () => ApiError): Action =>
      async (x) =>
        errorResponse(x, (await face.gate?.(x)) ?? error()),
  };
}
