import type { FastifyRequest } from 'fastify';
import type { HumanRequests } from '../../src/human/human-requests.js';
import { humanRouteSchemas as s } from '../../src/human/human-schemas.js';
import type { AnswerChannel } from '../../src/vocabulary/waits.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Runs'];

/** A person answers what a run's agent asked (request_human): issue 22, item 4. */
export const humanRoutes: RoutePlugin<{ human: HumanRequests }> = async (app, { human }) => {
  app.post(
    '/runs/:id/human',
    {
      config: { liveLink: true },
      schema: {
        ...s.answer,
        response: { ...s.answer.response, 409: { $ref: 'ErrorResponse#' } },
        tags,
        summary: 'Answer what a waiting run asks a person (its waiting_for): an answer, an approval, or a takeover done',
      },
    },
    (req) => {
      const principal = principalOf(req);
      const answerer = req.liveLink === null ? { by: `key ${principal.keyId}`, via: channelOf(req) } : { by: 'live link', via: 'live' as const };
      return human.answer(principal.orgId, req.params.id, req.body, answerer);
    },
  );
};

/** The CLI says who it is in its User-Agent; the channel is a label for people, not a credential. */
export function channelOf(req: FastifyRequest): AnswerChannel {
  return req.headers['user-agent']?.startsWith('errand-cli') === true ? 'cli' : 'api';
}
