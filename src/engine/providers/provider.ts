import type { ImageBlock, TextBlock, ToolSpec } from '../../agent-tools/tool-content.js';
import type { ModelAlias, ModelUsage } from '../../vocabulary/models.js';

/**
 * One interface in front of every model API. Messages use a neutral, Anthropic-shaped block format; each
 * provider converts to and from its wire format and reports the token usage its API returned.
 */

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Arguments the model sent that were not a JSON object; `input` is then {}. */
  unparsedInput?: string;
  /**
   * A call of a tool the API defines itself (its computer-use tool) as the API wrote it: the provider sends it back
   * so in the conversation, while `input` holds the neutral form the tool reads (agent-tools/computer-actions.ts).
   */
  wire?: unknown;
}
export interface ToolResultBlock {
  type: 'tool_result';
  toolUseId: string;
  content: (TextBlock | ImageBlock)[];
  isError: boolean;
}
export type ContentBlock = TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock;

export interface Message {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export interface ModelRequest {
  model: ModelAlias;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxTokens: number;
  signal: AbortSignal;
}

export interface ModelResponse {
  /** Only text and tool_use blocks. */
  content: (TextBlock | ToolUseBlock)[];
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'other';
  usage: ModelUsage;
  /** The provider's model id that served the call. */
  modelId: string;
}

/** What every provider is made from; each provider's own options type says how it reads `apiKey` and `baseUrl`. */
export interface ModelProviderOptions {
  /** From the provider's key variable (ANTHROPIC_API_KEY, OPENAI_API_KEY), read by the caller. */
  apiKey: string | undefined;
  /** The configured endpoint (`anthropic.base_url`, `openai.base_url`), or null. */
  baseUrl: string | null;
  /** Provider model id behind each alias (`models.haiku` ...). */
  models: Readonly<Record<ModelAlias, string>>;
  /** Retries the SDK makes on 408/409/429/5xx and connection errors before a call fails. Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout. Default 10 minutes. */
  timeoutMs?: number;
}

/** What asking the model API for its list of models (which costs no tokens) showed. */
export interface ProviderProbe {
  /** Whether the API answered at all. */
  reachable: boolean;
  /** Whether it accepted the daemon's key; null when that could not be told (no answer, or it lists no models). */
  keyAccepted: boolean | null;
  /** What happened, never with the key in it. */
  detail: string;
}

export interface ModelProvider {
  readonly name: 'anthropic' | 'openai';
  /** Where calls go (without credentials), or null when unconfigured. */
  readonly baseUrl: string | null;
  /**
   * Why this provider cannot serve calls (e.g. "ANTHROPIC_API_KEY is not set"), or null when it can.
   * The daemon reports it at start and in `errand doctor`; runs fail with it as their failure_detail.
   */
  unusableReason(): string | null;
  complete(request: ModelRequest): Promise<ModelResponse>;
  /** Checks that the API answers and takes the key, without spending tokens; never throws. */
  probe(timeoutMs: number): Promise<ProviderProbe>;
}

/** How a probe's error reads, from what the SDK raised; `redact` removes the key from any text it carries. */
export function probeFailure(err: unknown, api: string, redact: (text: string) => string): ProviderProbe {
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number') {
    if (status === 401 || status === 403) return { reachable: true, keyAccepted: false, detail: `${api} answered ${status}: it refused the daemon's key` };
    return { reachable: true, keyAccepted: null, detail: `${api} answered ${status} when asked for its models` };
  }
  const cause = (err as { cause?: unknown }).cause;
  const why = cause instanceof Error ? cause.message : err instanceof Error ? err.message : String(err);
  return { reachable: false, keyAccepted: null, detail: redact(`${api} did not answer: ${why}`) };
}

/** Why a provider call failed, as far as the engine needs to tell failures apart. */
export type ProviderErrorKind =
  /** The provider lacks a setting (no API key, no base URL): nothing was sent. */
  | 'not_configured'
  /** 401 or 403: the key is wrong, revoked or not allowed. */
  | 'unauthorized'
  /** 408, 409, 429 or 5xx (529 overloaded included), after the SDK's own retries. */
  | 'unavailable'
  /** No connection, or no answer in time. */
  | 'unreachable'
  /** Any other 4xx: the request itself was refused (a model id that does not exist, a request too large). */
  | 'refused'
  /** An answer that could not be used, or a failure the SDK did not classify. */
  | 'malformed';

/** A provider call failed for a reason that is not the task's fault. `status` is the HTTP status, when one came. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: ProviderErrorKind,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** Whether the same call may work later. */
  get retryable(): boolean {
    return this.kind === 'unavailable' || this.kind === 'unreachable';
  }
}

/** The kind of an HTTP error status a model API answered. */
export function errorKindOfStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 408 || status === 409 || status === 429 || status >= 500) return 'unavailable';
  return 'refused';
}
