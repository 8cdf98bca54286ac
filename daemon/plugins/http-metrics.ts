import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../../src/metrics/metrics.js';

/**
 * Counts and times every response that goes through the routes' hooks, by route template (`/v1/runs/:id`, never the
 * path with its ids) and status; a request no route matched counts as `unmatched`. Registered only when metrics are
 * on. Timed to the onSend hook, like the access line (request-log.ts).
 */
const httpMetricsPlugin: FastifyPluginAsync<{ metrics: Metrics }> = async (app, { metrics }) => {
  app.addHook('onSend', (request, reply, payload, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequest(request.method, route, reply.statusCode, (performance.now() - request.receivedAt) / 1000);
    done(null, payload);
  });
};

export default fp(httpMetricsPlugin, { name: 'http-metrics' });
