import { describe, expect, it } from 'vitest';
import { SchemaCache } from '../../src/json-schema/schema-cache.js';

const text = (schema: object) => JSON.stringify(schema);

describe('SchemaCache (the schema worker thread\'s compiler)', () => {
  it('compiles a schema that validates data, with formats and annotations', () => {
    const validate = new SchemaCache().validator(
      text({ type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } }, examples: [{}], 'x-note': 1 }),
    );
    expect(validate({ email: 'a@example.com' })).toBe(true);
    expect(validate({ email: 'not an email' })).toBe(false);
    expect(validate({})).toBe(false);
  });

  it('caches by schema text: the same schema compiles once', () => {
    const cache = new SchemaCache();
    const a = cache.validator(text({ type: 'object' }));
    expect(cache.validator(text({ type: 'object' }))).toBe(a);
    expect(cache.validator(text({ type: 'array' }))).not.toBe(a);
  });

  it('keeps at most maxCached validators, evicting the oldest', () => {
    const cache = new SchemaCache(2);
    const first = cache.validator(text({ minimum: 1 }));
    cache.validator(text({ minimum: 2 }));
    cache.validator(text({ minimum: 3 }));
    expect(cache.validator(text({ minimum: 1 }))).not.toBe(first);
  });

  it("keeps one caller's $id out of another's schemas", () => {
    const cache = new SchemaCache();
    cache.validator(text({ $id: 'shared', type: 'object' }));
    expect(cache.validator(text({ $id: 'shared', type: 'string' }))('text')).toBe(true);
    expect(() => cache.validator(text({ $ref: 'shared' }))).toThrow();
  });

  it('forgets evicted schemas, so a $id can be compiled again after eviction', () => {
    const cache = new SchemaCache(2);
    cache.validator(text({ $id: 'x', type: 'object' }));
    cache.validator(text({ type: 'string' }));
    cache.validator(text({ type: 'number' }));
    expect(cache.validator(text({ $id: 'x', type: 'object' }))({})).toBe(true);
  });

  it('runs patterns in linear time, so a catastrophic pattern cannot stall the checker', () => {
    const validate = new SchemaCache().validator(text({ type: 'string', pattern: '^(a|aa)+$' }));
    // With a backtracking engine this input takes minutes; the linear engine answers at once.
    expect(validate(`${'a'.repeat(5000)}b`)).toBe(false);
    expect(validate('aaaa')).toBe(true);
  });
});
