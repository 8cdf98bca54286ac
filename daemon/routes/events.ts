import { eventRouteSchemas as s } from '../../src/event-log/event-schemas.js';
import { parseLastEventId, type EventStreams } from '../../src/event-log/event-streams.js';
import { EventFrames, replyWithEvents } from '../event-stream-reply.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';
import type { OrgModes } from '../../src/orgs/org-modes.js';

const tags = ['Events'];
/**
 * The streams are written by better-sse, never serialized from their schema, which is there for the OpenAPI
 * document: compiling a serializer from its per-type schemas would only slow the daemon's start.
 */
const serializerCompiler = () => JSON.stringify;

export const eventRoutes: RoutePlugin<{ eventStreams: EventStreams; orgModes: OrgModes }> = async (app, { eventStreams, orgModes }) => {
  const frames = new EventFrames((orgId) => orgModes.livemode(orgId));
  app.get('/events', { schema: { ...s.org, tags, summary: "The organisation's live events (server-sent events)" }, serializerCompiler }, (req, reply) => {
    const last = parseLastEventId(req.headers['last-event-id']);
    const caller = principalOf(req);
    return replyWithEvents(req, reply, frames, (makeSink) => eventStreams.openOrg(caller, last, makeSink));
  });
  app.get(
    '/runs/:id/events',
    { schema: { ...s.run, tags, summary: "A run's live events: status changes, each step, the final envelope (server-sent events)" }, serializerCompiler },
    (req, reply) => {
      const last = parseLastEventId(req.headers['last-event-id']);
      const caller = principalOf(req);
      return replyWithEvents(req, reply, frames, (makeSink) => eventStreams.openRun(caller, req.params.id, last, makeSink));
    },
  );
};
