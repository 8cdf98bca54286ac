import type OpenAI from 'openai';
import type { ImageBlock, TextBlock, ToolSpec } from '../../agent-tools/tool-content.js';
import type { Message, ModelResponse, ToolUseBlock } from './provider.js';
import { fromOpenAIComputer, openAIComputerTool, type OpenAIComputerVersion } from './openai-computer.js';

/**
 * The neutral messages on OpenAI's Responses API, which the computer action space needs (its computer-use tool exists
 * only there; every other run speaks chat completions). Stateless like the chat path: every call sends the whole
 * conversation. A computer call goes back as the API wrote it (its `wire`: the `computer_call` item with the
 * reasoning items the API gave before it, which the API wants again beside the call), and its result as a
 * `computer_call_output` holding the screenshot; what the result says in words follows in a user message, since
 * that item carries only an image.
 */

type InputItem = OpenAI.Responses.ResponseInputItem;

export function toResponsesTools(tools: readonly ToolSpec[], version: OpenAIComputerVersion): OpenAI.Responses.Tool[] {
  return tools.map((t) =>
    t.native?.kind === 'computer' ? openAIComputerTool(version, t.native.display) : { type: 'function' as const, name: t.name, description: t.description, parameters: t.inputSchema, strict: false },
  );
}

export function toResponsesInput(messages: readonly Message[]): InputItem[] {
  const out: InputItem[] = [];
  /** The ids of the model's computer calls, whose results are computer_call_outputs. */
  const computerCalls = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      if (text !== '') out.push({ role: 'assistant', content: text });
      for (const block of message.content) {
        if (block.type !== 'tool_use') continue;
        if (Array.isArray(block.wire)) {
          out.push(...(block.wire as InputItem[]));
          if ((block.wire as { type?: string }[]).some((i) => i.type === 'computer_call')) computerCalls.add(block.id);
        } else {
          out.push({ type: 'function_call', call_id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
        }
      }
      continue;
    }
    const parts: OpenAI.Responses.ResponseInputContent[] = [];
    for (const block of message.content) {
      switch (block.type) {
        case 'tool_result': {
          const text = block.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
          const images = block.content.filter((p): p is ImageBlock => p.type === 'image');
          if (computerCalls.has(block.toolUseId)) {
            const shot = images[0];
            out.push({ type: 'computer_call_output', call_id: block.toolUseId, output: { type: 'computer_screenshot', ...(shot === undefined ? {} : { image_url: dataUrl(shot) }) } });
            if (text !== '') parts.push({ type: 'input_text', text: `${block.isError ? 'Error from' : 'Result of'} computer call ${block.toolUseId}:\n${text}` });
            continue;
          }
          let output = text !== '' ? text : images.length > 0 ? '(the result is the image in the next message)' : '(no output)';
          if (block.isError) output = `Error: ${output}`;
          out.push({ type: 'function_call_output', call_id: block.toolUseId, output });
          if (images.length > 0) parts.push({ type: 'input_text', text: `Image from tool call ${block.toolUseId}:` }, ...images.map(toImagePart));
          continue;
        }
        case 'text':
          parts.push({ type: 'input_text', text: block.text });
          continue;
        case 'image':
          parts.push(toImagePart(block));
          continue;
        case 'tool_use':
          continue;
        default: {
          const unknown: never = block;
          throw new Error(`unexpected content block ${JSON.stringify(unknown)}`);
        }
      }
    }
    if (parts.length > 0) out.push({ role: 'user', content: parts });
  }
  return out;
}

/** The response's text and calls; a call of the computer-use tool goes to the tool named `computerTool`. */
export function fromResponsesOutput(response: OpenAI.Responses.Response, computerTool: string): Pick<ModelResponse, 'content' | 'stopReason'> {
  const content: (TextBlock | ToolUseBlock)[] = [];
  let reasoning: unknown[] = [];
  let refused = false;
  for (const item of response.output) {
    switch (item.type) {
      case 'reasoning':
        reasoning.push(item);
        break;
      case 'message':
        for (const part of item.content) {
          if (part.type === 'output_text' && part.text !== '') content.push({ type: 'text', text: part.text });
          if (part.type === 'refusal') {
            refused = true;
            if (part.refusal !== '') content.push({ type: 'text', text: part.refusal });
          }
        }
        break;
      case 'computer_call':
        content.push({ type: 'tool_use', id: item.call_id, name: computerTool, input: fromOpenAIComputer(item as unknown as Record<string, unknown>) as Record<string, unknown>, wire: [...reasoning, item] });
        reasoning = [];
        break;
      case 'function_call':
        content.push({ ...fromArguments(item.call_id, item.name, item.arguments), ...(reasoning.length === 0 ? {} : { wire: [...reasoning, item] }) });
        reasoning = [];
        break;
      default:
        break;
    }
  }
  const stopReason: ModelResponse['stopReason'] = content.some((b) => b.type === 'tool_use')
    ? 'tool_use'
    : refused
      ? 'refusal'
      : response.status === 'incomplete' && response.incomplete_details?.reason === 'max_output_tokens'
        ? 'max_tokens'
        : response.status === 'incomplete'
          ? 'other'
          : 'end_turn';
  return { content, stopReason };
}

function fromArguments(id: string, name: string, args: string): ToolUseBlock {
  if (args.trim() === '') return { type: 'tool_use', id, name, input: {} };
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { type: 'tool_use', id, name, input: parsed as Record<string, unknown> };
  } catch {
    // Answered below as arguments that were not a JSON object.
  }
  return { type: 'tool_use', id, name, input: {}, unparsedInput: args };
}

function dataUrl(image: ImageBlock): string {
  return `data:${image.mediaType};base64,${image.data}`;
}

function toImagePart(image: ImageBlock): OpenAI.Responses.ResponseInputImage {
  return { type: 'input_image', image_url: dataUrl(image), detail: 'auto' };
}
