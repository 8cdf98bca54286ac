import type { Logger } from 'pino';
import type { NamedSecret } from '../connections/secret-mask.js';
import type { RunRow } from '../store/runs-table.js';
import type { StoredEvidence } from '../runs/envelope.js';
import type { RunOutcome } from '../runs/run-outcome.js';
import type { Sandbox } from '../sandbox/driver.js';
import type { BrowserAction, BrowserResult } from '../sandbox/protocol.js';
import type { AttemptTrace } from '../tracing/attempt-trace.js';
import type { ToolContent, ToolSpec } from './tool-content.js';

/**
 * The agent-tool contract: what the engine offers a tool and what a tool answers. It sits below the engine, so that
 * areas offering tools to runs (a connection's MCP server, a run's mailbox) use it without importing the engine.
 */

/** One tool call as its step records it. */
export interface ToolStep {
  name: string;
  input: unknown;
  output: string;
  isError: boolean;
  durationMs: number;
  artifactId?: string | null;
}

/** The part of the attempt's recorder a tool uses (the engine's RunRecorder). */
export interface ToolRecorder {
  /** The run's progress line (`last_action`). */
  lastAction(text: string): void;
  toolCall(step: ToolStep): void;
}

/** What the model named when it finished: the screenshot and text that back its answer. */
export interface EvidenceClaim {
  evidenceScreenshot: string | null;
  matchedText: string | null;
  failureDetail: string | null;
}

/** The part of the attempt's evidence a tool uses (the engine's Evidence). */
export interface ToolEvidence {
  noteBrowser(action: BrowserAction, result: BrowserResult): void;
  /** Stores a screenshot as an artifact; answers its id. */
  keepScreenshot(base64: string): Promise<string>;
  collect(claim: EvidenceClaim | null, warnings: string[], succeeded: boolean): Promise<StoredEvidence | null>;
  giveUp(why: string, claim?: EvidenceClaim | null): Promise<RunOutcome>;
}

/**
 * The run's time limit (`timeout_s`). A tool that waits for a person stops it while it waits (issue 22, item 4):
 * `suspend` answers the function that starts it again, with the time that was left.
 */
export interface RunTimeLimit {
  suspend(): () => void;
}

/**
 * How a tool waits for something of its own (an email at the run's address): as a waitpoint of the run while it
 * waits, so that the run's `waiting_for` says so and the wait has a record (docs/api.md, "What a run waits for").
 * `until` answers what came, in words for the record, or null when nothing did in time.
 */
export interface ToolWaits {
  during<T>(wait: { kind: 'email'; timeoutS: number }, until: (signal: AbortSignal) => Promise<{ value: T; why: string } | null>): Promise<T | null>;
}

/** What a tool may use while it runs: the attempt's run, sandbox, recorder and evidence. */
export interface ToolContext {
  run: RunRow;
  sandbox: Sandbox;
  /** Fires on cancel, timeout and shutdown; a tool passes it to whatever waits. */
  signal: AbortSignal;
  recorder: ToolRecorder;
  evidence: ToolEvidence;
  logger: Logger;
  /** The secrets of the run's connections, by connection name (the browser types them by reference). */
  secrets: readonly NamedSecret[];
  /** Names of the run's input files, placed in /workspace/in before its first step (issue 23). */
  inputFiles: readonly string[];
  timeLimit: RunTimeLimit;
  waits: ToolWaits;
  /** Where the attempt's work is traced (spans of the attempt; NO_TRACE without tracing). */
  trace: AttemptTrace;
}

/** The call as the model made it: its input is what a step records. */
export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

/** What a tool call did, for the agent loop. */
export type ToolOutcome =
  /** The model reads `content` and goes on. */
  | { kind: 'result'; content: ToolContent; isError: boolean }
  /** As `result`, and the rest of the model's turn is not run (finish asked for a corrected result). */
  | { kind: 'turn_ended'; content: ToolContent; isError: boolean }
  /** The attempt ends with this outcome. */
  | { kind: 'finished'; outcome: RunOutcome };

/**
 * One tool the agent can call. `parse` turns the model's input into the tool's own input, or says (as a string)
 * what is wrong with it; `execute` runs it and records its step. A tool is added to the agent by listing it in
 * `registry.ts`; the loop knows none of them by name.
 */
export interface AgentTool<Input extends object = object> {
  readonly spec: ToolSpec;
  /** One line for the system prompt's list of tools. */
  readonly summary: string;
  parse(input: Record<string, unknown>): Input | string;
  execute(input: Input, ctx: ToolContext, call: ToolCall): Promise<ToolOutcome>;
}

/** An attempt's tools from one source, and what to release when the attempt ends (a session with an MCP server). */
export interface ToolSet {
  tools: AgentTool[];
  close(): Promise<void>;
}

/** Gives each attempt some of its tools: the same ones every time, or ones made for the run. */
export interface ToolSource {
  open(run: RunRow, signal: AbortSignal): Promise<ToolSet>;
}

/** A source of tools that are the same for every run. */
export function fixedTools(...tools: AgentTool[]): ToolSource {
  return { open: async () => ({ tools, close: async () => undefined }) };
}

/**
 * Records a failed call as a step and gives the model the message, so it can correct itself: the one way tools
 * and the loop report tool errors.
 */
export function toolError(ctx: Pick<ToolContext, 'recorder'>, name: string, input: unknown, message: string): ToolOutcome {
  ctx.recorder.toolCall({ name, input, output: message, isError: true, durationMs: 0 });
  return { kind: 'result', content: [{ type: 'text', text: message }], isError: true };
}
