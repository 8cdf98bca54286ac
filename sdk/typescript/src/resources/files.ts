import type { RequestOptions } from '../core.js';
import type { PagePromise } from '../pagination.js';
import type { Deleted, FileListParams, FileObject } from '../types.js';
import { Resource } from './resource.js';

/** What `files.upload` sends: bytes in memory, or a stream (a Node `fs.createReadStream`, a web stream, a generator). */
export type Uploadable = Blob | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface UploadOptions extends RequestOptions {
  /** The file's type. Default: a Blob's own type, else application/octet-stream (the daemon then guesses by name). */
  contentType?: string;
  /**
   * A stream's length in bytes (a file's size), sent as `Content-Length`: the daemon then refuses a file over its
   * limits at once, before any byte is sent. Bytes and Blobs send their own.
   */
  size?: number;
}

/** Files runs work with (docs/api.md, Files): upload one, then name its id in `runs.create({ files: [...] })`. */
export class Files extends Resource {
  /**
   * Uploads `body` as the file `name`. A stream is sent as it is read, never held whole, and is not tried again
   * after a failure (it can be read once); its time limit (`timeoutMs`) counts from its last byte, so a large file
   * takes as long as its bytes take. A Blob or bytes are tried again after a 429 like any request.
   */
  upload(name: string, body: Uploadable, options: UploadOptions = {}): Promise<FileObject> {
    const { contentType, size, ...requestOptions } = options;
    const type = contentType ?? (body instanceof Blob && body.type !== '' ? body.type : 'application/octet-stream');
    const data = asBody(body);
    const raw = { data, contentType: type, ...(size !== undefined && data instanceof ReadableStream ? { size } : {}) };
    return this.call({ method: 'POST', path: '/v1/files', query: { name }, raw, options: requestOptions });
  }

  /** The organisation's files, newest first. */
  list(params: FileListParams = {}, options?: RequestOptions): PagePromise<FileObject> {
    return this.paginate('/v1/files', {}, params, options);
  }

  get(id: string, options?: RequestOptions): Promise<FileObject> {
    return this.call({ method: 'GET', path: '/v1/files/{id}', pathParams: { id }, options });
  }

  /**
   * The file's bytes as the daemon streams them: read `body` as a stream, or `arrayBuffer()`, `text()`, `blob()`
   * (the timeout covers the wait for the headers only). Read or cancel the body, else the connection stays busy.
   */
  content(id: string, options?: RequestOptions): Promise<Response> {
    return this.http.open({ method: 'GET', path: '/v1/files/{id}/content', pathParams: { id }, options });
  }

  /** Deletes the file; refused (ConflictError, `file_in_use`) while a queued or running run takes it. */
  delete(id: string, options?: RequestOptions): Promise<Deleted<'/v1/files/{id}'>> {
    return this.call({ method: 'DELETE', path: '/v1/files/{id}', pathParams: { id }, options });
  }
}

function asBody(body: Uploadable): Blob | Uint8Array | ReadableStream<Uint8Array> {
  if (body instanceof Blob || body instanceof Uint8Array || body instanceof ReadableStream) return body;
  const chunks = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await chunks.return?.(reason);
    },
  });
}
