import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { InvalidRequestError } from '../src/errors.js';
import { errorResponseSchema } from '../src/http-schemas/common.js';
import type { IdFactory } from '../src/ids.js';
import { answerClientError } from './client-errors.js';
import type { HttpTimeouts } from './http-timeouts.js';
import type { Metrics } from '../src/metrics/metrics.js';
import authPlugin from './plugins/auth.js';
import bodyPacePlugin from './plugins/body-pace.js';
import errorHandlerPlugin, { sendError } from './plugins/error-handler.js';
import httpMetricsPlugin from './plugins/http-metrics.js';
import jsonBodyPlugin, { BODY_LIMIT } from './plugins/json-body.js';
import linkHolderAnswersPlugin from './plugins/link-holder-answers.js';
import livemodePlugin from './plugins/livemode.js';
import openapiPlugin from './plugins/openapi.js';
import { parseQueryString } from './query-string.js';
import requestLogPlugin, { RequestLog } from './plugins/request-log.js';
import { rootRoutes, v1Routes } from './routes/index.js';
import { healthRoutes } from './routes/meta.js';
import type { ApiServices } from './services.js';

export interface AppDeps {
  services: ApiServices;
  logger: Logger;
  /** Where the access lines go (see request-log.ts). */
  accessLogger: Logger;
  ids: IdFactory;
  /** Counts and times requests when metrics are on (`metrics.port`). */
  metrics?: Metrics;
  timeouts: HttpTimeouts;
}

/** Builds the HTTP API from its dependencies; never listens (http-subsystem.ts and tests do). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // No logger for Fastify itself (see request-log.ts): RequestLog traces requests and reports its problems.
  const requestLog = new RequestLog(deps.logger, deps.accessLogger);
  const { timeouts } = deps;
  const app = Fastify({
    // Fastify turns Node's request timeout off unless told; the body's own pace is plugins/body-pace.ts's.
    requestTimeout: timeouts.requestMs,
    http: { requestTimeout: timeouts.requestMs, headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkIntervalMs },
    genReqId: () => deps.ids('req'),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    logController: requestLog,
    routerOptions: { querystringParser: parseQueryString },
    // A malformed URL (broken percent-encoding) is answered before routing, without the routes' hooks; keep the
    // shared error shape, and log it as they would.
    frameworkErrors: (error, request, reply) => {
      sendError(request, reply, new InvalidRequestError('invalid_url', `The request URL is malformed: ${error.message}`));
      requestLog.responded(request, reply);
    },
    // Requests Node's parser refuses (headers over 16 KiB, a bad Content-Length) never reach Fastify's routing.
    clientErrorHandler: (error, socket) => {
      const requestId = deps.ids('req');
      const answered = answerClientError(error, socket, requestId);
      if (answered) requestLog.clientError(requestId, answered.status, answered.code);
    },
  });
  app.addSchema(errorResponseSchema);
  await app.register(jsonBodyPlugin);
  await app.register(requestLogPlugin, { requestLog });
  await app.register(bodyPacePlugin, timeouts.body);
  if (deps.metrics) await app.register(httpMetricsPlugin, { metrics: deps.metrics });
  await app.register(authPlugin, { keys: deps.services.keys, rateLimiter: deps.services.rateLimiter, liveLinks: deps.services.liveLinks });
  await app.register(errorHandlerPlugin, { logger: deps.logger, authenticate: app.authenticate });
  await app.register(linkHolderAnswersPlugin, { liveLinks: deps.services.liveLinks });
  // Before the OpenAPI document reads the routes' schemas: it adds `livemode` to their objects.
  await app.register(livemodePlugin, { modes: deps.services.orgModes });
  await app.register(openapiPlugin);
  await app.register(healthRoutes);
  await app.register(v1Routes(deps.services), { prefix: '/v1' });
  await app.register(rootRoutes(deps.services));
  return app;
}
