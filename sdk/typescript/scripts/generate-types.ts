/**
 * Turns the daemon's OpenAPI document into the SDK's types (src/generated/openapi.ts): `paths` (each operation's
 * parameters, request body and responses), `webhooks` (each webhook's body) and `components`. The same layout as
 * openapi-typescript's, written here so that the SDK needs no generator package; test S10 checks the checked-in file
 * against what this makes from the document a running daemon serves.
 *
 *   npx tsx sdk/typescript/scripts/generate-types.ts http://127.0.0.1:7777/v1/openapi.json > sdk/typescript/src/generated/openapi.ts
 *   npx tsx sdk/typescript/scripts/generate-types.ts openapi.json > ...
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Schema = Record<string, any> | boolean;
type Doc = Record<string, any>;

const HEADER = `/**
 * Generated from the daemon's OpenAPI document by sdk/typescript/scripts/generate-types.ts: do not edit.
 * Regenerate after changing a route schema (test S10 fails until then).
 */
/* eslint-disable */
`;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function generateTypes(doc: Doc): string {
  const out: string[] = [HEADER];
  out.push(`export interface paths {\n${block(Object.entries(doc.paths ?? {}).map(([path, item]) => `${key(path)}: ${pathItem(item as Doc, 1)};`), 0)}}\n`);
  out.push(`export interface webhooks {\n${block(Object.entries(doc.webhooks ?? {}).map(([name, item]) => `${key(name)}: ${pathItem(item as Doc, 1)};`), 0)}}\n`);
  const schemas = Object.entries(doc.components?.schemas ?? {}).map(([name, s]) => `${doc_(s as Schema, 2)}${key(name)}: ${type(s as Schema, 2)};`);
  out.push(`export interface components {\n  schemas: {\n${block(schemas, 1)}  };\n}\n`);
  return out.join('\n');
}

function pathItem(item: Doc, depth: number): string {
  const ops = METHODS.filter((m) => item[m]).map((m) => `${doc_(item[m], depth + 1, item[m].summary)}${m}: ${operation(item[m], depth + 1)};`);
  return `{\n${block(ops, depth)}${pad(depth)}}`;
}

function operation(op: Doc, depth: number): string {
  const lines: string[] = [];
  const params = (op.parameters ?? []) as Doc[];
  const groups = ['query', 'header', 'path'].map((place) => {
    const ps = params.filter((p) => p.in === place);
    if (ps.length === 0) return `${place}?: never;`;
    const members = ps.map((p) => `${doc_(p, depth + 3)}${key(p.name)}${p.required ? '' : '?'}: ${type(p.schema ?? {}, depth + 3)};`);
    const optional = ps.every((p) => !p.required);
    return `${place}${optional ? '?' : ''}: {\n${block(members, depth + 2)}${pad(depth + 2)}};`;
  });
  lines.push(`parameters: {\n${block(groups, depth + 1)}${pad(depth + 1)}};`);
  const body = op.requestBody as Doc | undefined;
  lines.push(body ? `requestBody${body.required ? '' : '?'}: ${content(body.content ?? {}, depth + 1)};` : 'requestBody?: never;');
  const responses = Object.entries((op.responses ?? {}) as Record<string, Doc>).map(
    ([status, r]) => `${doc_(r, depth + 2)}${key(status)}: ${r.content ? content(r.content, depth + 2) : 'never'};`,
  );
  lines.push(`responses: {\n${block(responses, depth + 1)}${pad(depth + 1)}};`);
  return `{\n${block(lines, depth)}${pad(depth)}}`;
}

function content(media: Record<string, Doc>, depth: number): string {
  const members = Object.entries(media).map(([mediaType, m]) => `${key(mediaType)}: ${m.schema === undefined ? 'unknown' : type(m.schema, depth + 1)};`);
  return `{\n${block(members, depth)}${pad(depth)}}`;
}

/** A JSON Schema as a TypeScript type. `inherited` carries a parent object's `required` into its oneOf branches. */
function type(schema: Schema, depth: number, inherited: readonly string[] = []): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return `components["schemas"][${JSON.stringify(name)}]`;
  }
  const parts: string[] = [];
  // A union of objects that says only `type: object` itself (a tagged union: its members say the rest).
  const unionOnly = schema.properties === undefined && (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf));
  if ('const' in schema) parts.push(literal(schema.const));
  else if (Array.isArray(schema.enum)) parts.push(schema.enum.map(literal).join(' | '));
  else if (!unionOnly) parts.push(typed(schema, depth, inherited));
  for (const combiner of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(schema[combiner])) continue;
    const required = [...inherited, ...((schema.required as string[] | undefined) ?? [])];
    parts.push(`(${schema[combiner].map((s: Schema) => type(s, depth, required)).join(' | ')})`);
  }
  if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map((s: Schema) => type(s, depth, inherited)));
  const kept = parts.filter((p) => p !== 'unknown');
  return kept.length === 0 ? 'unknown' : kept.length === 1 ? kept[0]! : kept.map((p) => (p.includes('|') && !p.startsWith('(') && !p.startsWith('{') ? `(${p})` : p)).join(' & ');
}

function typed(schema: Record<string, any>, depth: number, inherited: readonly string[]): string {
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : [];
  if (types.length === 0) return 'unknown';
  return types.map((t) => {
    switch (t) {
      case 'string': return 'string';
      case 'integer':
      case 'number': return 'number';
      case 'boolean': return 'boolean';
      case 'null': return 'null';
      case 'array': return schema.items ? `${wrap(type(schema.items, depth))}[]` : 'unknown[]';
      case 'object': return object(schema, depth, inherited);
      default: return 'unknown';
    }
  }).join(' | ');
}

function object(schema: Record<string, any>, depth: number, inherited: readonly string[]): string {
  const required = new Set<string>([...inherited, ...((schema.required as string[] | undefined) ?? [])]);
  const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const extra = schema.additionalProperties;
  const index = extra === undefined || extra === false ? null : extra === true ? 'unknown' : type(extra, depth + 1);
  if (props.length === 0) return index === null ? (extra === false ? 'Record<string, never>' : 'Record<string, unknown>') : `Record<string, ${index}>`;
  const members = props.map(([name, s]) => `${doc_(s, depth + 1)}${key(name)}${required.has(name) ? '' : '?'}: ${type(s, depth + 1)};`);
  if (index !== null) members.push(`[key: string]: unknown;`);
  return `{\n${block(members, depth)}${pad(depth)}}`;
}

function wrap(t: string): string {
  return /^[\w"[\]]+$/.test(t) || t.startsWith('{') || t.startsWith('Record<') ? t : `(${t})`;
}

function literal(value: unknown): string {
  return value === null ? 'null' : JSON.stringify(value);
}

function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

function doc_(schema: Schema | Doc, depth: number, fallback?: string): string {
  const text = (typeof schema === 'object' && typeof schema.description === 'string' ? schema.description : fallback) ?? '';
  if (!text || text === 'Default Response') return '';
  return `/** ${text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n${pad(depth)}`;
}

function pad(depth: number): string {
  return '  '.repeat(depth);
}

function block(lines: string[], depth: number): string {
  return lines.map((l) => `${pad(depth + 1)}${l}\n`).join('');
}

async function main(source: string | undefined): Promise<void> {
  if (!source) throw new Error('usage: generate-types.ts <openapi.json path or URL>');
  const doc = /^https?:\/\//.test(source) ? await (await fetch(source)).json() : JSON.parse(readFileSync(source, 'utf8'));
  process.stdout.write(generateTypes(doc as Doc));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv[2]);
