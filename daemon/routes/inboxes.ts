import { inboxRouteSchemas as s } from '../../src/mail/identity/inbox-schemas.js';
import type { InboxesService } from '../../src/mail/identity/inboxes-service.js';
import type { SendService } from '../../src/mail/outbound/send-service.js';
import { principalOf } from '../plugins/auth.js';
import { metadataText, sendAccepted } from './emails.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Inboxes'];

export const inboxRoutes: RoutePlugin<{ inboxes: InboxesService; emails: SendService }> = async (app, { inboxes, emails }) => {
  app.post('/inboxes', { schema: { ...s.create, tags, summary: 'Create an inbox: another address of the organisation' } }, async (req, reply) =>
    reply.status(201).send(await inboxes.create(principalOf(req).orgId, req.body)),
  );
  app.get('/inboxes', { schema: { ...s.list, tags, summary: 'List inboxes, newest first' } }, (req) =>
    inboxes.list(principalOf(req).orgId, req.query),
  );
  app.get('/inboxes/:id', { schema: { ...s.get, tags, summary: 'Get an inbox' } }, (req) => inboxes.get(principalOf(req).orgId, req.params.id));
  app.patch('/inboxes/:id', { schema: { ...s.update, tags, summary: "Change an inbox's display name or callback" } }, (req) =>
    inboxes.update(principalOf(req).orgId, req.params.id, req.body),
  );
  app.delete('/inboxes/:id', { schema: { ...s.delete, tags, summary: 'Delete an inbox: its address stops receiving' } }, (req) =>
    inboxes.delete(principalOf(req).orgId, req.params.id),
  );
  app.post(
    '/inboxes/:id/messages',
    { schema: { ...s.send, tags, summary: 'Send an email from an inbox, like POST /emails' } },
    async (req, reply) => {
      const principal = principalOf(req);
      return sendAccepted(reply, await emails.send({ orgId: principal.orgId, keyId: principal.keyId, inboxId: req.params.id, body: req.body, metadataJson: metadataText(req) }));
    },
  );
};
