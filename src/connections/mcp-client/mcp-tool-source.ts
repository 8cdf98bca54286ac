import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { toolError, type AgentTool, type ToolSet, type ToolSource } from '../../agent-tools/agent-tool.js';
import { textContent } from '../../agent-tools/tool-content.js';
import { failedOutcome } from '../../runs/run-outcome.js';
import { truncateEnd } from '../../agent-tools/truncate.js';
import type { ConnectionRow } from '../../store/connections-table.js';
import type { RunRow } from '../../store/runs-table.js';
import type { ConnectionAuth } from '../connection-auth.js';
import { ConnectionRequiredError } from '../connection-required-error.js';
import type { ConnectionSecrets } from '../connection-secrets.js';
import type { RunConnections } from '../run-connections.js';
import { SecretMask } from '../secret-mask.js';
import { failureDetail } from './mcp-check.js';
import { mcpResultContent } from './mcp-content.js';
import { mcpEndpointOf } from './mcp-endpoint.js';
import { McpFailure, McpSession, type McpSessionOptions } from './mcp-session.js';
import { uniqueToolName } from './mcp-tool-name.js';

export interface McpToolSourceDeps {
  connections: RunConnections;
  secrets: ConnectionSecrets;
  auth: ConnectionAuth;
  session: Omit<McpSessionOptions, 'signal'>;
  callTimeoutMs: number;
  /** Checks a connection again (connect, list tools) and records its status: after a call was refused. */
  recheck: (row: ConnectionRow) => Promise<ConnectionRow>;
  logger: Logger;
}

const DESCRIPTION_LIMIT = 1_000;

/**
 * The tools of a run's MCP connections, offered to the agent as `<connection>__<tool>`. Each attempt connects to
 * every enabled MCP connection in the run's scope, before the sandbox starts: a server that cannot be used is
 * left out (its status says why), unless the run named its connection, which then fails the run with
 * auth_required. Mid-run, a server that stops answering or hangs past `connections.mcp_call_timeout_s` is dropped
 * for the rest of the attempt (or, when named, ends it with auth_required); a call refused with 401 or 403 checks
 * the connection again, so its status never says authenticated while calls fail.
 */
export class McpToolSource implements ToolSource {
  constructor(private readonly o: McpToolSourceDeps) {}

  async open(run: RunRow, signal: AbortSignal): Promise<ToolSet> {
    const { rows, named } = this.o.connections.applicable(run);
    const mcpRows = rows.filter((row) => row.type === 'mcp');
    const opened = await Promise.allSettled(
      mcpRows.map((row) => McpSession.open(mcpEndpointOf(row, this.o.secrets.secretOf(row)), { ...this.o.session, signal })),
    );
    const sessions: McpSession[] = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const closeAll = async (): Promise<void> => {
      await Promise.allSettled(sessions.map((s) => s.close()));
    };
    if (signal.aborted) {
      await closeAll();
      throw signal.reason;
    }
    const tools: AgentTool[] = [];
    let required: ConnectionRequiredError | null = null;
    for (const [i, outcome] of opened.entries()) {
      const row = mcpRows[i]!;
      if (outcome.status === 'rejected') {
        const detail = this.maskFor(row).text(failureDetail(outcome.reason));
        this.o.logger.warn({ runId: run.id, connection: row.id, detail }, 'an MCP connection could not be used');
        this.o.auth.record(row, { status: 'failed', detail });
        if (named.has(row.name)) required ??= new ConnectionRequiredError(row.name, `the connection '${row.name}' could not be used: ${detail}`);
        continue;
      }
      if (row.auth_status !== 'authenticated') this.o.auth.record(row, { status: 'authenticated', detail: 'a run connected' });
      tools.push(...this.toolsOf(row, outcome.value, named.has(row.name)));
    }
    if (required !== null) {
      await closeAll();
      throw required;
    }
    return { tools, close: closeAll };
  }

  private toolsOf(row: ConnectionRow, session: McpSession, named: boolean): AgentTool[] {
    const state: { unavailable: string | null } = { unavailable: null };
    const taken = new Set<string>();
    return session.tools.map((tool) => {
      const name = uniqueToolName(row.name, tool.name, taken);
      return this.tool(row, session, tool, name, named, state);
    });
  }

  private tool(row: ConnectionRow, session: McpSession, tool: Tool, name: string, named: boolean, state: { unavailable: string | null }): AgentTool<Record<string, unknown>> {
    const description = truncateEnd(`${tool.description ?? tool.title ?? tool.name} (tool ${tool.name} of the MCP connection ${row.name})`, DESCRIPTION_LIMIT);
    return {
      spec: { name, description, inputSchema: { ...(tool.inputSchema as Record<string, unknown>), type: 'object' } },
      summary: `${name}: ${truncateEnd((tool.description ?? tool.title ?? tool.name).split('\n')[0] ?? '', 120)}`,
      parse: (input) => input,
      execute: async (input, ctx, call) => {
        if (state.unavailable !== null) return toolError(ctx, name, call.input, `${name} is unavailable for the rest of this run: ${state.unavailable}`);
        ctx.recorder.lastAction(`${row.name}: ${tool.name}`);
        const started = performance.now();
        try {
          const result = await session.callTool(tool.name, input, { timeoutMs: this.o.callTimeoutMs, signal: ctx.signal });
          const { content, text } = mcpResultContent(result);
          const isError = result.isError === true;
          ctx.recorder.toolCall({ name, input: call.input, output: text, isError, durationMs: performance.now() - started });
          return { kind: 'result', content, isError };
        } catch (err) {
          if (!(err instanceof McpFailure)) throw err;
          const message = await this.callFailure(row, err);
          ctx.recorder.toolCall({ name, input: call.input, output: message, isError: true, durationMs: performance.now() - started });
          if (err.kind === 'protocol') return { kind: 'result', content: textContent(message), isError: true };
          state.unavailable = message;
          if (named) return { kind: 'finished', outcome: failedOutcome('auth_required', `the connection '${row.name}' stopped working during the run: ${message}`) };
          return { kind: 'result', content: textContent(`${message}; the tools of ${row.name} are unavailable for the rest of this run`), isError: true };
        }
      },
    };
  }

  /** What the model and the step are told about a failed call; a refused one checks the connection again first. */
  private async callFailure(row: ConnectionRow, err: McpFailure): Promise<string> {
    switch (err.kind) {
      case 'unauthorized': {
        const after = await this.o.recheck(row).catch(() => row);
        return `the MCP server refused the call (HTTP ${err.status}); the connection ${row.name} is now ${after.auth_status}${after.auth_detail === null ? '' : ` (${after.auth_detail})`}`;
      }
      case 'timeout':
      case 'unreachable':
        return `the MCP server of ${row.name} failed: ${err.message}`;
      case 'protocol':
        return `${row.name} answered with an error: ${err.message}`;
      default: {
        const unknown: never = err.kind;
        throw new Error(`unknown MCP failure ${String(unknown)}`);
      }
    }
  }

  private maskFor(row: ConnectionRow): SecretMask {
    return new SecretMask(this.o.secrets.valuesOf(row).map((value) => ({ name: row.name, value })));
  }
}
