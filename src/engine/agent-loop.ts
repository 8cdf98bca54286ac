import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import type { SpendCaps } from '../billing/caps.js';
import type { PriceTable } from '../billing/prices.js';
import type { Clock } from '../clock.js';
import { isoTime } from '../clock.js';
import type { Config } from '../config/schema.js';
import type { StoredEvidence } from '../runs/envelope.js';
import { describeErrors, type UserSchemas } from '../runs/user-schemas.js';
import type { Sandbox } from '../sandbox/driver.js';
import type { PageProblem } from '../sandbox/protocol.js';
import { SandboxError } from '../sandbox/sandbox-error.js';
import type { RunRow } from '../store/runs-table.js';
import { holdBudget } from './budget-check.js';
import type { ContentBlock, ImageBlock, Message, ModelProvider, ModelResponse, TextBlock, ToolResultBlock, ToolSpec, ToolUseBlock } from './providers/provider.js';
import { failedOutcome, type RunOutcome } from './run-outcome.js';
import type { RunRecorder } from './run-recorder.js';
import { systemPrompt } from './system-prompt.js';
import { messagesTokens, requestTokens } from './token-bound.js';
import { browserResultText, describeBrowserAction, parseBrowserInput, problemLine } from './tools/browser-tool.js';
import { codeResultText, parseCodeInput } from './tools/code-tool.js';
import { parseFinishInput, type FinishInput } from './tools/finish-tool.js';
import { browserTool, codeTool, finishTool } from './tools/tool-specs.js';
import { truncateEnd } from './truncate.js';

export interface AgentLoopOptions {
  run: RunRow;
  provider: ModelProvider;
  sandbox: Sandbox;
  signal: AbortSignal;
  recorder: RunRecorder;
  artifacts: ArtifactsService;
  schemas: UserSchemas;
  caps: SpendCaps;
  prices: PriceTable;
  config: Config;
  clock: Clock;
  logger: Logger;
  /** Charges the sandbox time used since the last charge; called before every model call. */
  chargeSandboxTime: () => void;
}

interface Screenshot {
  artifactId: string;
  takenAtMs: number;
}

/** The page problem the browser reported most recently, and where. */
interface SeenProblem {
  problem: PageProblem;
  url: string | null;
}

const NUDGE =
  'You ended your turn without calling a tool. Continue the task, or call finish now: with a result, or with result null and a failure_reason.';

/**
 * One attempt of a run's agent: model calls and tool calls until the model calls `finish`, gives up, or a
 * limit stops it. Returns the outcome; aborts (cancel, timeout, shutdown) and provider failures are thrown
 * to the executor, which knows what they mean for the run.
 */
export class AgentLoop {
  private readonly messages: Message[] = [];
  private readonly tools: ToolSpec[];
  private readonly system: string;
  private readonly maxTokens: number;
  private readonly codeTimeoutS: number;
  private readonly screenshots: Screenshot[] = [];
  private lastProblem: SeenProblem | null = null;
  private browserUsed = false;
  private repairAsked = false;
  private nudged = false;
  private modelCalls = 0;
  /** Usage of the previous call and how many messages it was sent, for the next call's token bound. */
  private previous: { inputTokens: number; outputTokens: number; messageCount: number } | null = null;

  constructor(private readonly o: AgentLoopOptions) {
    this.codeTimeoutS = o.config['sandbox.code_timeout_s'];
    this.maxTokens = o.config['models.max_tokens'];
    this.tools = [browserTool, codeTool(this.codeTimeoutS), finishTool];
    this.system = systemPrompt({
      outputSchema: o.run.output_schema === null ? null : (JSON.parse(o.run.output_schema) as Record<string, unknown>),
      codeTimeoutS: this.codeTimeoutS,
      maxSteps: o.config['limits.max_steps'],
      nowIso: isoTime(o.clock.now()),
    });
    this.messages.push({ role: 'user', content: [{ type: 'text', text: `Task:\n${o.run.prompt}` }] });
  }

