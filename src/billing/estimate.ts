import type { ModelAlias } from '../vocabulary/models.js';
import { CREDIT_USD, credits, roundUsd, type PriceTable } from './prices.js';

export interface BillingHint {
  model: ModelAlias;
  credit_usd_rate: number;
  estimated_cost_usd: { low: number; high: number };
  estimated_credits: { low: number; high: number };
  monthly_cap_usd: number | null;
  note: string;
}

/**
 * Token figures of a short task (one look at one page) and of a long one (the step limit, with screenshots in
 * context). They bound what is likely, not what is possible; the caps bound what is possible.
 */
export const SHORT_RUN = { inputTokens: 8_000, outputTokens: 600, sandboxSeconds: 15 } as const;
const HIGH_PER_STEP = { inputTokens: 12_000, outputTokens: 400 };
const HIGH_STEPS = 25;

export function billingHint(prices: PriceTable, model: ModelAlias, timeoutS: number, monthlyCapUsd: number | null): BillingHint {
  const low = prices.tokensCost(model, SHORT_RUN.inputTokens, SHORT_RUN.outputTokens) + prices.sandboxCost(SHORT_RUN.sandboxSeconds);
  const high =
    prices.tokensCost(model, HIGH_PER_STEP.inputTokens * HIGH_STEPS, HIGH_PER_STEP.outputTokens * HIGH_STEPS) + prices.sandboxCost(timeoutS);
  const lowUsd = roundUsd(low);
  const highUsd = roundUsd(Math.max(high, low));
  return {
    model,
    credit_usd_rate: CREDIT_USD,
    estimated_cost_usd: { low: lowUsd, high: highUsd },
    estimated_credits: { low: credits(lowUsd), high: credits(highUsd) },
    monthly_cap_usd: monthlyCapUsd,
    note: 'An up-front estimate only; the billed figure is usage.cost_usd of the finished run (tokens at the model\'s prices plus sandbox seconds).',
  };
}

/**
 * What starting a run costs at most before it can do anything: the sandbox time before its first model call and the
 * worst case of that call, which the engine holds against the caps before making it.
 */
export interface StartCost {
  usd: number;
  sandboxSeconds: number;
  /** The first call's input-token bound and its max_tokens. */
  inputTokens: number;
  outputTokens: number;
}

export type StartCostOf = (model: ModelAlias, prompt: string, outputSchema: Record<string, unknown> | null) => StartCost;
