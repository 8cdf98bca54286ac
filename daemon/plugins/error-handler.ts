import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import {
  ErrandError,
  InternalError,
  InvalidRequestError,
  MethodNotAllowedError,
  OAuthServerError,
  PayloadTooLargeError,
  RouteNotFoundError,
  UnsupportedMediaTypeError,
} from '../../src/errors.js';
import { BODY_LIMIT } from './json-body.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes of the OAuth server, whose clients read RFC 6749's error shape, not the REST API's. */
    oauthErrors?: boolean;
  }
}
import { closestName } from '../../src/text/closest-name.js';
import { whenMissing } from '../../src/http-schemas/when-missing.js';

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  /** The schema holding the failed keyword (Ajv's `verbose`): its `properties` are the members an unknown one may have meant. */
  parentSchema?: { properties?: Record<string, unknown>; oneOf?: unknown[] };
  /** The value that failed (Ajv's `verbose`). */
  data?: unknown;
}

/**
 * The one place where errors become HTTP responses in the shared shape
 * `{"error": {type, code, message, param?}, "request_id"}`. Anything that is not a known error is a 500 and is
 * logged; its message is not shown to the caller.
 */
export interface ErrorHandlerOptions {
  logger: Logger;
  /** Runs before the not-found answer, so that a request without a valid key is a 401 on every path. */
  authenticate: preHandlerHookHandler;
}

const errorHandlerPlugin: FastifyPluginAsync<ErrorHandlerOptions> = async (app, { logger, authenticate }) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof OAuthServerError) return sendOAuthError(reply, error);
    if (clientAborted(request, error)) {
      // Nobody is left to read an answer, and nothing went wrong here: an upload the client gave up on part-way.
      logger.info({ reqId: request.id }, 'the client closed the connection before the request body ended');
      return sendError(request, reply, new InvalidRequestError('request_aborted', 'The client closed the connection before the request body ended'));
    }
    const mapped = toErrandError(error, request.routeOptions.bodyLimit);
    if (mapped instanceof InternalError) logger.error({ reqId: request.id, err: error }, 'unhandled error');
    if (request.routeOptions.config.oauthErrors) return sendOAuthError(reply, asOAuthError(mapped));
    sendError(request, reply, mapped);
  });
  // A discovery document the daemon does not publish is simply absent, for anyone: OAuth and OpenID clients probe
  // /.well-known/ paths without credentials and read a 404 as "not offered" (issue 21, item 15).
  const unlessWellKnown: preHandlerHookHandler = function (request, reply, done) {
    if (request.url.startsWith('/.well-known/')) return done();
    return authenticate.call(this, request, reply, done);
  };
  app.setNotFoundHandler({ preHandler: unlessWellKnown }, (request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    sendError(
      request,
      reply,
      allowed.length > 0 ? new MethodNotAllowedError(request.method, path, allowed) : new RouteNotFoundError('route_not_found', `No route ${request.method} ${path}`),
    );
  });
};

/** Node's "aborted" (ECONNRESET) for a request body whose connection closed before the body ended. */
function clientAborted(request: FastifyRequest, error: FastifyError): boolean {
  return error.code === 'ECONNRESET' && request.raw.readableAborted;
}

/** The methods a path may be asked with; HEAD comes with every GET route. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export function sendError(request: FastifyRequest, reply: FastifyReply, err: ErrandError): void {
  void reply
    .status(err.status)
    .headers(err.headers)
    .type('application/json; charset=utf-8')
    .send({
      error: { type: err.type, code: err.code, message: err.message, ...(err.param === undefined ? {} : { param: err.param }) },
      request_id: request.id,
    });
}

/** RFC 6749 §5.2's error shape; nothing of an OAuth answer may be cached (§5.1). */
export function sendOAuthError(reply: FastifyReply, err: OAuthServerError): void {
  void reply
    .status(err.status)
    .headers({ ...err.headers, 'Cache-Control': 'no-store' })
    .type('application/json; charset=utf-8')
    .send({ error: err.error, error_description: err.description });
}

/** An error of an OAuth route in RFC 6749's terms: `server_error` for ours, `invalid_request` for the caller's. */
function asOAuthError(err: ErrandError): OAuthServerError {
  return new OAuthServerError(err instanceof InternalError ? 'server_error' : 'invalid_request', err.message, err.status, err.headers);
}

