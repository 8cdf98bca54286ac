import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One JSON line per request, written when it completes (Fastify's default writes two: "incoming request" and
 * "request completed"). Headers are never logged, so neither is the Authorization header.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // The path only: a query string can hold a credential (the signature of an artifact link).
    const line = { method: request.method, url: request.url.split('?')[0], statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request');
  }
}
