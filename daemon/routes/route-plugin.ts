import type { FastifyPluginAsync, FastifyPluginOptions, FastifyTypeProvider, RawServerDefault } from 'fastify';
import type { JSONSchema } from 'json-schema-to-ts';
import type { Validated } from '../../src/http-schemas/validated.js';

/**
 * Fastify's type provider for the routes: a request's `body`, `query` and `params` have the type of the schema the
 * route validates them with (`Validated`; a route with a body schema always has a body, since json-body reads a
 * missing one as `{}`). A route then needs no type arguments, and one that hands a service something other than
 * what its schema let through does not compile. Replies are typed by the services that make them, not by the
 * response schemas.
 */
export interface SchemaTypes extends FastifyTypeProvider {
  validator: this['schema'] extends JSONSchema ? Validated<this['schema']> : unknown;
  serializer: unknown;
}

/** A plugin of routes (one per resource) whose requests are typed by their schemas. */
export type RoutePlugin<Options extends FastifyPluginOptions = Record<never, never>> = FastifyPluginAsync<Options, RawServerDefault, SchemaTypes>;
