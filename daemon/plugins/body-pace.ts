import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { RequestTimeoutError } from '../../src/errors.js';
import { sendError } from './error-handler.js';

export interface BodyPaceOptions {
  /** Longest a body may pause between two bytes (`server.body_idle_timeout_s`). */
  idleMs: number;
  /** Slowest average a body may arrive at, counted after its first `idleMs` (`server.body_min_bytes_per_s`). */
  minBytesPerS: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborted when the request's body is given up on for its pace (`bodyStopped`); made when a route asks. */
    bodyStop: AbortController | null;
  }
}

interface WatchedBody {
  request: FastifyRequest;
  reply: FastifyReply;
  /** When the body was first watched, and the socket's bytes read then (the headers, and any body already there). */
  startedAt: number;
  readAtStart: number;
  /** The socket's bytes read at the last tick that saw some arrive, and when. */
  read: number;
  lastProgressAt: number;
  /** Time the daemon held the body up itself (it had bytes it was not reading yet): not the client's to count. */
  heldMs: number;
  lastTickAt: number;
}

/**
 * Node's request timeout bounds a whole request, which must be long for a large upload over a slow link
 * (`server.request_timeout_s`); a body trickled a byte at a time would hold its connection that long. So every body
 * is also held to a pace while it arrives (docs/api.md, Requests): no pause longer than `idleMs`, and on average at
 * least `minBytesPerS` after its first `idleMs`. One that falls behind is answered `408 request_timeout` with
 * `Connection: close`, or, when the route already answered (a 401, a 429, and Node is reading the rest to drop it),
 * its connection is closed. Time the daemon itself held the body up (its bytes waiting to be read, a disk slower
 * than the client) does not count against the client.
 *
 * Cheap for the requests that make up the traffic: a body that has arrived by the end of its turn (the packet that
 * brought the headers held it) is never watched; one timer serves every body that is, and runs only while some are.
 * Progress is read from the socket's byte count, so nothing is put between a body and the route reading it.
 */
const bodyPacePlugin: FastifyPluginAsync<BodyPaceOptions> = async (app, pace) => {
  const watched = new Set<WatchedBody>();
  const tickMs = Math.min(1000, Math.max(20, Math.floor(pace.idleMs / 4)));
  let timer: NodeJS.Timeout | null = null;

  const tick = (): void => {
    const now = Date.now();
    for (const body of watched) {
      const { raw } = body.request;
      const socket = raw.socket as typeof raw.socket | null;
      if (raw.complete || socket === null || socket.destroyed) {
        watched.delete(body);
        continue;
      }
      const read = socket.bytesRead;
      if (read > body.read) {
        body.read = read;
        body.lastProgressAt = now;
      } else if (raw.readableLength > 0) {
        body.lastProgressAt = now;
        body.heldMs += now - body.lastTickAt;
      }
      body.lastTickAt = now;
      const problem = paceProblem(body, now, pace);
      if (problem !== null) {
        watched.delete(body);
        giveUp(body, problem);
      }
    }
    if (watched.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };

  // The requests with a body that began this turn, looked at once it ends. Watching every one until the next tick
  // kept each request alive for up to a second, long enough for the garbage collector to move them all to its old
  // space: bench/api.ts's POST /v1/runs took a third more CPU per request (cpu ms/req 0.10 against 0.077).
  const arriving: FastifyRequest[] = [];
  const replies: FastifyReply[] = [];
  let sorting = false;
  const sort = (): void => {
    sorting = false;
    const now = Date.now();
    for (let i = 0; i < arriving.length; i++) {
      const request = arriving[i]!;
      const socket = request.raw.socket as typeof request.raw.socket | null;
      if (request.raw.complete || socket === null || socket.destroyed) continue;
      const read = socket.bytesRead;
      watched.add({ request, reply: replies[i]!, startedAt: now, readAtStart: read, read, lastProgressAt: now, heldMs: 0, lastTickAt: now });
      if (timer === null) {
        timer = setInterval(tick, tickMs);
        timer.unref();
      }
    }
    arriving.length = 0;
    replies.length = 0;
  };

  app.decorateRequest('bodyStop', null);
  app.addHook('onRequest', (request, reply, done) => {
    const { headers } = request;
    if (headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')) {
      arriving.push(request);
      replies.push(reply);
      if (!sorting) {
        sorting = true;
        setImmediate(sort);
      }
    }
    done();
  });
  app.addHook('onClose', (_app, done) => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    watched.clear();
    done();
  });
};

/** Why the body is too slow now, or null. */
function paceProblem(body: WatchedBody, now: number, pace: BodyPaceOptions): string | null {
  const idle = now - body.lastProgressAt;
  if (idle > pace.idleMs) return `nothing of it arrived for ${seconds(idle)} s (server.body_idle_timeout_s is ${seconds(pace.idleMs)})`;
  const counted = now - body.startedAt - body.heldMs - pace.idleMs;
  if (counted <= 0) return null;
  const arrived = body.read - body.readAtStart;
  if (arrived >= (counted / 1000) * pace.minBytesPerS) return null;
  const rate = Math.floor(arrived / ((now - body.startedAt - body.heldMs) / 1000));
  return `it arrived at ${rate} bytes/s on average, slower than the ${pace.minBytesPerS} bytes/s of server.body_min_bytes_per_s`;
}

function giveUp(body: WatchedBody, problem: string): void {
  const { request, reply } = body;
  const error = new RequestTimeoutError('request_timeout', `The request body did not arrive in time: ${problem}`, { headers: { connection: 'close' } });
  request.bodyStop?.abort(error);
  if (reply.sent || reply.raw.headersSent) {
    // Answered already; Node was reading the rest only to drop it.
    request.raw.socket.destroy();
    return;
  }
  sendError(request, reply, error);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1);
}

/**
 * Aborted when the request's body is given up on for its pace (the answer, a 408, is already on its way): a route
 * that streams the body somewhere stops there and cleans up. Never aborted for a body that keeps its pace.
 */
export function bodyStopped(request: FastifyRequest): AbortSignal {
  request.bodyStop ??= new AbortController();
  return request.bodyStop.signal;
}

export default fp(bodyPacePlugin, { name: 'body-pace' });
