import { PassThrough } from 'node:stream';
import { Connection, createEventBuffer, Session, type EventBuffer } from 'better-sse';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoggedEvent } from '../src/event-log/event-log.js';
import type { EventSink, EventStream } from '../src/event-log/event-streams.js';

/**
 * better-sse's connection, for a Fastify reply: the session writes into a stream that Fastify sends as the body,
 * so the response goes through the routes' hooks (request id, access line) like any other, and Fastify's piping
 * carries the socket's backpressure back to the stream, whose `writableNeedDrain` the event stream obeys.
 */
class ReplyConnection extends Connection {
  url: URL;
  request: Request;
  response: Response;

  constructor(
    req: FastifyRequest,
    private readonly body: PassThrough,
  ) {
    super();
    this.url = new URL(req.url, `http://${Connection.constants.REQUEST_HOST}`);
    const closed = new AbortController();
    body.once('close', () => closed.abort());
    this.request = new Request(this.url, { method: req.method, signal: closed.signal });
    this.response = new Response(null, { status: 200, headers: Connection.constants.RESPONSE_HEADERS });
  }

  /** Fastify writes the head with the first chunk. */
  sendHead = (): void => undefined;

  sendChunk = (chunk: string): void => {
    if (!this.body.destroyed) this.body.write(chunk);
  };

  cleanup = (): void => undefined;
}

/**
 * Frames events for server-sent events once per event-loop turn, whichever streams send them: the streams of an
 * organisation send the same events in the same turn. Kept no longer, so that memory does not depend on how
 * large events are or how many streams are open.
 */
export class EventFrames {
  private readonly frames = new Map<number, EventBuffer>();
  readonly heartbeat = createEventBuffer().comment().dispatch();

  /** `livemodeOf` answers an event's `livemode` from its organisation (false in test mode, issue 25). */
  constructor(private readonly livemodeOf: (orgId: string) => boolean) {}

  frame(event: LoggedEvent): EventBuffer {
    let framed = this.frames.get(event.id);
    if (framed === undefined) {
      if (this.frames.size === 0) setImmediate(() => this.frames.clear());
      const data = { id: event.id, object: 'event', livemode: this.livemodeOf(event.org_id), type: event.type, run_id: event.run_id, created_at: event.created_at, data: event.data };
      framed = createEventBuffer().push(data, event.type, String(event.id));
      this.frames.set(event.id, framed);
    }
    return framed;
  }
}

/**
 * Answers a request with an event stream when `open` makes a sink (it calls the factory), or with 204 when it
 * answers null (a run whose events the client has all seen).
 */
export function replyWithEvents(
  req: FastifyRequest,
  reply: FastifyReply,
  frames: EventFrames,
  open: (makeSink: () => EventSink) => EventStream | null,
): FastifyReply {
  let body: PassThrough | null = null;
  const stream = open(() => {
    const out = new PassThrough();
    body = out;
    const session = new Session(new ReplyConnection(req, out), { keepAlive: null, trustClientEventId: false });
    return {
      send: (event) => {
        void session.batch(frames.frame(event));
        return !out.writableNeedDrain;
      },
      heartbeat: () => void session.batch(frames.heartbeat),
      end: () => out.end(),
    };
  });
  if (stream === null || body === null) return reply.status(204).send();
  const out: PassThrough = body;
  out.on('drain', () => stream.resume());
  out.once('close', () => stream.close());
  return reply.headers(Connection.constants.RESPONSE_HEADERS).send(out);
}
