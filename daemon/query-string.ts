import type { Ajv, ValidateFunction } from 'ajv';
import { InvalidRequestError } from '../src/errors.js';

/** Set on a parsed query string that held a name or value whose percent-encoding is broken: the name, as sent. */
const MALFORMED = Symbol('malformed query parameter');

/** A query string as `parseQueryString` reads it, before any route's schema has checked it. */
export type ParsedQuery = Record<string, string | string[]> & { [MALFORMED]?: string };

/**
 * Reads a query string strictly (#10): `+` is a space and `%XX` escapes must form UTF-8, as `decodeURIComponent`
 * requires; a broken one (`job_id=%`, `%E0%A4%A`) is remembered rather than passed on as literal text, so that the
 * route's validator answers 400 naming the parameter. A name given twice becomes an array, which no query schema
 * accepts.
 */
export function parseQueryString(text: string): ParsedQuery {
  const query: ParsedQuery = {};
  if (text.length === 0) return query;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const name = decode(rawName);
    const value = decode(eq === -1 ? '' : pair.slice(eq + 1));
    if (name === null || value === null) {
      query[MALFORMED] ??= name ?? rawName;
      continue;
    }
    const prior = query[name];
    if (prior === undefined) query[name] = value;
    else query[name] = Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return query;
}

function decode(text: string): string | null {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** Decimal integers only: `0x10`, `0b11`, `1e1`, `+5`, ` 5` and `1.0` are not what a caller means by a number. */
const DECIMAL_INTEGER = /^-?(0|[1-9][0-9]{0,14})$/;

type QueryValidator = (data: unknown) => boolean | { error: InvalidRequestError } | { value: unknown };

/**
 * The validator of a route's query string. Query values arrive as text; members the schema types `integer` are
 * converted here, from decimal digits only, before the schema (compiled without type coercion) checks the rest.
 */
export function compileQueryValidator(ajv: Ajv, schema: Record<string, unknown>): QueryValidator {
  const validate: ValidateFunction = ajv.compile(schema);
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const integers = Object.keys(properties).filter((name) => properties[name]!.type === 'integer');
  const check: QueryValidator & { errors?: unknown } = (data) => {
    const query = data as ParsedQuery | null;
    if (query !== null && typeof query === 'object') {
      const broken = query[MALFORMED];
      if (broken !== undefined) {
        return { error: new InvalidRequestError('invalid_request', `Query parameter '${broken}' has broken percent-encoding`, { param: broken }) };
      }
      for (const name of integers) {
        const raw = query[name];
        if (typeof raw !== 'string') continue;
        if (!DECIMAL_INTEGER.test(raw)) {
          return { error: new InvalidRequestError('invalid_request', `Query parameter '${name}' must be a decimal integer, got '${raw}'`, { param: name }) };
        }
        (query as Record<string, unknown>)[name] = Number(raw);
      }
    }
    const ok = validate(data);
    check.errors = validate.errors;
    return ok;
  };
  return check;
}
