import { isoTime } from '../clock.js';
import { fromJson } from '../store/json-columns.js';
import type { AuthStatus, ConnectionRow, ConnectionType, McpTransport } from '../store/connections-table.js';

/** A connection as every read answers it: never a secret, only whether one is stored. */
export interface Connection {
  id: string;
  object: 'connection';
  name: string;
  type: ConnectionType;
  project_id: string | null;
  is_enabled: boolean;
  has_secret: boolean;
  env_var_name: string | null;
  url: string | null;
  transport: McpTransport | null;
  headers: Record<string, string> | null;
  provider: string | null;
  auth_status: AuthStatus;
  auth_detail: string | null;
  auth_checked_at: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export function toConnection(row: ConnectionRow): Connection {
  return {
    id: row.id,
    object: 'connection',
    name: row.name,
    type: row.type,
    project_id: row.project_id,
    is_enabled: row.is_enabled === 1,
    has_secret: row.secret_enc !== null,
    env_var_name: row.env_var_name,
    url: row.url,
    transport: row.transport,
    headers: fromJson<Record<string, string>>(row.headers),
    provider: row.provider,
    auth_status: row.auth_status,
    auth_detail: row.auth_detail,
    auth_checked_at: row.auth_checked_at,
    expires_at: row.token_expires_at === null ? null : isoTime(row.token_expires_at),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
