import { LogController, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The daemon's request logging: one JSON line per completed request, and Fastify's own problems, on the daemon's
 * logger. Fastify itself runs without a logger, so that it makes no child logger per request; nothing logs
 * through `request.log`. Headers are never logged, so neither is the Authorization header, and only the path of a
 * URL is: a query string can hold a credential (the signature of an artifact link).
 *
 * The access line has a fixed shape and nothing in it needs redacting, so it is formatted here, in the logger's
 * own format (level, time, bindings, msg), and written straight to the logger's destination, which writes the
 * lines of a turn together: through pino, with its redaction, a line cost about four times as much.
 */
const requestLogPlugin: FastifyPluginAsync<{ logger: Logger }> = async (app, { logger }) => {
  const destination = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym]!;
  const level = logger.levels.values.info!;
  const bound = JSON.stringify(logger.bindings());
  const bindings = bound === '{}' ? '' : `,${bound.slice(1, -1)}`;
  app.addHook('onResponse', (request, reply, done) => {
    if (logger.isLevelEnabled('info')) {
      destination.write(
        `{"level":${level},"time":${Date.now()}${bindings},"reqId":"${request.id}","method":${JSON.stringify(request.method)},` +
          `"url":${JSON.stringify(pathOf(request.url))},"statusCode":${reply.statusCode},"ms":${Math.round(reply.elapsedTime)},"msg":"request"}\n`,
      );
    }
    done();
  });
};

export default fp(requestLogPlugin, { name: 'request-log' });

/** Where Fastify reports its own problems, given that it has no logger. */
export class FastifyProblems extends LogController {
  constructor(private readonly logger: Logger) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) this.logger.error({ reqId: request.id, method: request.method, url: pathOf(request.url), statusCode: reply.statusCode, err: error }, 'request errored');
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

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
