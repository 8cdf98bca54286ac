import type { ConnectionsService } from '../../connections/connections-service.js';
import type { HostedConnect } from '../../connections/oauth-client/hosted-connect.js';
import { checkConnectionTool } from './check-connection-tool.js';
import { connectLinkTool } from './connect-link-tool.js';
import { getConnectLinkTool } from './get-connect-link-tool.js';
import { getConnectionTool } from './get-connection-tool.js';
import { listConnectionsTool } from './list-connections-tool.js';
import type { McpTool } from './mcp-tool.js';

export interface ConnectionManagementToolDeps {
  connections: ConnectionsService;
  hostedConnect: HostedConnect;
}

/**
 * The tools over connections, in the order clients list them. None takes or answers a secret: token, mcp and totp
 * connections, whose secrets would pass through the assistant's model, are made with the REST API or the CLI.
 */
export function connectionManagementTools(deps: ConnectionManagementToolDeps): McpTool<any>[] {
  return [listConnectionsTool(deps), getConnectionTool(deps), checkConnectionTool(deps), connectLinkTool(deps), getConnectLinkTool(deps)];
}
