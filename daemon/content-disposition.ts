/**
 * `attachment; filename="..."; filename*=UTF-8''...` (RFC 6266 with RFC 8187's encoding), with a plain fallback of the
 * name's printable ASCII for clients that read only `filename`. Every character outside RFC 8187's attr-char is
 * percent-encoded, `'()*` included, which encodeURIComponent leaves.
 */
export function attachmentDisposition(filename: string | null): string {
  if (filename === null || filename === '') return 'attachment';
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The headers of a file the daemon hands out (uploaded files, a run's files): its type and length, always an
 * attachment, never sniffed, and sandboxed should a browser render it anyway, so that the daemon's origin never runs a
 * caller's or a page's HTML.
 */
export function downloadHeaders(file: { name: string; contentType: string; bytes: number; cacheControl: string }): Record<string, string | number> {
  return {
    'content-type': file.contentType,
    'content-length': file.bytes,
    'content-disposition': attachmentDisposition(file.name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': file.cacheControl,
  };
}
