import { performance } from 'node:perf_hooks';
import type { SpendCaps } from '../billing/caps.js';
import type { PriceTable } from '../billing/prices.js';
import type { Clock } from '../clock.js';
import { isoTime } from '../clock.js';
import type { Config } from '../config/schema.js';
import type { RunRow } from '../store/runs-table.js';
import { holdBudget } from './budget-check.js';
import type { AttemptGate } from '../attempt/attempt-gate.js';
import type { Takeover } from '../steps/run-recorder.js';
import type { Evidence } from './evidence.js';
import type { ContentBlock, Message, ModelProvider, ModelResponse, ToolResultBlock, ToolUseBlock } from './providers/provider.js';
import { failedOutcome, type RunOutcome } from '../runs/run-outcome.js';
import type { RunRecorder } from '../steps/run-recorder.js';
import { systemPrompt, taskMessage } from './system-prompt.js';
import { messagesTokens, requestTokens } from './token-bound.js';
import type { ToolContext } from '../agent-tools/agent-tool.js';
import type { AttemptTools } from './tools/registry.js';
import type { PlacedInput } from '../attempt/placed-input.js';
import { providerModelKey } from '../vocabulary/models.js';
import { traced, type TraceSpan } from '../tracing/attempt-trace.js';

export interface AgentLoopOptions {
  run: RunRow;
  provider: ModelProvider;
  tools: AttemptTools;
  /** What the tools use: the sandbox, the recorder, the evidence, the signal. */
  context: ToolContext;
  /** The run's input files, for the system prompt. */
  inputFiles: readonly PlacedInput[];
  recorder: RunRecorder;
  evidence: Evidence;
  signal: AbortSignal;
  caps: SpendCaps;
  prices: PriceTable;
  config: Config;
  clock: Clock;
  /** Charges the sandbox time used since the last charge; called before every model call. */
  chargeSandboxTime: () => void;
  /** Shut while a person holds the browser (the live view's takeover): the agent waits there. */
  gate: AttemptGate;
  /** What the attempt's participants tell the agent as it comes (an answer given its predecessor meanwhile). */
  notes: () => string[];
  /**
   * What a replay of the job's recipe did before it stopped fitting the page (issue 24): the agent takes over
   * from there, with this account after the task. Null for a run the agent does from the start.
   */
  handover?: string | null;
}

/** One model call's result: the response, or the outcome of a run the spend caps stopped before the call. */
type ModelTurn = { kind: 'response'; response: ModelResponse } | { kind: 'stopped'; outcome: RunOutcome };

const NUDGE =
  'You ended your turn without calling a tool. Continue the task, or call finish now: with a result, or with result null and a failure_reason.';

/**
 * One attempt of a run's agent: model calls and tool calls until a tool finishes the attempt, the model gives up,
 * or a limit stops it. Returns the outcome; aborts (cancel, timeout, shutdown) and provider failures are thrown to
 * the executor, which knows what they mean for the run. Tools are whatever the registry gave the attempt.
 */
export class AgentLoop {
  private readonly messages: Message[] = [];
  private readonly system: string;
  private readonly maxTokens: number;
  private nudged = false;
  private modelCalls = 0;
  /** Usage of the previous call and how many messages it was sent, for the next call's token bound. */
  private previous: { inputTokens: number; outputTokens: number; messageCount: number } | null = null;
  /** What people did with the browser since the last model call, for the next call's user message. */
  private readonly personNotes: string[] = [];

  constructor(private readonly o: AgentLoopOptions) {
    this.maxTokens = o.config['models.max_tokens'];
    this.system = systemPrompt({
      outputSchema: o.run.output_schema === null ? null : (JSON.parse(o.run.output_schema) as Record<string, unknown>),
      toolSummaries: o.tools.summaries,
      maxSteps: o.config['limits.max_steps'],
      nowIso: isoTime(o.clock.now()),
      secretNames: o.context.secrets.filter((s) => s.typeable === true).map((s) => s.name),
      totpNames: o.context.secrets.filter((s) => s.totp !== undefined).map((s) => s.name),
      inputFiles: o.inputFiles,
    });
    const task = taskMessage(o.run.prompt);
    if (o.handover != null) task.content = [...task.content, { type: 'text', text: o.handover }];
    this.messages.push(task);
  }

