import type { RoutePlugin } from './route-plugin.js';

/** Routes that answer without an API key: liveness and the API's own description. */
export const healthRoutes: RoutePlugin = async (app) => {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        tags: ['Meta'],
        summary: 'Liveness',
        security: [],
        response: { 200: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } },
      },
    },
    async () => ({ ok: true }),
  );
};

export const openapiRoutes: RoutePlugin = async (app) => {
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
};
