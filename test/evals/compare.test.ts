/**
 * How a case's expectation is compared with how its run ended (src/evals/compare.ts): the differences a person reads,
 * expected beside got, each at its member. `schema` and `pattern` are checked by the real schema worker.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { compare, expectationWords, MAX_DIFFERENCES, type RunEnd } from '../../src/evals/compare.js';
import type { Expectation } from '../../src/evals/matchers.js';
import { UserSchemas } from '../../src/runs/user-schemas.js';

const schemas = new UserSchemas({ budgetMs: 5_000 });
afterAll(() => schemas.close());

const succeeded = (result: Record<string, unknown>): RunEnd => ({ status: 'succeeded', result, failure_reason: null, failure_detail: null });
const grade = (expect: Expectation, run: RunEnd) => compare(expect, run, schemas);

describe('compare', () => {
  it('passes a result equal to the expected one whatever the order of its members', async () => {
    expect(await grade({ equals: { a: 1, b: [1, { c: 'x' }] } }, succeeded({ b: [1, { c: 'x' }], a: 1 }))).toEqual([]);
  });

  it('names each member and item that differs from an equals, the missing and the extra ones', async () => {
    const differences = await grade({ equals: { name: 'Blue Mug', price: 12.5, tags: ['a', 'b'] } }, succeeded({ name: 'Blue Mug', price: 15, tags: ['a', 'c', 'd'], stock: 3 }));
    expect(differences).toEqual([
      { path: 'result.price', expected: '12.5', got: '15' },
      { path: 'result.tags.1', expected: '"b"', got: '"c"' },
      { path: 'result.tags.2', expected: '(no such item)', got: '"d"' },
      { path: 'result.stock', expected: '(no such member)', got: '3' },
    ]);
    expect(await grade({ members: { 'address.city': { equals: 'Oslo' } } }, succeeded({ address: {} }))).toEqual([{ path: 'result.address.city', expected: '"Oslo"', got: '(missing)' }]);
  });

  it('reads contains of a string as text in it, and of an array as an item equal to the value', async () => {
    expect(await grade({ members: { tags: { contains: { id: 2 } } } }, succeeded({ tags: [{ id: 1 }, { id: 2 }] }))).toEqual([]);
    expect(await grade({ members: { note: { contains: 'Mug' } } }, succeeded({ note: 'a blue mug' }))).toEqual([
      { path: 'result.note', expected: 'a string containing "Mug"', got: '"a blue mug"' },
    ]);
  });

  it('checks a pattern and a schema in the schema worker, saying what the schema found', async () => {
    expect(await grade({ members: { sku: { pattern: '^A-\\d+$' } } }, succeeded({ sku: 'A-100' }))).toEqual([]);
    expect(await grade({ members: { sku: { pattern: '^A-\\d+$' } } }, succeeded({ sku: 'B-200' }))).toEqual([{ path: 'result.sku', expected: 'a string matching /^A-\\d+$/', got: '"B-200"' }]);
    expect(await grade({ members: { sku: { pattern: '^A' } } }, succeeded({ sku: 7 }))).toEqual([{ path: 'result.sku', expected: 'a string matching /^A/', got: '7' }]);
    expect(await grade({ schema: { type: 'object', required: ['price'], properties: { price: { type: 'number' } } } }, succeeded({ price: 'twelve' }))).toEqual([
      { path: 'result', expected: 'a value valid against the schema (result.price must be number)', got: '{"price":"twelve"}' },
    ]);
  });

  it('checks a range with either bound left out, and a number only', async () => {
    expect(await grade({ members: { n: { range: { min: 1 } } } }, succeeded({ n: 1 }))).toEqual([]);
    expect(await grade({ members: { n: { range: { max: 1 } } } }, succeeded({ n: 2 }))).toEqual([{ path: 'result.n', expected: 'a number of at most 1', got: '2' }]);
    expect(await grade({ members: { n: { range: { min: 1, max: 2 } } } }, succeeded({ n: '1' }))).toEqual([{ path: 'result.n', expected: 'a number from 1 to 2', got: '"1"' }]);
  });

  it('says how the run ended when it did not end as expected', async () => {
    const failed: RunEnd = { status: 'failed', result: null, failure_reason: 'site_down', failure_detail: 'The shop did not answer.' };
    expect(await grade({ failure_reason: 'site_down' }, failed)).toEqual([]);
    expect(await grade({ failure_reason: 'not_found' }, failed)).toEqual([{ path: 'run', expected: 'failed with not_found', got: 'failed with site_down: The shop did not answer.' }]);
    expect(await grade({ equals: {} }, failed)).toEqual([{ path: 'run', expected: 'succeeded with a result', got: 'failed with site_down: The shop did not answer.' }]);
    expect(await grade({ equals: {} }, { status: 'cancelled', result: null, failure_reason: null, failure_detail: null })).toEqual([{ path: 'run', expected: 'succeeded with a result', got: 'cancelled' }]);
  });

  it(`lists at most ${MAX_DIFFERENCES} differences, the last saying how many more there were, and shortens long values`, async () => {
    const expected = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`m${i}`, i]));
    const differences = await grade({ equals: expected }, succeeded({}));
    expect(differences).toHaveLength(MAX_DIFFERENCES);
    expect(differences.at(-1)).toEqual({ path: 'result', expected: '(as above)', got: 'and 11 more differences' });
    const [long] = await grade({ members: { text: { equals: 'short' } } }, succeeded({ text: 'x'.repeat(500) }));
    expect(long!.got).toHaveLength(200);
    expect(long!.got.endsWith('…')).toBe(true);
  });

  it('words an expectation as its differences do', () => {
    expect(expectationWords({ members: { sum: { equals: 7 }, note: { contains: 'is 7' } } })).toEqual([
      { path: 'result.sum', expected: '7' },
      { path: 'result.note', expected: 'a string containing "is 7"' },
    ]);
    expect(expectationWords({ failure_reason: 'captcha' })).toEqual([{ path: 'run', expected: 'failed with captcha' }]);
  });
});
