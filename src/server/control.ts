/**
 * The test endpoints of `zoneward serve` (`/zoneward/…`: reset, snapshot and restore, settle, the
 * clock, the id source) and the clock and id source they move, which the services are built with.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { sequentialIds } from '../testing/clock-ids.js';
import type { ServerSnapshot } from './server.js';

/** A request body larger than this is refused (a snapshot of a big deployment fits). */
const MAX_CONTROL_BODY = 64 * 1024 * 1024;

/** What the endpoints do to the running services. @internal */
export interface ControlHooks {
  reset(): Promise<void>;
  snapshot(): Promise<ServerSnapshot>;
  restore(snapshot: ServerSnapshot): Promise<void>;
  settle(): Promise<void>;
}

/** The clock and id source the services read, and the endpoints that move them. @internal */
export interface TestControl {
  readonly clock: () => Date;
  readonly ids: () => string;
  /** Answers `path` (below `/zoneward`). */
  handle(request: Request, path: string, basePath: string, hooks: ControlHooks): Promise<Response>;
}

/** A fresh control: the real time, random v4 ids. @internal */
export function testControl(): TestControl {
  let frozen: Date | undefined;
  let offset = 0;
  let nextId: () => string = randomUUID;
  const clock = (): Date => (frozen !== undefined ? new Date(frozen) : new Date(Date.now() + offset));
  const clockBody = () => ({ time: clock().toISOString(), frozen: frozen !== undefined });

  const moveClock = (b: { time?: unknown; advance_ms?: unknown }): Response => {
    if (typeof b.time === 'string' && !Number.isNaN(Date.parse(b.time))) frozen = new Date(b.time);
    else if (typeof b.advance_ms === 'number' && Number.isFinite(b.advance_ms)) {
      if (frozen !== undefined) frozen = new Date(frozen.getTime() + b.advance_ms);
      else offset += b.advance_ms;
    } else return json(400, { error: 'expected {"time": "<ISO 8601>"} or {"advance_ms": <number>}' });
    return json(200, clockBody());
  };
  const setIds = (b: { mode?: unknown; prefix?: unknown }): Response => {
    try {
      if (b.mode === 'random') nextId = randomUUID;
      else if (b.mode === 'sequential' && (b.prefix === undefined || typeof b.prefix === 'string')) nextId = sequentialIds(b.prefix ?? '');
      else return json(400, { error: 'expected {"mode": "sequential" | "random", "prefix"?: "<up to 8 hex digits>"}' });
    } catch (cause) {
      return json(400, { error: cause instanceof Error ? cause.message : String(cause) });
    }
    return new Response(null, { status: 204 });
  };

  return {
    clock,
    ids: () => nextId(),
    async handle(request, path, basePath, hooks) {
      const method = request.method;
      const body = method === 'POST' ? await readJson(request) : undefined;
      if (body instanceof Response) return body;
      switch (`${method} ${path}`) {
        case 'POST /reset':
          await hooks.reset();
          return new Response(null, { status: 204 });
        case 'GET /snapshot':
          return json(200, await hooks.snapshot());
        case 'POST /restore': {
          try {
            await hooks.restore(checkedSnapshot(body, 'the body'));
          } catch (cause) {
            // A TypeError is the snapshot's fault (its shape or its rows); anything else is ours.
            if (!(cause instanceof TypeError)) throw cause;
            return json(400, { error: `not a snapshot: ${cause.message}` });
          }
          return new Response(null, { status: 204 });
        }
        case 'POST /settle':
          await hooks.settle();
          return new Response(null, { status: 204 });
        case 'GET /clock':
          return json(200, clockBody());
        case 'POST /clock':
          return moveClock((body ?? {}));
        case 'DELETE /clock':
          frozen = undefined;
          offset = 0;
          return json(200, clockBody());
        case 'POST /ids':
          return setIds((body ?? {}));
      }
      return json(404, { error: `no test endpoint ${method} ${basePath}/zoneward${path}` });
    },
  };
}

/** `value` as a server snapshot, or a TypeError saying what it is not. @internal */
export function checkedSnapshot(value: unknown, what: string): ServerSnapshot {
  const s = value as Partial<ServerSnapshot> | null;
  if (s === null || typeof s !== 'object' || s.format !== 1 || typeof s.dns !== 'object' || typeof s.quotas !== 'object') {
    throw new TypeError(`${what} is not a zoneward server snapshot ({"format": 1, "dns": …, "quotas": …})`);
  }
  return s as ServerSnapshot;
}

/** A POST body of the identity or test endpoints: its JSON, undefined when empty, or the answer refusing it. @internal */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.length > MAX_CONTROL_BODY) return json(413, { error: 'request body too large' });
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return json(400, { error: 'the body is not JSON' });
  }
}

/** A JSON answer. @internal */
export function json(status: number, body: object): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
