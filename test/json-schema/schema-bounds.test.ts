import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/errors.js';
import { checkSchemaBounds, SCHEMA_BOUNDS } from '../../src/json-schema/schema-bounds.js';

function refusal(schema: Record<string, unknown>, param = 'output_schema'): InvalidRequestError {
  try {
    checkSchemaBounds(schema, param);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).code).toBe('schema_too_complex');
    return err as InvalidRequestError;
  }
  throw new Error('expected schema_too_complex');
}

const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);

describe('checkSchemaBounds', () => {
  it('answers the JSON text of a schema within bounds', () => {
    const schema = { type: 'object', properties: { city: { enum: values(SCHEMA_BOUNDS.maxEnumValues) }, tags: { type: 'array', uniqueItems: true, maxItems: 1000 } } };
    expect(checkSchemaBounds(schema, 'output_schema')).toBe(JSON.stringify(schema));
  });

  it('refuses an enum of more than 1000 values, naming it', () => {
    const err = refusal({ type: 'object', properties: { city: { enum: values(1001) } } });
    expect(err.param).toBe('output_schema.properties.city.enum');
    expect(err.message).toBe('output_schema.properties.city.enum has 1001 values; at most 1000 are accepted');
  });

  it('refuses uniqueItems without a maxItems of at most 1000, naming it', () => {
    expect(refusal({ type: 'array', uniqueItems: true }, 'input_schema').param).toBe('input_schema.uniqueItems');
    expect(refusal({ anyOf: [{ type: 'array', uniqueItems: true, maxItems: 20_000 }] }).param).toBe('output_schema.anyOf.0.uniqueItems');
    expect(() => checkSchemaBounds({ type: 'array', uniqueItems: false }, 'output_schema')).not.toThrow();
  });

  it('refuses a schema of more than 64 KiB of JSON', () => {
    const err = refusal({ description: 'x'.repeat(64 * 1024) });
    expect(err.param).toBe('output_schema');
    expect(err.message).toMatch(/^output_schema is \d+ bytes of JSON; at most 65536 are accepted$/);
  });

  it('refuses nesting deeper than 32 levels, in subschemas and in data alike', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) schema = { type: 'object', properties: { a: schema } };
    expect(refusal(schema).param).toMatch(/^output_schema(\.properties\.a)+$/);
    let data: unknown = 1;
    for (let i = 0; i < 40; i++) data = [data];
    expect(refusal({ const: data }).param).toMatch(/^output_schema\.const(\.0)+$/);
  });

  it('reads a property named enum as a property, and its own enum as a keyword', () => {
    expect(refusal({ properties: { enum: { enum: values(1001) } } }).param).toBe('output_schema.properties.enum.enum');
    expect(() => checkSchemaBounds({ properties: { enum: { type: 'string' }, uniqueItems: { type: 'boolean' } } }, 'output_schema')).not.toThrow();
  });

  it('reads enum and uniqueItems only where they are keywords, not inside data', () => {
    expect(() => checkSchemaBounds({ const: { enum: values(5000), uniqueItems: true } }, 'output_schema')).not.toThrow();
    expect(() => checkSchemaBounds({ examples: [{ uniqueItems: true }] }, 'output_schema')).not.toThrow();
  });
});
