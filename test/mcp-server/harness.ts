/**
 * What the MCP suites share: the SDK's own client over streamable HTTP against the compiled daemon, signed in with
 * an API key (local clients) or an OAuth provider, and raw JSON-RPC over fetch for what the client hides.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A connected SDK client; `close()` ends its session. */
export async function connectWithKey(daemonUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: 'errand-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${daemonUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}

/** An SDK client whose transport signs in with `provider`; connecting may throw `UnauthorizedError` (sign-in needed). */
export function oauthClient(daemonUrl: string, provider: OAuthClientProvider): { client: Client; transport: StreamableHTTPClientTransport } {
  return {
    client: new Client({ name: 'errand-oauth-test', version: '1.0.0' }),
    transport: new StreamableHTTPClientTransport(new URL(`${daemonUrl}/mcp`), { authProvider: provider }),
  };
}

/** The structured content of a tool result that did not fail. */
export function structured<T = any>(result: unknown): T {
  const r = result as CallToolResult;
  if (r.isError) throw new Error(`the tool failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent as T;
}

/** The error body of a tool result that failed (the REST API's error shape). */
export function toolError(result: unknown): { type: string; code: string; message: string; param?: string } {
  const r = result as CallToolResult;
  if (!r.isError) throw new Error(`the tool did not fail: ${JSON.stringify(r.structuredContent)}`);
  const first = r.content[0];
  if (first?.type !== 'text') throw new Error('no text content');
  return JSON.parse(first.text).error;
}

/** One JSON-RPC request over raw HTTP, as a client would send it; answers the response and its headers. */
export function rpc(url: string, key: string, message: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}

export const INITIALIZE = {
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
};
