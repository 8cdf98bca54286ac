import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The type of a request part (a body, a query string, path parameters) that the JSON schema `S` validated, derived
 * from the schema by json-schema-to-ts, so that a change of the schema reaches every type built on it. Members with
 * a `default` are present: the daemon's validators fill them in (`useDefaults`, daemon/plugins/json-body.ts). Query
 * integers are numbers: they are read from their digits before validation (daemon/query-string.ts).
 */
export type Validated<S extends JSONSchema> = FromSchema<S>;
