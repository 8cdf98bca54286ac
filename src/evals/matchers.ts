import type { Validated } from '../http-schemas/validated.js';
import { FAILURE_REASONS } from '../vocabulary/run-outcomes.js';

/**
 * The matcher vocabulary of eval cases (docs/api.md, Evaluations), said once: each matcher's name, what it takes (its
 * JSON Schema, which validates requests and makes the OpenAPI document) and when it passes (its description, which
 * docs/api.md's table repeats: test/docs/evals-doc.test.ts holds the two together). How each one compares is
 * `compare.ts`'s exhaustive switch over these names.
 *
 * A matcher is an object with exactly one member, the matcher's name: `{"equals": 42}`, `{"range": {"min": 10}}`.
 * Value matchers apply to the run's result, or to one member of it inside `members`; `members` and `failure_reason`
 * only to a case as a whole.
 */
export const MATCHERS = {
  equals: {
    applies: 'value',
    description: 'The value is this JSON value: objects member by member in any order, arrays item by item, numbers exactly.',
    schema: { description: 'The JSON value a good result has.' },
  },
  contains: {
    applies: 'value',
    description: 'A string that contains this text (case-sensitive), or an array with an item equal to this value.',
    schema: { description: 'Text a string must contain, or an item an array must have.' },
  },
  pattern: {
    applies: 'value',
    description: 'A string this regular expression matches anywhere (anchor it with `^` and `$`); run in linear time, so no backreferences or lookarounds.',
    schema: { type: 'string', minLength: 1, maxLength: 1000, description: 'A regular expression, as JSON Schema `pattern` reads it.' },
  },
  range: {
    applies: 'value',
    description: 'A number from `min` to `max`, both included; either may be left out.',
    schema: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { min: { type: 'number' }, max: { type: 'number' } },
      description: 'The bounds, `{min, max}`.',
    },
  },
  schema: {
    applies: 'value',
    description: "A value valid against this JSON Schema, held to the bounds of a job's output_schema and checked in the schema worker.",
    schema: { type: 'object', additionalProperties: true, description: 'A JSON Schema.' },
  },
  members: {
    applies: 'result',
    description:
      'The result, member by member: each named member (a dotted path reaches nested members and array items: `address.city`, `items.0`) passes its own value matcher; members not named are not checked.',
  },
  failure_reason: {
    applies: 'run',
    description: 'The run fails, with this `failure_reason`.',
    schema: { type: 'string', enum: FAILURE_REASONS, description: 'The failure_reason a good run ends with.' },
  },
} as const;

/** What each kind of matcher applies to, in docs/api.md's words. */
export const MATCHER_SCOPES = {
  value: 'the result, or one member of it in `members`',
  result: 'the result',
  run: 'how the run ended',
} as const;

export type MatcherName = keyof typeof MATCHERS;
export const MATCHER_NAMES = Object.keys(MATCHERS) as MatcherName[];

/** The most members one `members` matcher names. */
export const MAX_MEMBERS = 100;

/** A matcher of one value: the run's whole result, or one member of it. */
export const valueMatcherSchema = {
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
  description: 'Exactly one of equals, contains, pattern, range, schema (docs/api.md, Evaluations).',
  properties: {
    equals: MATCHERS.equals.schema,
    contains: MATCHERS.contains.schema,
    pattern: MATCHERS.pattern.schema,
    range: MATCHERS.range.schema,
    schema: MATCHERS.schema.schema,
  },
} as const;

/** What a good run of a case is: a value matcher of its result, its result member by member, or a failure. */
export const expectationSchema = {
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
  description: 'Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations).',
  properties: {
    ...valueMatcherSchema.properties,
    members: {
      type: 'object',
      minProperties: 1,
      maxProperties: MAX_MEMBERS,
      propertyNames: { minLength: 1, maxLength: 200 },
      additionalProperties: valueMatcherSchema,
      description: 'A value matcher per member of the result, by name or dotted path.',
    },
    failure_reason: MATCHERS.failure_reason.schema,
  },
} as const;

export type ValueMatcher = Validated<typeof valueMatcherSchema>;
export type Expectation = Validated<typeof expectationSchema>;

/** The one matcher an expectation or value matcher holds, by name. */
export function matcherOf<M extends object>(matcher: M): { name: keyof M & MatcherName; arg: M[keyof M] } {
  const name = Object.keys(matcher)[0] as keyof M & MatcherName;
  return { name, arg: matcher[name] };
}
