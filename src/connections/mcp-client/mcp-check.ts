import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AuthStatus } from '../../store/connections-table.js';
import { McpFailure, McpSession, type McpEndpoint, type McpSessionOptions } from './mcp-session.js';
import { plural } from '../../text/plural.js';

export interface McpCheckResult {
  status: Extract<AuthStatus, 'authenticated' | 'failed'>;
  detail: string;
  /** The tools the server listed (none when it could not be used). */
  tools: readonly Tool[];
}

/**
 * Connects to the server the way a run would (initialize, then tools/list) and says whether that worked, and if
 * not, why in words a person can act on.
 */
export async function checkMcpServer(endpoint: McpEndpoint, options: McpSessionOptions): Promise<McpCheckResult> {
  let session: McpSession;
  try {
    session = await McpSession.open(endpoint, options);
  } catch (err) {
    return { status: 'failed', detail: failureDetail(err), tools: [] };
  }
  await session.close();
  const over = session.transport === 'http' ? 'streamable HTTP' : 'HTTP+SSE';
  return { status: 'authenticated', detail: `connected over ${over}; ${plural(session.tools.length, 'tool')}`, tools: session.tools };
}

export function failureDetail(err: unknown): string {
  if (!(err instanceof McpFailure)) return `could not connect: ${err instanceof Error ? err.message : String(err)}`;
  switch (err.kind) {
    case 'unauthorized':
      return `the server refused the credentials (HTTP ${err.status}): check the secret and headers`;
    case 'unreachable':
      return `could not reach the server: ${err.message}`;
    case 'timeout':
      return `the server did not answer: ${err.message}`;
    case 'protocol':
      return `the server did not answer as an MCP server: ${err.message}`;
    default: {
      const unknown: never = err.kind;
      throw new Error(`unknown MCP failure ${String(unknown)}`);
    }
  }
}
