import type { ConnectionsService } from '../../connections/connections-service.js';
import { connectionIdSchema } from './connection-id.js';
import type { McpTool } from './mcp-tool.js';

export function checkConnectionTool(deps: { connections: ConnectionsService }): McpTool<{ connection_id: string }> {
  return {
    name: 'check_connection',
    title: 'Check a connection',
    description: [
      'Checks a connection now and answers it with its updated auth_status and auth_detail: an mcp connection is',
      'connected to (initialize and tools/list), an oauth connection that was signed in gets a fresh access token',
      'from its provider, a token connection is authenticated when its secret is set. Use it when a run failed with',
      'auth_required or a connection\'s status looks stale. A pending oauth connection stays pending until the person',
      'finishes signing in through its connect_link URL; failed or expired ones need a new connect_link.',
    ].join(' '),
    consent: { group: 'connect', grants: 'check a connection now: connect to its MCP server, or get a fresh token from its provider' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['connection_id'],
      properties: { connection_id: connectionIdSchema },
    },
    annotations: { title: 'Check a connection', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    call: (input, ctx) => deps.connections.check(ctx.principal.orgId, input.connection_id),
  };
}
