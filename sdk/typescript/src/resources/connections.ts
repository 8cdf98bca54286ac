import type { RequestOptions } from '../core.js';
import type { PagePromise } from '../pagination.js';
import type { ConnectLink, ConnectLinkParams, Connection, ConnectionCheck, ConnectionCreateParams, ConnectionTools, ConnectionUpdateParams, Deleted, QueryOf, ResponseOf } from '../types.js';
import { Resource } from './resource.js';

/** What runs may use: tokens, logins, MCP servers, OAuth connections (docs/api.md, Connections). */
export class Connections extends Resource {
  create(params: ConnectionCreateParams, options?: RequestOptions): Promise<Connection> {
    return this.call({ method: 'POST', path: '/v1/connections', body: params, options });
  }

  get(id: string, options?: RequestOptions): Promise<Connection> {
    return this.call({ method: 'GET', path: '/v1/connections/{id}', pathParams: { id }, options });
  }

  update(id: string, params: ConnectionUpdateParams, options?: RequestOptions): Promise<Connection> {
    return this.call({ method: 'PATCH', path: '/v1/connections/{id}', pathParams: { id }, body: params, options });
  }

  delete(id: string, options?: RequestOptions): Promise<Deleted<'/v1/connections/{id}'>> {
    return this.call({ method: 'DELETE', path: '/v1/connections/{id}', pathParams: { id }, options });
  }

  list(params: QueryOf<'/v1/connections', 'get'> = {}, options?: RequestOptions): PagePromise<Connection> {
    return this.paginate('/v1/connections', {}, params, options);
  }

  /** Connects now and reports what it showed (and records it on the connection). */
  check(id: string, options?: RequestOptions): Promise<ConnectionCheck> {
    return this.call({ method: 'POST', path: '/v1/connections/{id}/check', pathParams: { id }, idempotent: true, options });
  }

  /** An MCP connection's tools, as runs are offered them. */
  tools(id: string, options?: RequestOptions): Promise<ConnectionTools> {
    return this.call({ method: 'GET', path: '/v1/connections/{id}/tools', pathParams: { id }, options });
  }

  /** A hosted connect link: a person opens it to connect an OAuth provider. */
  createLink(params: ConnectLinkParams, options?: RequestOptions): Promise<ResponseOf<'/v1/connections/links', 'post'>> {
    return this.call({ method: 'POST', path: '/v1/connections/links', body: params, options });
  }

  getLink(id: string, options?: RequestOptions): Promise<ConnectLink> {
    return this.call({ method: 'GET', path: '/v1/connections/links/{id}', pathParams: { id }, options });
  }
}
