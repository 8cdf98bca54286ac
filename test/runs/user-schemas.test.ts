import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/errors.js';
import { describeErrors, errorParam, UserSchemas } from '../../src/runs/user-schemas.js';

function refusal(fn: () => unknown): InvalidRequestError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError);
    return err as InvalidRequestError;
  }
  throw new Error('expected an InvalidRequestError');
}

describe('UserSchemas.compile', () => {
  it('compiles a schema that validates data, with formats and annotations', () => {
    const validate = new UserSchemas().compile(
      { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } }, examples: [{}], 'x-note': 1 },
      'output_schema',
    );
    expect(validate({ email: 'a@example.com' })).toBe(true);
    expect(validate({ email: 'not an email' })).toBe(false);
    expect(validate({})).toBe(false);
  });

  it('caches by schema text: the same schema compiles once', () => {
    const schemas = new UserSchemas();
    const a = schemas.compile({ type: 'object' }, 'output_schema');
    expect(schemas.compile({ type: 'object' }, 'input_schema')).toBe(a);
    expect(schemas.compile({ type: 'array' }, 'output_schema')).not.toBe(a);
  });

  it('keeps at most maxCached validators, evicting the oldest', () => {
    const schemas = new UserSchemas(2);
    const first = schemas.compile({ minimum: 1 }, 'output_schema');
    schemas.compile({ minimum: 2 }, 'output_schema');
    schemas.compile({ minimum: 3 }, 'output_schema');
    expect(schemas.compile({ minimum: 1 }, 'output_schema')).not.toBe(first);
  });

  it.each([
    ['an unknown type', { type: 'banana' }],
    ['a bad regular expression', { pattern: '(' }],
    ['an unresolvable $ref', { $ref: '#/definitions/none' }],
    ['a remote $ref', { $ref: 'https://example.com/schema.json' }],
    ['required that is not a list', { required: 'a' }],
  ])('refuses %s with 400 invalid_<param> naming the member', (_name, schema) => {
    const err = refusal(() => new UserSchemas().compile(schema, 'output_schema'));
    expect(err.code).toBe('invalid_output_schema');
    expect(err.param).toBe('output_schema');
    expect(refusal(() => new UserSchemas().compile(schema, 'input_schema')).code).toBe('invalid_input_schema');
  });

  it('refuses something that is not a schema object', () => {
    for (const v of [null, 'x', 3, [1]]) expect(refusal(() => new UserSchemas().compile(v, 'output_schema')).param).toBe('output_schema');
  });
});

describe('errorParam', () => {
  const e = (over: Partial<ErrorObject>): ErrorObject => ({ instancePath: '', schemaPath: '#', keyword: 'type', params: {}, ...over });

  it('names a missing member at the root and deeper', () => {
    expect(errorParam('inputs', e({ keyword: 'required', params: { missingProperty: 'city' } }))).toBe('inputs.city');
    expect(errorParam('inputs', e({ keyword: 'required', instancePath: '/addr', params: { missingProperty: 'zip' } }))).toBe('inputs.addr.zip');
  });

  it('names a member of the wrong type and an unexpected one', () => {
    expect(errorParam('inputs', e({ instancePath: '/city' }))).toBe('inputs.city');
    expect(errorParam('inputs', e({ keyword: 'additionalProperties', params: { additionalProperty: 'extra' } }))).toBe('inputs.extra');
  });

  it('describes each error with its path', () => {
    expect(describeErrors('result', [e({ instancePath: '/price', message: 'must be number' })])).toEqual(['result.price must be number']);
  });
});

describe('UserSchemas and callers\' regular expressions', () => {
  it('runs patterns in linear time, so a catastrophic pattern cannot stall the daemon', () => {
    const validate = new UserSchemas().compile({ type: 'string', pattern: '^(a|aa)+$' }, 'input_schema');
    // With a backtracking engine this input takes minutes; the linear engine answers at once.
    expect(validate(`${'a'.repeat(5000)}b`)).toBe(false);
    expect(validate('aaaa')).toBe(true);
  });

  it('refuses patterns the linear engine cannot run, naming the member', () => {
    const err = refusal(() => new UserSchemas().compile({ type: 'string', pattern: '^(a)\\1$' }, 'output_schema'));
    expect(err.param).toBe('output_schema');
    expect(err.message).toContain('pattern');
  });

  it("keeps one caller's $id out of another's schemas", () => {
    const schemas = new UserSchemas();
    schemas.compile({ $id: 'shared', type: 'object' }, 'output_schema');
    expect(schemas.compile({ $id: 'shared', type: 'string' }, 'output_schema')('text')).toBe(true);
    const err = refusal(() => schemas.compile({ $ref: 'shared' }, 'output_schema'));
    expect(err.code).toBe('invalid_output_schema');
  });

  it('forgets evicted schemas, so a $id can be compiled again after eviction', () => {
    const schemas = new UserSchemas(2);
    schemas.compile({ $id: 'x', type: 'object' }, 'output_schema');
    schemas.compile({ type: 'string' }, 'output_schema');
    schemas.compile({ type: 'number' }, 'output_schema');
    expect(schemas.compile({ $id: 'x', type: 'object' }, 'output_schema')({})).toBe(true);
  });
});
