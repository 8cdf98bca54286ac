import { InvalidRequestError } from '../errors.js';
import { fillPlaceholders } from './placeholders.js';
import { errorParam, type UserSchemas } from './user-schemas.js';

export interface InputsOf {
  prompt: string;
  inputSchema: Record<string, unknown> | null;
  inputs: Record<string, unknown>;
}

/**
 * Checks inputs the way a run's are checked: against the job's input_schema (its first violation is
 * `missing_input` for a missing required member, else `invalid_inputs`), then against the prompt's placeholders.
 * Answers the filled prompt. `prefix` is where the inputs sit in the request: `inputs` for a run,
 * `schedule.inputs` for a job's schedule.
 */
export async function checkInputs(schemas: UserSchemas, o: InputsOf, prefix = 'inputs'): Promise<string> {
  if (o.inputSchema) {
    const errors = await schemas.validate(o.inputSchema, 'input_schema', o.inputs);
    if (errors.length > 0) {
      const first = errors[0]!;
      const param = errorParam(prefix, first);
      if (first.keyword === 'required') throw new InvalidRequestError('missing_input', `${param} is required by the job's input_schema`, { param });
      throw new InvalidRequestError('invalid_inputs', `${param} ${first.message ?? 'is invalid'}`, { param });
    }
  }
  return fillPlaceholders(o.prompt, o.inputs, prefix);
}
