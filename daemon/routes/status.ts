import type { FastifyPluginAsync } from 'fastify';
import { statusRouteSchemas as s } from '../../src/status/status-schemas.js';
import type { StatusService } from '../../src/status/status-service.js';
import { principalOf } from '../plugins/auth.js';

export const statusRoutes: FastifyPluginAsync<{ status: StatusService }> = async (app, { status }) => {
  app.get('/status', { schema: { ...s.get, tags: ['Meta'], summary: "The daemon's health for the caller's organisation: model provider, sandbox pool, spend today" } }, (req) =>
    status.get(principalOf(req).orgId),
  );
};
