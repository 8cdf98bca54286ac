import OpenAI from 'openai';
import { errorKindOfStatus, probeFailure, ProviderError, type Message, type ModelProvider, type ModelProviderOptions, type ModelRequest, type ModelResponse, type ProviderProbe, type ToolUseBlock } from './provider.js';
import { type ImageBlock, type TextBlock } from '../../agent-tools/tool-content.js';
import { computerToolOf } from '../../vocabulary/models.js';
import { isOpenAIComputerVersion } from './openai-computer.js';
import { fromResponsesOutput, toResponsesInput, toResponsesTools } from './openai-responses.js';

/** Local servers (Ollama, llama.cpp) need no key; a null `baseUrl` makes the provider unusable. */
export type OpenAIProviderOptions = ModelProviderOptions;

/** The SDK insists on a key; servers that check none ignore whatever is sent. */
const PLACEHOLDER_API_KEY = 'no-key';
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

type WireMessage = OpenAI.Chat.ChatCompletionMessageParam;

export class OpenAIProvider implements ModelProvider {
  readonly name = 'openai';
  private readonly client: OpenAI | null;

  constructor(private readonly options: OpenAIProviderOptions) {
    // Every option the SDK would otherwise take from process.env is passed explicitly.
    this.client = options.baseUrl
      ? new OpenAI({
          apiKey: options.apiKey || PLACEHOLDER_API_KEY,
          baseURL: options.baseUrl,
          organization: null,
          project: null,
          adminAPIKey: null,
          webhookSecret: null,
          maxRetries: options.maxRetries ?? 2,
          timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          logLevel: 'off',
        })
      : null;
  }

  get baseUrl(): string | null {
    return this.options.baseUrl;
  }

  unusableReason(): string | null {
    return this.client ? null : 'openai.base_url is not set';
  }

  async probe(timeoutMs: number): Promise<ProviderProbe> {
    const api = `the model API at ${this.options.baseUrl}`;
    if (!this.client) return { reachable: false, keyAccepted: null, detail: `not checked: ${this.unusableReason()}` };
    try {
      await this.client.models.list({ maxRetries: 0, timeout: timeoutMs });
      return { reachable: true, keyAccepted: true, detail: `${api} answered and accepted the key` };
    } catch (err) {
      return probeFailure(err, api, (text) => this.redact(text));
    }
  }

  private redact(text: string): string {
    return this.options.apiKey ? text.split(this.options.apiKey).join('[redacted]') : text;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (!this.client) throw new ProviderError('openai.base_url is not set', 'not_configured');
    request.signal.throwIfAborted();
    const model = this.options.models[request.model];
    // The computer action space's tool exists only on the Responses API (docs/api.md, "Action spaces").
    const computer = request.tools.find((t) => t.native?.kind === 'computer');
    if (computer !== undefined) return this.completeWithComputer(request, model, computer.name);
    let response: OpenAI.Chat.ChatCompletion;
    try {
      response = await this.client.chat.completions.create(
        {
          model,
          // max_tokens rather than max_completion_tokens: it is the one every compatible server (Ollama, vLLM,
          // llama.cpp) understands.
          max_tokens: request.maxTokens,
          messages: toWireMessages(request.system, request.messages),
          ...(request.tools.length > 0
            ? { tools: request.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.inputSchema } })) }
            : {}),
        },
        { signal: request.signal },
      );
    } catch (err) {
      request.signal.throwIfAborted();
      throw this.toProviderError(err);
    }
    const choice = response.choices?.[0];
    if (!choice) throw new ProviderError(`model API at ${this.options.baseUrl} answered without a choice`, 'malformed');
    const content: (TextBlock | ToolUseBlock)[] = [];
    const message = choice.message;
    if (typeof message.content === 'string' && message.content !== '') content.push({ type: 'text', text: message.content });
    if (typeof message.refusal === 'string' && message.refusal !== '') content.push({ type: 'text', text: message.refusal });
    for (const [i, call] of (message.tool_calls ?? []).entries()) {
      if (call.type !== 'function') continue;
      content.push(fromToolCall(call.id || `call_${response.id}_${i}`, call.function.name, call.function.arguments));
    }
    return {
      content,
      stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : toStopReason(choice.finish_reason, message.refusal),
      usage: { inputTokens: response.usage?.prompt_tokens ?? 0, outputTokens: response.usage?.completion_tokens ?? 0 },
      modelId: response.model || model,
    };
  }

  /** A call on the Responses API, with the model's computer-use tool among the tools. */
  private async completeWithComputer(request: ModelRequest, model: string, computerTool: string): Promise<ModelResponse> {
    const version = computerToolOf('openai', model);
    if (!isOpenAIComputerVersion(version)) throw new ProviderError(`the model ${model} has no computer-use tool on the OpenAI API; the computer action space needs one`, 'refused');
    let response: OpenAI.Responses.Response;
    try {
      response = await this.client!.responses.create(
        {
          model,
          max_output_tokens: request.maxTokens,
          ...(request.system !== '' ? { instructions: request.system } : {}),
          input: toResponsesInput(request.messages),
          tools: toResponsesTools(request.tools, version),
          // The preview model refuses calls without it; older turns are dropped when the conversation outgrows the context.
          truncation: 'auto',
        },
        { signal: request.signal },
      );
    } catch (err) {
      request.signal.throwIfAborted();
      throw this.toProviderError(err);
    }
    const { content, stopReason } = fromResponsesOutput(response, computerTool);
    return { content, stopReason, usage: { inputTokens: response.usage?.input_tokens ?? 0, outputTokens: response.usage?.output_tokens ?? 0 }, modelId: response.model || model };
  }

  private toProviderError(err: unknown): ProviderError {
    const where = `model API at ${this.options.baseUrl}`;
    const redact = (text: string): string => this.redact(text);
    if (err instanceof OpenAI.APIConnectionTimeoutError) return new ProviderError(`${where} did not answer in time`, 'unreachable');
    if (err instanceof OpenAI.APIConnectionError) {
      const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
      return new ProviderError(redact(`could not reach the ${where}${cause}`), 'unreachable');
    }
    if (err instanceof OpenAI.APIError && err.status !== undefined) {
      const body = err.error as { message?: unknown } | undefined;
      const detail = typeof body?.message === 'string' && body.message !== '' ? body.message : err.message;
      return new ProviderError(redact(`${where} answered ${err.status}: ${detail}`), errorKindOfStatus(err.status), err.status);
    }
    return new ProviderError(redact(`${where} call failed: ${err instanceof Error ? err.message : String(err)}`), 'malformed');
  }
}

