import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/** Every response carries the request's id, which error bodies repeat and log lines include. */
const requestIdPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
};

export default fp(requestIdPlugin, { name: 'request-id' });
