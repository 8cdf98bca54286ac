import { defineColumns, fixed, patchable, type InsertOf, type PatchOf, type RowOf } from './columns.js';

export type ConnectionType = 'token' | 'mcp' | 'oauth' | 'totp' | 'proxy';
export type McpTransport = 'http' | 'sse';
export type AuthStatus = 'authenticated' | 'pending' | 'failed' | 'expired';

/**
 * The columns of `connections`, described once. `headers` is JSON text; `secret_enc` is sealed by `SecretBox` with
 * the connection's id as associated data and never leaves the connections service in any other form. `auth_status`
 * changes only through `ConnectionsStore.setAuthStatus`, with a move of its lifecycle (connections/auth-lifecycle.ts).
 */
export const connectionColumns = defineColumns('connections', {
  id: fixed<string>(),
  org_id: fixed<string>(),
  project_id: fixed<string | null>(),
  name: patchable<string>(),
  type: fixed<ConnectionType>(),
  is_enabled: patchable<number>(1),
  secret_enc: patchable<string | null>(null),
  env_var_name: patchable<string | null>(null),
  url: patchable<string | null>(null),
  transport: patchable<McpTransport | null>(null),
  headers: patchable<string | null>(null),
  provider: fixed<string | null>(),
  auth_status: fixed<AuthStatus>(),
  auth_detail: patchable<string | null>(null),
  auth_checked_at: patchable<string | null>(null),
  token_expires_at: patchable<number | null>(null),
  created_at: fixed<string>(),
  updated_at: patchable<string>(),
});

export type ConnectionRow = RowOf<typeof connectionColumns>;
export type NewConnectionRow = InsertOf<typeof connectionColumns>;
export type ConnectionPatch = PatchOf<typeof connectionColumns>;
