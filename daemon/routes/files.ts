import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { fileRouteSchemas as s } from '../../src/files/file-schemas.js';
import type { FilesService, IncomingFile } from '../../src/files/files-service.js';
import { ErrandError, InvalidRequestError } from '../../src/errors.js';
import { downloadHeaders } from '../content-disposition.js';
import { principalOf } from '../plugins/auth.js';
import { bodyStopped } from '../plugins/body-pace.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Files'];

/**
 * /v1/files (issue 23, item 3). An upload is never read into memory: in this plugin (and only here) a body of any
 * content type but multipart/form-data is the file's raw bytes, left unread for the handler to stream to disk, and
 * multipart/form-data is parsed part by part (@fastify/multipart), its first file part streamed the same way.
 */
export const fileRoutes: RoutePlugin<{ files: FilesService }> = async (app, { files }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  // One byte over the limit, so that the service sees the file pass it and answers 413 rather than a cut-off file.
  await app.register(multipart, { limits: { fileSize: files.maxBytes() + 1, files: 1, fields: 10, parts: 20 } });

  app.post(
    '/files',
    {
      schema: {
        ...s.upload,
        tags,
        summary: 'Upload a file for runs to use: the raw bytes (any content type but multipart; the name in ?name=) or multipart/form-data (its first file part)',
        consumes: ['application/octet-stream', 'multipart/form-data'],
      },
    },
    async (req, reply) => {
      const principal = principalOf(req);
      // Before a byte of the body is read; the upload ends with the handler, or with the connection if it goes first.
      const end = files.inFlight.begin(principal);
      reply.raw.once('close', end);
      try {
        return reply.status(201).send(await files.upload(principal.orgId, await incomingFile(req, req.query.name, bodyStopped(req))));
      } catch (err) {
        throw req.isMultipart() ? malformedMultipart(err) : err;
      } finally {
        end();
      }
    },
  );
  app.get('/files', { schema: { ...s.list, tags, summary: 'List uploaded files, newest first' } }, (req) => files.list(principalOf(req).orgId, req.query));
  app.get('/files/:id', { schema: { ...s.get, tags, summary: 'An uploaded file\'s record' } }, (req) => files.get(principalOf(req).orgId, req.params.id));
  app.get(
    '/files/:id/content',
    { schema: { ...s.content, tags, summary: 'Download an uploaded file (streamed, as an attachment)' } },
    async (req, reply) => {
      const { file, body } = await files.open(principalOf(req).orgId, req.params.id);
      return reply.headers(downloadHeaders({ name: file.name, contentType: file.content_type, bytes: file.size, cacheControl: 'private, no-store' })).send(body);
    },
  );
  app.delete(
    '/files/:id',
    { schema: { ...s.delete, tags, summary: 'Delete an uploaded file; refused (409) while a queued or running run takes it as input' } },
    (req) => files.delete(principalOf(req).orgId, req.params.id),
  );
};

/**
 * The upload in a request: its first file part when multipart, else the whole body. `stopped`: the body given up on
 * for its pace, also while the parts before the file arrive.
 */
async function incomingFile(req: FastifyRequest, name: string | undefined, stopped: AbortSignal): Promise<IncomingFile> {
  if (req.isMultipart()) {
    const part = await untilStopped(req.file(), stopped);
    if (part === undefined) throw new InvalidRequestError('missing_file', 'The multipart body has no file part', { param: 'file' });
    return { name: name ?? part.filename, contentType: part.mimetype, declaredBytes: null, body: part.file, stopped };
  }
  const length = req.headers['content-length'];
  return { name, contentType: req.headers['content-type'], declaredBytes: length === undefined ? null : Number(length), body: req.raw, stopped };
}

function untilStopped<T>(promise: Promise<T>, stopped: AbortSignal): Promise<T> {
  if (stopped.aborted) return Promise.reject(stopped.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(stopped.reason as Error);
    stopped.addEventListener('abort', onStop, { once: true });
    promise.then(resolve, reject).finally(() => stopped.removeEventListener('abort', onStop));
  });
}

/**
 * What the multipart parser (busboy) throws for a body that is not the multipart it says it is ("Unexpected end of
 * form", "Malformed part header"): the caller's mistake, a 400, where the error handler would see an unknown error
 * and answer 500. Errors of the daemon's own (a 413, a quota) and of its disk (an errno) pass through.
 */
function malformedMultipart(err: unknown): unknown {
  if (err instanceof ErrandError || !(err instanceof Error) || 'errno' in err || (err as { statusCode?: unknown }).statusCode !== undefined) return err;
  return new InvalidRequestError('malformed_multipart', `The multipart/form-data body could not be read: ${err.message}`);
}
