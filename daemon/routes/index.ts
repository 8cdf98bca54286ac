import type { FastifyPluginAsync } from 'fastify';
import type { ApiServices } from '../services.js';
import { artifactRoutes } from './artifacts.js';
import { evalRoutes } from './evals.js';
import { eventRoutes } from './events.js';
import { connectPageRoutes } from './connect-pages.js';
import { connectionRoutes } from './connections.js';
import { emailRoutes } from './emails.js';
import { fileRoutes } from './files.js';
import { humanRoutes } from './human.js';
import { inboxRoutes } from './inboxes.js';
import { jobRoutes } from './jobs.js';
import { liveRoutes } from './live.js';
import { mcpRoutes } from './mcp.js';
import { oauthRoutes } from './oauth.js';
import { openapiRoutes } from './meta.js';
import { profileRoutes } from './profiles.js';
import { projectRoutes } from './projects.js';
import { recipeRoutes } from './recipes.js';
import type { RoutePlugin } from './route-plugin.js';
import { runRoutes } from './runs.js';
import { runFileRoutes } from './run-files.js';
import { statusRoutes } from './status.js';
import { stepRoutes } from './steps.js';

/** Every `/v1` route plugin, one per resource; each takes the services as its options. */
const V1_ROUTES: RoutePlugin<ApiServices>[] = [
  openapiRoutes,
  projectRoutes,
  jobRoutes,
  recipeRoutes,
  evalRoutes,
  runRoutes,
  humanRoutes,
  liveRoutes,
  stepRoutes,
  runFileRoutes,
  artifactRoutes,
  eventRoutes,
  statusRoutes,
  connectionRoutes,
  connectPageRoutes,
  profileRoutes,
  emailRoutes,
  inboxRoutes,
  fileRoutes,
];

/** The `/v1` routes on `services`; registered under the `/v1` prefix. */
export function v1Routes(services: ApiServices): FastifyPluginAsync {
  return async (v1) => {
    for (const routes of V1_ROUTES) await v1.register(routes, services);
  };
}

/** The MCP front door's routes, outside `/v1`: the MCP endpoint and its OAuth 2.1 authorization server. */
const ROOT_ROUTES: RoutePlugin<ApiServices>[] = [mcpRoutes, oauthRoutes];

/** The routes at the root, on `services`. */
export function rootRoutes(services: ApiServices): FastifyPluginAsync {
  return async (root) => {
    for (const routes of ROOT_ROUTES) await root.register(routes, services);
  };
}
