/** A secret a run may use, by the name the model may refer to it with. */
export interface NamedSecret {
  name: string;
  value: string;
  /** The browser may type it by reference: only token connections' secrets, never an MCP or oauth credential. */
  typeable?: boolean;
}

/**
 * Replaces every secret of a run with `[secret:<name>]` in text bound for the model or for step records. Besides
 * each value as it is, the forms it takes inside JSON strings and URLs are masked too, since tool output quotes
 * both. Longer values go first, so a secret that contains another is masked whole.
 */
export class SecretMask {
  private readonly forms: { form: string; label: string }[];

  constructor(secrets: readonly NamedSecret[]) {
    const forms = new Map<string, string>();
    for (const { name, value } of secrets) {
      if (value === '') continue;
      const label = `[secret:${name}]`;
      for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) if (!forms.has(form)) forms.set(form, label);
    }
    this.forms = [...forms].map(([form, label]) => ({ form, label })).sort((a, b) => b.form.length - a.form.length);
  }

  static readonly none = new SecretMask([]);

  get isEmpty(): boolean {
    return this.forms.length === 0;
  }

  text(text: string): string {
    let out = text;
    for (const { form, label } of this.forms) if (out.includes(form)) out = out.split(form).join(label);
    return out;
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
}
