import type { Config } from '../config/schema.js';
import { inputPriceKey, outputPriceKey, type ModelAlias } from '../vocabulary/models.js';

/** The spec fixes one credit at 0.05 USD. */
export const CREDIT_USD = 0.05;

export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

export class PriceTable {
  constructor(private readonly config: Config) {}

  model(alias: ModelAlias): ModelPrice {
    return {
      inputPerMTok: this.config[inputPriceKey(alias)],
      outputPerMTok: this.config[outputPriceKey(alias)],
    };
  }

  tokensCost(alias: ModelAlias, inputTokens: number, outputTokens: number): number {
    const p = this.model(alias);
    return roundUsd((inputTokens * p.inputPerMTok + outputTokens * p.outputPerMTok) / 1_000_000);
  }

  sandboxCost(seconds: number): number {
    return roundUsd(seconds * this.config['billing.sandbox_usd_per_s']);
  }
}

/** Micro-dollar precision: enough for per-token prices, and sums stay free of float noise in responses. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1_000_000) / 1_000_000;
}

export function credits(usd: number): number {
  return Math.ceil(roundUsd(usd / CREDIT_USD));
}
