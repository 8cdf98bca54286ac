import { LogController, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';

declare module 'fastify' {
  interface FastifyRequest {
    /** `performance.now()` when Fastify took the request in: the access line's `ms` counts from it. */
    receivedAt: number;
  }
  interface FastifyInstance {
    /**
     * Writes the access line of a hijacked reply (one a route answers on the raw response, as `/mcp` does), which
     * the onSend hook never sees; call it when the response has closed.
     */
    logHijacked(request: FastifyRequest, reply: FastifyReply): void;
  }
}

/**
 * How every request is traced: its id goes on the response (`X-Request-Id`, which error bodies repeat) and into
 * one JSON access line on the daemon's logger; Fastify's own problems go to the same logger.
 *
 * Fastify itself runs without a logger, so that it makes no child logger per request; nothing logs through
 * `request.log`. Instead this is its log controller, whose `incomingRequest` Fastify calls for every request it
 * takes in (routed, not found, or refused before routing), so the id and the start time cost no hook.
 *
 * The line is written when the response is handed to the socket (an onSend hook), with the time taken to produce
 * it. Waiting for the socket to finish instead (onResponse) makes Fastify add and remove response listeners and
 * time every request, for nothing the line needs; a response the client drops half-way is still
 * logged, with the status it was sent with. Headers are never logged, so neither is the Authorization header, and
 * only the path of a URL is: a query string can hold a credential (the signature of an artifact link).
 *
 * The access line goes to `access`, a logger of its own: its shape is fixed and nothing in it needs redacting.
 */
export class RequestLog extends LogController {
  constructor(
    private readonly logger: Logger,
    private readonly access: Logger,
  ) {
    super();
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    request.receivedAt = performance.now();
    reply.header('X-Request-Id', request.id);
  }

  /** Writes the access line of a response about to be sent. */
  responded(request: FastifyRequest, reply: FastifyReply): void {
    this.access.info(
      { reqId: request.id, method: request.method, url: pathOf(request.url), statusCode: reply.statusCode, ms: Math.round(performance.now() - request.receivedAt) },
      'request',
    );
  }

  /** The access line of a request Node's parser refused: there is no method or path to log. */
  clientError(reqId: string, statusCode: number, code: string): void {
    this.access.info({ reqId, statusCode, code }, 'request refused by the HTTP parser');
  }

  override defaultErrorLog(error: Error, request: FastifyRequest): void {
    this.logger.error({ reqId: request.id, err: error }, 'unhandled error');
  }

  override streamError(error: Error & { code?: string }, request: FastifyRequest): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    this.logger.warn({ reqId: request.id, err: error }, 'response ended with an error after its headers were sent');
  }

  override routeNotFound(): void {}

  override writeHeadError(error: Error, request: FastifyRequest): void {
    this.logger.warn({ reqId: request.id, err: error }, 'could not write the response headers');
  }

  override serializerError(error: Error, request: FastifyRequest, _reply: FastifyReply, metadata: { statusCode: number }): void {
    this.logger.error({ reqId: request.id, err: error, statusCode: metadata.statusCode }, 'could not serialize the response');
  }

  override serviceUnavailable(): void {
    this.logger.info({ statusCode: 503 }, 'refused a request: the daemon is shutting down');
  }
}

/** Writes the access line of every response that goes through the routes' hooks. */
const requestLogPlugin: FastifyPluginAsync<{ requestLog: RequestLog }> = async (app, { requestLog }) => {
  app.decorateRequest('receivedAt', 0);
  app.decorate('logHijacked', (request: FastifyRequest, reply: FastifyReply) => requestLog.responded(request, reply));
  app.addHook('onSend', (request, reply, payload, done) => {
    requestLog.responded(request, reply);
    done(null, payload);
  });
};

export default fp(requestLogPlugin, { name: 'request-log' });

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
