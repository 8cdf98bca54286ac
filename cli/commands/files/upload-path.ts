import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import type { ApiClient, StoredFile } from '../../api-client.js';
import { UserError } from '../../cli-errors.js';

/** Uploads the file at `path` (streamed, never read whole) under `name`, by default its own. */
export async function uploadPath(api: ApiClient, path: string, options: { name?: string; contentType?: string } = {}): Promise<StoredFile> {
  let size: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) throw new UserError(`${path} is not a regular file`, 'not_a_file');
    size = info.size;
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, 'file_unreadable');
  }
  const content = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  return api.uploadFile(content, { name: options.name ?? basename(path), size, ...(options.contentType === undefined ? {} : { contentType: options.contentType }) });
}
