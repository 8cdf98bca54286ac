import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpTransport } from '../../store/connections-table.js';
import type { TargetGuard } from '../../network/target-guard.js';
import { guardedFetch } from '../guarded-fetch.js';

/** Where and how to reach one MCP server; `headers` already have `${SECRET}` substituted. */
export interface McpEndpoint {
  url: string;
  transport: McpTransport;
  headers: Record<string, string>;
}

export interface McpSessionOptions {
  guard: TargetGuard;
  /** The longest connecting (and initializing, and listing tools) may take. */
  connectTimeoutMs: number;
  /** Ends the session's requests (the run stopped). */
  signal?: AbortSignal;
  version: string;
}

/** Why a session could not be opened or a call failed, as a caller can act on it. */
export type McpFailureKind = 'unauthorized' | 'unreachable' | 'timeout' | 'protocol';

export class McpFailure extends Error {
  constructor(
    readonly kind: McpFailureKind,
    message: string,
    /** The HTTP status the server answered with, when one says what went wrong (401, 403, 404...). */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'McpFailure';
  }
}

/** Statuses of the first request that mean "not a streamable HTTP endpoint": try the older SSE transport. */
const SSE_FALLBACK_STATUSES = new Set([400, 404, 405]);

/**
 * One session with a remote MCP server through @modelcontextprotocol/sdk: streamable HTTP, falling back to the
 * older HTTP+SSE transport when the server answers the first POST with 400, 404 or 405 (as the MCP specification's
 * backwards-compatibility section says), or SSE only when the connection says so. Every request goes through the
 * target guard. Whatever a server does (refuse, answer 401, hang), `open` and `callTool` end within their time
 * limits or when the signal fires.
 */
export class McpSession {
  private constructor(
    private readonly client: Client,
    private readonly abort: AbortController,
    private readonly statuses: number[],
    readonly transport: McpTransport,
    readonly tools: readonly Tool[],
  ) {}

  static async open(endpoint: McpEndpoint, options: McpSessionOptions): Promise<McpSession> {
    const deadline = AbortSignal.timeout(options.connectTimeoutMs);
    const limit = options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
    const first = endpoint.transport;
    try {
      return await McpSession.openWith(first, endpoint, options, limit);
    } catch (err) {
      const failure = classify(err, limit, options.connectTimeoutMs);
      if (first !== 'http' || failure.status === null || !SSE_FALLBACK_STATUSES.has(failure.status) || limit.aborted) throw failure;
      try {
        return await McpSession.openWith('sse', endpoint, options, limit);
      } catch (sseErr) {
        throw classify(sseErr, limit, options.connectTimeoutMs);
      }
    }
  }

  private static async openWith(kind: McpTransport, endpoint: McpEndpoint, options: McpSessionOptions, limit: AbortSignal): Promise<McpSession> {
    const abort = new AbortController();
    const statuses: number[] = [];
    const onLimit = (): void => abort.abort(limit.reason);
    limit.addEventListener('abort', onLimit, { once: true });
    const fetch = guardedFetch({ guard: options.guard, signal: abort.signal, onStatus: (s) => statuses.push(s) });
    const url = new URL(endpoint.url);
    const requestInit: RequestInit = { headers: endpoint.headers };
    const transport: Transport =
      kind === 'http'
        ? new StreamableHTTPClientTransport(url, { fetch, requestInit, reconnectionOptions: NO_RECONNECT })
        : new SSEClientTransport(url, { fetch, requestInit, eventSourceInit: { fetch } });
    const client = new Client({ name: 'errand', version: options.version }, { capabilities: {} });
    try {
      await client.connect(transport, { signal: limit });
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, { signal: limit });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined && tools.length < MAX_TOOLS);
      return new McpSession(client, abort, statuses, kind, tools.slice(0, MAX_TOOLS));
    } catch (err) {
      abort.abort();
      await client.close().catch(() => undefined);
      throw Object.assign(err instanceof Error ? err : new Error(String(err)), { mcpStatuses: statuses });
    } finally {
      limit.removeEventListener('abort', onLimit);
    }
  }

  /** The last 401 or 403 a server answered any request of this session with, or null. */
  get authFailureStatus(): number | null {
    return [...this.statuses].reverse().find((s) => s === 401 || s === 403) ?? null;
  }

  /** Calls a tool; a call that takes longer than `timeoutMs`, or whose signal fires, fails with `McpFailure`. */
  async callTool(name: string, args: Record<string, unknown>, options: { timeoutMs: number; signal: AbortSignal }): Promise<CallToolResult> {
    const before = this.statuses.length;
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const limit = AbortSignal.any([deadline, options.signal]);
    try {
      return (await this.client.callTool({ name, arguments: args }, undefined, { signal: limit, timeout: options.timeoutMs })) as CallToolResult;
    } catch (err) {
      const status = this.statuses.slice(before).find((s) => s >= 400) ?? null;
      if (status === 401 || status === 403) throw new McpFailure('unauthorized', `the server answered ${status}`, status);
      if (deadline.aborted || (err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number))) {
        throw new McpFailure('timeout', `the server did not answer within ${options.timeoutMs / 1000} s`);
      }
      if (options.signal.aborted) throw options.signal.reason;
      // The server's own JSON-RPC error (unknown tool, bad arguments): it answered, and the model may correct itself.
      if (err instanceof McpError && err.code !== (ErrorCode.ConnectionClosed as number)) throw new McpFailure('protocol', describe(err), status);
      throw new McpFailure(status === null ? 'unreachable' : 'protocol', describe(err), status);
    }
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.client.close().catch(() => undefined);
  }
}

const MAX_TOOLS = 100;
const NO_RECONNECT = { maxReconnectionDelay: 1_000, initialReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1, maxRetries: 0 };

function classify(err: unknown, limit: AbortSignal, timeoutMs: number): McpFailure {
  if (err instanceof McpFailure) return err;
  const statuses = (err as { mcpStatuses?: number[] }).mcpStatuses ?? [];
  const status = statuses.find((s) => s >= 400) ?? null;
  if (status === 401 || status === 403) return new McpFailure('unauthorized', `the server answered ${status}: the credentials were refused`, status);
  if (limit.aborted) {
    const reason: unknown = limit.reason;
    if (reason instanceof DOMException && reason.name === 'TimeoutError') return new McpFailure('timeout', `no answer within ${timeoutMs / 1000} s`, status);
    return new McpFailure('unreachable', 'stopped before the server answered', status);
  }
  if (status !== null) return new McpFailure('protocol', `the server answered ${status}`, status);
  return new McpFailure(statuses.length === 0 ? 'unreachable' : 'protocol', describe(err), null);
}

/** A one-line reason from a network or SDK error, without the stack. */
function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  const message = (e.message ?? String(err)).split('\n')[0] ?? '';
  return cause !== undefined && !message.includes(cause) ? `${message} (${cause})` : message;
}
