import type { FastifyPluginAsync, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { InvalidRequestError } from '../../src/errors.js';
import { errorResponseSchema } from '../../src/http-schemas/common.js';
import { createAjv } from '../../src/json-schema/create-ajv.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../../src/json-schema/json-depth.js';
import { jsonSyntaxError } from '../../src/json-schema/json-syntax-error.js';
import { compileQueryValidator } from '../query-string.js';

export const BODY_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body's text as it arrived ('' without one), for members echoed byte for byte (an email's metadata). */
    jsonText: string;
  }
}

/**
 * How requests are read and validated: JSON bodies only (any other content type is a 415), nested no deeper than
 * `MAX_JSON_DEPTH`, validated strictly (no coercion: "5" is not 5; unknown members are refused); query strings,
 * which arrive as text, have their integers read from decimal digits only (see query-string.ts). A route with a body schema reads a missing body as `{}`, so
 * that one whose members are all optional accepts a bare POST and one with required members names the missing one.
 */
const jsonBodyPlugin: FastifyPluginAsync = async (app) => {
  // verbose: an error carries the schema it failed in, whose members an unknown one may be a typo of. discriminator: a
  // union tagged by a member (`discriminator` with `oneOf`) is checked against the tag's member alone, so its errors
  // are that member's (`input.x` missing for a mouse input), not the first member's that the value was never meant for.
  const options = { allErrors: false, coerceTypes: false, removeAdditional: false, useDefaults: true, strict: false, verbose: true, discriminator: true } as const;
  const bodyAjv = createAjv(options);
  const urlAjv = createAjv(options);
  bodyAjv.addSchema(errorResponseSchema);
  urlAjv.addSchema(errorResponseSchema);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart === 'body') return bodyAjv.compile(schema);
    if (httpPart === 'querystring') return compileQueryValidator(urlAjv, schema as Record<string, unknown>);
    return urlAjv.compile(schema);
  });

  // An empty body with a JSON content type is "no body" (curl -X POST -H 'content-type: application/json'),
  // not a parse error; everything else goes through Fastify's prototype-poisoning-safe parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('jsonText', '');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    req.jsonText = text;
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      return done(new InvalidRequestError('invalid_body', `The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`), undefined);
    }
    parseJson(req, text, (err, body) => {
      if (err === null) return done(null, body);
      done((err as { statusCode?: number }).statusCode === 400 ? invalidJson(text, err) : err, undefined);
    });
  });

  const defaultBody: preValidationHookHandler = (request, _reply, done) => {
    if (request.body === undefined) request.body = {};
    done();
  };
  app.addHook('onRoute', (route) => {
    if (route.schema?.querystring === undefined && route.schema?.hide !== true) route.schema = { ...route.schema, querystring: NO_QUERY };
    if (!route.schema?.body) return;
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [defaultBody] : [defaultBody, ...(Array.isArray(existing) ? existing : [existing])];
  });
};

/**
 * The query of an API route that takes none: a route refuses parameters its schema does not name, so one that names
 * none (GET /v1/files/{id}/content) refuses every parameter rather than ignoring a caller's typo. Routes left out of
 * the OpenAPI document (`hide`: the live and connect pages, the OAuth endpoints, /mcp) are not API routes: they read
 * their query as parsed, and RFC 6749 has an authorization server ignore parameters it does not know.
 */
const NO_QUERY = { type: 'object', additionalProperties: false, properties: {} } as const;

/** 400 invalid_json saying where the text stops being JSON; a body that is JSON but refused (`__proto__`) says why. */
function invalidJson(text: string, err: Error): InvalidRequestError {
  const at = jsonSyntaxError(text);
  if (at === null) return new InvalidRequestError('invalid_json', `The body is refused: ${err.message}`);
  return new InvalidRequestError('invalid_json', `The body is not valid JSON: ${at.problem} at line ${at.line}, column ${at.column} (character ${at.offset})`);
}

export default fp(jsonBodyPlugin, { name: 'json-body' });
