import { escapeRegExp } from '../text/escape-regexp.js';

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

/**
 * Where a text with placeholders is: plain text (typed, a selector, a program, page text), a URL the browser is sent
 * to (other values go in encoded), or a page's address as a fingerprint keeps it (origin and decoded path).
 */
export type PlaceholderPlace = 'text' | 'url' | 'address';

/**
 * An input that is a site (an http or https address without query or fragment), as it begins the addresses under it:
 * without its trailing slash, so that `{{site}}/search` is the same pattern whether the run was given
 * `https://shop.example/` or `https://shop.example`, and is filled right whichever form the next run is given. In a
 * fingerprint, its path is decoded as the fingerprint's is. Null for any other value.
 */
export function siteStem(value: string, place: Exclude<PlaceholderPlace, 'text'>): string | null {
  if (!/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.search !== '' || url.hash !== '') return null;
  const stem = place === 'url' ? url.href : `${url.origin}${url.pathname.split('/').map(safeDecode).join('/')}`;
  return stem.replace(/\/+$/, '');
}

/** The site input whose stem begins `address` (followed by a `/` or nothing), the longest one, if any. */
export function siteAt(address: string, values: readonly InputValue[]): { name: string; stem: string } | null {
  let found: { name: string; stem: string } | null = null;
  for (const { name, value } of values) {
    const stem = siteStem(value, 'address');
    if (stem === null || !address.startsWith(stem) || !/^(\/|$)/.test(address.slice(stem.length))) continue;
    if (found === null || stem.length > found.stem.length) found = { name, stem };
  }
  return found;
}

/**
 * `text` with each input's value replaced by `{{name}}`: in a URL, its encoded forms too, and a site input wherever
 * its stem begins an address (`https://shop.example/search` is `{{site}}/search` for `https://shop.example/`).
 */
export function toPlaceholders(text: string, values: readonly InputValue[], place: PlaceholderPlace = 'text'): string {
  for (const { name, value } of values) {
    if (text === value) return `{{${name}}}`;
  }
  let out = text;
  if (place !== 'text') {
    const sites = values.flatMap(({ name, value }) => {
      const stem = siteStem(value, place);
      return stem === null ? [] : [{ name, stem }];
    });
    for (const { name, stem } of sites.sort((a, b) => b.stem.length - a.stem.length)) {
      out = out.replace(new RegExp(`${escapeRegExp(stem)}(?=[/?#]|$)`, 'g'), `{{${name}}}`);
    }
  }
  for (const { name, value } of values) {
    if (value.length < MIN_EMBEDDED) continue;
    // A site's own form was placed above, where an address begins with it: not inside another host's name.
    const raw = place !== 'text' && siteStem(value, place) !== null ? [] : [value];
    const forms = place === 'url' ? [...new Set([encodeURIComponent(value), encodeURIComponent(value).replaceAll('%20', '+'), ...raw])] : raw;
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

/**
 * `text` with every `{{name}}` filled from `values`; throws MissingInput for one it lacks. In a URL, a value is
 * encoded, unless it is itself an address (a site to visit), which goes in as given when it is the whole URL and as
 * its stem (siteStem) when a path follows it; in a fingerprint's address, a site is its stem.
 */
export function fromPlaceholders(text: string, values: readonly InputValue[], place: PlaceholderPlace = 'text'): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const found = values.find((v) => v.name === name);
    if (found === undefined) throw new MissingInput(name);
    if (place === 'text') return found.value;
    const stem = siteStem(found.value, place);
    if (stem !== null) return place === 'url' && whole === text ? found.value : stem;
    return place === 'url' && !/^https?:\/\//i.test(found.value) ? encodeURIComponent(found.value) : found.value;
  });
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The inputs whose value still appears in `text` (a recipe must hold none). */
export function leakedInputs(text: string, values: readonly InputValue[]): string[] {
  return values.filter((v) => v.value.length >= MIN_EMBEDDED && (text.includes(v.value) || text.includes(JSON.stringify(v.value).slice(1, -1)))).map((v) => v.name);
}
