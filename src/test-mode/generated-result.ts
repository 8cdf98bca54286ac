import { createHash } from 'node:crypto';
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { describeErrors, type UserSchemas } from '../runs/user-schemas.js';

/** Seeds tried in turn before a schema is said to be one the generator cannot satisfy. */
const ATTEMPTS = 5;

/** The result of a test-mode run without an output_schema: the shape a live run's agent most often gives. */
const NO_SCHEMA_RESULT = { answer: 'Errand test mode: a generated answer (no output_schema was given).' } as const;

export type GeneratedResult = { result: Record<string, unknown>; errors: [] } | { result: Record<string, unknown>; errors: string[] };

/**
 * A test-mode run's result, generated from its output_schema by json-schema-faker and checked by the daemon's own
 * validator (the one a live result is checked by). Deterministic: the seed is a hash of the run's prompt, inputs and
 * output_schema, so the same request gives the same result. When no seed gives a result the schema accepts (a
 * pattern or combination the generator does not understand), the last one is answered with what is wrong with it,
 * and the run ends as a live run whose agent could not satisfy the schema: succeeded, confidence low, warnings.
 */
export async function generatedResult(
  request: { prompt: string; inputs: unknown; outputSchema: Record<string, unknown> | null },
  schemas: Pick<UserSchemas, 'validate'>,
): Promise<GeneratedResult> {
  if (request.outputSchema === null) return { result: { ...NO_SCHEMA_RESULT }, errors: [] };
  const seed = requestSeed(request);
  let last: GeneratedResult | null = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const result = asObject(generate(request.outputSchema, seed + attempt));
    const errors = describeErrors('result', await schemas.validate(request.outputSchema, 'output_schema', result));
    if (errors.length === 0) return { result, errors: [] };
    last = { result, errors };
  }
  return last!;
}

/** A 31-bit seed from what the caller asked: the same request, the same result. */
export function requestSeed(request: { prompt: string; inputs: unknown; outputSchema: unknown }): number {
  const digest = createHash('sha256').update(JSON.stringify([request.prompt, request.inputs ?? null, request.outputSchema])).digest();
  return digest.readUInt32BE(0) >>> 1;
}

function generate(schema: Record<string, unknown>, seed: number): unknown {
  try {
    // Bounded like a page's worth of data: callers' schemas are already bounded (schema-bounds.ts), these bound what
    // the generator makes of them.
    return generateSync(schema as JsonSchema, { seed, maxDepth: 8, maxItems: 5, maxLength: 80, alwaysFakeOptionals: true });
  } catch (err) {
    return { errand_test_error: `the result could not be generated: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** A result is a JSON object, as a live run's is (a live agent's other values are wrapped the same way). */
function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}
