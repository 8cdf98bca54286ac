import { InvalidRequestError } from '../errors.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import { matcherOf, type Expectation, type ValueMatcher } from './matchers.js';

/** The code of every refused expectation: a schema that does not compile, a pattern that cannot run, a bad path. */
export const INVALID_EXPECTATION = 'invalid_expectation';

/**
 * Checks what a case's expectation holds before the case is kept or run, the way a job's schemas are checked: a
 * `schema` matcher is held to the schema bounds and compiled in the schema worker, a `pattern` compiled there by the
 * linear-time engine, and member paths must name members. Throws 400 naming the member (`cases.3.expect.pattern`).
 */
export async function checkExpectation(schemas: Pick<UserSchemas, 'check'>, expect: Expectation, param: string): Promise<void> {
  const { name, arg } = matcherOf(expect);
  if (name === 'members') {
    for (const [path, matcher] of Object.entries(arg as Record<string, ValueMatcher>)) {
      const where = `${param}.members.${path}`;
      if (path.split('.').some((segment) => segment === '')) {
        throw new InvalidRequestError(INVALID_EXPECTATION, `${where}: a member path is names joined by dots (address.city, items.0), with no empty name`, { param: where });
      }
      await checkValueMatcher(schemas, matcher, where);
    }
    return;
  }
  if (name === 'failure_reason') return;
  await checkValueMatcher(schemas, { [name]: arg } as ValueMatcher, param);
}

async function checkValueMatcher(schemas: Pick<UserSchemas, 'check'>, matcher: ValueMatcher, param: string): Promise<void> {
  const { name, arg } = matcherOf(matcher);
  switch (name) {
    case 'schema':
      await schemas.check(arg, `${param}.schema`, INVALID_EXPECTATION);
      return;
    case 'pattern':
      try {
        await schemas.check({ type: 'string', pattern: arg }, `${param}.pattern`, INVALID_EXPECTATION);
      } catch (err) {
        // The schema around it is ours: say what is wrong with the pattern.
        if (err instanceof InvalidRequestError && err.code === INVALID_EXPECTATION) {
          throw new InvalidRequestError(INVALID_EXPECTATION, `${param}.pattern cannot be used: ${err.message.replace(/^.* is not a valid JSON Schema: /, '')}`, { param: `${param}.pattern` });
        }
        throw err;
      }
      return;
    case 'range': {
      const { min, max } = arg as { min?: number; max?: number };
      if (min !== undefined && max !== undefined && min > max) {
        throw new InvalidRequestError(INVALID_EXPECTATION, `${param}.range has min ${min} above max ${max}: no number passes`, { param: `${param}.range` });
      }
      return;
    }
    case 'equals':
    case 'contains':
      return;
    default: {
      const never: never = name;
      throw new Error(`unknown value matcher ${String(never)}`);
    }
  }
}
