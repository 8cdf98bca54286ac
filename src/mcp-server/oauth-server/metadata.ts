import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpEndpoints } from '../endpoints.js';
import { MCP_SCOPE } from './consent-flow.js';

const CLIENT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'];

/** RFC 9728: what `/mcp` is, and which authorization server issues its tokens. */
export function protectedResourceMetadata(endpoints: McpEndpoints): OAuthProtectedResourceMetadata {
  return {
    resource: endpoints.resource(),
    authorization_servers: [endpoints.issuer()],
    bearer_methods_supported: ['header'],
    scopes_supported: [MCP_SCOPE],
    resource_name: 'Errand',
  };
}

/** RFC 8414: the daemon's own authorization server. */
export function authorizationServerMetadata(endpoints: McpEndpoints): OAuthMetadata & { authorization_response_iss_parameter_supported: boolean } {
  return {
    issuer: endpoints.issuer(),
    authorization_endpoint: endpoints.authorizationEndpoint(),
    token_endpoint: endpoints.tokenEndpoint(),
    registration_endpoint: endpoints.registrationEndpoint(),
    revocation_endpoint: endpoints.revocationEndpoint(),
    scopes_supported: [MCP_SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    authorization_response_iss_parameter_supported: true,
  };
}
