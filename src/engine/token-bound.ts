import type { ContentBlock, Message } from './providers/provider.js';
import type { ToolSpec } from '../agent-tools/tool-content.js';

/**
 * Upper bounds on the input tokens of a model call, for the spend check before it. Text is counted as its UTF-8
 * bytes: byte-level BPE tokenizers (Claude's, GPT's, Llama's) never produce more tokens than bytes. An image
 * counts as the most the Messages API charges for one (about 1 600 tokens for up to 1.15 megapixels; larger
 * ones are scaled down to that), and every call gets a fixed allowance for what the API adds around tools
 * and message framing.
 */
const IMAGE_TOKENS = 1_600;
const CALL_OVERHEAD_TOKENS = 1_000;
const BLOCK_FRAMING_TOKENS = 20;
/**
 * What a tool the API defines itself adds to a call beyond its spec: Anthropic's computer-use tool adds a system
 * prompt of about 735 tokens and its definition (its documentation's figures).
 */
const NATIVE_TOOL_TOKENS = 1_000;

export function blockTokens(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return bytes(block.text) + BLOCK_FRAMING_TOKENS;
    case 'image':
      return IMAGE_TOKENS + BLOCK_FRAMING_TOKENS;
    case 'tool_use':
      return bytes(block.id) + bytes(block.name) + bytes(JSON.stringify(block.input)) + BLOCK_FRAMING_TOKENS;
    case 'tool_result':
      return bytes(block.toolUseId) + block.content.reduce((n, part) => n + blockTokens(part), 0) + BLOCK_FRAMING_TOKENS;
    default: {
      const unreachable: never = block;
      throw new Error(`unknown block ${JSON.stringify(unreachable)}`);
    }
  }
}

export function messagesTokens(messages: Message[]): number {
  return messages.reduce((n, m) => n + BLOCK_FRAMING_TOKENS + m.content.reduce((k, b) => k + blockTokens(b), 0), 0);
}

/** The bound computed from the request alone. */
export function requestTokens(system: string, tools: ToolSpec[], messages: Message[]): number {
  const native = tools.filter((t) => t.native !== undefined).length * NATIVE_TOOL_TOKENS;
  return CALL_OVERHEAD_TOKENS + native + bytes(system) + bytes(JSON.stringify(tools)) + messagesTokens(messages);
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
