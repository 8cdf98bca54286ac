import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContent } from '../../agent-tools/tool-content.js';
import { truncateMiddle } from '../../agent-tools/truncate.js';

/** About what the browser's page text may be: one tool result must not fill the model's context. */
export const MCP_TEXT_LIMIT = 20_000;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);

/** An MCP tool result as the model reads it, and as its step records it (text only). */
export function mcpResultContent(result: CallToolResult): { content: ToolContent; text: string } {
  const content: ToolContent = [];
  const texts: string[] = [];
  const say = (text: string): void => {
    texts.push(text);
  };
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        say(block.text);
        break;
      case 'image':
        if (IMAGE_TYPES.has(block.mimeType)) content.push({ type: 'image', mediaType: block.mimeType as 'image/png' | 'image/jpeg', data: block.data });
        say(`[image ${block.mimeType}${IMAGE_TYPES.has(block.mimeType) ? '' : ', not shown: only PNG and JPEG images are passed on'}]`);
        break;
      case 'audio':
        say(`[audio ${block.mimeType}, not shown]`);
        break;
      case 'resource': {
        const resource = block.resource;
        say('text' in resource && typeof resource.text === 'string' ? `resource ${resource.uri}:\n${resource.text}` : `[binary resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}, not shown]`);
        break;
      }
      case 'resource_link':
        say(`resource link: ${block.name} ${block.uri}${block.description ? ` (${block.description})` : ''}`);
        break;
      default:
        say(`[a ${(block as { type: string }).type} block, not shown]`);
    }
  }
  if (texts.length === 0 && result.structuredContent !== undefined) say(JSON.stringify(result.structuredContent));
  if (texts.length === 0) say('(the tool answered nothing)');
  const text = truncateMiddle(texts.join('\n'), MCP_TEXT_LIMIT);
  return { content: [{ type: 'text', text }, ...content], text };
}
