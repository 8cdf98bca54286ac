import type { HostedConnect } from '../../connections/oauth-client/hosted-connect.js';
import type { McpTool } from './mcp-tool.js';

/**
 * How a connect_link's sign-in stands. An assistant follows this rather than the connection: a connection that is
 * connected again stays authenticated, with its earlier tokens, while the new sign-in is under way and after it fails.
 */
export function getConnectLinkTool(deps: { hostedConnect: HostedConnect }): McpTool<{ link_id: string }> {
  return {
    name: 'get_connect_link',
    title: 'Follow a connect link',
    description: [
      'Answers how the sign-in started by connect_link stands: status pending (the person has not opened the link),',
      'opened (they are signing in at the provider), authenticated, failed (detail says why; a connection that was',
      'authenticated before keeps its earlier tokens) or expired (not opened, or not finished, within 15 minutes;',
      'expires_at says when). Poll it every few seconds after connect_link until the status is authenticated,',
      'failed or expired.',
    ].join(' '),
    consent: { group: 'read', grants: 'follow a sign-in started with a connect link' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['link_id'],
      properties: { link_id: { type: 'string', minLength: 1, maxLength: 128, description: 'The id (clk_...) connect_link answered.' } },
    },
    annotations: { title: 'Follow a connect link', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.hostedConnect.linkStatus(ctx.principal.orgId, input.link_id),
  };
}
