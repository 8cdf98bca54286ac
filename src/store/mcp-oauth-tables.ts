import { defineColumns, fixed, patchable, type RowOf } from './columns.js';

/** How a client proves itself at the token and revocation endpoints (RFC 7591 §2). */
export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** A client registered by RFC 7591 dynamic registration. `redirect_uris` and `metadata` are JSON text. */
export const mcpClientColumns = defineColumns('mcp_clients', {
  id: fixed<string>(),
  name: fixed<string | null>(),
  redirect_uris: fixed<string>(),
  auth_method: fixed<ClientAuthMethod>(),
  secret_hash: fixed<Buffer | null>(),
  metadata: fixed<string>(),
  created_at: fixed<string>(),
  /** When someone first signed in with the client (its first grant); null for a client nobody has used. */
  signed_in_at: patchable<string | null>(null),
});
export type McpClientRow = RowOf<typeof mcpClientColumns>;

/** An authorization request waiting on the consent page; `approved_key_id` is set by `errand mcp approve`. */
export const mcpConsentColumns = defineColumns('mcp_consents', {
  handle_hash: fixed<Buffer>(),
  user_code_hash: fixed<Buffer>(),
  client_id: fixed<string>(),
  redirect_uri: fixed<string>(),
  state: fixed<string | null>(),
  code_challenge: fixed<string>(),
  resource: fixed<string>(),
  scope: fixed<string>(),
  approved_key_id: patchable<string | null>(null),
  expires_at: fixed<number>(),
  created_at: fixed<string>(),
});
export type McpConsentRow = RowOf<typeof mcpConsentColumns>;

/** A client's permission to act for an organisation under one API key, for one resource. */
export const mcpGrantColumns = defineColumns('mcp_grants', {
  id: fixed<string>(),
  client_id: fixed<string>(),
  org_id: fixed<string>(),
  key_id: fixed<string>(),
  resource: fixed<string>(),
  scope: fixed<string>(),
  created_at: fixed<string>(),
  last_token_at: patchable<string | null>(null),
  revoked_at: patchable<string | null>(null),
  revoked_why: patchable<string | null>(null),
});
export type McpGrantRow = RowOf<typeof mcpGrantColumns>;

export const mcpCodeColumns = defineColumns('mcp_codes', {
  code_hash: fixed<Buffer>(),
  grant_id: fixed<string>(),
  redirect_uri: fixed<string>(),
  code_challenge: fixed<string>(),
  expires_at: fixed<number>(),
  used_at: patchable<number | null>(null),
});
export type McpCodeRow = RowOf<typeof mcpCodeColumns>;

export type TokenKind = 'access' | 'refresh';

export const mcpTokenColumns = defineColumns('mcp_tokens', {
  token_hash: fixed<Buffer>(),
  grant_id: fixed<string>(),
  kind: fixed<TokenKind>(),
  expires_at: fixed<number>(),
  used_at: patchable<number | null>(null),
  created_at: fixed<number>(),
});
export type McpTokenRow = RowOf<typeof mcpTokenColumns>;
