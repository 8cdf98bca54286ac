/**
 * What every model provider must do, whatever its wire format, run against each provider and its scripted server:
 * model aliases, usage, failures as typed ProviderErrors that never carry the key, the SDK's retries, and aborts.
 * The wire formats themselves are tested in anthropic-provider.test.ts and openai-provider.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../../src/engine/providers/anthropic-provider.js';
import { OpenAIProvider } from '../../../src/engine/providers/openai-provider.js';
import { ProviderError, type ModelProvider, type ModelProviderOptions } from '../../../src/engine/providers/provider.js';
import * as anthropic from '../../fixtures/scripted-anthropic.js';
import * as openai from '../../fixtures/scripted-openai.js';
import { closedPort } from '../harness.js';
import { providerError, request } from './provider-calls.js';

/** The parts of a scripted server and its fixture functions the suite uses, whatever the provider. */
interface Server {
  baseUrl: string;
  requests: { body: { model: string } }[];
  script(turns: unknown[]): void;
  close(): Promise<void>;
}

interface ProviderUnderTest {
  name: string;
  key: string;
  models: Record<'haiku' | 'sonnet' | 'opus', string>;
  start(apiKey?: string): Promise<Server>;
  create(options: ModelProviderOptions): ModelProvider;
  /** Options that leave the provider without what it needs to call; and the reason it then gives. */
  unconfigured: Partial<ModelProviderOptions>;
  unconfiguredReason: string;
  keySent(server: Server): string | undefined;
  finish(text?: string, usage?: { input: number; output: number }): unknown;
  /** A 401 whose message echoes the key the request carried. */
  unauthorizedEchoingKey(): unknown;
  /** What the server says to a key it does not know. */
  wrongKeyMessage: string;
  badRequest(message: string): unknown;
  unavailable: [label: string, turn: () => unknown, status: string][];
  hold: (turn: unknown) => { arrived: Promise<unknown>; disconnected: Promise<void> };
}

const PROVIDERS: ProviderUnderTest[] = [
  {
    name: 'AnthropicProvider',
    key: 'sk-ant-test-0123456789abcdef',
    models: { haiku: 'claude-haiku-test', sonnet: 'claude-sonnet-test', opus: 'claude-opus-test' },
    start: (apiKey) => anthropic.startScriptedAnthropic(apiKey === undefined ? {} : { apiKey }) as unknown as Promise<Server>,
    create: (o) => new AnthropicProvider(o),
    unconfigured: { apiKey: undefined },
    unconfiguredReason: "ANTHROPIC_API_KEY is not set in the daemon's environment",
    keySent: (s) => anthropic.apiKeyOf(s.requests.at(-1) as never),
    finish: (text, usage) => anthropic.finish(text, usage ? { usage: { input_tokens: usage.input, output_tokens: usage.output } } : {}),
    unauthorizedEchoingKey: () => (req: never) => anthropic.apiError(401, 'authentication_error', `invalid x-api-key ${anthropic.apiKeyOf(req)}`),
    wrongKeyMessage: 'invalid x-api-key',
    badRequest: (message) => anthropic.apiError(400, 'invalid_request_error', message),
    unavailable: [
      ['529 overloaded', anthropic.overloaded, '529'],
      ['500', () => anthropic.serverError(), '500'],
      ['429', anthropic.rateLimited, '429'],
    ],
    hold: (turn) => anthropic.hold(turn as never),
  },
  {
    name: 'OpenAIProvider',
    key: 'sk-proj-test-0123456789abcdef',
    models: { haiku: 'llama-small', sonnet: 'llama-medium', opus: 'llama-large' },
    start: (apiKey) => openai.startScriptedOpenAI(apiKey === undefined ? {} : { apiKey }) as unknown as Promise<Server>,
    create: (o) => new OpenAIProvider(o),
    unconfigured: { baseUrl: null },
    unconfiguredReason: 'openai.base_url is not set',
    keySent: (s) => (s.requests.at(-1) as unknown as { headers: Record<string, string> }).headers.authorization?.replace(/^Bearer /, ''),
    finish: (text, usage) => openai.finish(text, usage ? { usage: { prompt_tokens: usage.input, completion_tokens: usage.output } } : {}),
    unauthorizedEchoingKey: () => (req: { headers: Record<string, string> }) =>
      openai.apiError(401, 'invalid_request_error', `Incorrect API key provided: ${req.headers.authorization}`),
    wrongKeyMessage: 'Incorrect API key',
    badRequest: (message) => openai.apiError(400, 'invalid_request_error', message),
    unavailable: [
      ['500', () => openai.serverError(), '500'],
      ['503 overloaded', openai.overloaded, '503'],
      ['429', openai.rateLimited, '429'],
    ],
    hold: (turn) => openai.hold(turn as never),
  },
];

