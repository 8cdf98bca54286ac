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
