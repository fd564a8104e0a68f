import type { QuotaService } from '../../project-quotas/index.js';
import { quotaBodyScreen, quotaJsonBody } from './body.js';
import { jsonResponse, noContent, JSON_TYPE } from './responses.js';
import { NOT_FOUND, type RouteTable } from './router.js';
import { lines, type Action, type QueryRecord, type ServiceFace } from './routes.js';

/**
 * The quota service's routes (`/v1`): one line per method and path, each one command call.
 * @module
 */

/** How the quota table reaches the service. @internal */
export function quotaFace(view: (base: string) => QuotaService): ServiceFace<QuotaService> {
  return {
    view,
    context: (_x, ctx) => ctx,
    listQuery: (x) => {
      const out: QueryRecord = {};
      for (const name of ['offset', 'limit']) {
        const all = x.query.getAll(name);
        if (all.length > 0) out[name] = all.length === 1 ? all[0]! : all;
      }
      return out;
    },
    readJson: (x) => quotaJsonBody(x.request),
    screen: (x) => quotaBodyScreen(x.request),
  };
}

/** The quota table. @internal */
export function quotaRoutes(face: ServiceFace<QuotaService>): RouteTable<Action> {
  const { show, list, withJson } = lines(face);
  const version = (x: Parameters<Action>[0]): Promise<Response> => Promise.resolve(jsonResponse(x, 200, { version: quotaVersion(x.base) }));
  return {
    'GET /': version,
    'HEAD /': version,
    '* /': NOT_FOUND,
    'GET /quotas': show((s, ctx) => s.effective(ctx)),
    // A repeated parameter reaches the command as an array, which it answers as the real service does.
    'GET /project-quotas': list((s, ctx, query) => s.projectQuotas.list(ctx, query)),
    'GET /project-quotas/{id}': show((s, ctx, [id]) => s.projectQuotas.get(ctx, id!)),
    'PUT /project-quotas/{id}': withJson((s, ctx, body, [id]) => s.projectQuotas.set(ctx, id!, body), noContent),
    'DELETE /project-quotas/{id}': show((s, ctx, [id]) => s.projectQuotas.delete(ctx, id!), noContent),
  };
}

/** The quota service's version, at `/v1`. */
function quotaVersion(base: string): object {
  return {
    id: 'v1',
    status: 'stable',
    links: [
      { rel: 'self', href: `${base}/v1/` },
      { rel: 'describedby', type: 'text/html', href: 'https://docs.openstack.org/' },
    ],
    'media-types': [{ base: JSON_TYPE, type: 'application/vnd.openstack.key-manager-v1+json' }],
  };
}

/** The versions document the quota service answers at `/` (a 300, as Barbican's). @internal */
export const quotaVersions = (base: string): object => ({ versions: { values: [quotaVersion(base)] } });

