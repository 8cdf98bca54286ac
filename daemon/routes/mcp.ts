import type { McpFrontDoor } from '../../src/mcp-server/front-door.js';
import type { McpAuthenticator } from '../../src/mcp-server/mcp-authenticator.js';
import type { RoutePlugin } from './route-plugin.js';

/**
 * `/mcp`, the MCP front door (streamable HTTP), outside `/v1`: authenticated by its own bearer check (an OAuth
 * access token for this resource, or an API key), then handed to the SDK's transport on the raw request and
 * response, which it answers itself (JSON or an SSE stream), so the reply is hijacked.
 */
export const mcpRoutes: RoutePlugin<{ mcp: McpFrontDoor; mcpAuth: McpAuthenticator }> = async (app, { mcp, mcpAuth }) => {
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    config: { public: true },
    schema: { hide: true },
    async handler(request, reply) {
      const caller = mcpAuth.authenticate(request.headers.authorization);
      reply.hijack();
      reply.raw.setHeader('X-Request-Id', request.id);
      reply.raw.once('close', () => app.logHijacked(request, reply));
      await mcp.handle(request.raw, reply.raw, request.body, caller);
    },
  });
};
