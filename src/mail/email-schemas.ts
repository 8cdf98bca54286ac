import type { Validated } from '../http-schemas/validated.js';
import { idParam, idQueryParam, listQuery, listResponse, nullableString, signedLinkQuery, timestamp } from '../http-schemas/common.js';
import { USERNAME_PATTERN } from './addresses.js';

/** An address as a caller gives one: the bare address, no display name. */
export const emailAddress = { type: 'string', format: 'email', maxLength: 254 } as const;
/** Header values (subject, display names) are one line: CR and LF would start a header of their own. */
const oneLine = '^[^\\r\\n]*$';
const BODY_MAX = 512 * 1024;

export const sendEmailBodySchema = {
  type: 'object',
  required: ['to', 'subject'],
  additionalProperties: false,
  properties: {
    to: {
      anyOf: [emailAddress, { type: 'array', items: emailAddress, minItems: 1 }],
      description: 'One address, or a list that is ONE message whose recipients see each other.',
    },
    cc: { type: 'array', items: emailAddress },
    bcc: { type: 'array', items: emailAddress, description: 'Never written into a header.' },
    subject: { type: 'string', minLength: 1, maxLength: 998, pattern: oneLine },
    body_markdown: { type: 'string', maxLength: BODY_MAX, description: 'Rendered to email-safe HTML with inlined CSS.' },
    body_html: { type: 'string', maxLength: BODY_MAX, description: 'Pre-rendered; takes precedence over body_markdown.' },
    text: { type: 'string', maxLength: BODY_MAX },
    from_name: { type: 'string', minLength: 1, maxLength: 200, pattern: oneLine, description: "Display name; defaults to the inbox's or the organisation's name." },
    reply_to: { ...emailAddress, description: 'Overrides the correlation Reply-To; replies are then not threaded back.' },
    client_id: { type: 'string', minLength: 1, maxLength: 255, description: 'Idempotency key: a repeat returns the original send and sends nothing.' },
    metadata: { type: 'object', additionalProperties: true, description: 'Opaque; echoed byte for byte on the reply webhook.' },
    send_at: { type: 'string', format: 'date-time', description: 'Additive: send at this time (status scheduled).' },
  },
} as const;

const replyTo = {
  type: ['object', 'null'],
  required: ['address', 'reason', 'detail'],
  properties: {
    address: nullableString,
    reason: { type: 'string', enum: ['sending_domain', 'relay_fallback', 'override', 'none'] },
    detail: { type: 'string' },
  },
} as const;

const emailStatus = { type: 'string', enum: ['sent', 'scheduled', 'pending_approval', 'rejected'] } as const;

export const emailSendResultSchema = {
  type: 'object',
  required: ['message_id', 'from_address', 'correlation_token', 'status', 'reply_to', 'suppressed'],
  properties: {
    message_id: { type: 'string' },
    from_address: { type: 'string' },
    correlation_token: { type: 'string' },
    status: emailStatus,
    reply_to: replyTo,
    suppressed: { type: 'array', items: { type: 'string' } },
  },
} as const;

const recipient = {
  type: 'object',
  required: ['address', 'kind', 'status', 'detail', 'updated_at'],
  properties: {
    address: { type: 'string' },
    kind: { type: 'string', enum: ['to', 'cc', 'bcc'] },
    status: { type: 'string', enum: ['queued', 'delivered', 'deferred', 'bounced', 'complained', 'failed', 'suppressed', 'rejected'] },
    detail: nullableString,
    updated_at: timestamp,
  },
} as const;

export const emailRecordSchema = {
  type: 'object',
  required: ['id', 'object', 'message_id', 'inbox_id', 'status', 'from_address', 'from_name', 'subject', 'to', 'cc', 'bcc', 'reply_to', 'correlation_token', 'recipients', 'created_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'email' },
    message_id: { type: 'string' },
    inbox_id: nullableString,
    status: emailStatus,
    from_address: { type: 'string' },
    from_name: { type: 'string' },
    subject: { type: 'string' },
    to: { type: 'array', items: { type: 'string' } },
    cc: { type: 'array', items: { type: 'string' } },
    bcc: { type: 'array', items: { type: 'string' } },
    reply_to: replyTo,
    correlation_token: { type: 'string' },
    message_id_header: { type: 'string' },
    metadata: { type: ['object', 'null'], additionalProperties: true },
    client_id: nullableString,
    send_at: { type: ['string', 'null'], format: 'date-time' },
    suppressed: { type: 'array', items: { type: 'string' } },
    recipients: { type: 'array', items: recipient },
    created_at: timestamp,
    updated_at: timestamp,
  },
} as const;

