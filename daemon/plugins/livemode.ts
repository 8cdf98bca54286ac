import type { FastifyPluginAsync, preSerializationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { OrgModes } from '../../src/orgs/org-modes.js';

export interface LivemodeOptions {
  modes: OrgModes;
}

/** Sets `livemode` on the objects of one response, as its schema places them. */
type Tagger = (value: unknown, livemode: boolean) => void;

type Schema = Record<string, unknown>;

const livemodeMember = {
  type: 'boolean',
  description: 'False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode).',
} as const;

/**
 * `livemode` on every object the API returns (issue 25): each object schema of a route's responses that has an
 * `object` member (lists excepted, as Stripe's) gets a `livemode` member, and each response sets it from the caller's
 * organisation: a caller only ever sees its own organisation's objects, so the caller's mode is every object's. The
 * route's schema is copied, never changed in place: other routes, the webhooks' documents and the MCP tools share
 * the same schema objects. Added when a route is declared, so routes without objects pay nothing per request.
 */
const livemodePlugin: FastifyPluginAsync<LivemodeOptions> = async (app, { modes }) => {
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, Schema> | undefined;
    if (route.config?.public || response === undefined) return;
    const copied: Record<string, Schema> = {};
    const taggers = new Map<string, Tagger>();
    for (const [status, schema] of Object.entries(response)) {
      const copy = structuredClone(schema);
      copied[status] = copy;
      const tagger = withLivemode(copy);
      if (tagger !== null) taggers.set(status, tagger);
    }
    if (taggers.size === 0) return;
    route.schema = { ...route.schema, response: copied };
    // The callback form: no promise per response.
    const tag: preSerializationHookHandler<unknown> = (request, reply, payload, done) => {
      const tagger = taggers.get(String(reply.statusCode)) ?? taggers.get(`${String(reply.statusCode)[0]}xx`) ?? taggers.get('default');
      if (tagger !== undefined && request.principal !== null) tagger(payload, modes.livemode(request.principal.orgId));
      done(null, payload);
    };
    const existing = route.preSerialization;
    route.preSerialization = existing === undefined ? [tag] : [...(Array.isArray(existing) ? existing : [existing]), tag];
  });
};

/** Adds `livemode` to the object schemas under `schema` (a copy), and answers what sets it in a value; null: nothing to set. */
function withLivemode(schema: Schema): Tagger | null {
  const parts: Tagger[] = [];
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties !== undefined) {
    if (isApiObject(properties)) {
      schema.properties = afterObjectMember(properties);
      // Required: the tagger below sets it on every value this schema describes, whatever the route.
      schema.required = [...(Array.isArray(schema.required) ? (schema.required as string[]) : []), 'livemode'];
      parts.push((value, livemode) => {
        if (isRecord(value)) value.livemode = livemode;
      });
    }
    for (const [name, child] of Object.entries(properties)) {
      if (!isRecord(child)) continue;
      const inner = withLivemode(child);
      if (inner !== null) parts.push((value, livemode) => (isRecord(value) ? inner(value[name], livemode) : undefined));
    }
  }
  if (isRecord(schema.items)) {
    const inner = withLivemode(schema.items);
    if (inner !== null) parts.push((value, livemode) => (Array.isArray(value) ? value.forEach((v) => inner(v, livemode)) : undefined));
  }
  for (const combinator of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[combinator];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const inner = isRecord(branch) ? withLivemode(branch) : null;
      if (inner !== null) parts.push(inner);
    }
  }
  if (parts.length === 0) return null;
  return (value, livemode) => {
    for (const part of parts) part(value, livemode);
  };
}

/** An object of the API: one with an `object` member (not a list's), or a run's 202 (whose `task_id` names the run). */
function isApiObject(properties: Record<string, Schema>): boolean {
  const object = properties.object;
  if ('livemode' in properties) return false;
  return (isRecord(object) && object.const !== 'list') || (object === undefined && 'task_id' in properties);
}

/** The members with `livemode` after `object`, so that it reads near the top of each object. */
function afterObjectMember(properties: Record<string, Schema>): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [name, child] of Object.entries(properties)) {
    out[name] = child;
    if (name === 'object') out.livemode = { ...livemodeMember };
  }
  out.livemode ??= { ...livemodeMember };
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export default fp(livemodePlugin, { name: 'livemode' });
