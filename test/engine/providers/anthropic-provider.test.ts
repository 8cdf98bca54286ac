import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider, type AnthropicProviderOptions } from '../../../src/engine/providers/anthropic-provider.js';
import type { Message } from '../../../src/engine/providers/provider.js';
import {
  apiKeyOf,
  finish,
  hold,
  reply,
  startScriptedAnthropic,
  text,
  toolResults,
  toolUse,
  type ScriptedAnthropic,
} from '../../fixtures/scripted-anthropic.js';
import { providerError, request } from './provider-calls.js';

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
