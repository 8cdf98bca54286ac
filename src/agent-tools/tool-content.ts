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
  /**
   * A tool the model's API defines itself (its computer-use tool): the provider sends the API's own definition
   * instead of this one, and turns the model's calls of it into input of `inputSchema`'s form. `description` and
   * `inputSchema` still say what the tool takes, and bound what the definition costs.
   */
  native?: NativeTool;
}

/** The tools a model API may define itself, with what the API's definition needs. */
export type NativeTool = { kind: 'computer'; display: { width: number; height: number } };

export function textContent(text: string): ToolContent {
  return [{ type: 'text', text }];
}
