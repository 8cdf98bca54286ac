import { parentPort } from 'node:worker_threads';
import type { ErrorObject } from 'ajv';
import { SchemaCache } from './schema-cache.js';

/** A request to the schema thread: compile the schema (and check `data` against it, when given). */
export interface SchemaRequest {
  id: number;
  schema: string;
  data?: unknown;
}

export type SchemaReply =
  | { id: number; ok: true; errors: ErrorObject[] | null }
  | { id: number; ok: false; invalid: string }
  /** Sent once, when the thread has loaded and compiled a first schema: requests are timed from then on. */
  | { ready: true };

/**
 * The worker thread that compiles callers' schemas and checks data against them, one request at a time, so that
 * however long that takes, the daemon's event loop goes on answering (see UserSchemas).
 */
const cache = new SchemaCache();
// Loading ajv and its first compilation take far longer than any later one; a request must not pay for them.
new SchemaCache(1).validator('{"type":"object","properties":{"a":{"type":"string","format":"email"}}}');
parentPort!.postMessage({ ready: true } satisfies SchemaReply);
parentPort!.on('message', (request: SchemaRequest) => {
  let reply: SchemaReply;
  try {
    const validate = cache.validator(request.schema);
    const errors = request.data === undefined || validate(request.data) ? null : (validate.errors ?? []);
    reply = { id: request.id, ok: true, errors };
  } catch (err) {
    reply = { id: request.id, ok: false, invalid: (err as Error).message };
  }
  parentPort!.postMessage(reply);
});