function toWireMessages(system: string, messages: Message[]): WireMessage[] {
  const out: WireMessage[] = system !== '' ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (message.role === 'assistant') out.push(toWireAssistant(message));
    else out.push(...toWireUser(message));
  }
  return out;
}

function toWireAssistant(message: Message): WireMessage {
  const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  const calls = message.content.flatMap((b) =>
    b.type === 'tool_use' ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }] : [],
  );
  return { role: 'assistant', content: text !== '' ? text : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}

/**
 * Tool results become `role: tool` messages, which must come right after the assistant's tool calls and can
 * carry only text; their images, and the message's own text and images, follow in one user message.
 */
function toWireUser(message: Message): WireMessage[] {
  const toolMessages: WireMessage[] = [];
  const parts: OpenAI.Chat.ChatCompletionContentPart[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case 'tool_result': {
        const text = block.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
        const images = block.content.filter((p): p is ImageBlock => p.type === 'image');
        let content = text !== '' ? text : images.length > 0 ? '(the result is the image in the next message)' : '(no output)';
        if (block.isError) content = `Error: ${content}`;
        toolMessages.push({ role: 'tool', tool_call_id: block.toolUseId, content });
        if (images.length > 0) {
          parts.push({ type: 'text', text: `Image from tool call ${block.toolUseId}:` });
          parts.push(...images.map(toImagePart));
        }
        break;
      }
      case 'text':
        parts.push({ type: 'text', text: block.text });
        break;
      case 'image':
        parts.push(toImagePart(block));
        break;
      case 'tool_use':
        break;
      default:
        assertNever(block);
    }
  }
  if (parts.length === 0) return toolMessages;
  const onlyText = parts.every((p) => p.type === 'text');
  const content = onlyText ? parts.map((p) => (p as OpenAI.Chat.ChatCompletionContentPartText).text).join('\n') : parts;
  return [...toolMessages, { role: 'user', content }];
}

function toImagePart(image: ImageBlock): OpenAI.Chat.ChatCompletionContentPartImage {
  return { type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.data}` } };
}

function fromToolCall(id: string, name: string, args: unknown): ToolUseBlock {
  // Some compatible servers send already-decoded arguments, or "" for a tool without parameters.
  if (isPlainObject(args)) return { type: 'tool_use', id, name, input: args };
  if (args === undefined || args === null || (typeof args === 'string' && args.trim() === '')) return { type: 'tool_use', id, name, input: {} };
  const raw = typeof args === 'string' ? args : JSON.stringify(args);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { type: 'tool_use', id, name, input: {}, unparsedInput: raw };
  }
  return isPlainObject(parsed) ? { type: 'tool_use', id, name, input: parsed } : { type: 'tool_use', id, name, input: {}, unparsedInput: raw };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toStopReason(reason: string | null | undefined, refusal: string | null | undefined): ModelResponse['stopReason'] {
  if (refusal) return 'refusal';
  switch (reason) {
    case 'stop':
      return 'end_turn';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'other';
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected content block ${JSON.stringify(value)}`);
}
