import type { FastifyPluginAsync } from 'fastify';
import { eventRouteSchemas as s } from '../../src/event-log/event-schemas.js';
import { parseLastEventId, type EventStreams } from '../../src/event-log/event-streams.js';
import { EventFrames, replyWithEvents } from '../event-stream-reply.js';
import { principalOf } from '../plugins/auth.js';

const tags = ['Events'];

export const eventRoutes: FastifyPluginAsync<{ eventStreams: EventStreams }> = async (app, { eventStreams }) => {
  const frames = new EventFrames();
  app.get('/events', { schema: { ...s.org, tags, summary: "The organisation's live events (server-sent events)" } }, (req, reply) => {
    const last = parseLastEventId(req.headers['last-event-id']);
    const caller = principalOf(req);
    return replyWithEvents(req, reply, frames, (makeSink) => eventStreams.openOrg(caller, last, makeSink));
  });
  app.get<{ Params: { id: string } }>(
    '/runs/:id/events',
    { schema: { ...s.run, tags, summary: "A run's live events: status changes, each step, the final envelope (server-sent events)" } },
    (req, reply) => {
      const last = parseLastEventId(req.headers['last-event-id']);
      const caller = principalOf(req);
      return replyWithEvents(req, reply, frames, (makeSink) => eventStreams.openRun(caller, req.params.id, last, makeSink));
    },
  );
};
