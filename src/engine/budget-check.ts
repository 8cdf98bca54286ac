import type { SpendCaps } from '../billing/caps.js';
import type { PriceTable } from '../billing/prices.js';
import type { ModelAlias } from '../vocabulary/models.js';

export interface BudgetCheckInput {
  orgId: string;
  keyId: string | null;
  model: ModelAlias;
  /** Upper bound on the call's input tokens (see token-bound.ts). */
  inputTokens: number;
  /** The call's max_tokens: the most output it can be billed for. */
  maxTokens: number;
}

/**
 * Holds the worst case of the next model call against both caps, or explains why it does not fit (the
 * failure_detail of a run stopped for it). With spend recorded as each call returns and released only then, this
 * keeps an organisation's spend within the caps, across its concurrent runs, whenever the provider bills no more than
 * the bound (input tokens ≤ the estimate, output ≤ max_tokens): the only spend that can land after the last check is
 * sandbox time.
 */
export function holdBudget(
  caps: SpendCaps,
  prices: PriceTable,
  input: BudgetCheckInput,
): { kind: 'held'; release: () => void } | { kind: 'short'; shortfall: string } {
  const worstUsd = prices.tokensCost(input.model, input.inputTokens, input.maxTokens);
  const held = caps.hold(input.orgId, input.keyId, worstUsd);
  if (held.kind === 'held') return held;
  const { budget } = held;
  const cap = budget.bindingCap === 'monthly_cap' ? "the API key's monthly spend cap (monthly_cap_usd)" : "the organisation's daily spend cap";
  return {
    kind: 'short',
    shortfall:
      `stopped before the next model call: it could cost up to ${worstUsd} USD (about ${input.inputTokens} input and up to ` +
      `${input.maxTokens} output tokens), more than the ${Math.max(0, budget.remainingUsd)} USD left under ${cap}`,
  };
}
