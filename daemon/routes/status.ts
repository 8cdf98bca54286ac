import type { StatusService } from '../../src/status/status-service.js';
import { statusRouteSchemas as s } from '../../src/status/status-schemas.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';

export const statusRoutes: RoutePlugin<{ status: StatusService }> = async (app, { status }) => {
  app.get(
    '/status',
    { schema: { ...s.get, tags: ['Meta'], summary: "How the daemon stands (its model provider and sandboxes) and the caller's organisation (spend today, active runs)" } },
    (req) => status.status(principalOf(req).orgId),
  );
};
