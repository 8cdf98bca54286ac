import type { ErrorObject } from 'ajv';
import { ErrandError } from '../errors.js';
import { describeErrors } from '../runs/user-schemas.js';
import type { FailureReason } from '../vocabulary/run-outcomes.js';
import type { RunStatus } from '../vocabulary/run-status.js';
import { matcherOf, type Expectation, type ValueMatcher } from './matchers.js';

/** Where a run's result differs from a good one, in words a person reads side by side: expected, then got. */
export interface Difference {
  /** `result`, a member of it (`result.price`, `result.items.0`), or `run` for how the run ended. */
  path: string;
  /** What a good run has there. */
  expected: string;
  /** What this run has there: JSON (shortened past 200 characters), or `(missing)`. */
  got: string;
}

/** How a run ended, as grading reads it. */
export interface RunEnd {
  status: RunStatus;
  result: Record<string, unknown> | null;
  failure_reason: FailureReason | null;
  failure_detail: string | null;
}

/** Callers' schemas, checked in the schema worker (runs/user-schemas.ts): what `schema` and `pattern` need. */
export interface SchemaChecks {
  validate(schema: unknown, param: string, data: unknown, code?: string): Promise<ErrorObject[]>;
}

/** At most this many differences are listed per case; the last says how many more there were. */
export const MAX_DIFFERENCES = 20;
const MAX_TEXT = 200;

/** The differences between a run's end and the case's expectation: none when the case passes. */
export async function compare(expect: Expectation, run: RunEnd, schemas: SchemaChecks): Promise<Difference[]> {
  const { name, arg } = matcherOf(expect);
  if (name === 'failure_reason') {
    if (run.status === 'failed' && run.failure_reason === arg) return [];
    return [{ path: 'run', expected: `failed with ${String(arg)}`, got: endedAs(run) }];
  }
  if (run.status !== 'succeeded') return [{ path: 'run', expected: 'succeeded with a result', got: endedAs(run) }];
  const out: Difference[] = [];
  if (name === 'members') {
    for (const [member, matcher] of Object.entries(arg as Record<string, ValueMatcher>)) {
      await compareValue(matcher, at(run.result, member), `result.${member}`, schemas, out);
    }
  } else {
    await compareValue({ [name]: arg } as ValueMatcher, run.result, 'result', schemas, out);
  }
  return capped(out);
}

/** The differences of one value against a value matcher, added to `out`. */
async function compareValue(matcher: ValueMatcher, value: unknown, path: string, schemas: SchemaChecks, out: Difference[]): Promise<void> {
  const { name, arg } = matcherOf(matcher);
  const expected = expectedOf(matcher);
  switch (name) {
    case 'equals':
      diffEquals(arg, value, path, out);
      return;
    case 'contains':
      if (!containsValue(value, arg)) out.push({ path, expected, got: show(value) });
      return;
    case 'pattern': {
      const check = typeof value === 'string' ? await checkAgainst({ type: 'string', pattern: arg }, value, path, schemas) : NOT_CHECKED;
      // The schema's own words would only repeat `expected`; a check that could not be made says why.
      if (!check.valid) out.push({ path, expected, got: check.unchecked ? `${show(value)} (${check.why})` : show(value) });
      return;
    }
    case 'range': {
      const { min, max } = arg as { min?: number; max?: number };
      if (typeof value !== 'number' || (min !== undefined && value < min) || (max !== undefined && value > max)) out.push({ path, expected, got: show(value) });
      return;
    }
    case 'schema': {
      const check = value === undefined ? NOT_CHECKED : await checkAgainst(arg, value, path, schemas);
      if (!check.valid) out.push({ path, expected: check.why === null ? expected : `${expected} (${check.why})`, got: show(value) });
      return;
    }
    default: {
      const never: never = name;
      throw new Error(`unknown value matcher ${String(never)}`);
    }
  }
}

/** What a value matcher asks for, in words: the `expected` of its differences, and the report's. */
export function expectedOf(matcher: ValueMatcher): string {
  const { name, arg } = matcherOf(matcher);
  switch (name) {
    case 'equals':
      return show(arg);
    case 'contains':
      return typeof arg === 'string' ? `a string containing ${show(arg)}` : `an array with an item equal to ${show(arg)}`;
    case 'pattern':
      return `a string matching /${String(arg)}/`;
    case 'range': {
      const { min, max } = arg as { min?: number; max?: number };
      if (min !== undefined && max !== undefined) return `a number from ${min} to ${max}`;
      return min !== undefined ? `a number of at least ${min}` : `a number of at most ${max}`;
    }
    case 'schema':
      return 'a value valid against the schema';
    default: {
      const never: never = name;
      throw new Error(`unknown value matcher ${String(never)}`);
    }
  }
}

