import type { ConnectionsService } from '../../connections/connections-service.js';
import { connectionIdSchema } from './connection-id.js';
import type { McpTool } from './mcp-tool.js';

export function getConnectionTool(deps: { connections: ConnectionsService }): McpTool<{ connection_id: string }> {
  return {
    name: 'get_connection',
    title: 'Get a connection',
    description: [
      'Answers one connection as it is recorded, without contacting anything: its type, scope, has_secret (the secret',
      'itself is never shown), auth_status (authenticated, pending, failed, expired), auth_detail and expires_at.',
      'To follow a connect_link, poll get_connect_link instead: a connection connected again stays authenticated',
      'with its earlier tokens while the new sign-in is under way, and after it fails.',
    ].join(' '),
    consent: { group: 'read', grants: 'read one connection\'s status (never its secret)' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['connection_id'],
      properties: { connection_id: connectionIdSchema },
    },
    annotations: { title: 'Get a connection', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.connections.get(ctx.principal.orgId, input.connection_id),
  };
}
