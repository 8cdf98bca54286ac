import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { emailRouteSchemas as s } from '../../src/mail/email-schemas.js';
import type { ConfigureIdentityBody, IdentityService } from '../../src/mail/identity-service.js';
import { rawJsonMember } from '../../src/mail/raw-json-member.js';
import type { SendEmailBody, SendService, SentEmail } from '../../src/mail/send-service.js';
import type { Suppressions } from '../../src/mail/suppressions.js';
import type { ListQuery } from '../../src/pagination.js';
import { principalOf } from '../plugins/auth.js';

const tags = ['Email'];

export const emailRoutes: FastifyPluginAsync<{ emails: SendService; identities: IdentityService; suppressions: Suppressions }> = async (
  app,
  { emails, identities, suppressions },
) => {
  app.post<{ Body: SendEmailBody }>('/emails', { schema: { ...s.send, tags, summary: "Send an email from the organisation's identity" } }, async (req, reply) => {
    const principal = principalOf(req);
    return sendAccepted(reply, await emails.send(principal.orgId, principal.keyId, null, req.body, metadataText(req)));
  });
  app.get<{ Querystring: ListQuery }>('/emails', { schema: { ...s.list, tags, summary: 'List sent emails, newest first' } }, (req) =>
    emails.list(principalOf(req).orgId, req.query),
  );
  app.get('/emails/identity', { schema: { ...s.getIdentity, tags, summary: "The organisation's email address and inbound callback" } }, (req) =>
    identities.get(principalOf(req).orgId),
  );
  app.post<{ Body: ConfigureIdentityBody }>(
    '/emails/identity',
    { schema: { ...s.configureIdentity, tags, summary: 'Allocate (first call) or change the email identity; answers its webhook_secret' } },
    (req) => identities.configure(principalOf(req).orgId, req.body),
  );
  app.post(
    '/emails/identity/domain/verify',
    { schema: { ...s.verifyDomain, tags, summary: "Check the sending domain's MX record and list the records to publish" } },
    (req) => identities.verifyDomain(principalOf(req).orgId),
  );
  app.get<{ Querystring: { limit?: number; cursor?: string } }>(
    '/emails/suppressions',
    { schema: { ...s.listSuppressions, tags, summary: 'Recipients no longer sent to after a hard bounce or a complaint' } },
    (req) => suppressions.list(principalOf(req).orgId, req.query),
  );
  app.delete<{ Params: { address: string } }>(
    '/emails/suppressions/:address',
    { schema: { ...s.deleteSuppression, tags, summary: 'Send to a suppressed recipient again' } },
    (req) => suppressions.remove(principalOf(req).orgId, req.params.address),
  );
  app.get<{ Params: { id: string } }>('/emails/:id', { schema: { ...s.get, tags, summary: 'A sent email with the delivery state of each recipient' } }, (req) =>
    emails.get(principalOf(req).orgId, req.params.id),
  );
  app.get<{ Params: { id: string } }>(
    '/emails/:id/raw',
    { schema: { ...s.raw, tags, summary: 'The email as it was built and sent (message/rfc822)' } },
    (req, reply) => reply.type('message/rfc822').send(emails.raw(principalOf(req).orgId, req.params.id)),
  );
};

/** The `metadata` member as the caller wrote it, so that the reply webhook echoes it byte for byte. */
export function metadataText(req: FastifyRequest): string | null {
  return rawJsonMember(req.jsonText, 'metadata') ?? null;
}

export function sendAccepted(reply: FastifyReply, sent: SentEmail): FastifyReply {
  reply.status(202);
  if (sent.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.send(sent.body);
}
