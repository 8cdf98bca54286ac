import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIProvider, type OpenAIProviderOptions } from '../../../src/engine/providers/openai-provider.js';
import type { Message, ToolUseBlock } from '../../../src/engine/providers/provider.js';
import {
  finish,
  reply,
  startScriptedOpenAI,
  text,
  toolMessages,
  toolUse,
  type ScriptedOpenAI,
} from '../../fixtures/scripted-openai.js';
import { providerError, request } from './provider-calls.js';

const KEY = 'sk-proj-test-0123456789abcdef';
const MODELS = { haiku: 'llama-small', sonnet: 'llama-medium', opus: 'llama-large' } as const;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

let model: ScriptedOpenAI;

beforeEach(async () => {
  model = await startScriptedOpenAI({ apiKey: KEY });
});

afterEach(async () => {
  await model.close();
});

function provider(overrides: Partial<OpenAIProviderOptions> = {}): OpenAIProvider {
  return new OpenAIProvider({ apiKey: KEY, baseUrl: model.baseUrl, models: MODELS, maxRetries: 0, ...overrides });
}

const browserCall: ToolUseBlock = { type: 'tool_use', id: 'call_1', name: 'browser', input: { url: 'https://example.com' } };

describe('OpenAIProvider against a scripted chat-completions API', () => {
  it('returns a text reply and sends model, system message, max_tokens and the bearer key', async () => {
    model.script([finish('The site is up.')]);

    const response = await provider().complete(request());

    expect(response).toEqual({
      content: [{ type: 'text', text: 'The site is up.' }],
      stopReason: 'end_turn',
      usage: { inputTokens: 10, outputTokens: 5 },
      modelId: 'llama-medium',
    });
    const sent = model.lastRequest();
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toMatchObject({
      model: 'llama-medium',
      max_tokens: 1024,
      messages: [
        { role: 'system', content: 'You are a careful agent.' },
        { role: 'user', content: 'Is the site up?' },
      ],
    });
    expect(sent.body.tools).toBeUndefined();
  });

  it('round-trips a tool call: function tools, tool messages and tool-result images as a following user message', async () => {
    model.script([
      reply([text('Let me look.'), toolUse('browser', { url: 'https://example.com' }, 'call_1')]),
      (req) => finish(`Saw: ${toolMessages(req)[0]?.content}`),
    ]);
    const p = provider();
    const tools = [{ name: 'browser', description: 'Open a page', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } }];
    const first: Message = { role: 'user', content: [{ type: 'text', text: 'Open example.com' }] };

    const turn1 = await p.complete(request({ messages: [first], tools }));

    expect(turn1.stopReason).toBe('tool_use');
    expect(turn1.content).toEqual([{ type: 'text', text: 'Let me look.' }, browserCall]);
    expect(model.requests[0]!.body.tools).toEqual([
      { type: 'function', function: { name: 'browser', description: 'Open a page', parameters: { type: 'object', properties: { url: { type: 'string' } } } } },
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
                toolUseId: 'call_1',
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
    expect(model.lastRequest().body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'browser', arguments: '{"url":"https://example.com"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Example Domain' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Image from tool call call_1:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
  });

  it('sends user images as image_url data URLs and marks failed tool results', async () => {
    model.script([finish()]);

    await provider().complete(
      request({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }, { type: 'image', mediaType: 'image/jpeg', data: PNG }] },
          { role: 'assistant', content: [browserCall] },
          { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_1', isError: true, content: [{ type: 'text', text: 'net::ERR_NAME_NOT_RESOLVED' }] }] },
        ],
      }),
    );

    const sent = model.lastRequest().body.messages;
    expect(sent[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'go' },
        { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${PNG}` } },
      ],
    });
    expect(sent[2]).toMatchObject({ role: 'assistant', content: null });
    expect(toolMessages(model.lastRequest())).toEqual([{ toolCallId: 'call_1', content: 'Error: net::ERR_NAME_NOT_RESOLVED' }]);
  });

  it('turns malformed tool arguments into an empty input plus the raw text', async () => {
    model.script([reply([toolUse('code', '{"language": "python", "code": "print(', 'call_bad'), toolUse('code', '[1, 2]', 'call_arr'), toolUse('noop', '', 'call_empty')])]);

    const response = await provider().complete(request());

    const [bad, arr, empty] = response.content as ToolUseBlock[];
    expect(bad).toEqual({ type: 'tool_use', id: 'call_bad', name: 'code', input: {}, unparsedInput: '{"language": "python", "code": "print(' });
    expect(bad!.unparsedInput).toBeTypeOf('string');
    expect(arr).toMatchObject({ input: {}, unparsedInput: '[1, 2]' });
    expect(empty).toEqual({ type: 'tool_use', id: 'call_empty', name: 'noop', input: {} });
    expect(empty!.unparsedInput).toBeUndefined();
  });

  it('maps finish reasons, and tool calls mean tool_use even when a server says stop', async () => {
    model.script([finish('cut', { finishReason: 'length' }), finish('no', { finishReason: 'content_filter' }), reply(toolUse('browser', {}), { finishReason: 'stop' })]);
    const p = provider();

    const reasons = [];
    for (let i = 0; i < 3; i++) reasons.push((await p.complete(request())).stopReason);

    expect(reasons).toEqual(['max_tokens', 'refusal', 'tool_use']);
  });

  it('works without an API key against a server that needs none, sending a placeholder', async () => {
    const local = await startScriptedOpenAI();
    try {
      local.script([finish('local answer')]);
      const p = provider({ apiKey: undefined, baseUrl: local.baseUrl });

      expect(p.unusableReason()).toBeNull();
      expect((await p.complete(request())).content).toEqual([{ type: 'text', text: 'local answer' }]);
      expect(local.lastRequest().headers.authorization).toMatch(/^Bearer \S+$/);
    } finally {
      await local.close();
    }
  });

});

describe('scripted OpenAI fixture', () => {
  it('answers 500 with a clear message once the script is used up', async () => {
    const err = await providerError(provider().complete(request()));

    expect(err.message).toContain('script exhausted');
    expect(model.requests).toHaveLength(1);
  });

  it('rejects an assistant tool call left without a tool message, without using a turn', async () => {
    model.script([finish()]);

    const err = await providerError(
      provider().complete(
        request({
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'go' }] },
            { role: 'assistant', content: [browserCall] },
            { role: 'user', content: [{ type: 'text', text: 'never mind' }] },
          ],
        }),
      ),
    );

    expect(err.message).toContain('400');
    expect(err.message).toContain('call_1');
    expect(model.remaining).toBe(1);
  });
});
