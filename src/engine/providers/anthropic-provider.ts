import Anthropic from '@anthropic-ai/sdk';
import { errorKindOfStatus, probeFailure, ProviderError, type ContentBlock, type Message, type ModelProvider, type ModelProviderOptions, type ModelRequest, type ModelResponse, type ProviderProbe, type ToolUseBlock } from './provider.js';
import { type TextBlock } from '../../agent-tools/tool-content.js';

/** No key makes the provider unusable; a null `baseUrl` means the public API. */
export type AnthropicProviderOptions = ModelProviderOptions;

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

export class AnthropicProvider implements ModelProvider {
  readonly name = 'anthropic';
  private readonly client: Anthropic | null;
  readonly baseUrl: string;

  constructor(private readonly options: AnthropicProviderOptions) {
    this.baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
    // Every option the SDK would otherwise take from process.env is passed explicitly.
    this.client = options.apiKey
      ? new Anthropic({
          apiKey: options.apiKey,
          baseURL: this.baseUrl,
          maxRetries: options.maxRetries ?? 2,
          timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          webhookKey: null,
          logLevel: 'off',
        })
      : null;
  }

  unusableReason(): string | null {
    return this.client ? null : "ANTHROPIC_API_KEY is not set in the daemon's environment";
  }

  async probe(timeoutMs: number): Promise<ProviderProbe> {
    const api = `the Anthropic API at ${this.baseUrl}`;
    if (!this.client) return { reachable: false, keyAccepted: null, detail: `not checked: ${this.unusableReason()}` };
    try {
      await this.client.models.list({ limit: 1 }, { maxRetries: 0, timeout: timeoutMs });
      return { reachable: true, keyAccepted: true, detail: `${api} answered and accepted the key` };
    } catch (err) {
      return probeFailure(err, api, (text) => this.redact(text));
    }
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (!this.client) throw new ProviderError('ANTHROPIC_API_KEY is not set', 'not_configured');
    request.signal.throwIfAborted();
    const model = this.options.models[request.model];
    let response: Anthropic.Message;
    try {
      response = await this.client.messages.create(
        {
          model,
          max_tokens: request.maxTokens,
          ...(request.system !== '' ? { system: request.system } : {}),
          messages: request.messages.map(toWireMessage),
          ...(request.tools.length > 0
            ? { tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Anthropic.Tool.InputSchema })) }
            : {}),
        },
        // An explicit timeout also keeps the SDK from refusing large max_tokens without streaming.
        { signal: request.signal, timeout: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
      );
    } catch (err) {
      request.signal.throwIfAborted();
      throw this.toProviderError(err);
    }
    const usage = response.usage;
    return {
      content: response.content.flatMap(fromWireBlock),
      stopReason: toStopReason(response.stop_reason),
      usage: {
        inputTokens: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
        outputTokens: usage.output_tokens,
      },
      modelId: response.model,
    };
  }

  private redact(text: string): string {
    return this.options.apiKey ? text.split(this.options.apiKey).join('[redacted]') : text;
  }

  private toProviderError(err: unknown): ProviderError {
    const redact = (text: string): string => this.redact(text);
    if (err instanceof Anthropic.APIConnectionTimeoutError) {
      return new ProviderError(`Anthropic API at ${this.baseUrl} did not answer in time`, 'unreachable');
    }
    if (err instanceof Anthropic.APIConnectionError) {
      const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
      return new ProviderError(redact(`could not reach the Anthropic API at ${this.baseUrl}${cause}`), 'unreachable');
    }
    if (err instanceof Anthropic.APIError && err.status !== undefined) {
      const status = err.status;
      const detail = [err.type, err.apiMessage].filter((s) => s !== null && s !== '').join(': ') || err.message;
      return new ProviderError(redact(`Anthropic API answered ${status}: ${detail}`), errorKindOfStatus(status), status);
    }
    return new ProviderError(redact(`Anthropic API call failed: ${err instanceof Error ? err.message : String(err)}`), 'malformed');
  }
}

function toWireMessage(message: Message): Anthropic.MessageParam {
  return { role: message.role, content: message.content.map(toWireBlock) };
}

function toWireBlock(block: ContentBlock): Anthropic.ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: block.mediaType, data: block.data } };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        content: block.content.map((part) =>
          part.type === 'text'
            ? { type: 'text' as const, text: part.text }
            : { type: 'image' as const, source: { type: 'base64' as const, media_type: part.mediaType, data: part.data } },
        ),
        is_error: block.isError,
      };
    default:
      return assertNever(block);
  }
}

/** Keeps text and tool_use; other block kinds (thinking, server tools) are not part of the neutral format. */
function fromWireBlock(block: Anthropic.ContentBlock): (TextBlock | ToolUseBlock)[] {
  if (block.type === 'text') return [{ type: 'text', text: block.text }];
  if (block.type === 'tool_use') {
    const input = typeof block.input === 'object' && block.input !== null && !Array.isArray(block.input) ? (block.input as Record<string, unknown>) : {};
    return [{ type: 'tool_use', id: block.id, name: block.name, input }];
  }
  return [];
}

function toStopReason(reason: Anthropic.StopReason | null): ModelResponse['stopReason'] {
  switch (reason) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
      return reason;
    default:
      return 'other';
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected content block ${JSON.stringify(value)}`);
}
