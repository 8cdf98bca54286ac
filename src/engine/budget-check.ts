import type { SpendCaps } from '../billing/caps.js';
import { roundUsd, type PriceTable } from '../billing/prices.js';
import { codedFailure, failedOutcome, type FailedOutcome } from '../runs/run-outcome.js';
import type { ModelAlias } from '../vocabulary/models.js';

export interface BudgetCheckInput {
  orgId: string;
  keyId: string | null;
  model: ModelAlias;
  /** Upper bound on the call's input tokens (see token-bound.ts). */
  inputTokens: number;
  /** The call's max_tokens: the most output it can be billed for. */
  maxTokens: number;
  /** The run's own limit (max_cost_usd) and what the run has spent so far, or null when it has none. */
  runLimit: { maxCostUsd: number; spentUsd: () => number } | null;
}

/**
 * Holds the worst case of the next model call against the run's own limit (max_cost_usd) and both caps, or answers
 * the outcome of a run stopped for it (a failure_detail that names the figures). With spend recorded as each call
 * returns and released only then, this keeps an organisation's spend within the caps, across its concurrent runs,
 * and a run's within its limit, whenever the provider bills no more than the bound (input tokens ≤ the estimate,
 * output ≤ max_tokens): the only spend that can land after the last check is sandbox time, which a run with a limit
 * is not billed past it (RunRecorder.billSandbox).
 */
export function holdBudget(
  caps: SpendCaps,
  prices: PriceTable,
  input: BudgetCheckInput,
): { kind: 'held'; release: () => void } | { kind: 'short'; outcome: FailedOutcome } {
  const worstUsd = prices.tokensCost(input.model, input.inputTokens, input.maxTokens);
  const call = `it could cost up to ${worstUsd} USD (about ${input.inputTokens} input and up to ${input.maxTokens} output tokens)`;
  if (input.runLimit !== null) {
    const { maxCostUsd } = input.runLimit;
    const spentUsd = input.runLimit.spentUsd();
    if (spentUsd + worstUsd > maxCostUsd) {
      return {
        kind: 'short',
        outcome: codedFailure(
          'budget_exceeded',
          `stopped before the next model call: ${call}, and the run has spent ${spentUsd} USD of its max_cost_usd of ${maxCostUsd} USD, ` +
            `which the call could pass (${Math.max(0, roundUsd(maxCostUsd - spentUsd))} USD left)`,
        ),
      };
    }
  }
  const held = caps.hold(input.orgId, input.keyId, worstUsd);
  if (held.kind === 'held') return held;
  const { budget } = held;
  const cap = budget.bindingCap === 'monthly_cap' ? "the API key's monthly spend cap (monthly_cap_usd)" : "the organisation's daily spend cap";
  return {
    kind: 'short',
    outcome: failedOutcome('timeout', `stopped before the next model call: ${call}, more than the ${Math.max(0, budget.remainingUsd)} USD left under ${cap}`),
  };
}
