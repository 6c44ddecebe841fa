import type { RouteContext, RouteDefinition } from '../router.js';
import { ok } from './common.js';

/** Versions reported by `/health`, plausible for each personality. */
export const SERVER_VERSIONS = { v3: '3.140.0', v4: '4.0.0' } as const;

function projects(ctx: RouteContext) {
  return ok({
    data: [
      {
        id: ctx.store.projectId,
        name: 'ragwatch-devkit',
        organization: { id: 'devkit-org', name: 'ragwatch devkit' },
        metadata: {},
      },
    ],
  });
}

function health(ctx: RouteContext) {
  return ok({ status: 'OK', version: SERVER_VERSIONS[ctx.personality] });
}

export const projectRoutes: RouteDefinition[] = [
  { method: 'GET', template: '/api/public/projects', handler: projects },
  { method: 'GET', template: '/api/public/health', handler: health, auth: false },
];
