/** `{{secret:<name>}}` in the text of a `type` action (src/sandbox/protocol.ts, BrowserRequest). */
const REFERENCE = /\{\{\s*secret:([A-Za-z0-9][A-Za-z0-9_-]{0,39})\s*\}\}/g;

/**
 * The text to type, with each reference replaced by the secret the request carried for it. A reference without a
 * value is an error that names it, never typed as it stands: the page would receive the placeholder instead.
 */
export function fillSecretReferences(text: string, secrets: Readonly<Record<string, string>>): string {
  return text.replace(REFERENCE, (_whole, name: string) => {
    const value = secrets[name];
    if (value === undefined) throw new Error(`the text refers to {{secret:${name}}}, but no such secret came with the request`);
    return value;
  });
}
