import { InvalidRequestError } from '../errors.js';

/** `{{city}}`, `{{ user.name }}`: names of letters, digits, `_`, `-`, with dots reaching into nested inputs. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\}\}/g;

/**
 * Fills every placeholder from `inputs`. A placeholder without a value is a 400 naming `<prefix>.<name>` (the first
 * such, in the prompt's order), so a run never starts with a half-filled prompt. Strings are inserted as they are,
 * other values as JSON.
 */
export function fillPlaceholders(prompt: string, inputs: Record<string, unknown>, prefix = 'inputs'): string {
  if (!prompt.includes('{{')) return prompt;
  let missing: string | null = null;
  const filled = prompt.replace(PLACEHOLDER, (_, name: string) => {
    const v = lookup(inputs, name);
    if (v === undefined) {
      missing ??= name;
      return '';
    }
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
  if (missing !== null) {
    throw new InvalidRequestError('missing_input', `${prefix}.${missing} is required by the prompt's {{${missing}}} placeholder`, { param: `${prefix}.${missing}` });
  }
  return filled;
}

function lookup(inputs: Record<string, unknown>, path: string): unknown {
  let cur: unknown = inputs;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === null ? undefined : cur;
}
