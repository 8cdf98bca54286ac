import type { Call, HttpClient, RequestOptions } from '../core.js';
import { PagePromise, type ListEnvelope } from '../pagination.js';

/** What every resource shares: the client, and lists that page by `cursor`. */
export abstract class Resource {
  protected readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  protected paginate<T>(path: string, pathParams: Record<string, string>, query: object | undefined, options: RequestOptions | undefined): PagePromise<T> {
    return new PagePromise<T>((cursor) =>
      this.http.request<ListEnvelope<T>>({ method: 'GET', path, pathParams, query: { ...query, ...(cursor ? { cursor } : {}) }, options }),
    );
  }

  protected call<T>(call: Call): Promise<T> {
    return this.http.request<T>(call);
  }
}
