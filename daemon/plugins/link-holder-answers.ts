import type { FastifyPluginAsync, preSerializationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { linkHolderView } from '../../src/live/link-holder-view.js';
import type { LiveLinks } from '../../src/live/live-links.js';

export interface LinkHolderAnswersOptions {
  liveLinks: LiveLinks;
}

/**
 * Every answer to a live link's holder (routes with `config.liveLink`, called with a link rather than an API key)
 * passes `linkHolderView`: no signed link to a run's artifacts or files, and the holder's own link renewed. In one
 * place, for every route a link may call, so that no route can forget it.
 */
const linkHolderAnswersPlugin: FastifyPluginAsync<LinkHolderAnswersOptions> = async (app, { liveLinks }) => {
  const view: preSerializationHookHandler<unknown> = (request, _reply, payload, done) => {
    const grant = request.liveLink;
    done(null, grant === null ? payload : linkHolderView(payload, liveLinks.renewal(grant)));
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.liveLink !== true) return;
    const existing = route.preSerialization;
    route.preSerialization = existing === undefined ? [view] : [...(Array.isArray(existing) ? existing : [existing]), view];
  });
};

export default fp(linkHolderAnswersPlugin, { name: 'link-holder-answers' });
