import type { RequestOptions } from '../core.js';
import type { PagePromise } from '../pagination.js';
import type { Deleted, Profile, ProfileCreateParams, ProfileUpdateParams, ProfileUse, QueryOf, StorageState } from '../types.js';
import { Resource } from './resource.js';

/**
 * Saved logins (docs/api.md, Profiles): browser states runs start with, sealed by the daemon. A state goes in (an
 * import, a run, a person on the live view) and never comes out: the API answers which sites it holds and its health.
 */
export class Profiles extends Resource {
  /** An empty profile (a run with `profile` or `save_profile`, or a person, fills it), or one with `state` imported. */
  create(params: ProfileCreateParams, options?: RequestOptions): Promise<Profile> {
    return this.call({ method: 'POST', path: '/v1/profiles', body: params, options });
  }

  /** A Playwright storage state (what `context.storageState()` writes) imported as a new profile named `name`. */
  import(name: string, state: StorageState, params: Omit<ProfileCreateParams, 'name' | 'state'> = {}, options?: RequestOptions): Promise<Profile> {
    return this.create({ ...params, name, state }, options);
  }

  get(id: string, options?: RequestOptions): Promise<Profile> {
    return this.call({ method: 'GET', path: '/v1/profiles/{id}', pathParams: { id }, options });
  }

  /** Renames it, changes its check or expiry, or replaces its state. */
  update(id: string, params: ProfileUpdateParams, options?: RequestOptions): Promise<Profile> {
    return this.call({ method: 'PATCH', path: '/v1/profiles/{id}', pathParams: { id }, body: params, options });
  }

  /** Deletes it and every sealed copy of its state. */
  delete(id: string, options?: RequestOptions): Promise<Deleted<'/v1/profiles/{id}'>> {
    return this.call({ method: 'DELETE', path: '/v1/profiles/{id}', pathParams: { id }, options });
  }

  list(params: QueryOf<'/v1/profiles', 'get'> = {}, options?: RequestOptions): PagePromise<Profile> {
    return this.paginate('/v1/profiles', {}, params, options);
  }

  /** Checks now whether it is signed in (its check's page, in a sandbox of its own); the profile with what was seen. */
  check(id: string, options?: RequestOptions): Promise<Profile> {
    return this.call({ method: 'POST', path: '/v1/profiles/{id}/check', pathParams: { id }, idempotent: true, options });
  }

  /** The runs that used it, newest first, and whether each saved it. */
  runs(id: string, params: QueryOf<'/v1/profiles/{id}/runs', 'get'> = {}, options?: RequestOptions): PagePromise<ProfileUse> {
    return this.paginate('/v1/profiles/{id}/runs', { id }, params, options);
  }
}
