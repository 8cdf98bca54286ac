import type { Ajv, ValidateFunction } from 'ajv';
import { createAjv } from './create-ajv.js';
import { linearRegExpEngine } from './linear-regexp.js';

/**
 * Compiles callers' JSON Schemas with ajv and keeps the validators, by the schema's text, so a job run many times
 * compiles its schemas once. It runs in the schema worker thread (see UserSchemas), never on the daemon's event loop.
 * One Ajv serves every organisation, so no schema is registered in it: a `$id` of one caller must neither clash with
 * nor be reachable by another's `$ref`, and an evicted schema must really go.
 */
export class SchemaCache {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, { schema: object; validate: ValidateFunction }>();

  constructor(private readonly maxCached = 1000) {
    // strict: false because callers' schemas carry annotations (examples, x-*) that strict mode would refuse.
    // optimize: false: ajv's optimising pass costs more to compile a schema than it saves in checking data against it.
    // inlineRefs: false: a referenced schema is compiled once, as a function, instead of copied into every place that
    // refers to it, which let a small schema (20 $refs to one definition) cost as much as a twenty times larger one.
    this.ajv = createAjv({
      strict: false,
      allErrors: true,
      validateFormats: true,
      addUsedSchema: false,
      unicodeRegExp: false,
      inlineRefs: false,
      code: { regExp: linearRegExpEngine(), optimize: false },
    });
  }

  /** The validator of the schema whose JSON text is `text`; throws the compiler's error when it is not a valid schema. */
  validator(text: string): ValidateFunction {
    const hit = this.cache.get(text);
    if (hit) return hit.validate;
    const schema = JSON.parse(text) as object;
    let validate: ValidateFunction;
    try {
      validate = this.ajv.compile(schema);
    } catch (err) {
      this.ajv.removeSchema(schema);
      throw err;
    }
    if (this.cache.size >= this.maxCached) {
      const [oldest, entry] = this.cache.entries().next().value!;
      this.cache.delete(oldest);
      this.ajv.removeSchema(entry.schema);
    }
    this.cache.set(text, { schema, validate });
    return validate;
  }
}
