import { InvalidRequestError } from '../errors.js';

/** `{{city}}`, `{{ user.name }}`: names of letters, digits, `_`, `-`, with dots reaching into nested inputs. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\}\}/g;

export function placeholderNames(prompt: string): string[] {
  return [...new Set([...prompt.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * Fills every placeholder from `inputs`. A placeholder without a value is a 400 naming `inputs.<name>`, so a run
 * never starts with a half-filled prompt. Strings are inserted as they are, other values as JSON.
 */
export function fillPlaceholders(prompt: string, inputs: Record<string, unknown>): string {
  for (const name of placeholderNames(prompt)) {
    if (lookup(inputs, name) === undefined) {
      throw new InvalidRequestError('missing_input', `inputs.${name} is required by the prompt's {{${name}}} placeholder`, { param: `inputs.${name}` });
    }
  }
  return prompt.replace(PLACEHOLDER, (_, name: string) => {
    const v = lookup(inputs, name);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

function lookup(inputs: Record<string, unknown>, path: string): unknown {
  let cur: unknown = inputs;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === null ? undefined : cur;
}
