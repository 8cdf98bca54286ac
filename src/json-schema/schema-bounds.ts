import { InvalidRequestError } from '../errors.js';

/**
 * What a caller's `input_schema` or `output_schema` may hold (#10). Compiling a schema costs at least its size (a
 * large `enum` used to stall the daemon for seconds), and checking data against `uniqueItems` costs the square of the
 * array's length when its items are objects; these bounds keep both small, and say so with a 400 naming the member
 * rather than leaving it to the time limit of the worker thread that compiles and checks (see UserSchemas).
 */
export const SCHEMA_BOUNDS = {
  /** Bytes of the schema's JSON text. */
  maxBytes: 64 * 1024,
  /** Values of one `enum`. */
  maxEnumValues: 1_000,
  /** Nesting of objects and arrays in the schema. */
  maxDepth: 32,
  /** The `maxItems` an array with `uniqueItems: true` must declare, at most. */
  maxUniqueItems: 1_000,
} as const;

/** Members whose values are data, not subschemas: their contents are not read as keywords. */
const DATA_MEMBERS = new Set(['enum', 'const', 'default', 'examples']);
/** Members whose values map names (which may be anything, `enum` included) to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'dependencies']);

/**
 * Checks `schema` against the bounds; answers its JSON text. Throws `400 schema_too_complex` with `param` pointing at
 * the member that is too large (`output_schema.properties.city.enum`).
 */
export function checkSchemaBounds(schema: Record<string, unknown>, param: string): string {
  // The members first: naming the enum that is too long says more than the size it makes the whole.
  walk(schema, param, 1);
  const text = JSON.stringify(schema);
  const bytes = Buffer.byteLength(text);
  if (bytes > SCHEMA_BOUNDS.maxBytes) {
    throw tooComplex(param, `${param} is ${bytes} bytes of JSON; at most ${SCHEMA_BOUNDS.maxBytes} are accepted`);
  }
  return text;
}

function walk(node: unknown, path: string, depth: number): void {
  if (typeof node !== 'object' || node === null) return;
  if (depth > SCHEMA_BOUNDS.maxDepth) throw tooComplex(path, `${path} nests objects and arrays more than ${SCHEMA_BOUNDS.maxDepth} levels deep`);
  if (Array.isArray(node)) {
    node.forEach((item, i) => walk(item, `${path}.${i}`, depth + 1));
    return;
  }
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema.enum) && schema.enum.length > SCHEMA_BOUNDS.maxEnumValues) {
    throw tooComplex(`${path}.enum`, `${path}.enum has ${schema.enum.length} values; at most ${SCHEMA_BOUNDS.maxEnumValues} are accepted`);
  }
  if (schema.uniqueItems === true && !(typeof schema.maxItems === 'number' && schema.maxItems <= SCHEMA_BOUNDS.maxUniqueItems)) {
    throw tooComplex(
      `${path}.uniqueItems`,
      `${path}.uniqueItems needs maxItems of at most ${SCHEMA_BOUNDS.maxUniqueItems} beside it: checking that items are unique costs the square of their number`,
    );
  }
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_MEMBERS.has(key)) measureDepth(value, `${path}.${key}`, depth + 1);
    else if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [name, sub] of Object.entries(value)) walk(sub, `${path}.${key}.${name}`, depth + 2);
    } else walk(value, `${path}.${key}`, depth + 1);
  }
}

/** Data inside a schema (an `enum`'s values, `examples`) counts for depth but holds no keywords. */
function measureDepth(node: unknown, path: string, depth: number): void {
  if (typeof node !== 'object' || node === null) return;
  if (depth > SCHEMA_BOUNDS.maxDepth) throw tooComplex(path, `${path} nests objects and arrays more than ${SCHEMA_BOUNDS.maxDepth} levels deep`);
  for (const [key, value] of Object.entries(node)) measureDepth(value, `${path}.${key}`, depth + 1);
}

function tooComplex(param: string, message: string): InvalidRequestError {
  return new InvalidRequestError('schema_too_complex', message, { param });
}
