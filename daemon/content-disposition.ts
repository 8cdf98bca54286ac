/** `attachment; filename*=UTF-8''...` (RFC 6266), with a plain fallback of the name's printable ASCII. */
export function attachmentDisposition(filename: string | null): string {
  if (filename === null || filename === '') return 'attachment';
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
