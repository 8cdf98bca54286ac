import type { UserSchemas } from '../../runs/user-schemas.js';
import { CONFIDENCES, FAILURE_REASONS, type Confidence, type FailureReason } from '../../vocabulary/run-outcomes.js';
import { failedOutcome } from '../../runs/run-outcome.js';
import { fromJson } from '../../store/json-columns.js';
import { type AgentTool, type ToolSource } from '../../agent-tools/agent-tool.js';
import { textContent } from '../../agent-tools/tool-content.js';
import { repairPrompt } from './finish/repair-prompt.js';
import { resultErrors } from '../../runs/result-errors.js';

export interface FinishInput {
  /** undefined when the model gave none (or null). */
  result: unknown;
  confidence: Confidence | null;
  failureReason: FailureReason | null;
  failureDetail: string | null;
  matchedText: string | null;
  evidenceScreenshot: string | null;
}

export interface FinishToolOptions {
  /** The run's output_schema, or null. */
  outputSchema: Record<string, unknown> | null;
  schemas: UserSchemas;
}

/**
 * Ends the attempt with the model's answer or its failure. Made for each attempt, because it remembers whether it
 * already asked for a corrected result: after one repair, a result that still violates the output schema is
 * delivered with `confidence: low` and the errors as warnings (the decisions' rule), flagged rather than lost.
 */
export function createFinishTool(options: FinishToolOptions): AgentTool<FinishInput> {
  let repairAsked = false;
  return {
    spec: {
      name: 'finish',
      description:
        'End the task with your answer. On success give `result` (a JSON object satisfying the output schema), `confidence`, `matched_text` ' +
        'and `evidence_screenshot`. When the task cannot be done, give `result: null`, a `failure_reason` and a one-sentence `failure_detail`.',
      inputSchema: {
        type: 'object',
        properties: {
          result: { type: ['object', 'null'], description: 'The answer, as a JSON object that satisfies the output schema; null on failure.' },
          confidence: { type: 'string', enum: [...CONFIDENCES], description: 'How sure you are of the result.' },
          failure_reason: { type: ['string', 'null'], enum: [...FAILURE_REASONS, null], description: 'Why the task could not be done; null on success.' },
          failure_detail: { type: 'string', description: 'On failure: one sentence saying what happened.' },
          matched_text: { type: ['string', 'null'], description: 'The exact text on the page that supports the result.' },
          evidence_screenshot: { type: ['string', 'null'], description: 'The id of the screenshot that shows the answer, or "latest".' },
        },
      },
    },
    summary: 'finish: call it exactly once, when you are done.',
    parse: parseFinishInput,
    async execute(parsed, ctx, call) {
      const step = (output: string, isError = false) => ctx.recorder.toolCall({ name: 'finish', input: call.input, output, isError, durationMs: 0 });
      ctx.recorder.lastAction('finish');
      if (parsed.failureReason !== null) {
        const detail = parsed.failureDetail ?? `the agent reported ${parsed.failureReason}`;
        step(`failed: ${parsed.failureReason}: ${detail}`);
        const warnings: string[] = [];
        const evidence = await ctx.evidence.collect(parsed, warnings, false);
        return { kind: 'finished', outcome: failedOutcome(parsed.failureReason, detail, { evidence, confidence: parsed.confidence, warnings }) };
      }
      if (parsed.result === undefined) {
        step('no result and no failure_reason');
        return { kind: 'finished', outcome: await ctx.evidence.giveUp('the agent finished without a result or a failure_reason', parsed) };
      }
      const warnings: string[] = [];
      const errors = await resultErrors(parsed.result, options.outputSchema, options.schemas);
      if (errors.length > 0) {
        if (!repairAsked) {
          repairAsked = true;
          const message = repairPrompt(errors);
          step(message, true);
          return { kind: 'turn_ended', content: textContent(message), isError: true };
        }
        warnings.push(...errors.map((e) => `output_schema: ${e}`));
      }
      let result = parsed.result;
      if (!isPlainObject(result)) {
        warnings.push('the agent gave a result that is not a JSON object; it is wrapped as {"value": ...}');
        result = { value: result };
      }
      const lowered = warnings.length > 0;
      step(lowered ? `succeeded with warnings: ${warnings.join('; ')}` : 'succeeded');
      const evidence = await ctx.evidence.collect(parsed, warnings, true);
      return {
        kind: 'finished',
        outcome: { status: 'succeeded', result: result as Record<string, unknown>, confidence: lowered ? 'low' : (parsed.confidence ?? 'medium'), evidence, warnings },
      };
    },
  };
}

/** A finish tool for each attempt, checking results against that run's output schema. */
export function finishTools(schemas: UserSchemas): ToolSource {
  return {
    open: async (run) => ({ tools: [createFinishTool({ outputSchema: fromJson(run.output_schema), schemas })], close: async () => undefined }),
  };
}

/** Reads the `finish` input leniently; only a failure_reason outside the six values is refused (returned as a message). */
export function parseFinishInput(input: Record<string, unknown>): FinishInput | string {
  const reason = input.failure_reason;
  if (reason !== undefined && reason !== null && !(FAILURE_REASONS as readonly unknown[]).includes(reason)) {
    return `failure_reason must be one of ${FAILURE_REASONS.join(', ')} (or null on success), not ${JSON.stringify(reason)}`;
  }
  const confidence = (CONFIDENCES as readonly unknown[]).includes(input.confidence) ? (input.confidence as Confidence) : null;
  const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
  return {
    result: input.result === null ? undefined : input.result,
    confidence,
    failureReason: (reason as FailureReason | undefined) ?? null,
    failureDetail: text(input.failure_detail),
    matchedText: text(input.matched_text),
    evidenceScreenshot: text(input.evidence_screenshot),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