  async run(): Promise<RunOutcome> {
    const maxSteps = this.o.config['limits.max_steps'];
    for (;;) {
      if (this.modelCalls >= maxSteps) {
        return failedOutcome('timeout', `stopped at the step limit: the agent made ${this.modelCalls} model calls (limits.max_steps is ${maxSteps}) without finishing`);
      }
      const response = await this.callModel();
      if ('status' in response) return response;
      const uses = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      if (uses.length === 0) {
        if (this.nudged) return this.giveUp('the agent ended its turn twice without calling finish');
        this.nudged = true;
        this.messages.push({ role: 'user', content: [{ type: 'text', text: NUDGE }] });
        continue;
      }
      const results: ToolResultBlock[] = [];
      let finishedBy: string | null = null;
      for (const use of uses) {
        if (finishedBy !== null) {
          results.push(errorResult(use.id, `not run: finish was called earlier in the same turn (${finishedBy})`));
          continue;
        }
        if (use.unparsedInput !== undefined) {
          results.push(this.unparsed(use, use.unparsedInput));
        } else if (use.name === 'finish') {
          const handled = await this.finish(use);
          if ('status' in handled) return handled;
          results.push(handled);
          finishedBy = use.id;
        } else {
          results.push(await this.tool(use));
        }
      }
      this.messages.push({ role: 'user', content: results });
    }
  }

