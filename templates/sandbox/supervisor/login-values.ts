import type { BrowserState } from '../../../src/sandbox/protocol.js';

/**
 * Shorter values are not masked: a session's token is long, while short cookie and storage values (`1`, `en-US`,
 * `dark`) are ordinary words that masking would garble page text with.
 */
export const LOGIN_VALUE_MIN_LENGTH = 8;

/**
 * The values of the saved login a sandbox's browser holds (docs/api.md, Profiles): its cookies' values, its origins'
 * localStorage values and the strings of their IndexedDB records, as loaded and as read back since. Masked as
 * `[login:<name>]` in every browser result, in the recording's trace and in the live view's text, as they are and in
 * the forms a page or a request carries them in (URL-encoded, JSON-escaped). Only the supervisor knows them all: a
 * cookie a site sets during the run is added when the browser's cookies are read next.
 */
export class LoginValues {
  private readonly labels = new Map<string, string>();
  private pattern: RegExp | null = null;
  /** The same forms as UTF-8 bytes read one to a character, for files of any kind. */
  private bytePattern: RegExp | null = null;
  private byteLabels = new Map<string, string>();

  /** Adds the state's values under `name`; answers whether any was new. */
  addState(state: BrowserState, name: string): boolean {
    return this.add(stateValues(state), name);
  }

  add(values: Iterable<string>, name: string): boolean {
    let added = false;
    for (const value of values) {
      if (value.length < LOGIN_VALUE_MIN_LENGTH) continue;
      for (const form of formsOf(value)) {
        if (this.labels.has(form)) continue;
        this.labels.set(form, `[login:${name}]`);
        added = true;
      }
    }
    if (added) this.compile();
    return added;
  }

  get isEmpty(): boolean {
    return this.pattern === null;
  }

  text(text: string): string {
    return this.pattern === null ? text : text.replace(this.pattern, (form) => this.labels.get(form)!);
  }

  bytes(body: Buffer): Buffer {
    if (this.bytePattern === null) return body;
    const latin1 = body.toString('latin1');
    const masked = latin1.replace(this.bytePattern, (form) => this.byteLabels.get(form)!);
    return masked === latin1 ? body : Buffer.from(masked, 'latin1');
  }

  private compile(): void {
    // Longest first, so that a value inside a longer one is not masked in part.
    const forms = [...this.labels.keys()].sort((a, b) => b.length - a.length);
    this.pattern = new RegExp(forms.map(escape).join('|'), 'g');
    this.byteLabels = new Map(forms.map((form) => [Buffer.from(form, 'utf8').toString('latin1'), Buffer.from(this.labels.get(form)!, 'utf8').toString('latin1')]));
    this.bytePattern = new RegExp([...this.byteLabels.keys()].map(escape).join('|'), 'g');
  }
}

/** Every value a state holds: cookies' values, localStorage values, and the strings of IndexedDB records. */
export function stateValues(state: BrowserState): string[] {
  const values = state.cookies.map((cookie) => cookie.value);
  for (const origin of state.origins) {
    for (const item of origin.localStorage) values.push(item.value);
    for (const database of origin.indexedDB ?? []) collectStrings(database, values);
  }
  return values;
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) collectStrings(item, into);
}

/** A value as it is, URL-encoded (a cookie header, a query), and JSON-escaped (a trace's events, a page's script). */
function formsOf(value: string): Set<string> {
  return new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
