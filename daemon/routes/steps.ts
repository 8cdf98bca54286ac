import { stepRouteSchemas as s } from '../../src/steps/step-schemas.js';
import type { StepsService } from '../../src/steps/steps-service.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';

export const stepRoutes: RoutePlugin<{ steps: StepsService }> = async (app, { steps }) => {
  app.get(
    '/runs/:id/steps',
    { schema: { ...s.list, tags: ['Runs'], summary: "A run's steps: every model call and tool call, with inputs, truncated outputs and usage" } },
    (req) => steps.list(principalOf(req).orgId, req.params.id),
  );
};
