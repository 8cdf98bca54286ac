import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The daemon's request logging: one JSON line per completed request (Fastify's default writes two), and Fastify's
 * own problems, all on the daemon's logger. Headers are never logged, so neither is the Authorization header, and only
 * the path of a URL is: a query string can hold a credential (the signature of an artifact link).
 *
 * The access line has a fixed shape and nothing in it needs redacting, so it is formatted here, in the logger's
 * own format (level, time, bindings, msg), and handed to the logger's destination once per turn of the event loop
 * for all the requests of that turn: through pino, with its redaction, a line cost about four times as much, and
 * the destination measures its whole pending buffer on every write, which under load grew with each line.
 */
export class OneLinePerRequest extends LogController {
  private readonly destination: DestinationStream;
  private readonly level: number;
  private readonly bindings: string;
  private pending = '';
  private readonly flush = () => {
    this.destination.write(this.pending);
    this.pending = '';
  };

  constructor(private readonly logger: Logger) {
    super();
    this.destination = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym]!;
    this.level = logger.levels.values.info!;
    const bindings = JSON.stringify(logger.bindings());
    this.bindings = bindings === '{}' ? '' : `,${bindings.slice(1, -1)}`;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const path = pathOf(request.url);
    const ms = Math.round(reply.elapsedTime);
    if (error) {
      this.logger.error({ reqId: request.id, method: request.method, url: path, statusCode: reply.statusCode, ms, err: error }, 'request errored');
    } else if (this.logger.isLevelEnabled('info')) {
      if (this.pending === '') setImmediate(this.flush);
      this.pending +=
        `{"level":${this.level},"time":${Date.now()}${this.bindings},"reqId":"${request.id}","method":${JSON.stringify(request.method)},` +
        `"url":${JSON.stringify(path)},"statusCode":${reply.statusCode},"ms":${ms},"msg":"request"}\n`;
    }
  }

  override defaultErrorLog(error: Error, request: FastifyRequest): void {
    this.logger.error({ reqId: request.id, err: error }, 'unhandled error');
  }

  override streamError(error: Error & { code?: string }, request: FastifyRequest): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    this.logger.warn({ reqId: request.id, err: error }, 'response ended with an error after its headers were sent');
  }

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