describe.each(PROVIDERS)('$name (provider conformance)', (p) => {
  let server: Server;
  beforeEach(async () => {
    server = await p.start(p.key);
  });
  afterEach(async () => {
    await server.close();
  });
  const provider = (overrides: Partial<ModelProviderOptions> = {}) =>
    p.create({ apiKey: p.key, baseUrl: server.baseUrl, models: p.models, maxRetries: 0, ...overrides });

  it('sends the configured model id behind each alias', async () => {
    server.script([p.finish(), p.finish(), p.finish()]);
    const model = provider();
    for (const alias of ['haiku', 'sonnet', 'opus'] as const) await model.complete(request({ model: alias }));
    expect(server.requests.map((r) => r.body.model)).toEqual([p.models.haiku, p.models.sonnet, p.models.opus]);
  });

  it('reports the usage the API returned', async () => {
    server.script([p.finish('ok', { input: 321, output: 45 })]);
    expect((await provider().complete(request())).usage).toEqual({ inputTokens: 321, outputTokens: 45 });
  });

  it('is unusable without its setting, says which, and sends nothing', async () => {
    server.script([p.finish()]);
    const model = provider(p.unconfigured);
    expect(model.unusableReason()).toBe(p.unconfiguredReason);
    const err = await providerError(model.complete(request()));
    expect(err).toMatchObject({ kind: 'not_configured', status: null, retryable: false });
    expect(server.requests).toHaveLength(0);
    expect(provider().unusableReason()).toBeNull();
  });

  it('probes the API without a model call: reachable when it answers, not when nothing listens, never naming the key', async () => {
    const answered = await provider().probe(5_000);
    expect(answered.reachable).toBe(true);
    expect((server.requests as unknown as { method: string }[]).map((r) => r.method)).toEqual(['GET']);
    const nowhere = await provider({ baseUrl: `http://127.0.0.1:${await closedPort()}` }).probe(5_000);
    expect(nowhere).toMatchObject({ reachable: false, keyAccepted: null });
    expect(JSON.stringify([answered, nowhere])).not.toContain(p.key);
    expect(await provider(p.unconfigured).probe(5_000)).toMatchObject({ reachable: false, keyAccepted: null, detail: `not checked: ${p.unconfiguredReason}` });
  });

  it('turns a 401 into an unauthorized, non-retryable error whose message has no key, even when the server echoes it', async () => {
    server.script([p.unauthorizedEchoingKey()]);
    const err = await providerError(provider().complete(request()));
    expect(err).toMatchObject({ kind: 'unauthorized', status: 401, retryable: false });
    expect(err.message).toContain('401');
    expect(err.message).not.toContain(p.key);
  });

  it('turns a wrong key rejected by the server into an unauthorized error without the key', async () => {
    const wrong = `${p.key}-wrong`;
    const err = await providerError(provider({ apiKey: wrong }).complete(request()));
    expect(err).toMatchObject({ kind: 'unauthorized', retryable: false });
    expect(err.message).toContain(p.wrongKeyMessage);
    expect(err.message).not.toContain(wrong);
    expect(p.keySent(server)).toBe(wrong);
  });

  it.each(p.unavailable)('turns %s into an unavailable, retryable error', async (_label, turn, status) => {
    server.script([turn()]);
    const err = await providerError(provider().complete(request()));
    expect(err).toMatchObject({ kind: 'unavailable', status: Number(status), retryable: true });
    expect(err.message).toContain(status);
  });

  it('turns a 400 into a refused, non-retryable error with the API message', async () => {
    server.script([p.badRequest('context length exceeded')]);
    const err = await providerError(provider().complete(request()));
    expect(err).toMatchObject({ kind: 'refused', status: 400, retryable: false });
    expect(err.message).toContain('context length exceeded');
  });

  it('lets the SDK retry an unavailable answer when retries are allowed', async () => {
    server.script([p.unavailable[0]![1](), p.finish('second time lucky')]);
    const response = await provider({ maxRetries: 2 }).complete(request());
    expect(response.content).toEqual([{ type: 'text', text: 'second time lucky' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('reports an unreachable server as an unreachable, retryable error naming it without the key', async () => {
    const gone = await p.start();
    const baseUrl = gone.baseUrl;
    await gone.close();
    const err = await providerError(provider({ baseUrl }).complete(request()));
    expect(err).toMatchObject({ kind: 'unreachable', status: null, retryable: true });
    expect(err.message).toContain(baseUrl);
    expect(err.message).not.toContain(p.key);
  });

  it('rejects promptly with the abort reason when aborted while the server delays, and the server sees the disconnect', async () => {
    const late = p.hold(p.finish('too late'));
    server.script([late]);
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
    server.script([p.finish()]);
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    controller.abort(reason);
    await expect(provider().complete(request({ signal: controller.signal }))).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });
});
