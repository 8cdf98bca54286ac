import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { InvalidRequestError } from '../errors.js';
import { createAjv } from '../json-schema/create-ajv.js';
import { linearRegExpEngine } from '../json-schema/linear-regexp.js';

/**
 * Compiles the JSON Schemas callers send (`input_schema`, `output_schema`) and validates data against them.
 * Compiled validators are cached by the schema's text, so a job run many times compiles its schemas once.
 * One Ajv serves every organisation, so no schema is registered in it: a `$id` of one caller must neither clash
 * with nor be reachable by another's `$ref`, and an evicted schema must really go.
 */
export class UserSchemas {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, { schema: object; validate: ValidateFunction }>();

  constructor(private readonly maxCached = 1000) {
    // strict: false because callers' schemas carry annotations (examples, x-*) that strict mode would refuse.
    this.ajv = createAjv({
      strict: false,
      allErrors: true,
      validateFormats: true,
      addUsedSchema: false,
      unicodeRegExp: false,
      code: { regExp: linearRegExpEngine() },
    });
  }

  /** Compiles `schema` or throws 400 with `param` naming the member that held it. */
  compile(schema: unknown, param: string): ValidateFunction {
    const key = JSON.stringify(schema);
    const hit = this.cache.get(key);
    if (hit) return hit.validate;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new InvalidRequestError(`invalid_${param}`, `${param} must be a JSON Schema object`, { param });
    }
    let validate: ValidateFunction;
    try {
      validate = this.ajv.compile(schema);
    } catch (err) {
      this.ajv.removeSchema(schema);
      throw new InvalidRequestError(`invalid_${param}`, `${param} is not a valid JSON Schema: ${(err as Error).message}`, { param });
    }
    if (this.cache.size >= this.maxCached) {
      const [oldest, entry] = this.cache.entries().next().value!;
      this.cache.delete(oldest);
      this.ajv.removeSchema(entry.schema);
    }
    this.cache.set(key, { schema, validate });
    return validate;
  }
}

/** `/inputs/city` or a missing `city` at the root becomes `inputs.city`. */
export function errorParam(prefix: string, e: ErrorObject): string {
  const path = e.instancePath.split('/').filter(Boolean);
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'additionalProperties') path.push(String((e.params as { additionalProperty: string }).additionalProperty));
  return [prefix, ...path].join('.');
}

export function describeErrors(prefix: string, errors: ErrorObject[]): string[] {
  return errors.map((e) => `${errorParam(prefix, e)} ${e.message ?? 'is invalid'}`);
}
