import { randomUUID } from 'node:crypto';
import type { RequestOptions } from '../core.js';
import type { PagePromise } from '../pagination.js';
import type { Deleted, Inbox, InboxCreateParams, InboxMessageParams, InboxMessageSent, InboxUpdateParams, QueryOf } from '../types.js';
import { Resource } from './resource.js';

/** Mailboxes of their own under the organisation's identity. */
export class Inboxes extends Resource {
  create(params: InboxCreateParams = {}, options?: RequestOptions): Promise<Inbox> {
    return this.call({ method: 'POST', path: '/v1/inboxes', body: params, options });
  }

  get(id: string, options?: RequestOptions): Promise<Inbox> {
    return this.call({ method: 'GET', path: '/v1/inboxes/{id}', pathParams: { id }, options });
  }

  update(id: string, params: InboxUpdateParams, options?: RequestOptions): Promise<Inbox> {
    return this.call({ method: 'PATCH', path: '/v1/inboxes/{id}', pathParams: { id }, body: params, options });
  }

  delete(id: string, options?: RequestOptions): Promise<Deleted<'/v1/inboxes/{id}'>> {
    return this.call({ method: 'DELETE', path: '/v1/inboxes/{id}', pathParams: { id }, options });
  }

  list(params: QueryOf<'/v1/inboxes', 'get'> = {}, options?: RequestOptions): PagePromise<Inbox> {
    return this.paginate('/v1/inboxes', {}, params, options);
  }

  /** Sends from the inbox. Without a `client_id` the SDK makes one, so that a retry never sends twice. */
  send(id: string, params: InboxMessageParams, options?: RequestOptions): Promise<InboxMessageSent> {
    return this.call({ method: 'POST', path: '/v1/inboxes/{id}/messages', pathParams: { id }, body: { ...params, client_id: params.client_id ?? randomUUID() }, idempotent: true, options });
  }
}
