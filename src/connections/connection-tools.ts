import type { AuthStatus } from '../store/connections-table.js';

/** One tool of an mcp connection's server, as runs are offered it. */
export interface ConnectionTool {
  /** The name runs see: `<connection>__<tool>`, in the characters model APIs take. */
  name: string;
  /** The server's own name for it. */
  tool: string;
  title: string | null;
  description: string | null;
  input_schema: Record<string, unknown>;
}

/** GET /connections/{id}/tools: what connecting showed, and the server's tools (none when it could not be used). */
export interface ConnectionTools {
  object: 'connection_tools';
  connection_id: string;
  auth_status: AuthStatus;
  auth_detail: string | null;
  data: ConnectionTool[];
}
