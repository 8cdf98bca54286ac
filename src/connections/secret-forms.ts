/**
 * Secrets shorter than this many characters are masked only as they are, and as JSON strings, URLs and HTML carry
 * them: the reversed form, hex and base64 fragments of a short value are short enough to turn up in ordinary words,
 * hashes and ids, where masking them would garble text and say which bytes the secret has.
 */
export const MIN_ENCODED_SECRET_LENGTH = 8;

/**
 * The forms a secret takes in what a run prints or fetches (issue 21, item 7; issue 31, item 3): as it is; inside a
 * JSON string; in a URL (percent-encoded as `encodeURIComponent`, as a browser shows that, RFC 3986 strictly, and in a
 * form body, with either case of hex digits), and in a URL inside a URL (each of those encodings applied to each of them: a `returnUrl`
 * parameter); in HTML, as the escapers sites use write it (`htmlForms`); as hex of its UTF-8 bytes in either case;
 * as base64 and base64url, with and without padding, and the part of it fixed by the secret alone wherever the secret
 * sits in longer encoded text (`base64Cores`); and reversed. Any other transformation (another encoding, compression,
 * encryption, a part of the secret, one character per line) is not recognised.
 */
export function secretForms(value: string): string[] {
  const exact = [value, JSON.stringify(value).slice(1, -1), ...htmlForms(value)];
  if ([...value].length < MIN_ENCODED_SECRET_LENGTH) {
    const component = encodeURIComponent(value);
    return unique([...exact, component, encodeURIComponent(component)]);
  }
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  const once = urlForms(value);
  const twice = unique(once).flatMap(urlForms);
  return unique([...exact, ...once, ...twice, hex, hex.toUpperCase(), ...base64Forms(bytes), [...value].reverse().join('')]);
}

/**
 * `value` percent-encoded each way a URL carries it, with upper- and lower-case hex digits: as `encodeURIComponent`
 * writes it, and as a browser shows that in a query (the WHATWG URL parser escapes its `'`), strictly as RFC 3986
 * reserves, and in a form body.
 */
function urlForms(value: string): string[] {
  const component = encodeURIComponent(value);
  const inBrowser = component.replace(/'/g, '%27');
  const strict = component.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const form = new URLSearchParams({ s: value }).toString().slice(2);
  return [component, inBrowser, strict, form].flatMap((encoded) => [encoded, encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())]);
}

type HtmlEscape = (c: string, code: number) => string | null;

const named: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const decimal = (code: number): string => `&#${code};`;
const hexUpper = (code: number): string => `&#x${code.toString(16).toUpperCase()};`;
const hexLower = (code: number): string => `&#x${code.toString(16)};`;
const isSpecial = (c: string): boolean => c === "'" || Object.hasOwn(named, c);
/** What ESAPI-like encoders write as references: ASCII but letters, digits, space and `, . - _`. */
const isEncodedByAll = (code: number): boolean => code > 0x20 && code < 0x7f && !/[A-Za-z0-9,.\-_]/.test(String.fromCharCode(code));

/**
 * How the HTML escapers in wide use write text: each changes its own set of characters (null leaves one as it is).
 * The four named references with the apostrophe as `&#39;` (lodash, Rails, escape-html), `&#x27;` (Python's
 * html.escape, React), `&#039;` (PHP) or `&apos;` (XML, PHP's HTML5 mode); `&#34;` and `&#39;` for the quotes (Go,
 * Jinja, the OWASP encoder); only `& < >` (text as the DOM serialises it) or `& " < >` and `& "` (attribute values);
 * numeric references, decimal or hex in either case, for the five, or for every ASCII character but letters, digits,
 * space and `, . - _` (ESAPI; Handlebars' `=` and backtick). A page that mixes styles another way is not recognised.
 */
const HTML_ESCAPES: HtmlEscape[] = [
  ...['&#39;', '&#x27;', '&#039;', '&apos;'].map((apostrophe): HtmlEscape => (c) => (c === "'" ? apostrophe : (named[c] ?? null))),
  (c) => (c === '"' ? '&#34;' : c === "'" ? '&#39;' : (named[c] ?? null)),
  (c) => (c === '&' || c === '<' || c === '>' ? named[c]! : null),
  (c) => (c === "'" ? null : (named[c] ?? null)),
  (c) => (c === '&' || c === '"' ? named[c]! : null),
  ...[decimal, hexUpper, hexLower].flatMap((reference): HtmlEscape[] => [
    (c, code) => (isSpecial(c) ? reference(code) : null),
    (_c, code) => (isEncodedByAll(code) ? reference(code) : null),
  ]),
];

/** `value` as each of `HTML_ESCAPES` writes it; none when it holds no character an escaper changes. */
function htmlForms(value: string): string[] {
  if (!/[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/.test(value)) return [];
  const characters = [...value];
  return HTML_ESCAPES.map((escape) => characters.map((c) => escape(c, c.codePointAt(0)!) ?? c).join(''));
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
