import { SHORT_RUN, type StartCost } from '../billing/estimate.js';
import { roundUsd, type PriceTable } from '../billing/prices.js';
import { isoTime, type Clock } from '../clock.js';
import type { Config } from '../config/schema.js';
import type { ModelAlias } from '../vocabulary/models.js';
import type { ToolSpec } from '../agent-tools/tool-content.js';
import { systemPrompt, taskMessage } from './system-prompt.js';
import { messagesTokens, requestTokens } from './token-bound.js';

export interface FirstCallBoundOptions {
  /** The tools every run has (ToolRegistry.everyRun). */
  tools: { specs: ToolSpec[]; summaries: string[] };
  config: Config;
  prices: PriceTable;
  clock: Clock;
}

/**
 * What a run needs under the caps to make its first model call (#10): the bound the agent loop holds before that
 * call, computed with the same functions over the same system prompt, tools and first message, plus the sandbox
 * time a run may use before it (the short run's). Admission refuses a run that could not make it.
 * The system prompt without an output schema, and the tools, are the same for every run: their size is computed once.
 */
export class FirstCallBound {
  private readonly toolsTokens: number;
  private readonly plainSystemBytes: number;

  constructor(private readonly o: FirstCallBoundOptions) {
    this.toolsTokens = requestTokens('', o.tools.specs, []);
    this.plainSystemBytes = Buffer.byteLength(this.system(null));
  }

  startCost(model: ModelAlias, prompt: string, outputSchema: Record<string, unknown> | null): StartCost {
    const systemBytes = outputSchema === null ? this.plainSystemBytes : Buffer.byteLength(this.system(outputSchema));
    const inputTokens = this.toolsTokens + systemBytes + messagesTokens([taskMessage(prompt)]);
    const outputTokens = this.o.config['models.max_tokens'];
    const sandboxSeconds = SHORT_RUN.sandboxSeconds;
    const usd = this.o.prices.tokensCost(model, inputTokens, outputTokens) + this.o.prices.sandboxCost(sandboxSeconds);
    return { usd: roundUsd(usd), sandboxSeconds, inputTokens, outputTokens };
  }

  /** Without a run's connections (their tools, their secrets' names), which only add to what every run needs. */
  private system(outputSchema: Record<string, unknown> | null): string {
    return systemPrompt({
      outputSchema,
      toolSummaries: this.o.tools.summaries,
      maxSteps: this.o.config['limits.max_steps'],
      nowIso: isoTime(this.o.clock.now()),
      secretNames: [],
      totpNames: [],
      inputFiles: [],
    });
  }
}
