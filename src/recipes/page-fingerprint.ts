import type { PageFingerprint } from './recipe.js';
import { fromPlaceholders, siteAt, toPlaceholders, type InputValue } from './input-placeholders.js';
import { escapeRegExp } from '../text/escape-regexp.js';

/** A path segment holding digits is taken for an id (a product's, an order's): it may differ from run to run. */
const ID_SEGMENT = /\d/;

/**
 * The fingerprint of the page a step acts on, from where the run saw it: its URL as a pattern (inputs as
 * placeholders, a site input wherever its address begins the page's, id-like path segments as `*`, query parameters
 * by name only), its title only when the path has no `*` (then it is the same page whatever the input), and the key
 * text the step relies on.
 */
export function fingerprintOf(url: string | null, title: string | null, keyText: string[], values: readonly InputValue[]): PageFingerprint | null {
  if (url === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const address = addressOf(parsed);
  // A site given as an input (`https://shop.example/`, or with a path) stands for the start of the address.
  const site = siteAt(address, values);
  const head = site === null ? toPlaceholders(parsed.origin, values) : `{{${site.name}}}`;
  const path = address.slice(site === null ? parsed.origin.length : site.stem.length);
  const segments = path.split('/').map((segment) => {
    const kept = toPlaceholders(segment, values);
    return kept.includes('{{') || !ID_SEGMENT.test(kept) ? kept : '*';
  });
  const params = [...new Set([...parsed.searchParams.keys()])].sort();
  const pattern = `${head}${segments.join('/')}${params.length === 0 ? '' : `?${params.map((p) => `${p}=*`).join('&')}`}`;
  const stable = !segments.includes('*');
  return { url: pattern, title: stable && title !== null ? toPlaceholders(title, values) : null, key_text: keyText.map((t) => toPlaceholders(t, values)) };
}

/** What differs between the page a step expects and the page the browser shows, or null when it matches. */
export function fingerprintMismatch(expected: PageFingerprint, url: string | null, title: string | null, pageText: string | null, values: readonly InputValue[]): string | null {
  if (url === null) return `the step expects a page at ${expected.url}, and the browser shows none`;
  const seen = new URL(url);
  const [base, query] = expected.url.split('?') as [string, string | undefined];
  // With or without a trailing slash: a site given as `https://shop.example/` one run and without it the next.
  const pathPattern = new RegExp(
    `^${base.replace(/\/$/, '').split('*').map((part) => escapeRegExp(fromPlaceholders(part, values, 'address'))).join('[^/]+')}/?$`,
  );
  const seenBase = addressOf(seen);
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

/** A page's origin and path, each segment decoded: the space a fingerprint's URL pattern is written in. */
function addressOf(url: URL): string {
  return `${url.origin}${url.pathname.split('/').map((segment) => safeDecode(segment)).join('/')}`;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
