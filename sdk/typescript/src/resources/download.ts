import type { HttpClient, RequestOptions } from '../core.js';

/** A file behind a signed link: its bytes and media type. */
export interface Download {
  contentType: string | null;
  bytes: Uint8Array;
}

/**
 * Fetches a signed link (an artifact or an attachment) the daemon handed out, read whole. The link's signature is
 * the credential, so no key is sent; `prefix` is the path the link must have.
 */
export async function download(http: HttpClient, url: string, prefix: string, options?: RequestOptions): Promise<Download> {
  const response = await openSigned(http, url, `${prefix}{id}`, options);
  return { contentType: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) };
}

/**
 * Opens a signed link whose path has the shape of `template` (`/v1/runs/{id}/files/{file}`), without a key: the
 * response, whose body the caller reads (or cancels).
 */
export async function openSigned(http: HttpClient, url: string, template: string, options?: RequestOptions): Promise<Response> {
  const parsed = new URL(url, http.baseUrl);
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const shape = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '([^/]+)')}$`);
  const match = shape.exec(parsed.pathname);
  if (!match) throw new TypeError(`not a link of the shape ${template}: ${url}`);
  const pathParams = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
  return http.open({ method: 'GET', path: template, pathParams, query: Object.fromEntries(parsed.searchParams), auth: false, options });
}
