/**
 * Secrets shorter than this many characters are masked only as they are, and as JSON strings and URLs carry them:
 * the reversed form, hex and base64 fragments of a short value are short enough to turn up in ordinary words,
 * hashes and ids, where masking them would garble text and say which bytes the secret has.
 */
export const MIN_ENCODED_SECRET_LENGTH = 8;

/**
 * The forms a secret takes in what a run prints or fetches (issue 21, item 7): as it is; inside a JSON string; in a
 * URL (percent-encoded as `encodeURIComponent`, RFC 3986 strictly, and in a form body, with either case of hex
 * digits); as hex of its UTF-8 bytes in either case; as base64 and base64url, with and without padding, and the
 * part of it fixed by the secret alone wherever the secret sits in longer encoded text (`base64Cores`); and
 * reversed. Any other transformation (another encoding, compression, encryption, a part of the secret, one
 * character per line) is not recognised.
 */
export function secretForms(value: string): string[] {
  const exact = [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)];
  if ([...value].length < MIN_ENCODED_SECRET_LENGTH) return unique(exact);
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  return unique([...exact, ...urlForms(value), hex, hex.toUpperCase(), ...base64Forms(bytes), [...value].reverse().join('')]);
}

function urlForms(value: string): string[] {
  const component = encodeURIComponent(value);
  const strict = component.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const form = new URLSearchParams({ s: value }).toString().slice(2);
  return [component, strict, form].flatMap((encoded) => [encoded, encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())]);
}

function base64Forms(bytes: Buffer): string[] {
  const standard = bytes.toString('base64');
  const standardCores = base64Cores(bytes);
  return [
    standard,
    standard.replace(/=+$/, ''),
    ...standardCores,
    ...[standard, standard.replace(/=+$/, ''), ...standardCores].map((form) => form.replace(/\+/g, '-').replace(/\//g, '_')),
  ];
}

/**
 * Base64 turns each 3 bytes into 4 characters, so a secret inside longer text is encoded one of three ways, by where
 * its first byte falls in a group (offset 0, 1 or 2). For each, the characters that only the secret's bytes decide:
 * the first ones mix in bits of the bytes before it, and the last one bits of the bytes after it.
 */
export function base64Cores(bytes: Buffer): string[] {
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    return encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
  });
}

function unique(forms: string[]): string[] {
  return [...new Set(forms)].filter((form) => form !== '');
}
