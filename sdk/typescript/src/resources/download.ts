import type { HttpClient, RequestOptions } from '../core.js';

/** A file behind a signed link: its bytes and media type. */
export interface Download {
  contentType: string | null;
  bytes: Uint8Array;
}

/**
 * Fetches a signed link (an artifact or an attachment) the daemon handed out. The link's signature is the
 * credential, so no key is sent; `prefix` is the path the link must have.
 */
export async function download(http: HttpClient, url: string, prefix: string, options?: RequestOptions): Promise<Download> {
  const parsed = new URL(url, http.baseUrl);
  if (!parsed.pathname.startsWith(prefix)) throw new TypeError(`not a ${prefix} link: ${url}`);
  const id = decodeURIComponent(parsed.pathname.slice(prefix.length));
  const response = await http.open({
    method: 'GET',
    path: `${prefix}{id}`,
    pathParams: { id },
    query: Object.fromEntries(parsed.searchParams),
    auth: false,
    options,
  });
  return { contentType: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) };
}