const identityProperties = {
  object: { type: 'string', const: 'email_identity' },
  address: { type: 'string' },
  username: { type: 'string' },
  relay_address: { type: 'string' },
  callback_url: nullableString,
  domain: {
    type: ['object', 'null'],
    required: ['name', 'verified', 'verified_at'],
    properties: { name: { type: 'string' }, verified: { type: 'boolean' }, verified_at: { type: ['string', 'null'], format: 'date-time' } },
  },
  require_approval: { type: 'boolean' },
  created_at: timestamp,
  updated_at: timestamp,
} as const;

export const identitySchema = {
  type: 'object',
  required: ['object', 'address', 'username', 'relay_address', 'callback_url', 'domain', 'require_approval', 'created_at', 'updated_at'],
  properties: identityProperties,
} as const;

export const identityWithSecretSchema = {
  type: 'object',
  required: [...identitySchema.required, 'webhook_secret', 'previous_webhook_secret_expires_at'],
  properties: {
    ...identityProperties,
    webhook_secret: { type: 'string', description: 'whsec_...: verifies email webhooks (Standard Webhooks). Returned by POST only.' },
    previous_webhook_secret_expires_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

export const configureIdentityBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    callback_url: { type: ['string', 'null'], format: 'uri', maxLength: 2048, description: 'https endpoint for email.received, email.bounced and email.complained.' },
    username: { type: 'string', pattern: USERNAME_PATTERN, description: '3 to 32 of a-z, 0-9 and hyphen; the local part of the address.' },
    domain: { type: ['string', 'null'], maxLength: 253, description: "Additive: the organisation's own sending domain; used once its MX is verified." },
    rotate_webhook_secret: { type: 'boolean', description: 'Additive: mint a new webhook_secret; the previous one keeps signing for 24 h.' },
  },
} as const;

const zoneRecords = {
  type: 'object',
  required: ['mx', 'spf', 'dkim'],
  properties: { mx: { type: 'string' }, spf: { type: 'string' }, dkim: nullableString },
} as const;

export const domainCheckSchema = {
  type: 'object',
  required: ['domain', 'verified', 'mx_found', 'expected_mx', 'detail', 'records'],
  properties: {
    domain: { type: 'string' },
    verified: { type: 'boolean' },
    mx_found: { type: 'array', items: { type: 'string' } },
    expected_mx: { type: 'string' },
    detail: { type: 'string' },
    records: zoneRecords,
  },
} as const;

export const suppressionSchema = {
  type: 'object',
  required: ['object', 'address', 'reason', 'detail', 'email_id', 'created_at'],
  properties: {
    object: { type: 'string', const: 'email_suppression' },
    address: { type: 'string' },
    reason: { type: 'string', enum: ['bounce', 'complaint'] },
    detail: nullableString,
    email_id: nullableString,
    created_at: timestamp,
  },
} as const;

const attachmentLink = {
  type: 'object',
  required: ['id', 'filename', 'content_type', 'size', 'url'],
  properties: {
    id: { type: 'string' },
    filename: nullableString,
    content_type: { type: 'string' },
    size: { type: 'integer' },
    url: { type: 'string', description: 'Signed link, valid 7 days; needs no API key.' },
  },
} as const;

const authVerdicts = {
  type: 'object',
  required: ['spf', 'dkim', 'dmarc'],
  properties: {
    spf: { type: 'string' },
    dkim: { type: 'string' },
    dmarc: { type: 'string' },
    spf_domain: nullableString,
    dkim_domains: { type: 'array', items: { type: 'string' } },
    from_domain: nullableString,
    dkim_aligned: { type: 'boolean', description: "A passing DKIM signature's domain aligns with the From address's domain (DMARC's rule: the same organisational domain, or the same domain where its DMARC record asks for strict alignment)." },
    spf_aligned: { type: 'boolean', description: "SPF passed for a MAIL FROM domain that aligns with the From address's domain, by the same rule." },
  },
} as const;

