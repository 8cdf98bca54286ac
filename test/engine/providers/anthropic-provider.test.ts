import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider, type AnthropicProviderOptions } from '../../../src/engine/providers/anthropic-provider.js';
import { ProviderError, type Message, type ModelRequest } from '../../../src/engine/providers/provider.js';
import {
  apiError,
  apiKeyOf,
  finish,
  hold,
  overloaded,
  rateLimited,
  reply,
  serverError,
  startScriptedAnthropic,
  text,
  toolResults,
  toolUse,
  type ScriptedAnthropic,
} from '../../fixtures/scripted-anthropic.js';

const KEY = 'sk-ant-test-0123456789abcdef';
const MODELS = { haiku: 'claude-haiku-test', sonnet: 'claude-sonnet-test', opus: 'claude-opus-test' } as const;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

let model: ScriptedAnthropic;

beforeEach(async () => {
  model = await startScriptedAnthropic({ apiKey: KEY });
});

afterEach(async () => {
  await model.close();
});

function provider(overrides: Partial<AnthropicProviderOptions> = {}): AnthropicProvider {
  return new AnthropicProvider({ apiKey: KEY, baseUrl: model.baseUrl, models: MODELS, maxRetries: 0, ...overrides });
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'sonnet',
    system: 'You are a careful agent.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Is the site up?' }] }],
    tools: [],
    maxTokens: 1024,
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('AnthropicProvider against the scripted Messages API', () => {
  it('returns a text reply and sends model, system, max_tokens and the API key', async () => {
    model.script([finish('The site is up.')]);

    const response = await provider().complete(request());

    expect(response).toEqual({
      content: [{ type: 'text', text: 'The site is up.' }],
      stopReason: 'end_turn',
      usage: { inputTokens: 10, outputTokens: 5 },
      modelId: 'claude-sonnet-test',
    });
    const sent = model.lastRequest();
    expect(apiKeyOf(sent)).toBe(KEY);
    expect(sent.body).toMatchObject({
      model: 'claude-sonnet-test',
      max_tokens: 1024,
      system: 'You are a careful agent.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Is the site up?' }] }],
    });
    expect(sent.body.tools).toBeUndefined();
  });

  it('sends the largest configurable max_tokens without the SDK demanding streaming', async () => {
    model.script([finish()]);

    await provider().complete(request({ maxTokens: 128_000 }));

    expect(model.lastRequest().body.max_tokens).toBe(128_000);
  });

  it('sends the configured model id behind each alias', async () => {
    model.script([finish(), finish(), finish()]);
    const p = provider();

    for (const alias of ['haiku', 'sonnet', 'opus'] as const) await p.complete(request({ model: alias }));

    expect(model.requests.map((r) => r.body.model)).toEqual(['claude-haiku-test', 'claude-sonnet-test', 'claude-opus-test']);
  });

  it('round-trips a tool use: tools, tool_result text and images arrive in the Messages API wire shape', async () => {
    model.script([
      reply([text('Let me look.'), toolUse('browser', { url: 'https://example.com' }, 'toolu_01')]),
      (req) => finish(`Saw: ${toolResults(req)[0]?.text}`),
    ]);
    const p = provider();
    const tools = [{ name: 'browser', description: 'Open a page', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } }];
    const first: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'Check this screenshot' },
        { type: 'image', mediaType: 'image/jpeg', data: PNG },
      ],
    };

    const turn1 = await p.complete(request({ messages: [first], tools }));

    expect(turn1.stopReason).toBe('tool_use');
    expect(turn1.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_01', name: 'browser', input: { url: 'https://example.com' } },
    ]);
    expect(model.requests[0]!.body.tools).toEqual([
      { name: 'browser', description: 'Open a page', input_schema: { type: 'object', properties: { url: { type: 'string' } } } },
    ]);
    expect(model.requests[0]!.body.messages[0]!.content).toEqual([
      { type: 'text', text: 'Check this screenshot' },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: PNG } },
    ]);

    const turn2 = await p.complete(
      request({
        tools,
        messages: [
          first,
          { role: 'assistant', content: turn1.content },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolUseId: 'toolu_01',
                isError: false,
                content: [
                  { type: 'text', text: 'Example Domain' },
                  { type: 'image', mediaType: 'image/png', data: PNG },
                ],
              },
            ],
          },
        ],
      }),
    );

    expect(turn2.content).toEqual([{ type: 'text', text: 'Saw: Example Domain' }]);
    const sent = model.lastRequest().body.messages;
    expect(sent[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_01', name: 'browser', input: { url: 'https://example.com' } },
      ],
    });
    expect(sent[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01',
          is_error: false,
          content: [
            { type: 'text', text: 'Example Domain' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
      ],
    });
  });

  it('marks a failed tool result with is_error', async () => {
    model.script([finish()]);

    await provider().complete(
      request({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'code', input: { code: 'boom' } }] },
          { role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_9', isError: true, content: [{ type: 'text', text: 'NameError' }] }] },
        ],
      }),
    );

    expect(toolResults(model.lastRequest())).toEqual([{ toolUseId: 'toolu_9', text: 'NameError', images: [], isError: true }]);
  });

  it('reports usage including cache tokens as input', async () => {
    model.script([finish('ok', { usage: { input_tokens: 100, output_tokens: 42, cache_creation_input_tokens: 20, cache_read_input_tokens: 30 } })]);

    const response = await provider().complete(request());

    expect(response.usage).toEqual({ inputTokens: 150, outputTokens: 42 });
  });

  it('maps stop reasons, unknown ones to other', async () => {
    model.script([finish('cut', { stopReason: 'max_tokens' }), finish('hm', { stopReason: 'pause_turn' }), finish('no', { stopReason: 'refusal' })]);
    const p = provider();

    const reasons = [];
    for (let i = 0; i < 3; i++) reasons.push((await p.complete(request())).stopReason);

    expect(reasons).toEqual(['max_tokens', 'other', 'refusal']);
  });

  it('is unusable without an API key and sends nothing', async () => {
    model.script([finish()]);
    const p = provider({ apiKey: undefined });

    expect(p.unusableReason()).toBe('ANTHROPIC_API_KEY is not set');
    const err = await providerError(p.complete(request()));
    expect(err.retryable).toBe(false);
    expect(model.requests).toHaveLength(0);
    expect(provider().unusableReason()).toBeNull();
  });

  it('turns a 401 into a non-retryable ProviderError whose message has no key, even when the server echoes it', async () => {
    model.script([(req) => apiError(401, 'authentication_error', `invalid x-api-key ${apiKeyOf(req)}`)]);

    const err = await providerError(provider().complete(request()));

    expect(err.retryable).toBe(false);
    expect(err.message).toContain('401');
    expect(err.message).toContain('authentication_error');
    expect(err.message).not.toContain(KEY);
  });

  it('turns a wrong key rejected by the server into a non-retryable error without the key', async () => {
    const wrong = 'sk-ant-wrong-key-zyxwvu';

    const err = await providerError(provider({ apiKey: wrong }).complete(request()));

    expect(err.retryable).toBe(false);
    expect(err.message).toContain('invalid x-api-key');
    expect(err.message).not.toContain(wrong);
    expect(apiKeyOf(model.lastRequest())).toBe(wrong);
  });

  it.each([
    ['529 overloaded', overloaded(), '529'],
    ['500', serverError(), '500'],
    ['429', rateLimited(), '429'],
  ])('turns %s into a retryable ProviderError', async (_label, turn, status) => {
    model.script([turn]);

    const err = await providerError(provider().complete(request()));

    expect(err.retryable).toBe(true);
    expect(err.message).toContain(status);
  });

  it('turns a 400 invalid request into a non-retryable ProviderError', async () => {
    model.script([apiError(400, 'invalid_request_error', 'prompt is too long')]);

    const err = await providerError(provider().complete(request()));

    expect(err.retryable).toBe(false);
    expect(err.message).toContain('prompt is too long');
  });

  it('lets the SDK retry an overloaded answer when retries are allowed', async () => {
    model.script([overloaded(), finish('second time lucky')]);

    const response = await provider({ maxRetries: 2 }).complete(request());

    expect(response.content).toEqual([{ type: 'text', text: 'second time lucky' }]);
    expect(model.requests).toHaveLength(2);
  });

  it('reports an unreachable server as a retryable ProviderError', async () => {
    const gone = await startScriptedAnthropic();
    const baseUrl = gone.baseUrl;
    await gone.close();

    const err = await providerError(provider({ baseUrl }).complete(request()));

    expect(err.retryable).toBe(true);
    expect(err.message).toContain(baseUrl);
    expect(err.message).not.toContain(KEY);
  });

  it('rejects promptly with the abort reason when aborted while the server delays, and the server sees the disconnect', async () => {
    const late = hold(finish('too late'));
    model.script([late]);
    const controller = new AbortController();

    const call = provider().complete(request({ signal: controller.signal }));
    await late.arrived;
    controller.abort();

    const err = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ name: 'AbortError' });
    await late.disconnected;
  });

  it('rejects an already aborted call without sending it', async () => {
    model.script([finish()]);
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    controller.abort(reason);

    await expect(provider().complete(request({ signal: controller.signal }))).rejects.toBe(reason);
    expect(model.requests).toHaveLength(0);
  });
});

describe('scripted Anthropic fixture', () => {
  it('answers a held turn once released', async () => {
    const gate = hold(finish('released'));
    model.script([gate]);

    const call = provider().complete(request());
    const arrived = await gate.arrived;
    gate.release();

    expect(arrived.body.model).toBe('claude-sonnet-test');
    expect((await call).content).toEqual([{ type: 'text', text: 'released' }]);
  });

  it('answers 500 with a clear message once the script is used up', async () => {
    model.script([finish()]);
    const p = provider();
    await p.complete(request());

    const err = await providerError(p.complete(request()));

    expect(err.message).toContain('script exhausted');
    expect(model.remaining).toBe(0);
  });

  it('rejects a tool_result that answers no tool_use with 400, without using a turn', async () => {
    model.script([finish()]);

    const err = await providerError(
      provider().complete(
        request({ messages: [{ role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_x', isError: false, content: [] }] }] }),
      ),
    );

    expect(err.message).toContain('400');
    expect(err.message).toContain('toolu_x');
    expect(model.remaining).toBe(1);
  });
});
