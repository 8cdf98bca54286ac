import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type preValidationHookHandler } from 'fastify';
import type { Logger } from 'pino';
import { errorResponseSchema } from '../src/http-schemas/common.js';
import type { IdFactory } from '../src/ids.js';
import { InvalidRequestError } from '../src/errors.js';
import { createAjv } from '../src/json-schema/create-ajv.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../src/json-schema/json-depth.js';
import type { RateLimiter } from '../src/keys/rate-limiter.js';
import authPlugin from './plugins/auth.js';
import errorHandlerPlugin, { sendError } from './plugins/error-handler.js';
import requestLogPlugin, { RequestLog } from './plugins/request-log.js';
import { jobRoutes } from './routes/jobs.js';
import { healthRoutes, openapiRoutes } from './routes/meta.js';
import { projectRoutes } from './routes/projects.js';
import { runRoutes } from './routes/runs.js';
import type { ApiServices } from './services.js';

export interface AppDeps {
  services: ApiServices;
  logger: Logger;
  ids: IdFactory;
  rateLimiter: RateLimiter;
  /** Extra route plugins mounted under /v1 (artifacts, steps, ...), registered by the daemon's wiring. */
  extraRoutes?: ((app: FastifyInstance) => Promise<void>)[];
}

export const BODY_LIMIT = 1024 * 1024;

/** Builds the HTTP API from its dependencies; never listens (main.ts and tests do). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // No logger for Fastify itself (see request-log.ts): RequestLog traces requests and reports its problems.
  const requestLog = new RequestLog(deps.logger);
  const app = Fastify({
    genReqId: () => deps.ids('req'),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    logController: requestLog,
    // A malformed URL (broken percent-encoding) is answered before routing, without the routes' hooks; keep the
    // shared error shape, and log it as they would.
    frameworkErrors: (error, request, reply) => {
      sendError(request, reply, new InvalidRequestError('invalid_url', `The request URL is malformed: ${error.message}`));
      requestLog.responded(request, reply);
    },
  });
  // Request bodies are validated strictly (no coercion: "5" is not 5, unknown members are refused);
  // query strings arrive as text, so their numbers are coerced.
  const bodyAjv = createAjv({ allErrors: false, coerceTypes: false, removeAdditional: false, useDefaults: true, strict: false });
  const queryAjv = createAjv({ allErrors: false, coerceTypes: true, removeAdditional: false, useDefaults: true, strict: false });
  bodyAjv.addSchema(errorResponseSchema);
  queryAjv.addSchema(errorResponseSchema);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : queryAjv).compile(schema));

  // An empty body with a JSON content type is "no body" (curl -X POST -H 'content-type: application/json'),
  // not a parse error; everything else goes through Fastify's prototype-poisoning-safe parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // JSON only: without Fastify's text/plain parser, any other content type is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      return done(new InvalidRequestError('invalid_body', `The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`), undefined);
    }
    parseJson(req, text, done);
  });

  // No body is an empty object, so that a route whose members are all optional accepts a bare POST and a route
  // with required members names the missing one.
  const defaultBody: preValidationHookHandler = (request, _reply, done) => {
    if (request.body === undefined) request.body = {};
    done();
  };
  app.addHook('onRoute', (route) => {
    if (!route.schema?.body) return;
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [defaultBody] : [defaultBody, ...(Array.isArray(existing) ? existing : [existing])];
  });

  app.addSchema(errorResponseSchema);
  await app.register(requestLogPlugin, { requestLog });
  await app.register(authPlugin, { keys: deps.services.keys, rateLimiter: deps.rateLimiter });
  await app.register(errorHandlerPlugin, { logger: deps.logger, authenticate: app.authenticate });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Errand API',
        version: '1.0.0',
        description: 'Self-hosted agent task service: runs natural-language tasks in a sandbox with a browser and code execution.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearerAuth: [] }],
    },
    // A missing body counts as {} (the preValidation hook above), so a body is required only where it has required members.
    transformObject: (doc) => {
      if (!('openapiObject' in doc)) return doc.swaggerObject;
      const { openapiObject } = doc;
      for (const item of Object.values(openapiObject.paths ?? {})) {
        for (const op of Object.values(item as Record<string, { requestBody?: { required?: boolean; content?: Record<string, { schema?: { required?: unknown[] } }> } }>)) {
          const body = op?.requestBody;
          if (body) body.required = (body.content?.['application/json']?.schema?.required?.length ?? 0) > 0;
        }
      }
      return openapiObject;
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(healthRoutes);
  await app.register(
    async (v1) => {
      await v1.register(openapiRoutes);
      await v1.register(projectRoutes, { projects: deps.services.projects });
      await v1.register(jobRoutes, { jobs: deps.services.jobs });
      await v1.register(runRoutes, { runs: deps.services.runs });
      for (const extra of deps.extraRoutes ?? []) await v1.register(extra);
    },
    { prefix: '/v1' },
  );
  return app;
}