/** A case's expectation in words, one line per thing it checks, by where: `result.sum`: `7`; `run`: `failed with not_found`. */
export function expectationWords(expect: Expectation): Omit<Difference, 'got'>[] {
  const { name, arg } = matcherOf(expect);
  if (name === 'failure_reason') return [{ path: 'run', expected: `failed with ${String(arg)}` }];
  if (name === 'members') return Object.entries(arg as Record<string, ValueMatcher>).map(([member, m]) => ({ path: `result.${member}`, expected: expectedOf(m) }));
  return [{ path: 'result', expected: expectedOf({ [name]: arg } as ValueMatcher) }];
}

/**
 * Whether `value` is valid under `schema` and, when it is not, why in words: the schema's errors, or that the check
 * could not be made (too costly: limits.schema_check_ms), which fails the case too.
 */
async function checkAgainst(schema: unknown, value: unknown, path: string, schemas: SchemaChecks): Promise<SchemaCheck> {
  try {
    const errors = await schemas.validate(schema, path, value, 'invalid_expectation');
    return errors.length === 0 ? { valid: true, why: null, unchecked: false } : { valid: false, why: describeErrors(path, errors).join('; '), unchecked: false };
  } catch (err) {
    if (err instanceof ErrandError) return { valid: false, why: `could not be checked: ${err.message}`, unchecked: true };
    throw err;
  }
}

interface SchemaCheck {
  valid: boolean;
  /** The schema's errors in words, or why it could not be checked; null when valid or not checked at all. */
  why: string | null;
  unchecked: boolean;
}

/** A value of the wrong kind (not a string for a pattern, missing for a schema) is not sent to be checked. */
const NOT_CHECKED: SchemaCheck = { valid: false, why: null, unchecked: false };

/** Member by member for objects, item by item for arrays, so that each difference names where it is. */
function diffEquals(expected: unknown, got: unknown, path: string, out: Difference[]): void {
  if (isObject(expected) && isObject(got)) {
    for (const [k, v] of Object.entries(expected)) diffEquals(v, Object.hasOwn(got, k) ? got[k] : undefined, `${path}.${k}`, out);
    for (const k of Object.keys(got)) if (!Object.hasOwn(expected, k)) out.push({ path: `${path}.${k}`, expected: '(no such member)', got: show(got[k]) });
    return;
  }
  if (Array.isArray(expected) && Array.isArray(got)) {
    for (let i = 0; i < Math.max(expected.length, got.length); i++) {
      if (i >= expected.length) out.push({ path: `${path}.${i}`, expected: '(no such item)', got: show(got[i]) });
      else diffEquals(expected[i], got[i], `${path}.${i}`, out);
    }
    return;
  }
  if (!sameJson(expected, got)) out.push({ path, expected: show(expected), got: show(got) });
}

function containsValue(value: unknown, arg: unknown): boolean {
  if (typeof value === 'string' && typeof arg === 'string') return value.includes(arg);
  return Array.isArray(value) && value.some((item) => sameJson(item, arg));
}

/** JSON equality: objects whatever their members' order, numbers exactly. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

/** The value at a dotted path of the result (`address.city`, `items.0`), or undefined where there is none. */
function at(result: unknown, path: string): unknown {
  let value: unknown = result;
  for (const segment of path.split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(segment)) value = value[Number(segment)];
    else if (isObject(value) && Object.hasOwn(value, segment)) value = value[segment];
    else return undefined;
  }
  return value;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How the run ended, for a difference about it. */
function endedAs(run: RunEnd): string {
  if (run.status === 'succeeded') return `succeeded with ${show(run.result)}`;
  if (run.status === 'failed') return `failed with ${run.failure_reason ?? 'no reason'}${run.failure_detail === null ? '' : `: ${run.failure_detail}`}`;
  return run.status;
}

/** A value as a difference shows it. */
export function show(value: unknown): string {
  if (value === undefined) return '(missing)';
  const text = JSON.stringify(value);
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}

function capped(out: Difference[]): Difference[] {
  if (out.length <= MAX_DIFFERENCES) return out;
  const more = out.length - (MAX_DIFFERENCES - 1);
  return [...out.slice(0, MAX_DIFFERENCES - 1), { path: 'result', expected: '(as above)', got: `and ${more} more differences` }];
}
