import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One JSON line per request, written when it completes (Fastify's default writes two: "incoming request" and
 * "request completed"). Headers are never logged, so neither is the Authorization header.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request');
  }
}
