import type { FastifyPluginAsync } from 'fastify';
import { connectionRouteSchemas as s, type CreateConnectionBody, type CreateLinkBody, type UpdateConnectionBody } from '../../src/connections/connection-schemas.js';
import type { ConnectionsService } from '../../src/connections/connections-service.js';
import type { HostedConnect } from '../../src/connections/oauth-client/hosted-connect.js';
import type { ListQuery } from '../../src/pagination.js';
import { principalOf } from '../plugins/auth.js';

const tags = ['Connections'];

export const connectionRoutes: FastifyPluginAsync<{ connections: ConnectionsService; hostedConnect: HostedConnect }> = async (app, { connections, hostedConnect }) => {
  app.get<{ Querystring: ListQuery }>('/connections', { schema: { ...s.list, tags, summary: 'List connections with their authentication status; never their secrets' } }, (req) =>
    connections.list(principalOf(req).orgId, req.query),
  );
  app.post<{ Body: CreateConnectionBody }>(
    '/connections',
    { schema: { ...s.create, tags, summary: 'Create a token or mcp connection (an mcp one is checked by connecting before it is answered)' } },
    async (req, reply) => reply.status(201).send(await connections.create(principalOf(req).orgId, req.body)),
  );
  app.post<{ Body: CreateLinkBody }>(
    '/connections/links',
    { schema: { ...s.link, tags, summary: 'Start hosted connect: an oauth connection and a single-use link (15 minutes) to authorise it in a browser' } },
    async (req, reply) => reply.status(201).send(hostedConnect.createLink(principalOf(req).orgId, req.body)),
  );
  app.get<{ Params: { id: string } }>(
    '/connections/links/:id',
    { schema: { ...s.linkStatus, tags, summary: 'How a hosted connect link\'s flow stands: pending, opened, authenticated, failed (with why) or expired' } },
    (req) => hostedConnect.linkStatus(principalOf(req).orgId, req.params.id),
  );
  app.get<{ Params: { id: string } }>('/connections/:id', { schema: { ...s.get, tags, summary: 'Get a connection' } }, (req) =>
    connections.get(principalOf(req).orgId, req.params.id),
  );
  app.patch<{ Params: { id: string }; Body: UpdateConnectionBody }>(
    '/connections/:id',
    { schema: { ...s.update, tags, summary: 'Update a connection; a new secret replaces the stored one' } },
    (req) => connections.update(principalOf(req).orgId, req.params.id, req.body),
  );
  app.delete<{ Params: { id: string } }>('/connections/:id', { schema: { ...s.delete, tags, summary: 'Delete a connection and its secret' } }, (req) =>
    connections.delete(principalOf(req).orgId, req.params.id),
  );
  app.post<{ Params: { id: string } }>(
    '/connections/:id/check',
    { schema: { ...s.check, tags, summary: 'Check a connection now (mcp: connect and list tools; oauth: refresh the token) and answer its status' } },
    (req) => connections.check(principalOf(req).orgId, req.params.id),
  );
  app.get<{ Params: { id: string } }>(
    '/connections/:id/tools',
    { schema: { ...s.tools, tags, summary: "An mcp connection's tools as runs are offered them: connects now, like a check, and records its status" } },
    (req) => connections.tools(principalOf(req).orgId, req.params.id),
  );
};
