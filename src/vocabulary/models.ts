/**
 * The models callers name, defined once: the aliases of the API (`model` of jobs and runs), the configuration keys
 * that map each alias to a provider's model id and to its prices, and their defaults. Jobs, runs, billing, the
 * configuration schema, the CLI and the OpenAPI enum all derive from this table.
 */
export const MODEL_ALIASES = ['haiku', 'sonnet', 'opus'] as const;
export type ModelAlias = (typeof MODEL_ALIASES)[number];

/** What a job or run gets when it names no model (the spec's default). */
export const DEFAULT_MODEL: ModelAlias = 'sonnet';

/** The tokens one model call used, as a provider reports them and billing charges them. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelDefaults {
  /** The provider's model id behind the alias (`models.<alias>`). */
  providerModel: string;
  /** USD per million input tokens (`billing.<alias>.input_usd_per_mtok`). */
  inputUsdPerMTok: number;
  /** USD per million output tokens (`billing.<alias>.output_usd_per_mtok`). */
  outputUsdPerMTok: number;
}

export const MODEL_DEFAULTS: Readonly<Record<ModelAlias, ModelDefaults>> = {
  haiku: { providerModel: 'claude-haiku-4-5', inputUsdPerMTok: 1, outputUsdPerMTok: 5 },
  sonnet: { providerModel: 'claude-sonnet-4-6', inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
  opus: { providerModel: 'claude-opus-4-6', inputUsdPerMTok: 5, outputUsdPerMTok: 25 },
};

export type ProviderModelKey = `models.${ModelAlias}`;
export type InputPriceKey = `billing.${ModelAlias}.input_usd_per_mtok`;
export type OutputPriceKey = `billing.${ModelAlias}.output_usd_per_mtok`;

export function providerModelKey<A extends ModelAlias>(alias: A): `models.${A}` {
  return `models.${alias}`;
}

export function inputPriceKey<A extends ModelAlias>(alias: A): `billing.${A}.input_usd_per_mtok` {
  return `billing.${alias}.input_usd_per_mtok`;
}

export function outputPriceKey<A extends ModelAlias>(alias: A): `billing.${A}.output_usd_per_mtok` {
  return `billing.${alias}.output_usd_per_mtok`;
}

/** The JSON Schema of a `model` member: validation and the OpenAPI enum alike. */
export const modelAliasSchema = { type: 'string', enum: MODEL_ALIASES, description: `One of ${MODEL_ALIASES.join(', ')}; default ${DEFAULT_MODEL}.` } as const;
