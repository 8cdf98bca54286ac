/**
 * What tools and models exchange, in the neutral, Anthropic-shaped block format every provider converts to and from
 * (`engine/providers/provider.ts`): a tool's spec as the model sees it, and the content a call answers.
 */

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ImageBlock {
  type: 'image';
  mediaType: 'image/png' | 'image/jpeg';
  /** base64 */
  data: string;
}

export type ToolContent = (TextBlock | ImageBlock)[];

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input object. */
  inputSchema: Record<string, unknown>;
}

export function textContent(text: string): ToolContent {
  return [{ type: 'text', text }];
}
