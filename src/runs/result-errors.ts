import { describeErrors, type UserSchemas } from './user-schemas.js';

/**
 * What is wrong with a result under the run's output schema (`result.city must be string`), or nothing. A schema the
 * checker refuses (too costly to check within its budget) is reported the same way, as what is wrong.
 */
export async function resultErrors(result: unknown, outputSchema: Record<string, unknown> | null, schemas: UserSchemas): Promise<string[]> {
  if (outputSchema === null) return [];
  try {
    return describeErrors('result', await schemas.validate(outputSchema, 'output_schema', result));
  } catch (err) {
    return [`the result could not be checked: ${(err as Error).message}`];
  }
}