  async run(): Promise<RunOutcome> {
    const maxSteps = this.o.config['limits.max_steps'];
    for (;;) {
      if (this.modelCalls >= maxSteps) {
        return failedOutcome('timeout', `stopped at the step limit: the agent made ${this.modelCalls} model calls (limits.max_steps is ${maxSteps}) without finishing`);
      }
      const turn = await this.callModel();
      if (turn.kind === 'stopped') return turn.outcome;
      const uses = turn.response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      if (uses.length === 0) {
        if (this.nudged) return this.o.evidence.giveUp('the agent ended its turn twice without calling finish');
        this.nudged = true;
        this.messages.push({ role: 'user', content: [{ type: 'text', text: NUDGE }] });
        continue;
      }
      const results: ToolResultBlock[] = [];
      let endedBy: ToolUseBlock | null = null;
      for (const use of uses) {
        if (endedBy !== null) {
          const text = `not run: ${endedBy.name} was called earlier in the same turn (${endedBy.id})`;
          results.push({ type: 'tool_result', toolUseId: use.id, content: [{ type: 'text', text }], isError: true });
          continue;
        }
        await this.yieldToPerson();
        const outcome = await this.callTool(use);
        switch (outcome.kind) {
          case 'finished':
            return outcome.outcome;
          case 'turn_ended':
            endedBy = use;
            results.push({ type: 'tool_result', toolUseId: use.id, content: outcome.content, isError: outcome.isError });
            break;
          case 'result':
            results.push({ type: 'tool_result', toolUseId: use.id, content: outcome.content, isError: outcome.isError });
            break;
          default: {
            const unknown: never = outcome;
            throw new Error(`unknown tool outcome ${JSON.stringify(unknown)}`);
          }
        }
      }
      this.messages.push({ role: 'user', content: results });
    }
  }

