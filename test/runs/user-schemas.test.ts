import type { ErrorObject } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/errors.js';
import { describeErrors, errorParam, UserSchemas } from '../../src/runs/user-schemas.js';

const open: UserSchemas[] = [];
function schemas(budgetMs = 10_000): UserSchemas {
  const s = new UserSchemas({ budgetMs });
  open.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function refusal(promise: Promise<unknown>): Promise<InvalidRequestError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidRequestError);
  return err as InvalidRequestError;
}

const BUDGET_MS = 500;

/**
 * Input whose check costs far more than BUDGET_MS on any machine (seconds, against half of one): every item
 * fails 300 branches of an anyOf before the last.
 */
function costlyCheck(items: number): { schema: Record<string, unknown>; data: unknown } {
  const branches = Array.from({ length: 300 }, (_, i) => ({ type: 'integer', minimum: 10 * i + 1_000_000, maximum: 10 * i + 1_000_005 }));
  return { schema: { type: 'object', properties: { xs: { type: 'array', items: { anyOf: [...branches, { type: 'integer' }] } } } }, data: { xs: new Array(items).fill(0) } };
}

describe('UserSchemas (compiled and checked in a worker thread)', () => {
  it('checks data against a schema, with formats and annotations', async () => {
    const s = schemas();
    const schema = { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } }, examples: [{}], 'x-note': 1 };
    await s.check(schema, 'output_schema');
    expect(await s.validate(schema, 'output_schema', { email: 'a@example.com' })).toEqual([]);
    expect((await s.validate(schema, 'output_schema', { email: 'not an email' })).map((e) => e.instancePath)).toEqual(['/email']);
    expect((await s.validate(schema, 'output_schema', {}))[0]).toMatchObject({ keyword: 'required', params: { missingProperty: 'email' } });
  });

  it.each([
    ['an unknown type', { type: 'banana' }],
    ['a bad regular expression', { pattern: '(' }],
    ['an unresolvable $ref', { $ref: '#/definitions/none' }],
    ['a remote $ref', { $ref: 'https://example.com/schema.json' }],
    ['required that is not a list', { required: 'a' }],
    ['a pattern the linear engine cannot run', { type: 'string', pattern: '^(a)\\1$' }],
  ])('refuses %s with 400 invalid_<param> naming the member', async (_name, schema) => {
    const s = schemas();
    const err = await refusal(s.check(schema, 'output_schema'));
    expect(err).toMatchObject({ code: 'invalid_output_schema', param: 'output_schema' });
    expect(err.message).toMatch(/^output_schema is not a valid JSON Schema: /);
    expect((await refusal(s.validate(schema, 'input_schema', {}))).code).toBe('invalid_input_schema');
  });

  it('refuses something that is not a schema object', async () => {
    for (const v of [null, 'x', 3, [1]]) expect((await refusal(schemas().check(v, 'output_schema'))).param).toBe('output_schema');
  });

  it("keeps one caller's $id out of another's schemas", async () => {
    const s = schemas();
    await s.check({ $id: 'shared', type: 'object' }, 'output_schema');
    expect(await s.validate({ $id: 'shared', type: 'string' }, 'output_schema', 'text')).toEqual([]);
    expect((await refusal(s.check({ $ref: 'shared' }, 'output_schema'))).code).toBe('invalid_output_schema');
  });

  it('refuses a schema beyond the bounds before compiling it, naming the member', async () => {
    const enumSchema = { type: 'object', properties: { city: { enum: Array.from({ length: 50_000 }, (_, i) => `city number ${i}`) } } };
    const err = await refusal(schemas().check(enumSchema, 'output_schema'));
    expect(err).toMatchObject({ code: 'schema_too_complex', param: 'output_schema.properties.city.enum' });
  });

  it('refuses, as schema_too_complex, a check that runs past the budget, and goes on answering after it', async () => {
    const s = schemas(BUDGET_MS);
    const costly = costlyCheck(400_000);
    await s.check(costly.schema, 'input_schema');
    const err = await refusal(s.validate(costly.schema, 'input_schema', costly.data));
    expect(err).toMatchObject({ code: 'schema_too_complex', param: 'input_schema' });
    expect(err.message).toBe(`input_schema is too costly to use: checking data against input_schema took longer than ${BUDGET_MS} ms (limits.schema_check_ms); make it smaller or simpler`);
    // The worker that ran past the budget was replaced; the next request gets an answer.
    expect(await s.validate({ type: 'integer' }, 'input_schema', 'x')).toHaveLength(1);
  });

  it('answers requests queued behind a costly one once it is cut off', async () => {
    const s = schemas(BUDGET_MS);
    const costly = costlyCheck(400_000);
    await s.check(costly.schema, 'input_schema');
    const [slow, quick] = await Promise.allSettled([s.validate(costly.schema, 'input_schema', costly.data), s.validate({ type: 'string' }, 'input_schema', 'fine')]);
    expect(slow).toMatchObject({ status: 'rejected', reason: { code: 'schema_too_complex' } });
    expect(quick).toEqual({ status: 'fulfilled', value: [] });
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
