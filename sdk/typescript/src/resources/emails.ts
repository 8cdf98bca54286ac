import { randomUUID } from 'node:crypto';
import type { HttpClient, RequestOptions } from '../core.js';
import type { PagePromise } from '../pagination.js';
import type {
  DomainVerification, Email, EmailIdentity, EmailIdentityParams, EmailListItem, EmailSendParams, EmailSent, QueryOf, ReceivedEmail,
  ReceivedEmailListItem, ReceivedEmailListParams, ResponseOf, SimulatedReply, SimulateReplyParams, Suppression,
} from '../types.js';
import { Resource } from './resource.js';
import { download, type Download } from './download.js';

/** Email: sends from the organisation's identity, what arrived, suppressions (docs/api.md, Email). */
export class Emails extends Resource {
  readonly identity: EmailIdentities;
  readonly received: ReceivedEmails;
  readonly suppressions: Suppressions;

  constructor(http: HttpClient) {
    super(http);
    this.identity = new EmailIdentities(http);
    this.received = new ReceivedEmails(http);
    this.suppressions = new Suppressions(http);
  }

  /** Sends (or schedules) an email. Without a `client_id` the SDK makes one, so that a retry never sends twice. */
  send(params: EmailSendParams, options?: RequestOptions): Promise<EmailSent> {
    return this.call({ method: 'POST', path: '/v1/emails', body: { ...params, client_id: params.client_id ?? randomUUID() }, idempotent: true, options });
  }

  get(id: string, options?: RequestOptions): Promise<Email> {
    return this.call({ method: 'GET', path: '/v1/emails/{id}', pathParams: { id }, options });
  }

  list(params: QueryOf<'/v1/emails', 'get'> = {}, options?: RequestOptions): PagePromise<EmailListItem> {
    return this.paginate('/v1/emails', {}, params, options);
  }

  /** The message as sent (RFC 5322 text). */
  raw(id: string, options?: RequestOptions): Promise<string> {
    return this.call({ method: 'GET', path: '/v1/emails/{id}/raw', pathParams: { id }, options });
  }

  /** Makes a reply to a sent email arrive, as if its recipient had answered. */
  simulateReply(id: string, params: SimulateReplyParams = {}, options?: RequestOptions): Promise<SimulatedReply> {
    return this.call({ method: 'POST', path: '/v1/emails/{id}/simulate_reply', pathParams: { id }, body: params, options });
  }

  /** An attachment of a received email, by the signed link the record holds (`expires` and `sig` are in it). */
  attachment(url: string, options?: RequestOptions): Promise<Download> {
    return download(this.http, url, '/v1/emails/attachments/', options);
  }
}

export class EmailIdentities extends Resource {
  get(options?: RequestOptions): Promise<EmailIdentity> {
    return this.call({ method: 'GET', path: '/v1/emails/identity', options });
  }

  /** Creates or changes the organisation's identity (its username, domain, callback, webhook secret). */
  set(params: EmailIdentityParams = {}, options?: RequestOptions): Promise<ResponseOf<'/v1/emails/identity', 'post'>> {
    return this.call({ method: 'POST', path: '/v1/emails/identity', body: params, options });
  }

  verifyDomain(options?: RequestOptions): Promise<DomainVerification> {
    return this.call({ method: 'POST', path: '/v1/emails/identity/domain/verify', idempotent: true, options });
  }
}

export class ReceivedEmails extends Resource {
  get(id: string, options?: RequestOptions): Promise<ReceivedEmail> {
    return this.call({ method: 'GET', path: '/v1/emails/received/{id}', pathParams: { id }, options });
  }

  list(params: ReceivedEmailListParams = {}, options?: RequestOptions): PagePromise<ReceivedEmailListItem> {
    return this.paginate('/v1/emails/received', {}, params, options);
  }
}

export class Suppressions extends Resource {
  list(params: QueryOf<'/v1/emails/suppressions', 'get'> = {}, options?: RequestOptions): PagePromise<Suppression> {
    return this.paginate('/v1/emails/suppressions', {}, params, options);
  }

  delete(address: string, options?: RequestOptions): Promise<ResponseOf<'/v1/emails/suppressions/{address}', 'delete'>> {
    return this.call({ method: 'DELETE', path: '/v1/emails/suppressions/{address}', pathParams: { address }, options });
  }
}
