import type { SecretMask } from '../connections/secret-mask.js';
import { escapeRegExp } from '../text/escape-regexp.js';

/** Thrown inside a file's copy when its bytes hold one of the run's secrets: the copy stops and keeps nothing. */
export class SecretInFile extends Error {
  constructor(readonly label: string) {
    super(`the file holds ${label}`);
  }
}

/**
 * Looks for the run's secrets, in every form the mask knows, in a file's bytes as they stream past. A file is not
 * text the daemon may rewrite (a PDF or a zip would break), so one that holds a secret is not kept at all. The bytes
 * are read as Latin-1, one character per byte, and each form is matched as its UTF-8 bytes read the same way, so a
 * secret is found in any file whatever its encoding claims; the tail of each chunk is carried into the next, so one
 * cut in two by a chunk boundary is found too.
 */
export class SecretScan {
  private readonly pattern: RegExp | null;
  private readonly labels: Map<string, string>;
  /** A form's longest length in bytes, less one: the most of one that can end a chunk unfinished. */
  private readonly carry: number;

  constructor(mask: SecretMask) {
    this.labels = new Map(mask.allForms.map(({ form, label }) => [Buffer.from(form, 'utf8').toString('latin1'), label]));
    const forms = [...this.labels.keys()];
    this.pattern = forms.length === 0 ? null : new RegExp(forms.map((form) => escapeRegExp(form)).join('|'));
    this.carry = Math.max(0, ...forms.map((form) => form.length - 1));
  }

  /** `source` as it is, ending in SecretInFile at the first chunk where a secret shows. */
  through(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    const { pattern, labels, carry } = this;
    if (pattern === null) return source;
    return (async function* () {
      let tail = '';
      for await (const chunk of source) {
        const text = tail + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
        const found = pattern.exec(text);
        if (found !== null) throw new SecretInFile(labels.get(found[0])!);
        tail = text.slice(Math.max(0, text.length - carry));
        yield chunk;
      }
    })();
  }
}
