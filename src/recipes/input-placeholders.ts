/**
 * A run's inputs in a recipe: kept as `{{name}}` wherever a value went (typed text, URLs, page text a step or the
 * extraction relies on), and filled with the next run's values when it is replayed. `{{secret:name}}` references
 * are left alone both ways: the supervisor fills them, as it does for the agent.
 */

/** Values shorter than this stand for an input only where they are the whole text: "2" is in too many strings. */
const MIN_EMBEDDED = 3;

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\}\}/g;

export interface InputValue {
  name: string;
  value: string;
}

/** Every scalar input by its dotted name (`user.name`), as the prompt's placeholders name them; longest value first. */
export function inputValues(inputs: Record<string, unknown>): InputValue[] {
  const out: InputValue[] = [];
  const walk = (value: unknown, name: string): void => {
    if (value === null || value === undefined) return;
    if (typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, name === '' ? k : `${name}.${k}`);
    } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      const text = String(value);
      if (text.trim() !== '' && name !== '') out.push({ name, value: text });
    }
  };
  walk(inputs, '');
  return out.sort((a, b) => b.value.length - a.value.length);
}

/** `text` with each input's value (and, in a URL, its encoded forms) replaced by `{{name}}`. */
export function toPlaceholders(text: string, values: readonly InputValue[], inUrl = false): string {
  for (const { name, value } of values) {
    if (text === value) return `{{${name}}}`;
  }
  let out = text;
  for (const { name, value } of values) {
    if (value.length < MIN_EMBEDDED) continue;
    const forms = inUrl ? [...new Set([encodeURIComponent(value), encodeURIComponent(value).replaceAll('%20', '+'), value])] : [value];
    for (const form of forms) out = out.split(form).join(`{{${name}}}`);
  }
  return out;
}

/** An input a recipe needs that the run was not given. */
export class MissingInput extends Error {
  constructor(readonly input: string) {
    super(`the recipe needs the input ${input}, which this run was not given`);
    this.name = 'MissingInput';
  }
}

/** `text` with every `{{name}}` filled from `values` (encoded in a URL); throws MissingInput for one it lacks. */
export function fromPlaceholders(text: string, values: readonly InputValue[], inUrl = false): string {
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const found = values.find((v) => v.name === name);
    if (found === undefined) throw new MissingInput(name);
    // An input that is itself an address (a site to visit) goes in as it is; any other value is encoded.
    return inUrl && !/^https?:\/\//i.test(found.value) ? encodeURIComponent(found.value) : found.value;
  });
}

/** The inputs whose value still appears in `text` (a recipe must hold none). */
export function leakedInputs(text: string, values: readonly InputValue[]): string[] {
  return values.filter((v) => v.value.length >= MIN_EMBEDDED && (text.includes(v.value) || text.includes(JSON.stringify(v.value).slice(1, -1)))).map((v) => v.name);
}
