import type { ConnectionRow } from '../../store/connections-table.js';
import { fromJson } from '../../store/json-columns.js';
import { expandHeaders } from '../connection-input.js';
import type { McpEndpoint } from './mcp-session.js';

/** How to reach an mcp connection's server, with its secret in the headers that ask for it. */
export function mcpEndpointOf(row: Pick<ConnectionRow, 'url' | 'transport' | 'headers'>, secret: string | null): McpEndpoint {
  if (row.url === null) throw new Error('an mcp connection without a url');
  return { url: row.url, transport: row.transport ?? 'http', headers: expandHeaders(fromJson<Record<string, string>>(row.headers) ?? {}, secret) };
}
