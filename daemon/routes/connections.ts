import { connectionRouteSchemas as s } from '../../src/connections/connection-schemas.js';
import type { ConnectionsService } from '../../src/connections/connections-service.js';
import type { HostedConnect } from '../../src/connections/oauth-client/hosted-connect.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Connections'];

export const connectionRoutes: RoutePlugin<{ connections: ConnectionsService; hostedConnect: HostedConnect }> = async (app, { connections, hostedConnect }) => {
  app.get('/connections', { schema: { ...s.list, tags, summary: 'List connections with their authentication status; never their secrets' } }, (req) =>
    connections.list(principalOf(req).orgId, req.query),
  );
  app.post(
    '/connections',
    { schema: { ...s.create, tags, summary: 'Create a token or mcp connection (an mcp one is checked by connecting before it is answered)' } },
    async (req, reply) => reply.status(201).send(await connections.create(principalOf(req).orgId, req.body)),
  );
  app.post(
    '/connections/links',
    { schema: { ...s.link, tags, summary: 'Start hosted connect: an oauth connection and a single-use link (15 minutes) to authorise it in a browser' } },
    async (req, reply) => reply.status(201).send(hostedConnect.createLink(principalOf(req).orgId, req.body)),
  );
  app.get(
    '/connections/links/:id',
    { schema: { ...s.linkStatus, tags, summary: 'How a hosted connect link\'s flow stands: pending, opened, authenticated, failed (with why) or expired' } },
    (req) => hostedConnect.linkStatus(principalOf(req).orgId, req.params.id),
  );
  app.get('/connections/:id', { schema: { ...s.get, tags, summary: 'Get a connection' } }, (req) =>
    connections.get(principalOf(req).orgId, req.params.id),
  );
  app.patch(
    '/connections/:id',
    { schema: { ...s.update, tags, summary: 'Update a connection; a new secret replaces the stored one' } },
    (req) => connections.update(principalOf(req).orgId, req.params.id, req.body),
  );
  app.delete('/connections/:id', { schema: { ...s.delete, tags, summary: 'Delete a connection and its secret' } }, (req) =>
    connections.delete(principalOf(req).orgId, req.params.id),
  );
  app.post(
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
