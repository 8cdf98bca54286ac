import type { FastifyPluginAsync } from 'fastify';
import type { ApiServices } from '../services.js';
import { artifactRoutes } from './artifacts.js';
import { eventRoutes } from './events.js';
import { jobRoutes } from './jobs.js';
import { openapiRoutes } from './meta.js';
import { projectRoutes } from './projects.js';
import { runRoutes } from './runs.js';
import { statusRoutes } from './status.js';
import { stepRoutes } from './steps.js';

/** Every `/v1` route plugin, one per resource; each takes the services as its options. */
const V1_ROUTES: FastifyPluginAsync<ApiServices>[] = [openapiRoutes, projectRoutes, jobRoutes, runRoutes, stepRoutes, artifactRoutes, eventRoutes, statusRoutes];

/** The `/v1` routes on `services`; registered under the `/v1` prefix. */
export function v1Routes(services: ApiServices): FastifyPluginAsync {
  return async (v1) => {
    for (const routes of V1_ROUTES) await v1.register(routes, services);
  };
}
