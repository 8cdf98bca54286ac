import { OAuthServerError } from '../../errors.js';

/**
 * The parameters of an OAuth request (a query string or a form body). RFC 6749 §3.1 and §3.2: a parameter sent
 * more than once makes the request invalid, and an empty value is the same as none.
 */
export class OAuthParams {
  constructor(private readonly search: URLSearchParams) {}

  /** The parameter's value, undefined when absent or empty; throws invalid_request when it is repeated. */
  get(name: string): string | undefined {
    const all = this.search.getAll(name);
    if (all.length > 1) throw new OAuthServerError('invalid_request', `The parameter ${name} is repeated`);
    return all[0] === '' ? undefined : all[0];
  }

  require(name: string): string {
    const value = this.get(name);
    if (value === undefined) throw new OAuthServerError('invalid_request', `The parameter ${name} is missing`);
    return value;
  }
}
