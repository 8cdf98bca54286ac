import { describeErrors, type UserSchemas } from '../../../runs/user-schemas.js';

/** What is wrong with a result under the run's output schema (`result.city must be string`), or nothing. */
export function resultErrors(result: unknown, outputSchema: Record<string, unknown> | null, schemas: UserSchemas): string[] {
  if (outputSchema === null) return [];
  const validate = schemas.compile(outputSchema, 'output_schema');
  return validate(result) ? [] : describeErrors('result', validate.errors ?? []);
}
