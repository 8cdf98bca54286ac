import type { FastifyPluginAsync } from 'fastify';
import { inboxRouteSchemas as s } from '../../src/mail/identity/inbox-schemas.js';
import type { CreateInboxBody, InboxesService, UpdateInboxBody } from '../../src/mail/identity/inboxes-service.js';
import type { SendEmailBody, SendService } from '../../src/mail/outbound/send-service.js';
import type { ListQuery } from '../../src/pagination.js';
import { principalOf } from '../plugins/auth.js';
import { metadataText, sendAccepted } from './emails.js';

const tags = ['Inboxes'];

export const inboxRoutes: FastifyPluginAsync<{ inboxes: InboxesService; emails: SendService }> = async (app, { inboxes, emails }) => {
  app.post<{ Body: CreateInboxBody }>('/inboxes', { schema: { ...s.create, tags, summary: 'Create an inbox: another address of the organisation' } }, async (req, reply) =>
    reply.status(201).send(await inboxes.create(principalOf(req).orgId, req.body)),
  );
  app.get<{ Querystring: ListQuery }>('/inboxes', { schema: { ...s.list, tags, summary: 'List inboxes, newest first' } }, (req) =>
    inboxes.list(principalOf(req).orgId, req.query),
  );
  app.get<{ Params: { id: string } }>('/inboxes/:id', { schema: { ...s.get, tags, summary: 'Get an inbox' } }, (req) => inboxes.get(principalOf(req).orgId, req.params.id));
  app.patch<{ Params: { id: string }; Body: UpdateInboxBody }>('/inboxes/:id', { schema: { ...s.update, tags, summary: "Change an inbox's display name or callback" } }, (req) =>
    inboxes.update(principalOf(req).orgId, req.params.id, req.body),
  );
  app.delete<{ Params: { id: string } }>('/inboxes/:id', { schema: { ...s.delete, tags, summary: 'Delete an inbox: its address stops receiving' } }, (req) =>
    inboxes.delete(principalOf(req).orgId, req.params.id),
  );
  app.post<{ Params: { id: string }; Body: SendEmailBody }>(
    '/inboxes/:id/messages',
    { schema: { ...s.send, tags, summary: 'Send an email from an inbox, like POST /emails' } },
    async (req, reply) => {
      const principal = principalOf(req);
      return sendAccepted(reply, await emails.send({ orgId: principal.orgId, keyId: principal.keyId, inboxId: req.params.id, body: req.body, metadataJson: metadataText(req) }));
    },
  );
};
