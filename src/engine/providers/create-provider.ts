import type { Config } from '../../config/schema.js';
import { AnthropicProvider } from './anthropic-provider.js';
import { OpenAIProvider } from './openai-provider.js';
import { MODEL_ALIASES, providerModelKey, type ModelAlias } from '../../vocabulary/models.js';
import type { ModelProvider } from './provider.js';

export interface CreateProviderOptions {
  config: Config;
  /** Where the API keys come from (ANTHROPIC_API_KEY, OPENAI_API_KEY); the daemon passes process.env. */
  env: Readonly<Record<string, string | undefined>>;
  /** SDK retries per call; default 2. */
  maxRetries?: number;
}

/** The provider `models.provider` names, with the aliases mapped to the configured model ids. */
export function createProvider({ config, env, maxRetries }: CreateProviderOptions): ModelProvider {
  const models = Object.fromEntries(MODEL_ALIASES.map((alias) => [alias, config[providerModelKey(alias)]])) as Record<ModelAlias, string>;
  // The config loader has already checked the value against the enum; a new provider must be added here too.
  const provider = config['models.provider'];
  if (provider === 'anthropic') {
    return new AnthropicProvider({ apiKey: env.ANTHROPIC_API_KEY, baseUrl: config['anthropic.base_url'], models, maxRetries });
  }
  if (provider === 'openai') {
    return new OpenAIProvider({ apiKey: env.OPENAI_API_KEY, baseUrl: config['openai.base_url'], models, maxRetries });
  }
  throw new Error(`unknown models.provider ${JSON.stringify(provider)}`);
}
