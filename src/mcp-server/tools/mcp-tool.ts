import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../keys/keys-service.js';
import type { ToolConsent } from './tool-consent.js';

/** What a tool call may use: who is calling, when to stop, and a way to report progress. */
export interface McpToolContext {
  /** The caller, an API key or the key an OAuth grant acts under: the same caps and limits as the REST API. */
  principal: Principal;
  /** Fires when the client cancels the call or the daemon shuts down. */
  signal: AbortSignal;
  /**
   * Tells the client how the call is going (`notifications/progress`), when it asked for progress with a
   * `progressToken`; otherwise does nothing.
   */
  progress(message: string): Promise<void>;
}

/**
 * One tool of the MCP front door. `inputSchema` is what the client's model sees and what the arguments are checked
 * against before `call` runs; `call` answers a JSON object, which the client gets as structured content and as
 * its JSON text. A service error (`ErrandError`) becomes a tool error the model can read and correct.
 *
 * A tool is one file exporting a function that builds it from the services it uses; the MCP subsystem
 * (`mcp-subsystem.ts`) lists it.
 */
export interface McpTool<Input = Record<string, unknown>> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** What calling it lets a client do, as the consent page words it for the person who allows the client. */
  readonly consent: ToolConsent;
  readonly inputSchema: Tool['inputSchema'];
  readonly annotations: ToolAnnotations;
  call(input: Input, ctx: McpToolContext): Promise<object> | object;
}
