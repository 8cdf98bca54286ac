import type { TotpSeed } from '../sandbox/protocol.js';
import { secretForms } from './secret-forms.js';
import { escapeRegExp } from '../text/escape-regexp.js';

/** A secret a run may use, by the name the model may refer to it with. */
export interface NamedSecret {
  name: string;
  value: string;
  /** The browser may type it by reference: only token connections' secrets, never an MCP or oauth credential. */
  typeable?: boolean;
  /** A totp connection's seed (`value` is one form of it): the browser may type its current code by reference. */
  totp?: TotpSeed;
}

/**
 * Where long output was cut in the middle, by the sandbox's supervisor (`templates/sandbox/supervisor/capped-text.ts`)
 * or by the daemon (`truncateMiddle`): a secret that straddled the cut survives there only in part.
 */
const CUT = /\n…\[[0-9 ,]+ characters omitted\]…\n/g;
/** The shortest part of a secret masked beside a cut: shorter ones say too little to be worth garbling text for. */
const MIN_PART_AT_CUT = 4;

interface Form {
  form: string;
  label: string;
}

/**
 * Replaces every secret of a run with `[secret:<name>]` in text bound for the model, step records, results and
 * failure details: each value in every form of `secretForms` (as it is, in JSON and URLs, hex, base64, reversed),
 * and the part of one left on either side of a cut in long output. Where forms overlap (a secret inside another,
 * two printed so that they share characters), every character of each is masked, under the longest one's name. It
 * protects against a run printing or fetching a secret by accident; task code set on leaking one can always
 * transform it past recognition (docs/api.md, "Connections").
 */
export class SecretMask {
  /** Longest first. */
  private readonly forms: Form[];
  private readonly labels: Map<string, string>;
  /**
   * Every form as one alternation, longest first: one pass over the text finds, at each position, the longest form
   * starting there. It is many times faster than looking for each form in turn (bench/secret-mask.ts).
   */
  private readonly pattern: RegExp | null;

  constructor(secrets: readonly NamedSecret[]) {
    this.labels = new Map<string, string>();
    for (const { name, value } of secrets) {
      if (value === '') continue;
      for (const form of secretForms(value)) if (!this.labels.has(form)) this.labels.set(form, `[secret:${name}]`);
    }
    this.forms = [...this.labels].map(([form, label]) => ({ form, label })).sort((a, b) => b.form.length - a.form.length);
    this.pattern = this.forms.length === 0 ? null : new RegExp(this.forms.map(({ form }) => escapeRegExp(form)).join('|'), 'g');
  }

  static readonly none = new SecretMask([]);

  /** Every form with its label, longest first: what a sandbox masks in a run's recording by itself. */
  get allForms(): readonly Form[] {
    return this.forms;
  }

  get isEmpty(): boolean {
    return this.forms.length === 0;
  }

  text(text: string): string {
    if (this.pattern === null) return text;
    const spans: { start: number; end: number; longest: number; label: string }[] = [];
    this.pattern.lastIndex = 0;
    for (let found = this.pattern.exec(text); found !== null; found = this.pattern.exec(text)) {
      const start = found.index;
      const end = start + found[0].length;
      const last = spans.at(-1);
      if (last !== undefined && start < last.end) {
        last.end = Math.max(last.end, end);
        if (found[0].length > last.longest) Object.assign(last, { longest: found[0].length, label: this.labels.get(found[0])! });
      } else {
        spans.push({ start, end, longest: found[0].length, label: this.labels.get(found[0])! });
      }
      // On from the next character, not the match's end: a form may start inside this one.
      this.pattern.lastIndex = start + 1;
    }
    let out = '';
    let from = 0;
    for (const span of spans) {
      out += text.slice(from, span.start) + span.label;
      from = span.end;
    }
    out = spans.length === 0 ? text : out + text.slice(from);
    return out.includes('characters omitted]') ? this.maskAtCuts(out) : out;
  }

  /** Masks every string inside a JSON-like value (a tool's input, a step's output), keys included. */
  value<T>(value: T): T {
    if (this.isEmpty) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.walk(v)]));
    }
    return value;
  }

  /** The start of a secret that ends the text before a cut, and the end of one that starts the text after it. */
  private maskAtCuts(text: string): string {
    const reach = (this.forms[0]?.form.length ?? 1) - 1;
    let out = '';
    let from = 0;
    for (const cut of text.matchAll(CUT)) {
      const start = cut.index;
      const end = start + cut[0].length;
      const before = text.slice(Math.max(from, start - reach), start);
      const head = this.longestPart(before, (form, length) => before.endsWith(form.slice(0, length)));
      out += text.slice(from, start - (head?.length ?? 0)) + (head?.label ?? '') + cut[0];
      const after = text.slice(end, end + reach);
      const tail = this.longestPart(after, (form, length) => after.startsWith(form.slice(form.length - length)));
      out += tail?.label ?? '';
      from = end + (tail?.length ?? 0);
    }
    return out + text.slice(from);
  }

  private longestPart(side: string, holds: (form: string, length: number) => boolean): { length: number; label: string } | null {
    let best: { length: number; label: string } | null = null;
    for (const { form, label } of this.forms) {
      for (let length = Math.min(form.length - 1, side.length); length >= MIN_PART_AT_CUT && length > (best?.length ?? 0); length--) {
        if (holds(form, length)) {
          best = { length, label };
          break;
        }
      }
    }
    return best;
  }
}
