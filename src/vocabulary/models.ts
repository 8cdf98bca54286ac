/**
 * The models callers name, defined once: the aliases of the API (`model` of jobs and runs), the configuration keys
 * that map each alias to a provider's model id and to its prices, and their defaults. Jobs, runs, billing, the
 * configuration schema, the CLI and the OpenAPI enum all derive from this table.
 */
export const MODEL_ALIASES = ['haiku', 'sonnet', 'opus'] as const;
export type ModelAlias = (typeof MODEL_ALIASES)[number];

/** The model APIs the daemon speaks (`models.provider`). */
export const MODEL_PROVIDERS = ['anthropic', 'openai'] as const;
export type ModelProviderName = (typeof MODEL_PROVIDERS)[number];

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

/**
 * A model API's own computer-use tool, named as its wire format names it: Anthropic's `computer_20251124` and
 * `computer_20250124` (each with its beta header), OpenAI's GA `computer` and its older `computer_use_preview` (both
 * on the Responses API).
 */
export type ComputerToolVersion = 'computer_20251124' | 'computer_20250124' | 'computer' | 'computer_use_preview';

export interface ComputerUseModels {
  provider: ModelProviderName;
  tool: ComputerToolVersion;
  /** Model ids, each also matching its dated snapshots (`claude-sonnet-4-20250514`, `gpt-5.4-2026-03-05`). */
  models: readonly string[];
}

/**
 * Which models have a computer-use tool, and which version (from the providers' documentation of their tools): the
 * one place the `computer` action space is decided, at a run's or job's creation (400 action_space_unsupported), in
 * the engine's precheck and in the providers. A model not listed has none, whatever API serves it.
 */
export const COMPUTER_USE_MODELS: readonly ComputerUseModels[] = [
  { provider: 'anthropic', tool: 'computer_20251124', models: ['claude-opus-4-8', 'claude-opus-4-7', 'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-opus-4-5'] },
  { provider: 'anthropic', tool: 'computer_20250124', models: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1', 'claude-sonnet-4', 'claude-opus-4', 'claude-3-7-sonnet'] },
  { provider: 'openai', tool: 'computer', models: ['gpt-5.5', 'gpt-5.4'] },
  { provider: 'openai', tool: 'computer_use_preview', models: ['computer-use-preview'] },
];

/** A dated snapshot's suffix, or -latest: `-20250514`, `-2026-03-05`. */
const SNAPSHOT_SUFFIX = /^-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

/** The computer-use tool `providerModel` has on `provider`'s API, or null when it has none. */
export function computerToolOf(provider: ModelProviderName, providerModel: string): ComputerToolVersion | null {
  for (const entry of COMPUTER_USE_MODELS) {
    if (entry.provider !== provider) continue;
    if (entry.models.some((id) => providerModel === id || (providerModel.startsWith(id) && SNAPSHOT_SUFFIX.test(providerModel.slice(id.length))))) return entry.tool;
  }
  return null;
}
