import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { InvalidRequestError } from '../errors.js';
import { createAjv } from '../json-schema/create-ajv.js';

/**
 * Compiles the JSON Schemas callers send (`input_schema`, `output_schema`) and validates data against them.
 * Compiled validators are cached by the schema's text, so a job run many times compiles its schemas once.
 */
export class UserSchemas {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly maxCached = 1000) {
    // strict: false because callers' schemas carry annotations (examples, x-*) that strict mode would refuse.
    this.ajv = createAjv({ strict: false, allErrors: true, validateFormats: true });
  }

  /** Compiles `schema` or throws 400 with `param` naming the member that held it. */
  compile(schema: unknown, param: string): ValidateFunction {
    const key = JSON.stringify(schema);
    const hit = this.cache.get(key);
    if (hit) return hit;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new InvalidRequestError(`invalid_${param}`, `${param} must be a JSON Schema object`, { param });
    }
    let fn: ValidateFunction;
    try {
      fn = this.ajv.compile(schema);
    } catch (err) {
      throw new InvalidRequestError(`invalid_${param}`, `${param} is not a valid JSON Schema: ${(err as Error).message}`, { param });
    }
    if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, fn);
    return fn;
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
