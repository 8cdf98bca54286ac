import type { FastifyReply, FastifyRequest } from 'fastify';
import { emailRouteSchemas as s } from '../../src/mail/email-schemas.js';
import type { MailAttachments } from '../../src/mail/inbound/attachments.js';
import type { IdentityService } from '../../src/mail/identity/identity-service.js';
import { rawJsonMember } from '../../src/mail/raw-json-member.js';
import type { ReceivedEmails } from '../../src/mail/inbound/received-emails.js';
import type { SimulatedReplies } from '../../src/mail/inbound/simulated-replies.js';
import type { SendService, SentEmail } from '../../src/mail/outbound/send-service.js';
import type { SentEmails } from '../../src/mail/outbound/sent-emails.js';
import type { Suppressions } from '../../src/mail/outbound/suppressions.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';
import { attachmentDisposition } from '../content-disposition.js';

const tags = ['Email'];

export const emailRoutes: RoutePlugin<{
  emails: SendService;
  sentEmails: SentEmails;
  identities: IdentityService;
  suppressions: Suppressions;
  receivedEmails: ReceivedEmails;
  mailAttachments: MailAttachments;
  simulatedReplies: SimulatedReplies;
}> = async (app, { emails, sentEmails, identities, suppressions, receivedEmails, mailAttachments, simulatedReplies }) => {
  app.post('/emails', { schema: { ...s.send, tags, summary: "Send an email from the organisation's identity" } }, async (req, reply) => {
    const principal = principalOf(req);
    return sendAccepted(reply, await emails.send({ orgId: principal.orgId, keyId: principal.keyId, inboxId: null, body: req.body, metadataJson: metadataText(req) }));
  });
  app.get('/emails', { schema: { ...s.list, tags, summary: 'List sent emails, newest first' } }, (req) =>
    sentEmails.list(principalOf(req).orgId, req.query),
  );
  app.get('/emails/identity', { schema: { ...s.getIdentity, tags, summary: "The organisation's email address and inbound callback" } }, (req) =>
    identities.get(principalOf(req).orgId),
  );
  app.post(
    '/emails/identity',
    { schema: { ...s.configureIdentity, tags, summary: 'Allocate (first call) or change the email identity; answers its webhook_secret' } },
    (req) => identities.configure(principalOf(req).orgId, req.body),
  );
  app.post(
    '/emails/identity/domain/verify',
    { schema: { ...s.verifyDomain, tags, summary: "Check the sending domain's MX record and list the records to publish" } },
    (req) => identities.verifyDomain(principalOf(req).orgId),
  );
  app.get(
    '/emails/suppressions',
    { schema: { ...s.listSuppressions, tags, summary: 'Recipients no longer sent to after a hard bounce or a complaint' } },
    (req) => suppressions.list(principalOf(req).orgId, req.query),
  );
  app.delete(
    '/emails/suppressions/:address',
    { schema: { ...s.deleteSuppression, tags, summary: 'Send to a suppressed recipient again' } },
    (req) => suppressions.remove(principalOf(req).orgId, req.params.address),
  );
  app.get(
    '/emails/received',
    { schema: { ...s.listReceived, tags, summary: 'List received emails, newest first (without their bodies), by inbox, run or time' } },
    (req) => receivedEmails.list(principalOf(req).orgId, req.query),
  );
  app.get(
    '/emails/received/:id',
    { schema: { ...s.getReceived, tags, summary: 'A received email as its webhook carried it, with fresh attachment links' } },
    (req) => receivedEmails.get(principalOf(req).orgId, req.params.id),
  );
  app.get(
    '/emails/attachments/:id',
    {
      // The signature is the authority: the link works without an API key (it goes into webhooks).
      config: { public: true },
      schema: { ...s.getAttachment, tags, summary: 'Download an attachment of a received email by its signed link', security: [] },
    },
    async (req, reply) => {
      const { row, size, stream } = await mailAttachments.open(req.params.id, req.query);
      // Served as a download whatever it claims to be: the daemon's origin never renders a stranger's HTML.
      return reply
        .type('application/octet-stream')
        .header('content-length', size)
        .header('content-disposition', attachmentDisposition(row.filename))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600')
        .send(stream);
    },
  );
  app.get('/emails/:id', { schema: { ...s.get, tags, summary: 'A sent email with the delivery state of each recipient' } }, (req) =>
    sentEmails.get(principalOf(req).orgId, req.params.id),
  );
  app.post(
    '/emails/:id/simulate_reply',
    { schema: { ...s.simulateReply, tags, summary: 'Feed a reply to a sent email through the inbound path, as if its recipient had answered (for trying the reply webhook)' } },
    async (req, reply) => reply.status(201).send(await simulatedReplies.reply(principalOf(req).orgId, req.params.id, req.body)),
  );
  app.get(
    '/emails/:id/raw',
    { schema: { ...s.raw, tags, summary: 'The email as it was built and sent (message/rfc822)' } },
    (req, reply) => reply.type('message/rfc822').send(sentEmails.raw(principalOf(req).orgId, req.params.id)),
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