  /** The next model response, or the outcome of a run the spend caps stop. */
  private async callModel(): Promise<ModelResponse | RunOutcome> {
    const { run, recorder } = this.o;
    this.o.chargeSandboxTime();
    const inputBound = this.inputTokenBound();
    const held = holdBudget(this.o.caps, this.o.prices, {
      orgId: run.org_id,
      keyId: run.key_id,
      model: recorder.model,
      inputTokens: inputBound,
      maxTokens: this.maxTokens,
    });
    if ('shortfall' in held) return failedOutcome('timeout', held.shortfall);
    recorder.lastAction(`waiting for the model (${run.model})`);
    const started = performance.now();
    let response: ModelResponse;
    try {
      response = await this.o.provider.complete({
        model: recorder.model,
        system: this.system,
        messages: this.messages,
        tools: this.tools,
        maxTokens: this.maxTokens,
        signal: this.o.signal,
      });
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
    return response;
  }

  /**
   * The most input tokens the next call can be billed for: the request's own size, or the previous call's
   * reported input and output plus what was added since, whichever is larger.
   */
  private inputTokenBound(): number {
    const fromRequest = requestTokens(this.system, this.tools, this.messages);
    if (this.previous === null) return fromRequest;
    const added = messagesTokens(this.messages.slice(this.previous.messageCount + 1));
    return Math.max(fromRequest, this.previous.inputTokens + this.previous.outputTokens + added);
  }

  /** A tool call whose arguments did not parse (OpenAI-compatible servers pass them as text): the model may retry. */
  private unparsed(use: ToolUseBlock, raw: string): ToolResultBlock {
    const message = `the arguments of ${use.name} were not a JSON object: ${truncateEnd(raw, 500)}`;
    this.o.recorder.toolCall({ name: use.name, input: { unparsed: truncateEnd(raw, 2_000) }, output: message, isError: true, durationMs: 0 });
    return errorResult(use.id, message);
  }

  private async tool(use: ToolUseBlock): Promise<ToolResultBlock> {
    try {
      if (use.name === 'browser') return await this.browser(use);
      if (use.name === 'run_code') return await this.code(use);
    } catch (err) {
      // A sandbox that stopped answering cannot run anything more; any other failure is the model's to handle.
      if (!(err instanceof SandboxError) || err.code === 'unreachable' || err.code === 'destroyed') throw err;
      const message = `${use.name} failed: ${err.message}`;
      this.o.recorder.toolCall({ name: use.name, input: use.input, output: message, isError: true, durationMs: 0 });
      return errorResult(use.id, message);
    }
    const message = `unknown tool ${JSON.stringify(use.name)}; the tools are browser, run_code and finish`;
    this.o.recorder.toolCall({ name: use.name, input: use.input, output: message, isError: true, durationMs: 0 });
    return errorResult(use.id, message);
  }

  private async browser(use: ToolUseBlock): Promise<ToolResultBlock> {
    const { recorder, sandbox, signal } = this.o;
    const action = parseBrowserInput(use.input);
    if (typeof action === 'string') {
      recorder.toolCall({ name: 'browser', input: use.input, output: action, isError: true, durationMs: 0 });
      return errorResult(use.id, action);
    }
    recorder.lastAction(describeBrowserAction(action));
    const started = performance.now();
    const result = await sandbox.browser(action, signal);
    this.browserUsed = true;
    if (result.problem) this.lastProblem = { problem: result.problem, url: result.url ?? (action.action === 'navigate' ? action.url : null) };
    else if (result.ok) this.lastProblem = null;
    let text = browserResultText(result);
    const content: (TextBlock | ImageBlock)[] = [];
    let artifactId: string | null = null;
    if (result.screenshot !== null) {
      artifactId = (await this.keepScreenshot(result.screenshot)).artifactId;
      text = `screenshot id: ${artifactId} (name it as evidence_screenshot if it shows the answer)\n${text}`;
    }
    content.push({ type: 'text', text });
    if (result.screenshot !== null) content.push({ type: 'image', mediaType: 'image/png', data: result.screenshot });
    recorder.toolCall({
      name: `browser.${action.action}`,
      input: use.input,
      output: text,
      isError: !result.ok,
      durationMs: performance.now() - started,
      artifactId,
    });
    return { type: 'tool_result', toolUseId: use.id, content, isError: !result.ok };
  }

  private async code(use: ToolUseBlock): Promise<ToolResultBlock> {
    const { recorder, sandbox, signal } = this.o;
    const parsed = parseCodeInput(use.input);
    if (typeof parsed === 'string') {
      recorder.toolCall({ name: 'run_code', input: use.input, output: parsed, isError: true, durationMs: 0 });
      return errorResult(use.id, parsed);
    }
    recorder.lastAction(`run_code ${parsed.language}`);
    const started = performance.now();
    const result = await sandbox.exec({ ...parsed, timeoutMs: this.codeTimeoutS * 1000 }, signal);
    const text = codeResultText(result, this.codeTimeoutS);
    const isError = result.timedOut || result.exitCode !== 0;
    recorder.toolCall({ name: `run_code.${parsed.language}`, input: use.input, output: text, isError, durationMs: performance.now() - started });
    return { type: 'tool_result', toolUseId: use.id, content: [{ type: 'text', text }], isError };
  }

  /** The outcome of a `finish` call, or the tool result that asks the model to correct it. */
  private async finish(use: ToolUseBlock): Promise<RunOutcome | ToolResultBlock> {
    const { recorder } = this.o;
    recorder.lastAction('finish');
    const parsed = parseFinishInput(use.input);
    if (typeof parsed === 'string') {
      recorder.toolCall({ name: 'finish', input: use.input, output: parsed, isError: true, durationMs: 0 });
      return errorResult(use.id, parsed);
    }
    if (parsed.failureReason !== null) {
      const detail = parsed.failureDetail ?? `the agent reported ${parsed.failureReason}`;
      recorder.toolCall({ name: 'finish', input: use.input, output: `failed: ${parsed.failureReason}: ${detail}`, isError: false, durationMs: 0 });
      const warnings: string[] = [];
      const evidence = await this.evidence(parsed, warnings, false);
      return failedOutcome(parsed.failureReason, detail, { evidence, confidence: parsed.confidence, warnings });
    }
    if (parsed.result === undefined) {
      recorder.toolCall({ name: 'finish', input: use.input, output: 'no result and no failure_reason', isError: false, durationMs: 0 });
      return this.giveUp('the agent finished without a result or a failure_reason', parsed);
    }
    const warnings: string[] = [];
    let result = parsed.result;
    const schemaText = this.o.run.output_schema;
    if (schemaText !== null) {
      const validate = this.o.schemas.compile(JSON.parse(schemaText), 'output_schema');
      if (!validate(result)) {
        const errors = describeErrors('result', validate.errors ?? []);
        if (!this.repairAsked) {
          this.repairAsked = true;
          const message = `The result does not satisfy the output schema:\n${errors.map((e) => `- ${e}`).join('\n')}\nCall finish again with a corrected result.`;
          recorder.toolCall({ name: 'finish', input: use.input, output: message, isError: true, durationMs: 0 });
          return errorResult(use.id, message);
        }
        // The decisions' rule: after one repair, a still-invalid result is delivered, flagged rather than lost.
        warnings.push(...errors.map((e) => `output_schema: ${e}`));
      }
    }
    if (!isPlainObject(result)) {
      warnings.push('the agent gave a result that is not a JSON object; it is wrapped as {"value": ...}');
      result = { value: result };
    }
    const lowered = warnings.length > 0;
    recorder.toolCall({
      name: 'finish',
      input: use.input,
      output: lowered ? `succeeded with warnings: ${warnings.join('; ')}` : 'succeeded',
      isError: false,
      durationMs: 0,
    });
    const evidence = await this.evidence(parsed, warnings, true);
    return {
      status: 'succeeded',
      result: result as Record<string, unknown>,
      confidence: lowered ? 'low' : (parsed.confidence ?? 'medium'),
      evidence,
      warnings,
    };
  }

  /**
   * The model stopped without an answer. The last page problem the browser saw explains it better than the
   * model's silence: a captcha ends the run as `captcha`, an unreachable site as `site_down`; otherwise `ambiguous`.
   */
  private async giveUp(why: string, parsed?: FinishInput): Promise<RunOutcome> {
    const warnings: string[] = [];
    const evidence = await this.evidence(parsed ?? null, warnings, false);
    const seen = this.lastProblem;
    if (seen !== null) {
      const where = seen.url === null ? '' : ` at ${seen.url}`;
      const reason = seen.problem.kind === 'captcha' ? 'captcha' : 'site_down';
      return failedOutcome(reason, `${problemLine(seen.problem)}${where} (${why})`, { evidence, warnings });
    }
    return failedOutcome('ambiguous', parsed?.failureDetail ?? why, { evidence, warnings });
  }

  /**
   * The evidence of an ending: the screenshot the model named (or the latest), taking one first when the browser
   * was used and none exists. Null for a failure with nothing to show.
   */
  private async evidence(parsed: FinishInput | null, warnings: string[], succeeded: boolean): Promise<StoredEvidence | null> {
    if (this.browserUsed && this.screenshots.length === 0) await this.evidenceScreenshot();
    const named = parsed?.evidenceScreenshot ?? null;
    let shot = this.screenshots.at(-1) ?? null;
    if (named !== null && named !== 'latest') {
      const found = this.screenshots.find((s) => s.artifactId === named);
      if (found) shot = found;
      else warnings.push(`evidence_screenshot ${JSON.stringify(truncateEnd(named, 80))} is not a screenshot of this run; the latest one is the evidence instead`);
    }
    const matchedText = parsed?.matchedText ?? null;
    if (!succeeded && shot === null && matchedText === null) return null;
    return { artifact_id: shot?.artifactId ?? null, matched_text: matchedText, checked_at: isoTime(shot?.takenAtMs ?? this.o.clock.now()) };
  }

  private async evidenceScreenshot(): Promise<void> {
    const started = performance.now();
    try {
      const result = await this.o.sandbox.browser({ action: 'screenshot' }, this.o.signal);
      if (result.screenshot === null) return;
      const shot = await this.keepScreenshot(result.screenshot);
      this.o.recorder.toolCall({
        name: 'browser.screenshot',
        input: { action: 'screenshot', taken_by: 'engine', why: 'evidence: the agent finished without taking a screenshot' },
        output: `screenshot id: ${shot.artifactId}\n${browserResultText(result)}`,
        isError: false,
        durationMs: performance.now() - started,
        artifactId: shot.artifactId,
      });
    } catch (err) {
      if (this.o.signal.aborted) throw err;
      this.o.logger.warn({ err }, 'could not take the evidence screenshot');
    }
  }

  private async keepScreenshot(base64: string): Promise<Screenshot> {
    const takenAtMs = this.o.clock.now();
    const row = await this.o.artifacts.saveScreenshot(this.o.run.org_id, this.o.run.id, Buffer.from(base64, 'base64'), takenAtMs);
    const shot = { artifactId: row.id, takenAtMs };
    this.screenshots.push(shot);
    return shot;
  }
}

function errorResult(toolUseId: string, message: string): ToolResultBlock {
  return { type: 'tool_result', toolUseId, content: [{ type: 'text', text: message }], isError: true };
}

function summarizeResponse(response: ModelResponse): string {
  const parts = response.content.map((b) => (b.type === 'text' ? b.text : `tool_use ${b.name} ${JSON.stringify(b.input)}`));
  return [`stop_reason: ${response.stopReason}`, ...parts].join('\n');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