  /** The next model response, or the outcome of a run the spend caps stop. */
  private async callModel(): Promise<ModelTurn> {
    const { run, recorder } = this.o;
    await this.yieldToPerson();
    this.addPersonNotes();
    this.o.chargeSandboxTime();
    const inputBound = this.inputTokenBound();
    const held = holdBudget(this.o.caps, this.o.prices, {
      orgId: run.org_id,
      keyId: run.key_id,
      model: run.model,
      inputTokens: inputBound,
      maxTokens: this.maxTokens,
      runLimit: run.max_cost_usd === null ? null : { maxCostUsd: run.max_cost_usd, spentUsd: () => recorder.spentUsd() },
    });
    if (held.kind === 'short') return { kind: 'stopped', outcome: held.outcome };
    recorder.lastAction(`waiting for the model (${run.model})`);
    const started = performance.now();
    let response: ModelResponse;
    try {
      response = await this.complete();
      this.modelCalls += 1;
      recorder.modelCall({
        modelId: response.modelId,
        input: { messages: this.messages.length, max_tokens: this.maxTokens, input_token_bound: inputBound },
        output: summarizeResponse(response),
        durationMs: performance.now() - started,
        usage: response.usage,
      });
    } finally {
      held.release();
    }
    this.previous = { ...response.usage, messageCount: this.messages.length };
    // The APIs refuse empty text blocks and empty assistant messages, which some models do send.
    const content: ContentBlock[] = response.content.filter((b) => b.type !== 'text' || b.text !== '');
    this.messages.push({ role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: '(no answer)' }] });
    return { kind: 'response', response };
  }

  /**
   * The model's answer to the messages so far, in a span of the attempt with the gen_ai.* attributes of OpenTelemetry's
   * semantic conventions (the provider's name also as the older gen_ai.system, which backends still read).
   */
  private complete(): Promise<ModelResponse> {
    const { run, provider, context } = this.o;
    const requestModel = this.o.config[providerModelKey(run.model)];
    return traced(
      context.trace,
      `chat ${requestModel}`,
      {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': provider.name,
        'gen_ai.system': provider.name,
        'gen_ai.request.model': requestModel,
        'gen_ai.request.max_tokens': this.maxTokens,
        'gen_ai.conversation.id': run.id,
      },
      async (span) => {
        const response = await provider.complete({ model: run.model, system: this.system, messages: this.messages, tools: this.o.tools.specs, maxTokens: this.maxTokens, signal: this.o.signal });
        span.set({
          'gen_ai.response.model': response.modelId,
          'gen_ai.usage.input_tokens': response.usage.inputTokens,
          'gen_ai.usage.output_tokens': response.usage.outputTokens,
          'gen_ai.response.finish_reasons': [response.stopReason],
        });
        setContent(span, 'gen_ai.output.messages', context.trace.content(() => summarizeResponse(response)));
        return response;
      },
    );
  }

  /** One tool call, in a span of the attempt (execute_tool); its input and result only with content capture on. */
  private callTool(use: ToolUseBlock) {
    const { context } = this.o;
    return traced(
      context.trace,
      `execute_tool ${use.name}`,
      { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': use.name, 'gen_ai.tool.call.id': use.id, 'gen_ai.tool.type': 'function' },
      async (span) => {
        setContent(span, 'gen_ai.tool.call.arguments', context.trace.content(() => JSON.stringify(use.input)));
        const outcome = await this.o.tools.call(use, context);
        if (outcome.kind === 'finished') span.set({ 'errand.tool.outcome': outcome.outcome.status });
        else {
          span.set({ 'errand.tool.is_error': outcome.isError });
          setContent(span, 'gen_ai.tool.call.result', context.trace.content(() => outcome.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n')));
        }
        return outcome;
      },
    );
  }

  /**
   * Waits while a person holds the browser, then records each finished takeover as a step and keeps a note of it
   * for the model: the page may not be as the agent left it.
   */
  private async yieldToPerson(): Promise<void> {
    const { gate, recorder } = this.o;
    if (gate.holder === null) return this.notePeople();
    recorder.lastAction('paused: a person has control of the browser');
    // The person's control is a wait of its own (human_timeout_s): the run's timeout_s stops meanwhile.
    const resume = this.o.context.timeLimit.suspend();
    try {
      await gate.pass(this.o.signal);
    } finally {
      resume();
    }
    this.notePeople();
  }

  /** Each finished takeover as a step, and a note of it for the model: the page may not be as the agent left it. */
  private notePeople(): void {
    const { gate, recorder } = this.o;
    for (const takeover of gate.drain()) {
      recorder.takeover(takeover);
      this.personNotes.push(takeoverNote(takeover));
    }
    this.personNotes.push(...this.o.notes());
  }

  /** The notes go at the end of the user message the call sends (after any tool results, which must come first). */
  private addPersonNotes(): void {
    const last = this.messages.at(-1);
    if (this.personNotes.length === 0 || last === undefined || last.role !== 'user') return;
    last.content = [...last.content, ...this.personNotes.splice(0).map((text) => ({ type: 'text' as const, text }))];
  }

  /**
   * The most input tokens the next call can be billed for: the request's own size, or the previous call's
   * reported input and output plus what was added since, whichever is larger.
   */
  private inputTokenBound(): number {
    const fromRequest = requestTokens(this.system, this.o.tools.specs, this.messages);
    if (this.previous === null) return fromRequest;
    const added = messagesTokens(this.messages.slice(this.previous.messageCount + 1));
    return Math.max(fromRequest, this.previous.inputTokens + this.previous.outputTokens + added);
  }
}

function takeoverNote(t: Takeover): string {
  const seconds = Math.round((t.endedAtMs - t.startedAtMs) / 1000);
  const ended = t.revoked ? 'then their control was revoked' : 'then handed it back to you';
  const said = t.note === null || t.note.trim() === '' ? 'They left no note.' : `Their note: ${t.note.trim()}`;
  return `A person (${t.by}) took control of the browser at ${isoTime(t.startedAtMs)} for ${seconds} s, ${ended}. ${said} The page may have changed: look at it again before you go on.`;
}

function setContent(span: TraceSpan, key: string, text: string | undefined): void {
  if (text !== undefined) span.set({ [key]: text });
}

function summarizeResponse(response: ModelResponse): string {
  const parts = response.content.map((b) => (b.type === 'text' ? b.text : `tool_use ${b.name} ${JSON.stringify(b.input)}`));
  return [`stop_reason: ${response.stopReason}`, ...parts].join('\n');
}
