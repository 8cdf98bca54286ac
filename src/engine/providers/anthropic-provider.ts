import Anthropic from '@anthropic-ai/sdk';
import { errorKindOfStatus, probeFailure, ProviderError, type ContentBlock, type Message, type ModelProvider, type ModelProviderOptions, type ModelRequest, type ModelResponse, type ProviderProbe, type ToolUseBlock } from './provider.js';
import { type TextBlock, type ToolSpec } from '../../agent-tools/tool-content.js';
import { computerToolOf } from '../../vocabulary/models.js';
import { anthropicComputerTool, COMPUTER_BETAS, fromAnthropicComputer, isAnthropicComputerVersion, type AnthropicComputerVersion } from './anthropic-computer.js';

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
    // The computer action space's tool is the API's own, under its beta (docs/api.md, "Action spaces").
    const computer = request.tools.find((t) => t.native?.kind === 'computer');
    const version = computer === undefined ? null : computerToolOf('anthropic', model);
    if (computer !== undefined && !isAnthropicComputerVersion(version)) {
      throw new ProviderError(`the model ${model} has no computer-use tool on the Anthropic API; the computer action space needs one`, 'refused');
    }
    const params = {
      model,
      max_tokens: request.maxTokens,
      ...(request.system !== '' ? { system: request.system } : {}),
      messages: request.messages.map(toWireMessage),
    };
    const options = { signal: request.signal, timeout: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
    let response: Anthropic.Message | Anthropic.Beta.BetaMessage;
    try {
      response =
        computer === undefined || !isAnthropicComputerVersion(version)
          ? await this.client.messages.create(
              {
                ...params,
                ...(request.tools.length > 0
                  ? { tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Anthropic.Tool.InputSchema })) }
                  : {}),
              },
              // An explicit timeout also keeps the SDK from refusing large max_tokens without streaming.
              options,
            )
          : await this.client.beta.messages.create(
              { ...params, messages: params.messages as Anthropic.Beta.BetaMessageParam[], tools: request.tools.map((t) => toBetaTool(t, version)), betas: [COMPUTER_BETAS[version]] },
              options,
            );
    } catch (err) {
      request.signal.throwIfAborted();
      throw this.toProviderError(err);
    }
    const usage = response.usage;
    return {
      content: response.content.flatMap((block) => fromWireBlock(block, computer?.name ?? null)),
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
      return { type: 'tool_use', id: block.id, name: block.name, input: (block.wire ?? block.input) as Record<string, unknown> };
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

/** A tool as the beta API takes it: the computer-use tool as the API defines it, the others as they are. */
function toBetaTool(spec: ToolSpec, version: AnthropicComputerVersion): Anthropic.Beta.BetaToolUnion {
  if (spec.native?.kind === 'computer') return anthropicComputerTool(version, spec.native.display);
  return { name: spec.name, description: spec.description, input_schema: spec.inputSchema as Anthropic.Beta.BetaTool.InputSchema };
}

/**
 * Keeps text and tool_use; other block kinds (thinking, server tools) are not part of the neutral format. A call of
 * the computer-use tool (named `computer` by the API) goes to the tool named `computerTool` in the neutral form.
 */
function fromWireBlock(block: Anthropic.ContentBlock | Anthropic.Beta.BetaContentBlock, computerTool: string | null): (TextBlock | ToolUseBlock)[] {
  if (block.type === 'text') return [{ type: 'text', text: block.text }];
  if (block.type === 'tool_use') {
    const input = typeof block.input === 'object' && block.input !== null && !Array.isArray(block.input) ? (block.input as Record<string, unknown>) : {};
    if (computerTool !== null && block.name === 'computer') {
      return [{ type: 'tool_use', id: block.id, name: computerTool, input: fromAnthropicComputer(input) as Record<string, unknown>, wire: input }];
    }
    return [{ type: 'tool_use', id: block.id, name: block.name, input }];
  }
  return [];
}

function toStopReason(reason: Anthropic.StopReason | Anthropic.Beta.BetaStopReason | null): ModelResponse['stopReason'] {
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
