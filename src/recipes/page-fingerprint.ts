import type { PageFingerprint } from './recipe.js';
import { fromPlaceholders, toPlaceholders, type InputValue } from './input-placeholders.js';
import { escapeRegExp } from '../text/escape-regexp.js';

/** A path segment holding digits is taken for an id (a product's, an order's): it may differ from run to run. */
const ID_SEGMENT = /\d/;

/**
 * The fingerprint of the page a step acts on, from where the run saw it: its URL as a pattern (inputs as
 * placeholders, id-like path segments as `*`, query parameters by name only), its title only when the path has no
 * `*` (then it is the same page whatever the input), and the key text the step relies on.
 */
export function fingerprintOf(url: string | null, title: string | null, keyText: string[], values: readonly InputValue[]): PageFingerprint | null {
  if (url === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const segments = parsed.pathname.split('/').map((segment) => {
    const kept = toPlaceholders(decodeURIComponent(segment), values);
    return kept.includes('{{') || !ID_SEGMENT.test(kept) ? kept : '*';
  });
  const params = [...new Set([...parsed.searchParams.keys()])].sort();
  const pattern = `${toPlaceholders(parsed.origin, values)}${segments.join('/')}${params.length === 0 ? '' : `?${params.map((p) => `${p}=*`).join('&')}`}`;
  const stable = !segments.includes('*');
  return { url: pattern, title: stable && title !== null ? toPlaceholders(title, values) : null, key_text: keyText.map((t) => toPlaceholders(t, values)) };
}

/** What differs between the page a step expects and the page the browser shows, or null when it matches. */
export function fingerprintMismatch(expected: PageFingerprint, url: string | null, title: string | null, pageText: string | null, values: readonly InputValue[]): string | null {
  if (url === null) return `the step expects a page at ${expected.url}, and the browser shows none`;
  const seen = new URL(url);
  const [base, query] = expected.url.split('?') as [string, string | undefined];
  const pathPattern = new RegExp(
    `^${base.split('*').map((part) => escapeRegExp(fromPlaceholders(part, values))).join('[^/]+')}$`,
  );
  const seenBase = `${seen.origin}${seen.pathname.split('/').map((s) => safeDecode(s)).join('/')}`;
  if (!pathPattern.test(seenBase)) return `the page is ${seenBase}, where the recipe expects ${expected.url}`;
  const names = query === undefined ? [] : query.split('&').map((p) => p.split('=')[0]!);
  const missing = names.filter((n) => !seen.searchParams.has(n));
  if (missing.length > 0) return `the page's address lacks the query parameter ${missing.join(', ')}`;
  if (expected.title !== null) {
    const want = fromPlaceholders(expected.title, values);
    if ((title ?? '') !== want) return `the page's title is ${JSON.stringify(title)}, where the recipe expects ${JSON.stringify(want)}`;
  }
  const text = (pageText ?? '').toLowerCase();
  for (const key of expected.key_text) {
    const want = fromPlaceholders(key, values);
    if (!text.includes(want.toLowerCase())) return `the page no longer shows ${JSON.stringify(want)}`;
  }
  return null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

