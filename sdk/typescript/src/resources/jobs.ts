import type { RequestOptions } from '../core.js';
import type { PagePromise } from '../pagination.js';
import type { Deleted, Job, JobCreateParams, JobListParams, JobUpdateParams, QueryOf, Recipe, RecipeDeleted, SkippedFiring } from '../types.js';
import { Resource } from './resource.js';

/** Jobs; their runs are started with `runs.create({ job_id, ... })`. */
export class Jobs extends Resource {
  create(params: JobCreateParams, options?: RequestOptions): Promise<Job> {
    return this.call({ method: 'POST', path: '/v1/jobs', body: params, options });
  }

  get(id: string, options?: RequestOptions): Promise<Job> {
    return this.call({ method: 'GET', path: '/v1/jobs/{id}', pathParams: { id }, options });
  }

  update(id: string, params: JobUpdateParams, options?: RequestOptions): Promise<Job> {
    return this.call({ method: 'PATCH', path: '/v1/jobs/{id}', pathParams: { id }, body: params, options });
  }

  delete(id: string, options?: RequestOptions): Promise<Deleted<'/v1/jobs/{id}'>> {
    return this.call({ method: 'DELETE', path: '/v1/jobs/{id}', pathParams: { id }, options });
  }

  list(params: JobListParams = {}, options?: RequestOptions): PagePromise<Job> {
    return this.paginate('/v1/jobs', {}, params, options);
  }

  /** The newest version of the job's recipe, which its runs with `replay: "auto"` replay without the model. */
  recipe(id: string, options?: RequestOptions): Promise<Recipe> {
    return this.call({ method: 'GET', path: '/v1/jobs/{id}/recipe', pathParams: { id }, options });
  }

  /** Deletes every version of the job's recipe: its next run is the agent's, and records version 1. */
  deleteRecipe(id: string, options?: RequestOptions): Promise<RecipeDeleted> {
    return this.call({ method: 'DELETE', path: '/v1/jobs/{id}/recipe', pathParams: { id }, options });
  }

  /** Firings of the job's schedule that started no run, and why. */
  skippedFirings(id: string, params: QueryOf<'/v1/jobs/{id}/skipped_firings', 'get'> = {}, options?: RequestOptions): PagePromise<SkippedFiring> {
    return this.paginate('/v1/jobs/{id}/skipped_firings', { id }, params, options);
  }
}
