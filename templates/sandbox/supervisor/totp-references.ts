/** `{{totp:<name>}}` in the text of a `type` action (src/sandbox/protocol.ts, BrowserRequest). */
const REFERENCE = /\{\{\s*totp:([A-Za-z0-9][A-Za-z0-9_-]{0,39})\s*\}\}/g;

/** The TOTP connections the text refers to, once each. */
export function totpReferenceNames(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((m) => m[1]!))];
}

/**
 * The text to type, with each reference replaced by the code computed for it. A reference without a code is an error
 * that names it, never typed as it stands.
 */
export function fillTotpReferences(text: string, codes: Readonly<Record<string, string>>): string {
  return text.replace(REFERENCE, (_whole, name: string) => {
    const code = codes[name];
    if (code === undefined) throw new Error(`the text refers to {{totp:${name}}}, but no such TOTP seed came with the request`);
    return code;
  });
}
