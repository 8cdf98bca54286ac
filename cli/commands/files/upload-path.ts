import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sanitizeFileName } from '../../../src/files/file-name.js';
import type { Errand, FileObject } from '../../api.js';
import { UserError } from '../../cli-errors.js';

/** Uploads the file at `path` (streamed, never read whole) under `name`, by default its own. */
export async function uploadPath(api: Errand, path: string, options: { name?: string; contentType?: string } = {}): Promise<FileObject> {
  const size = sizeOf(path);
  const content = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  return api.files.upload(options.name ?? basename(path), content, { size, ...(options.contentType === undefined ? {} : { contentType: options.contentType }) });
}

/**
 * The organisation's file of the same name and content as the file at `path`, uploading it only when there is none
 * yet: a run's `--file ./path` given again (every run of a script, say) reuses the upload instead of storing one more
 * copy. The content is compared by SHA-256 (GET /v1/files?sha256=), the name as the daemon stores it, which is what
 * the run sees under /workspace/in.
 */
export async function uploadOnce(api: Errand, path: string): Promise<{ file: FileObject; reused: boolean }> {
  const size = sizeOf(path);
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  const name = sanitizeFileName(basename(path));
  const same = (await api.files.list({ sha256: hash.digest('hex'), limit: 200 })).data.find((f) => f.name === name && f.size === size);
  if (same !== undefined) return { file: same, reused: true };
  return { file: await uploadPath(api, path), reused: false };
}

function sizeOf(path: string): number {
  try {
    const info = statSync(path);
    if (!info.isFile()) throw new UserError(`${path} is not a regular file`, 'not_a_file');
    return info.size;
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, 'file_unreadable');
  }
}
