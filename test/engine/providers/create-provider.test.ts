import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { createProvider } from '../../../src/engine/providers/create-provider.js';
import { apiKeyOf, finish, startScriptedAnthropic, type ScriptedAnthropic } from '../../fixtures/scripted-anthropic.js';
import { finish as openaiFinish, startScriptedOpenAI } from '../../fixtures/scripted-openai.js';
import { tempDir } from '../../fixtures/temp-dir.js';

let home: ReturnType<typeof tempDir>;
let model: ScriptedAnthropic;

beforeEach(async () => {
  home = tempDir();
  model = await startScriptedAnthropic({ apiKey: 'test-key' });
});

afterEach(async () => {
  await model.close();
  home.remove();
});

function call(alias: 'haiku' | 'sonnet' | 'opus') {
  return { model: alias, system: '', messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }], tools: [], maxTokens: 256, signal: new AbortController().signal };
}

describe('createProvider', () => {
  it('builds the Anthropic provider from ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY, mapping aliases to configured ids', async () => {
    const env = { ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: 'test-key', ERRAND_MODELS_HAIKU: 'claude-custom-haiku' };
    const provider = createProvider({ config: loadConfig({ home: home.path, env }), env, maxRetries: 0 });
    model.script([finish('hello')]);

    const response = await provider.complete(call('haiku'));

    expect(provider.name).toBe('anthropic');
    expect(provider.unusableReason()).toBeNull();
    expect(response.content).toEqual([{ type: 'text', text: 'hello' }]);
    expect(model.lastRequest().body.model).toBe('claude-custom-haiku');
    expect(apiKeyOf(model.lastRequest())).toBe('test-key');
  });

  it('reports a missing ANTHROPIC_API_KEY as the reason the default provider is unusable', () => {
    const provider = createProvider({ config: loadConfig({ home: home.path, env: {} }), env: {} });

    expect(provider.name).toBe('anthropic');
    expect(provider.unusableReason()).toBe("ANTHROPIC_API_KEY is not set in the daemon's environment");
  });

  it('builds the OpenAI-compatible provider when models.provider is openai', async () => {
    const local = await startScriptedOpenAI();
    try {
      const env = { ERRAND_MODELS_PROVIDER: 'openai', OPENAI_BASE_URL: local.baseUrl, ERRAND_MODELS_OPUS: 'qwen-big' };
      const provider = createProvider({ config: loadConfig({ home: home.path, env }), env, maxRetries: 0 });
      local.script([openaiFinish('from ollama')]);

      const response = await provider.complete(call('opus'));

      expect(provider.name).toBe('openai');
      expect(response.content).toEqual([{ type: 'text', text: 'from ollama' }]);
      expect(local.lastRequest().body.model).toBe('qwen-big');
    } finally {
      await local.close();
    }
  });

  it('reports a missing openai.base_url as the reason the OpenAI provider is unusable', () => {
    const env = { ERRAND_MODELS_PROVIDER: 'openai' };
    const provider = createProvider({ config: loadConfig({ home: home.path, env }), env });

    expect(provider.unusableReason()).toBe('openai.base_url is not set');
  });
});