/** `bodyLimit` is the route's, in bytes, for the message of a body larger than it. */
export function toErrandError(error: FastifyError, bodyLimit = BODY_LIMIT): ErrandError {
  if (error instanceof ErrandError) return error;
  const tooLarge = () => new PayloadTooLargeError('body_too_large', `The request body is larger than ${formatBytes(bodyLimit)}`);
  if (error.validation) return validationError(error.validation as ValidationIssue[], error.validationContext ?? 'body');
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new InvalidRequestError('invalid_content_length', 'The body is not as long as its Content-Length header says');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new UnsupportedMediaTypeError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json"');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new InvalidRequestError('invalid_body', 'The body is empty but Content-Type is application/json; send {} or no Content-Type');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_TYPE':
      return new InvalidRequestError('invalid_json', 'The body is not valid JSON');
  }
  if (error.statusCode === 400 && error instanceof SyntaxError) return new InvalidRequestError('invalid_json', 'The body is not valid JSON');
  if (error.statusCode === 413) return tooLarge();
  if (error.statusCode === 415) return new UnsupportedMediaTypeError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json"');
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new InvalidRequestError('invalid_request', error.message);
  }
  return new InternalError('internal_error', 'Something went wrong on our side; the request id identifies it in the daemon log');
}

function validationError(issues: ValidationIssue[], context: string): InvalidRequestError {
  const issue = issues[0]!;
  const path = issue.instancePath.split('/').filter(Boolean).map(decodePointer);
  const where = context === 'querystring' ? 'query parameter' : context === 'params' ? 'path parameter' : 'member';
  if (issue.keyword === 'additionalProperties') {
    const name = String(issue.params.additionalProperty);
    const param = [...path, name].join('.');
    const meant = closestName(name, Object.keys(issue.parentSchema?.properties ?? {}));
    const suggestion = meant === null ? '' : `; did you mean '${[...path, meant].join('.')}'?`;
    return new InvalidRequestError(context === 'body' ? 'unknown_parameter' : 'invalid_request', `Unknown ${where} '${param}'${suggestion}`, { param });
  }
  if (issue.keyword === 'required') {
    const missing = String(issue.params.missingProperty);
    const param = [...path, missing].join('.');
    return new InvalidRequestError('missing_parameter', `Missing required ${where} '${param}'${whenMissing(issue.parentSchema, missing)}${typoOf(issue, missing, path)}`, { param });
  }
  if (issue.keyword === 'discriminator') return unknownTag(issue, path, where, context);
  const param = path.join('.');
  if (param === '') return new InvalidRequestError('invalid_body', `The request body ${issue.message ?? 'is invalid'}`);
  return new InvalidRequestError(
    context === 'body' ? 'invalid_body' : 'invalid_request',
    `${capitalise(where)} '${param}' ${issue.message ?? 'is invalid'}${allowedValues(issue)}`,
    { param },
  );
}

/** A tagged union's tag that is missing, not a string, or none of its members': names the tag and the values it takes. */
function unknownTag(issue: ValidationIssue, path: string[], where: string, context: string): InvalidRequestError {
  const tag = String(issue.params.tag);
  const param = [...path, tag].join('.');
  const tags = ((issue.parentSchema?.oneOf ?? []) as { properties?: Record<string, { const?: unknown; enum?: unknown[] }> }[]).flatMap((member) => {
    const property = member.properties?.[tag];
    return property?.const !== undefined ? [property.const] : (property?.enum ?? []);
  });
  const allowed = tags.map((v) => JSON.stringify(v)).join(', ');
  const data = issue.data as Record<string, unknown> | null;
  if (data === null || typeof data !== 'object' || data[tag] === undefined) {
    return new InvalidRequestError('missing_parameter', `Missing required ${where} '${param}': one of ${allowed}`, { param });
  }
  return new InvalidRequestError(context === 'body' ? 'invalid_body' : 'invalid_request', `${capitalise(where)} '${param}' must be one of ${allowed}`, { param });
}

/** `; did you mean to send 'promt' as 'prompt'?` when a member the schema does not know is a typo of the missing one. */
function typoOf(issue: ValidationIssue, missing: string, path: string[]): string {
  const data = issue.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return '';
  const known = issue.parentSchema?.properties ?? {};
  const typo = Object.keys(data).find((name) => !Object.hasOwn(known, name) && closestName(name, [missing]) !== null);
  return typo === undefined ? '' : `; did you mean to send '${[...path, typo].join('.')}' as '${[...path, missing].join('.')}'?`;
}

function allowedValues(issue: ValidationIssue): string {
  const allowed = issue.params.allowedValues;
  return Array.isArray(allowed) ? `: ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : '';
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export default fp(errorHandlerPlugin, { name: 'error-handler' });