export const receivedEmailSchema = {
  type: 'object',
  required: ['message_id', 'in_reply_to', 'correlation_token', 'from', 'to', 'subject', 'text', 'html', 'reply_text', 'received_at', 'metadata'],
  properties: {
    message_id: { type: 'string' },
    in_reply_to: nullableString,
    correlation_token: nullableString,
    from: { type: 'string' },
    to: { type: 'array', items: { type: 'string' } },
    subject: { type: 'string' },
    text: { type: 'string' },
    html: nullableString,
    reply_text: { type: 'string' },
    received_at: timestamp,
    metadata: { type: ['object', 'null'], additionalProperties: true },
    object: { type: 'string', const: 'received_email' },
    kind: { type: 'string', enum: ['reply', 'message', 'bounce', 'complaint', 'run'] },
    inbox_id: nullableString,
    run_id: nullableString,
    from_name: nullableString,
    message_id_header: nullableString,
    in_reply_to_header: nullableString,
    auth: authVerdicts,
    attachments: { type: 'array', items: attachmentLink },
    truncated: { type: 'boolean' },
  },
} as const;

/** The bodies a list of received mail leaves out (up to 256 KiB each): GET /emails/received/{id} has them. */
const BODIES: readonly string[] = ['text', 'html'];

export const listedReceivedEmailSchema = {
  type: 'object',
  required: receivedEmailSchema.required.filter((m) => !BODIES.includes(m)),
  properties: Object.fromEntries(Object.entries(receivedEmailSchema.properties).filter(([m]) => !BODIES.includes(m))),
} as const;

const receivedFilters = {
  inbox: idQueryParam('inb', 'Only mail to this inbox.'),
  run: idQueryParam('run', "Only mail to this run's address."),
  since: { type: 'string', format: 'date-time', description: 'Only mail received at or after this time (RFC 3339).' },
} as const;

/** POST /emails/{id}/simulate_reply: the reply a recipient could have written. */
export const simulateReplyBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    text: { type: 'string', maxLength: BODY_MAX, description: 'The reply (default: a line saying it is simulated).' },
    html: { type: 'string', maxLength: BODY_MAX, description: 'An HTML part beside the text.' },
    from: { ...emailAddress, description: "Who replies (default: the send's first recipient)." },
  },
} as const;

const errorResponse = { $ref: 'ErrorResponse#' } as const;

export const emailRouteSchemas = {
  send: { body: sendEmailBodySchema, response: { 202: emailSendResultSchema } },
  list: { querystring: listQuery('msg'), response: { 200: listResponse(emailRecordSchema) } },
  get: { params: idParam('msg'), response: { 200: emailRecordSchema } },
  raw: { params: idParam('msg') },
  getIdentity: { response: { 200: identitySchema } },
  configureIdentity: { body: configureIdentityBodySchema, response: { 200: identityWithSecretSchema } },
  verifyDomain: { response: { 200: domainCheckSchema } },
  listReceived: { querystring: listQuery('msg', receivedFilters), response: { 200: listResponse(listedReceivedEmailSchema) } },
  getReceived: { params: idParam('msg'), response: { 200: receivedEmailSchema } },
  simulateReply: { params: idParam('msg'), body: simulateReplyBodySchema, response: { 201: receivedEmailSchema } },
  getAttachment: {
    params: idParam('att'),
    querystring: signedLinkQuery,
    response: {
      200: { description: 'The attachment, as a download.', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
      403: errorResponse,
      404: errorResponse,
      410: errorResponse,
    },
  },
  listSuppressions: {
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Page size, 1 to 200.' },
        cursor: { type: 'string', maxLength: 254, description: 'The next_cursor of the previous page (an address).' },
      },
    },
    response: { 200: listResponse(suppressionSchema) },
  },
  deleteSuppression: {
    params: { type: 'object', required: ['address'], additionalProperties: false, properties: { address: { type: 'string', minLength: 1, maxLength: 254 } } },
    response: {
      200: {
        type: 'object',
        required: ['address', 'object', 'deleted'],
        properties: { address: { type: 'string' }, object: { type: 'string', const: 'email_suppression' }, deleted: { type: 'boolean', const: true } },
      },
    },
  },
} as const;

/** The body of POST /emails, and of POST /inboxes/{id}/messages. */
export type SendEmailBody = Validated<typeof sendEmailBodySchema>;
export type ConfigureIdentityBody = Validated<typeof configureIdentityBodySchema>;
export type SimulateReplyBody = Validated<typeof simulateReplyBodySchema>;
export type SuppressionListQuery = Validated<typeof emailRouteSchemas.listSuppressions.querystring>;
export type ReceivedEmailsQuery = Validated<typeof emailRouteSchemas.listReceived.querystring>;
