import type { ConnectionsService } from '../../connections/connections-service.js';
import type { McpTool } from './mcp-tool.js';
import { pageProperties } from './page-properties.js';

export function listConnectionsTool(deps: { connections: ConnectionsService }): McpTool<{ limit?: number; cursor?: string }> {
  return {
    name: 'list_connections',
    title: 'List connections',
    description: [
      'Lists the organisation\'s connections, newest first: the credentials and MCP servers its runs may use. Each has',
      'an id, a name, a type (token: a secret runs get as env_var_name; mcp: a remote MCP server whose tools runs are',
      'offered; oauth: an account signed in through connect_link; proxy: a proxy the runs that name it leave through,',
      'its url never with credentials), the project_id it is limited to (null: every run),',
      'is_enabled, has_secret and auth_status (authenticated, pending, failed, expired) with auth_detail saying why.',
      'Secrets are never shown. Answers {data, has_more, next_cursor}; pass next_cursor as cursor for the next page.',
    ].join(' '),
    consent: { group: 'read', grants: 'list the organisation\'s connections and whether they work (never their secrets)' },
    inputSchema: { type: 'object', additionalProperties: false, properties: pageProperties('conn') },
    annotations: { title: 'List connections', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.connections.list(ctx.principal.orgId, { limit: input.limit ?? 20, ...(input.cursor === undefined ? {} : { cursor: input.cursor }) }),
  };
}
