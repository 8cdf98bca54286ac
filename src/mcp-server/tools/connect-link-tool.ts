import { CONNECTION_NAME_PATTERN, ENV_VAR_NAME_PATTERN } from '../../connections/connection-schemas.js';
import type { HostedConnect } from '../../connections/oauth-client/hosted-connect.js';
import type { McpTool } from './mcp-tool.js';

interface ConnectLinkInput {
  provider: string;
  name?: string;
  project_id?: string;
  env_var_name?: string;
}

/**
 * Hosted connect for an assistant: the person signs in at the provider in their own browser, so no credential
 * passes through the assistant. There is no `redirect_url`: an assistant has no page to send the browser back to,
 * so the browser ends on the daemon's own result page, and the assistant learns the outcome by polling
 * get_connect_link.
 */
export function connectLinkTool(deps: { hostedConnect: HostedConnect }): McpTool<ConnectLinkInput> {
  return {
    name: 'connect_link',
    title: 'Connect an account',
    description: [
      'Starts connecting an account at an OAuth provider the operator configured (a CRM, a mailbox, ...), so that',
      'runs can act as that account: creates a pending oauth connection and answers {id, connection_id, url,',
      'expires_at}. Give the url to the person to open in their browser within 15 minutes; it is single-use, and they',
      'sign in at the provider there (never ask them for a password or token). Then poll get_connect_link with the id',
      'every few seconds until its status is authenticated, failed (detail says why) or expired. Calling it again for',
      'the same provider and name connects that connection again. An unknown provider is refused with the names',
      'of those configured.',
    ].join(' '),
    consent: { group: 'connect', grants: 'start connecting an account at a provider the operator configured, through a sign-in link' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['provider'],
      properties: {
        provider: { type: 'string', minLength: 1, maxLength: 100, description: 'The provider\'s name as the operator configured it (oauth.providers).' },
        name: {
          type: 'string',
          pattern: CONNECTION_NAME_PATTERN,
          description: 'The connection\'s name: letters, digits, _ and -, up to 40, unique in its scope. Default: the provider\'s name.',
        },
        project_id: { type: 'string', minLength: 1, maxLength: 128, description: 'Only runs of this project (proj_...) use it; by default every run of the organisation.' },
        env_var_name: {
          type: 'string',
          pattern: ENV_VAR_NAME_PATTERN,
          description: 'The environment variable runs get the access token in. Default: the provider\'s (<PROVIDER>_ACCESS_TOKEN).',
        },
      },
    },
    annotations: { title: 'Connect an account', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    call: (input, ctx) => deps.hostedConnect.createLink(ctx.principal.orgId, input),
  };
}
