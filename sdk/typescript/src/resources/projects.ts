import type { RequestOptions } from '../core.js';
import type { PagePromise } from '../pagination.js';
import type { Deleted, Project, ProjectCreateParams, ProjectUpdateParams, QueryOf } from '../types.js';
import { Resource } from './resource.js';

export class Projects extends Resource {
  create(params: ProjectCreateParams, options?: RequestOptions): Promise<Project> {
    return this.call({ method: 'POST', path: '/v1/projects', body: params, options });
  }

  get(id: string, options?: RequestOptions): Promise<Project> {
    return this.call({ method: 'GET', path: '/v1/projects/{id}', pathParams: { id }, options });
  }

  update(id: string, params: ProjectUpdateParams, options?: RequestOptions): Promise<Project> {
    return this.call({ method: 'PATCH', path: '/v1/projects/{id}', pathParams: { id }, body: params, options });
  }

  delete(id: string, options?: RequestOptions): Promise<Deleted<'/v1/projects/{id}'>> {
    return this.call({ method: 'DELETE', path: '/v1/projects/{id}', pathParams: { id }, options });
  }

  list(params: QueryOf<'/v1/projects', 'get'> = {}, options?: RequestOptions): PagePromise<Project> {
    return this.paginate('/v1/projects', {}, params, options);
  }
}
