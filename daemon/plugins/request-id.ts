import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Every response carries the request's id, which error bodies repeat and log lines include. Hooks on the hot
 * path are callback-style: an async hook costs a promise per request.
 */
const requestIdPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
};

export default fp(requestIdPlugin, { name: 'request-id' });
